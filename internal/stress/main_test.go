package main

import (
	"strings"
	"testing"
)

// stream is go test -json output: TestA passes, TestB/sub fails (and so
// TestB), package q does not build.
const stream = `{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"run","Package":"p","Test":"TestB"}
{"Action":"run","Package":"p","Test":"TestB/sub"}
{"Action":"output","Package":"p","Test":"TestB/sub","Output":"    b_test.go:9: 8 pages in 1.3s\n"}
{"Action":"fail","Package":"p","Test":"TestB/sub"}
{"Action":"fail","Package":"p","Test":"TestB"}
{"Action":"output","Package":"p","Output":"FAIL\n"}
{"Action":"fail","Package":"p"}
{"Action":"output","Package":"q","Output":"# q\nq.go:3:1: syntax error\n"}
{"Action":"fail","Package":"q"}
`

func TestReport(t *testing.T) {
	bad, err := read(strings.NewReader("not json\n" + stream))
	if err != nil {
		t.Fatal(err)
	}
	bad.round = 2
	good, err := read(strings.NewReader(`{"Action":"pass","Package":"p","Test":"TestB/sub"}` + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	good.round = 1
	if bad.passed != 1 || good.passed != 1 {
		t.Errorf("passed %d, %d; want 1, 1", bad.passed, good.passed)
	}
	var b strings.Builder
	if !report(&b, []*run{good, bad}) {
		t.Error("report says nothing failed")
	}
	want := `stress: 2 tests or packages failed at least once in 2 rounds:
  p TestB/sub in 1 of 2 rounds
  q (the package) in 1 of 2 rounds

=== p TestB/sub, round 2
    b_test.go:9: 8 pages in 1.3s

=== q (the package), round 2
# q
q.go:3:1: syntax error
`
	if b.String() != want {
		t.Errorf("report:\n%s\nwant:\n%s", b.String(), want)
	}

	b.Reset()
	if report(&b, []*run{good}) || b.String() != "stress: no test failed in 1 rounds\n" {
		t.Errorf("clean run: %q", b.String())
	}
}

func TestReadBadJSON(t *testing.T) {
	if _, err := read(strings.NewReader(`{"Action":` + "\n")); err == nil {
		t.Error("a broken line read without error")
	}
}
