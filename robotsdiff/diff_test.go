package robotsdiff

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/verdict"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/pairs")

// describe renders a diff as the lines the pair tables expect: the
// meaning, then per crawler its group, rules, delay, usage statements and
// every flip (kind, URL, witness or given, deciding line before → after),
// then sitemaps and fetch changes.
func describe(d *Diff) string {
	var b strings.Builder
	if d.Changed() {
		b.WriteString("meaning changed\n")
	} else {
		b.WriteString("meaning none\n")
	}
	if d.Fetch != nil {
		for _, w := range d.Fetch.What {
			fmt.Fprintf(&b, "fetch %s\n", w)
		}
	}
	for _, s := range d.Sitemaps {
		if s.Added {
			fmt.Fprintf(&b, "sitemap added %s line %d\n", s.URL, s.Line)
		} else {
			fmt.Fprintf(&b, "sitemap removed %s line %d\n", s.URL, s.Line)
		}
	}
	for _, c := range d.Crawlers {
		n := c.Agent.Name
		if !c.Changed() {
			fmt.Fprintf(&b, "%s unchanged\n", n)
			continue
		}
		if c.GroupChanged() {
			fmt.Fprintf(&b, "%s group %s -> %s\n", n, groupText(c.Before), groupText(c.After))
		}
		for _, r := range c.Removed {
			fmt.Fprintf(&b, "%s removed %s line %d\n", n, r, r.Line)
		}
		for _, r := range c.Added {
			fmt.Fprintf(&b, "%s added %s line %d\n", n, r, r.Line)
		}
		if dl := c.Delay; dl != nil {
			fmt.Fprintf(&b, "%s delay %s -> %s\n", n, delayText(dl.Before), delayText(dl.After))
		}
		for _, u := range c.Usage {
			word := "removed"
			if u.Added {
				word = "added"
			}
			fmt.Fprintf(&b, "%s usage %s %s line %d\n", n, word, u.Text, u.Line)
		}
		for _, f := range c.Flips {
			src := "given"
			if f.Witness {
				src = "witness"
			}
			if f.Crawl() {
				fmt.Fprintf(&b, "%s %s %s %s line %d -> %d\n", n, flipWord(f), f.URL, src, f.Before.Rule.Line, f.After.Rule.Line)
			} else {
				fmt.Fprintf(&b, "%s usage %s %s %s\n", n, f.URL, src, usageText(f))
			}
		}
	}
	return b.String()
}

// TestPairs runs testdata/pairs/*.txtar: an old and a new robots.txt, the
// crawlers to compare (the comment's "agents:" line), optional URLs
// (urls.txt), and the changes expected (want, see describe).
func TestPairs(t *testing.T) {
	files, _ := filepath.Glob("testdata/pairs/*.txtar")
	if len(files) < 7 {
		t.Fatalf("%d pair files, want at least 7", len(files))
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			sec := map[string][]byte{}
			for _, f := range ar.Files {
				sec[f.Name] = f.Data
			}
			var agents []*rep.Agent
			for _, l := range strings.Split(string(ar.Comment), "\n") {
				if rest, ok := strings.CutPrefix(l, "agents: "); ok {
					for _, n := range strings.Split(rest, ",") {
						a, err := rep.NewAgent(strings.TrimSpace(n), rep.AgentOptions{})
						if err != nil {
							t.Fatal(err)
						}
						agents = append(agents, a)
					}
				}
			}
			if len(agents) == 0 {
				t.Fatal("no agents: line in the comment")
			}
			urls := strings.Fields(string(sec["urls.txt"]))
			d := Compare(Version{Name: "old.txt", Body: sec["old.txt"]}, Version{Name: "new.txt", Body: sec["new.txt"]}, Options{Agents: agents, URLs: urls})
			got := describe(d)
			if *update {
				for i := range ar.Files {
					if ar.Files[i].Name == "want" {
						ar.Files[i].Data = []byte(got)
					}
				}
				if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if want := string(sec["want"]); got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
			// The reverse diff flips the same URLs the other way.
			r := Compare(Version{Name: "new.txt", Body: sec["new.txt"]}, Version{Name: "old.txt", Body: sec["old.txt"]}, Options{Agents: agents, URLs: urls})
			b, u, o := d.Flips()
			rb, ru, ro := r.Flips()
			if b != ru || u != rb || o != ro || r.Changed() != d.Changed() {
				t.Errorf("reverse: %d/%d/%d flips, want %d/%d/%d", rb, ru, ro, u, b, o)
			}
		})
	}
}

