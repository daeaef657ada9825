package rep_test

import (
	"testing"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/aipref"
	"github.com/rep-toolkit/rep/robotstxt"
)

// TestDecisionUsage checks that Decide carries robots.txt's usage verdict
// for the URL: the longest Content-Usage path, none where crawling is
// disallowed, and nil for a file that states no usage preference.
func TestDecisionUsage(t *testing.T) {
	a, err := rep.NewAgent("examplebot", rep.AgentOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f := robotstxt.Parse([]byte("User-agent: *\nContent-Usage: train-ai=y\nContent-Usage: /news/ train-ai=n\nDisallow: /news/private/\n"))
	for _, c := range []struct {
		url   string
		train aipref.Pref
		line  int
	}{
		{"https://example.com/", aipref.Allowed, 2},
		{"https://example.com/news/a", aipref.Disallowed, 3},
		{"https://example.com/news/private/a", aipref.Unknown, 0},
	} {
		d := a.Decide(f, c.url)
		if d.Usage == nil {
			t.Fatalf("%s: no usage verdict", c.url)
		}
		line := 0
		if ev := d.Usage.Deciding(aipref.TrainAI); len(ev) > 0 {
			line = ev[0].Line
		}
		if d.Usage.TrainAI != c.train || line != c.line {
			t.Errorf("%s: train-ai %s by line %d, want %s by line %d", c.url, d.Usage.TrainAI, line, c.train, c.line)
		}
		if j := d.JSON(); j.Usage != d.Usage {
			t.Errorf("%s: JSON usage %p, want %p", c.url, j.Usage, d.Usage)
		}
	}
	if d := a.Decide(robotstxt.Parse([]byte("User-agent: *\nDisallow: /x\n")), "https://example.com/"); d.Usage != nil {
		t.Errorf("usage %v for a file without usage lines, want nil", d.Usage)
	}
}
