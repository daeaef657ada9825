package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestRatioRows checks the ratio table on two runs: medians, and the
// per-run range that pairs the i-th run of rep with the i-th of the peer.
func TestRatioRows(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{filepath.Join("testdata", "two-runs.txt")}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, want := range []string{
		// Parse: runs 150/100 and 200/80; medians 175 and 90.
		"| parse (corpus) | 175.0 MB/s | slyrz 90.0 MB/s | 1.94× | 1.5–2.5× | ≥ 2× | **no** |",
		// Full URL: runs 600/100 and 700/200.
		"| check typical | 150 ns | slyrz 650 ns | 4.3× | 3.5–6.0× | ≥ 5× | **no** |",
		// Path given: rep-path has a third value, slyrz two: no pairing.
		"| check typical, path given to both | 95 ns | slyrz 650 ns | 6.8× | – | ≥ 5× | yes |",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing row\n%s\nin\n%s", want, out.String())
		}
	}
}

func TestPerRun(t *testing.T) {
	res := results{
		"a": {"ns/op": {100, 200, 50}},
		"b": {"ns/op": {300, 300, 300}},
		"c": {"ns/op": {1}},
		"d": {"ns/op": {2}},
	}
	slower := func(r, p float64) float64 { return p / r }
	for _, tc := range []struct{ rep, peer, want string }{
		{"a", "b", "1.5–6.0×"},
		{"a", "c", "–"}, // different numbers of runs
		{"c", "d", "–"}, // one run: no range
		{"a", "missing", "–"},
	} {
		if got := res.perRun(tc.rep, tc.peer, "ns/op", slower); got != tc.want {
			t.Errorf("perRun(%s, %s) = %q, want %q", tc.rep, tc.peer, got, tc.want)
		}
	}
}