// TestWitnesses pins the witness paths of one pattern of each shape.
func TestWitnesses(t *testing.T) {
	for _, c := range []struct{ pattern, want string }{
		{"/search", "/search /search-x /search/ /searc /"},
		{"/private/", "/private/ /private/x /private /"},
		{"/*.pdf$", "/.pdf /x.pdf /x.pdf-x /x.pdf/"},
		{"/a*b*c", "/abc /axbxc /axbxc-x /axbxc/ /"},
		{"*.php", "/.php /x.php /x.php-x /x.php/"},
		{"/", "/ /x"},
		{"/caf\u00e9", "/caf%C3%A9 /caf%C3%A9-x /caf%C3%A9/ /caf%C3 /"},
		{"", ""},
	} {
		if got := strings.Join(Witnesses(c.pattern), " "); got != c.want {
			t.Errorf("Witnesses(%q) = %q, want %q", c.pattern, got, c.want)
		}
	}
}

func outcome(status int, c robotsfetch.Case, v robotsfetch.Class) *robotsfetch.Outcome {
	return &robotsfetch.Outcome{Origin: "https://example.com", URL: "https://example.com/robots.txt", Status: status, Case: c, Verdict: v}
}

// TestFetchChange: a fetched file turning into a 503, a 404, an HTML page,
// or a redirect, read as RFC 9309 §2.3.1 says.
func TestFetchChange(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /private/\n")
	ok := outcome(200, robotsfetch.Success, robotsfetch.UseRules)
	googlebot, _ := rep.NewAgent("Googlebot", rep.AgentOptions{})
	agents := []*rep.Agent{googlebot}
	old := Version{Name: "before", Body: body, Fetch: ok}

	down := outcome(503, robotsfetch.Unreachable, robotsfetch.DisallowAll)
	d := Compare(old, Version{Name: "after", Fetch: down}, Options{Agents: agents})
	c := d.Crawlers[0]
	if d.Fetch == nil || !strings.Contains(strings.Join(d.Fetch.What, ";"), "status 200 → 503") {
		t.Fatalf("fetch change %+v", d.Fetch)
	}
	if c.Blocked == 0 || c.Unblocked != 0 || !c.Flips[0].After.FromFetch() {
		t.Errorf("503: %d blocked, %d unblocked, flips %+v", c.Blocked, c.Unblocked, c.Flips)
	}

	gone := outcome(404, robotsfetch.Unavailable, robotsfetch.AllowAll)
	d = Compare(old, Version{Name: "after", Fetch: gone}, Options{Agents: agents})
	if c := d.Crawlers[0]; c.Unblocked == 0 || c.Blocked != 0 {
		t.Errorf("404: %d blocked, %d unblocked", c.Blocked, c.Unblocked)
	}

	html := outcome(200, robotsfetch.Success, robotsfetch.UseRules)
	html.Warnings = []robotsfetch.Warning{robotsfetch.WarnHTML}
	d = Compare(old, Version{Name: "after", Body: []byte("<!doctype html><html><body>Sign in</body></html>"), Fetch: html}, Options{Agents: agents})
	if d.Fetch == nil || !strings.Contains(strings.Join(d.Fetch.What, ";"), "HTML page") || d.Crawlers[0].Unblocked == 0 {
		t.Errorf("HTML: fetch %+v, crawler %+v", d.Fetch, d.Crawlers[0])
	}

	moved := outcome(200, robotsfetch.Success, robotsfetch.UseRules)
	moved.Redirects = []string{"https://cdn.example.net/robots.txt"}
	moved.FinalURL = "https://cdn.example.net/robots.txt"
	d = Compare(old, Version{Name: "after", Body: body, Fetch: moved}, Options{Agents: agents})
	if d.Fetch == nil || !strings.Contains(d.Fetch.What[0], "now redirected") || d.Crawlers[0].Changed() {
		t.Errorf("redirect: fetch %+v, crawler changed %v", d.Fetch, d.Crawlers[0].Changed())
	}

	// The same answer twice: nothing changed.
	if d := Compare(old, old, Options{Agents: agents}); d.Changed() || d.Fetch != nil {
		t.Errorf("same fetch: changed %v, fetch %+v", d.Changed(), d.Fetch)
	}
}

