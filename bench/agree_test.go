package bench

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/jimsmart/grobotstxt"
	"github.com/rep-toolkit/rep/bench/harness"
	"github.com/rep-toolkit/rep/robotstxt"
)

// TestClasses checks that the size classes and query sets are those of the
// baseline note, so the figures compare like with like.
func TestClasses(t *testing.T) {
	c := loadCorpus(t)
	want := map[harness.Class][2]int{ // files, URLs
		harness.Small: {972, 14232}, harness.Typical: {564, 8914},
		harness.Large: {72, 1097}, harness.Huge: {5, 69},
	}
	if len(c.Files) != 1613 || c.Bytes != 4655436 {
		t.Errorf("corpus: %d files, %d bytes; want 1613, 4655436", len(c.Files), c.Bytes)
	}
	for _, cl := range harness.Classes {
		files, qs := classQueries(c, cl)
		if got := [2]int{len(files), len(qs)}; got != want[cl] {
			t.Errorf("class %s: %d files, %d URLs; want %v", cl, got[0], got[1], want[cl])
		}
	}
}

// TestAgreement requires rep, parsed as in the benchmarks, to give Google's
// verdict and deciding line for every query of google_answers.tsv (apart
// from /robots.txt, allowed by design), and logs the peers' figures that
// cmd/agree tabulates.
func TestAgreement(t *testing.T) {
	c := loadCorpus(t)
	answers, err := harness.Answers(c.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(answers) != 48624 {
		t.Fatalf("%d answers, want 48624", len(answers))
	}
	for _, agent := range []string{"Googlebot", harness.Agent} {
		ag, err := harness.AgreeLines(c, answers, harness.RepOptions, agent)
		if err != nil {
			t.Fatal(err)
		}
		if ag.Queries != 24312 || ag.Disagree != 0 || ag.LineDisagree != 0 {
			t.Errorf("rep/%s: %d queries, %d verdicts and %d lines differ from Google: %q",
				agent, ag.Queries, ag.Disagree, ag.LineDisagree, ag.Examples)
		}
		if testing.Short() {
			continue
		}
		for _, lib := range harness.Libs(harness.RepOptions)[1:] {
			ag, err := harness.Agree(c, answers, lib, agent)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s/%s: %d of %d verdicts differ (%.2f%%), %d files rejected",
				lib.Name, agent, ag.Disagree, ag.Queries, 100*ag.Rate(), ag.Rejected)
		}
	}
}

// TestPatho checks the adversarial inputs: they are deterministic and at
// most 500 KiB, and rep answers every URL as grobotstxt (Google's parser
// ported to Go) does.
func TestPatho(t *testing.T) {
	a, b := harness.Patho(), harness.Patho()
	if len(a) != 9 {
		t.Fatalf("%d cases, want 9", len(a))
	}
	for i, pc := range a {
		if !bytes.Equal(pc.Body, b[i].Body) || fmt.Sprint(pc.URLs) != fmt.Sprint(b[i].URLs) {
			t.Errorf("%s: not deterministic", pc.Name)
		}
		if len(pc.Body) > harness.PathoMax || len(pc.URLs) == 0 {
			t.Errorf("%s: %d bytes, %d URLs", pc.Name, len(pc.Body), len(pc.URLs))
		}
		f := robotstxt.Parse(pc.Body)
		if f.Truncated() {
			t.Errorf("%s: rep truncated the input", pc.Name)
		}
		ra := f.Matcher(harness.Agent)
		for _, u := range pc.URLs {
			got := ra.Check(u)
			want := grobotstxt.AgentAllowed(string(pc.Body), harness.Agent, u)
			if got.Allowed != want {
				t.Errorf("%s %.60s: rep allowed=%v (%s), grobotstxt %v", pc.Name, u, got.Allowed, got.Rule, want)
			}
		}
	}
}

func TestPathQuery(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://example.com/a/b?c=d", "/a/b?c=d"},
		{"https://example.com", "/"},
		{"https://example.com?x", "/?x"},
		{"https://example.com/a#frag", "/a"},
		{"http://h:8080/p;q", "/p;q"},
		{"/already/a/path", "/already/a/path"},
	} {
		if got := harness.PathQuery(tc.in); got != tc.want {
			t.Errorf("PathQuery(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestClassOf(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want harness.Class
	}{
		{0, harness.Small}, {1023, harness.Small}, {1024, harness.Typical}, {8191, harness.Typical},
		{8192, harness.Large}, {102399, harness.Large}, {102400, harness.Huge},
	} {
		if got := harness.ClassOf(tc.n); got != tc.want {
			t.Errorf("ClassOf(%d) = %s, want %s", tc.n, got, tc.want)
		}
	}
}
