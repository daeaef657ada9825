package rep_test

import (
	"testing"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
)

// TestGroupMemo: an Agent remembers the last file's group, and answering
// for another file, or alternating between files, never uses the wrong
// one; a check of a fetched file allocates nothing once its group is
// known, and a file without usage lines costs no usage verdict.
func TestGroupMemo(t *testing.T) {
	a, err := rep.NewAgent("Googlebot-Image", rep.AgentOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f1 := robotstxt.Parse([]byte("User-agent: googlebot\nDisallow: /x\n"))
	f2 := robotstxt.Parse([]byte("User-agent: *\nDisallow: /y\n"))
	for i := range 4 {
		if d := a.Decide(f1, "/x"); d.Allowed || d.Rule.Line != 2 || d.Group.Agent != "googlebot" {
			t.Fatalf("round %d, f1: %s", i, d)
		}
		if d := a.Decide(f2, "/y"); d.Allowed || d.Rule.Line != 2 || d.Group.Agent != "*" || d.Usage != nil {
			t.Fatalf("round %d, f2: %s", i, d)
		}
	}
	r := &robotsfetch.Robots{File: f1}
	a.DecideFetched(r, "/x")
	if n := testing.AllocsPerRun(100, func() { a.DecideFetched(r, "/x/1") }); n != 0 {
		t.Errorf("DecideFetched: %v allocations per check, want 0", n)
	}
	fu := robotstxt.Parse([]byte("User-agent: *\nContent-Usage: train-ai=n\nDisallow: /z\n"))
	if d := a.Decide(fu, "/a"); d.Usage == nil {
		t.Error("a file with Content-Usage gave no usage verdict")
	}
}