// TestGivenURLs: URLs given are decided beside the witnesses and marked
// as given; absolute URLs work as paths do.
func TestGivenURLs(t *testing.T) {
	googlebot, _ := rep.NewAgent("Googlebot", rep.AgentOptions{})
	d := Compare(Version{Name: "a", Body: []byte("User-agent: *\nDisallow: /x/\n")},
		Version{Name: "b", Body: []byte("User-agent: *\nDisallow: /x/\nDisallow: /*?sort=\n")},
		Options{Agents: []*rep.Agent{googlebot}, URLs: []string{"https://example.com/shop?sort=price", "/shop", "/x/y"}})
	c := d.Crawlers[0]
	var given []string
	for _, f := range c.Flips {
		if !f.Witness {
			given = append(given, f.URL)
		}
	}
	if strings.Join(given, " ") != "https://example.com/shop?sort=price" {
		t.Errorf("given flips %q", given)
	}
	if c.Flips[0].After.Rule.Line != 3 {
		t.Errorf("deciding line after %d, want 3", c.Flips[0].After.Rule.Line)
	}
}

// TestMaxFlips: flips past Options.MaxFlips are counted, not kept.
func TestMaxFlips(t *testing.T) {
	a, _ := rep.NewAgent("Googlebot", rep.AgentOptions{})
	var urls []string
	for i := range 50 {
		urls = append(urls, fmt.Sprintf("/p%d", i))
	}
	d := Compare(Version{Body: []byte("")}, Version{Body: []byte("User-agent: *\nDisallow: /\n")}, Options{Agents: []*rep.Agent{a}, URLs: urls, MaxFlips: 10})
	if c := d.Crawlers[0]; len(c.Flips) != 10 || c.Blocked < 50 {
		t.Errorf("%d flips kept, %d counted", len(c.Flips), c.Blocked)
	}
	if !strings.Contains(d.Summary(), "at least 10 URLs newly disallowed") {
		t.Errorf("summary %q", d.Summary())
	}
	// Rules past MaxRules are counted, not kept.
	var old strings.Builder
	old.WriteString("User-agent: *\n")
	for i := range 30 {
		fmt.Fprintf(&old, "Disallow: /r%d/\n", i)
	}
	d = Compare(Version{Body: []byte(old.String())}, Version{Body: []byte("User-agent: *\nDisallow: /\n")}, Options{Agents: []*rep.Agent{a}, MaxRules: 5})
	if c := d.Crawlers[0]; len(c.Removed) != 5 || c.RemovedCount != 30 || c.Removed[4].Line != 6 || c.AddedCount != 1 {
		t.Errorf("%d rules kept of %d, last kept line %d", len(c.Removed), c.RemovedCount, c.Removed[len(c.Removed)-1].Line)
	}
}

// TestOutputs renders one diff in every format: the text names the
// cluster and the flip, the Markdown is a table, the JSON and SARIF parse.
func TestOutputs(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/pairs/starinherit.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var old, new []byte
	for _, f := range ar.Files {
		switch f.Name {
		case "old.txt":
			old = f.Data
		case "new.txt":
			new = f.Data
		}
	}
	d := Compare(Version{Name: "old.txt", Body: old}, Version{Name: "new.txt", Body: new}, Options{})
	var text, md, js, sarif bytes.Buffer
	if err := d.WriteText(&text, 0); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Googlebot, Googlebot-Image", "allowed    /private/ (witness): line 2: Disallow: /private/ → no rule matched", "no change in meaning for"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	if err := d.WriteMarkdown(&md, 0); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| Crawlers | URL | Before | After |") || !strings.Contains(md.String(), "`/private/` (witness)") {
		t.Errorf("markdown:\n%s", md.String())
	}
	if err := json.NewEncoder(&js).Encode(d); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Changed  bool `json:"changed"`
		Crawlers []struct {
			Agent string `json:"agent"`
			Flips []struct {
				URL    string           `json:"url"`
				Before rep.DecisionJSON `json:"before"`
			} `json:"flips"`
		} `json:"crawlers"`
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || !back.Changed || back.Crawlers[0].Agent != "Googlebot" || back.Crawlers[0].Flips[0].Before.Rule == "" {
		t.Errorf("JSON %v: %s", err, js.String())
	}
	if err := d.WriteSARIF(&sarif); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(sarif.Bytes(), &log); err != nil || log.Version != "2.1.0" || len(log.Runs[0].Results) == 0 {
		t.Errorf("SARIF %v: %s", err, sarif.String())
	}
}

