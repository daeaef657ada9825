package robotstxt_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/robotstxt"
)

// TestMultiMatcherAgrees runs the peer vectors and the corpus queries with
// every index forced through the multi-pattern matcher, which the default
// threshold uses only for files with many wildcard rules, and requires the
// same verdicts and deciding lines as the per-rule matcher.
func TestMultiMatcherAgrees(t *testing.T) {
	for _, v := range loadPeerVectors(t) {
		body := v.body(t)
		want := robotstxt.Parse(body).Check(v.Agent, v.URL)
		old := robotstxt.SetMultiThreshold(-1)
		got := robotstxt.Parse(body).Check(v.Agent, v.URL)
		robotstxt.SetMultiThreshold(old)
		if got.Allowed != want.Allowed || got.Rule != want.Rule {
			t.Errorf("%s: agent %q url %q: multi %v %s, plain %v %s", v.Source, v.Agent, v.URL, got.Allowed, got.Rule, want.Allowed, want.Rule)
		}
	}
	files := readCorpus(t)
	fh, err := os.Open(filepath.Join(shared, "corpus", "urls.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	plain, multi := map[string]*robotstxt.Matcher{}, map[string]*robotstxt.Matcher{}
	for name, data := range files {
		plain[name] = robotstxt.ParseWith(data, robotstxt.Options{MaxBytes: -1}).Matcher("Googlebot")
		old := robotstxt.SetMultiThreshold(-1)
		multi[name] = robotstxt.ParseWith(data, robotstxt.Options{MaxBytes: -1}).Matcher("Googlebot")
		robotstxt.SetMultiThreshold(old)
	}
	sc := bufio.NewScanner(fh)
	n := 0
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		want, got := plain[f[0]].Check(f[2]), multi[f[0]].Check(f[2])
		if got.Allowed != want.Allowed || got.Rule != want.Rule {
			t.Errorf("%s %s: multi %v %s, plain %v %s", f[0], f[2], got.Allowed, got.Rule, want.Allowed, want.Rule)
		}
		n++
	}
	t.Logf("%d corpus queries agree", n)
}

// FuzzMatchMulti is FuzzMatch through the multi-pattern matcher.
func FuzzMatchMulti(f *testing.F) {
	for _, v := range loadPeerVectors(f) {
		if strings.HasPrefix(v.URL, "http") && len(v.Robots) < 4096 && strings.Contains(v.Robots, "*") {
			i := strings.Index(v.URL[8:], "/")
			p := "/"
			if i >= 0 {
				p = v.URL[8+i:]
			}
			f.Add(v.body(f), v.Agent, p)
		}
	}
	f.Add([]byte("User-agent: *\nDisallow: /*a*a*b$\nAllow: /aa\nDisallow: /x*y*\n"), "x", "/aaab")
	f.Add([]byte("User-agent: *\nDisallow: /*ab*$\nDisallow: /*b*a*b\nAllow: /*aba\n"), "x", "/ababab")
	f.Fuzz(func(t *testing.T, body []byte, agent, path string) {
		if len(path) == 0 || path[0] != '/' || strings.ContainsAny(path, "#") || len(path) > 300 || len(body) > 4096 {
			return
		}
		if strings.ContainsAny(agent, "/;(") {
			return
		}
		wantA, wantL := refDecide(body, agent, path)
		old := robotstxt.SetMultiThreshold(-1)
		d := robotstxt.ParseWith(body, robotstxt.Options{MaxBytes: -1}).Check(agent, "http://h"+path)
		robotstxt.SetMultiThreshold(old)
		if d.Allowed != wantA || d.Rule.Line != wantL {
			t.Fatalf("agent %q path %q: got allowed=%v line=%d (%s), reference allowed=%v line=%d\n%q",
				agent, path, d.Allowed, d.Rule.Line, d.Rule, wantA, wantL, body)
		}
	})
}

// TestMultiGivesUp: when segments occur too often for the shared pass
// (nested segments over a run of one byte), the check falls back to the
// per-rule matcher and still answers right.
func TestMultiGivesUp(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 1; i <= 300; i++ {
		b.WriteString("Disallow: /*" + strings.Repeat("a", i) + "*c\n")
	}
	b.WriteString("Disallow: /*" + strings.Repeat("a", 50) + "*b$\n")
	body := []byte(b.String())
	for _, u := range []string{"/c" + strings.Repeat("a", 1000), "/" + strings.Repeat("a", 400) + "c", "/" + strings.Repeat("a", 60) + "xb"} {
		want := robotstxt.Parse(body).Check("x", u)
		old := robotstxt.SetMultiThreshold(-1)
		got := robotstxt.Parse(body).Check("x", u)
		robotstxt.SetMultiThreshold(old)
		if got.Allowed != want.Allowed || got.Rule != want.Rule {
			t.Errorf("%.20s…: multi %v %s, plain %v %s", u, got.Allowed, got.Rule, want.Allowed, want.Rule)
		}
	}
	if d := robotstxt.Parse(body).Check("x", "/"+strings.Repeat("a", 400)+"c"); d.Allowed || d.Rule.Line != 301 {
		t.Errorf("longest matching rule must decide: %v %s line %d", d.Allowed, d.Rule, d.Rule.Line)
	}
}

// TestMultiSegmentsInOrder: through the shared matcher as through the
// per-rule one, a pattern's '*'-separated segments match in order without
// overlapping, and a '$' pattern's last segment must end the path after
// the others.
func TestMultiSegmentsInOrder(t *testing.T) {
	for _, c := range []struct {
		rule, path string
		allowed    bool
	}{
		{"/*ab*ba", "/abba", false},
		{"/*ab*ba", "/aba", true},
		{"/*ab*ba", "/baab", true},
		{"/*ab*ba*ab", "/ab-ba-ab", false},
		{"/*ab*ba*ab", "/abab-ba", true},
		{"/*a*a$", "/aa", false},
		{"/*a*a$", "/a", true},
		{"/*a*a$", "/aab", true},
	} {
		body := []byte("User-agent: *\nDisallow: " + c.rule + "\n")
		for _, th := range []int{-1, 1 << 20} {
			old := robotstxt.SetMultiThreshold(th)
			d := robotstxt.Parse(body).Check("x", c.path)
			robotstxt.SetMultiThreshold(old)
			if d.Allowed != c.allowed {
				t.Errorf("threshold %d: %s against %s: allowed %v, want %v", th, c.rule, c.path, d.Allowed, c.allowed)
			}
		}
	}
}