// FuzzCompare: no panic on any pair; a file compared with itself never
// changes; the reverse comparison flips the same URLs the other way.
func FuzzCompare(f *testing.F) {
	for _, s := range [][2]string{
		{"User-agent: *\nDisallow: /", ""},
		{"User-agent: bingbot\nUser-agent: Googlebot\nDisallow: /private", "User-agent: bingbot\nCrawl-delay: 5\nUser-agent: Googlebot\nDisallow: /private"},
		{"User-agent: *\nDisallow: /*.pdf$\nContent-Usage: train-ai=n", "User-agent: *\nDisallow: /*.pdf\nSitemap: https://e.com/s.xml"},
		{"user-agent: adsbot-google\nallow: /a*b$\ndisallow: /\xff%zz", "User-agent: *\nContent-Signal: ai-train=no"},
	} {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	var agents []*rep.Agent
	for _, n := range []string{"Googlebot", "Googlebot-Image", "bingbot", "AdsBot-Google", "GPTBot", "*"} {
		a, _ := rep.NewAgent(n, rep.AgentOptions{})
		agents = append(agents, a)
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		if len(a) > 4096 || len(b) > 4096 {
			return
		}
		o := Options{Agents: agents, URLs: []string{"/", "/a", "/private/x"}, MaxWitnesses: 256}
		va, vb := Version{Name: "a", Body: a}, Version{Name: "b", Body: b}
		if d := Compare(va, va, o); d.Changed() {
			t.Fatalf("a file compared with itself changed: %s", describe(d))
		}
		d := Compare(va, vb, o)
		r := Compare(vb, va, o)
		b1, u1, o1 := d.Flips()
		b2, u2, o2 := r.Flips()
		if b1 != u2 || u1 != b2 || o1 != o2 {
			t.Fatalf("flips %d/%d/%d, reverse %d/%d/%d", b1, u1, o1, b2, u2, o2)
		}
		var buf bytes.Buffer
		d.WriteText(&buf, 0)
		d.WriteMarkdown(&buf, 0)
		d.WriteSARIF(&buf)
		if _, err := json.Marshal(d); err != nil {
			t.Fatal(err)
		}
	})
}

// TestDiffNotes: rep diff -json's crawler notes are those that apply to
// the crawler's group in either version, each once: bingbot's fallback to
// the msnbot group is noted while a version has no bingbot group, and
// not when both name it.
func TestDiffNotes(t *testing.T) {
	bing, err := verdict.NewAgent("bingbot", verdict.AgentOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const msn, own = "User-agent: msnbot\nDisallow: /a\n", "User-agent: bingbot\nDisallow: /a\n"
	for _, c := range []struct {
		old, new string
		fallback int // times the fallback note is given
	}{
		{msn, own, 1},
		{own, msn, 1},
		{msn, msn + "Disallow: /b\n", 1},
		{own, own + "Disallow: /b\n", 0},
	} {
		d := Compare(Version{Name: "old", Body: []byte(c.old)}, Version{Name: "new", Body: []byte(c.new)}, Options{Agents: []*verdict.Agent{bing}})
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		var j struct {
			Crawlers []struct {
				Agent string   `json:"agent"`
				Notes []string `json:"notes"`
			} `json:"crawlers"`
		}
		if err := json.Unmarshal(b, &j); err != nil || len(j.Crawlers) != 1 {
			t.Fatalf("%q -> %q: %v %s", c.old, c.new, err, b)
		}
		n := 0
		for _, note := range j.Crawlers[0].Notes {
			if strings.Contains(note, "falls back to the msnbot group") {
				n++
			}
		}
		if n != c.fallback {
			t.Errorf("%q -> %q: fallback noted %d times, want %d: %q", c.old, c.new, n, c.fallback, j.Crawlers[0].Notes)
		}
	}
}
