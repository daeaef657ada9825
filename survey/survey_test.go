package survey

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/internal/testkit/corpus"
)

// TestRestriction pins the restriction classes on hand-made files.
func TestRestriction(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		agent  string
		want   Restriction
		class  Class
		group  string
		line   int
		delay  float64
		train  string
	}{
		{"star disallows all", 200, "User-agent: *\nDisallow: /\n", "GPTBot", Full, ClassRules, "*", 2, 0, "unknown"},
		{"named group disallows all", 200, "User-agent: *\nDisallow: /x\n\nUser-agent: GPTBot\nDisallow: /\n", "GPTBot", Full, ClassRules, "gptbot", 5, 0, "unknown"},
		{"named group overrides star", 200, "User-agent: *\nDisallow: /\n\nUser-agent: GPTBot\nDisallow: /private\n", "GPTBot", Partial, ClassRules, "gptbot", 0, 0, "unknown"},
		{"other crawler's group does not apply", 200, "User-agent: CCBot\nDisallow: /\n", "GPTBot", None, ClassRules, "", 0, 0, "unknown"},
		{"allow reopens a directory", 200, "User-agent: *\nDisallow: /\nAllow: /public/\n", "GPTBot", Partial, ClassRules, "*", 2, 0, "unknown"},
		{"allow / loses nothing: equal length, allow wins", 200, "User-agent: *\nDisallow: /\nAllow: /\n", "GPTBot", None, ClassRules, "*", 3, 0, "unknown"},
		{"allow shadowed by a longer disallow", 200, "User-agent: *\nDisallow: /\nAllow: /a\nDisallow: /ab\n", "GPTBot", Partial, ClassRules, "*", 2, 0, "unknown"},
		{"allow that a longer disallow closes", 200, "User-agent: *\nDisallow: /\nAllow: /a\nDisallow: /a/\nDisallow: /a\n", "GPTBot", Partial, ClassRules, "*", 2, 0, "unknown"},
		{"wildcard disallow", 200, "User-agent: *\nDisallow: /*.pdf$\n", "GPTBot", Partial, ClassRules, "*", 0, 0, "unknown"},
		{"empty disallow", 200, "User-agent: *\nDisallow:\n", "GPTBot", None, ClassRules, "*", 2, 0, "unknown"},
		// Google does not read Crawl-delay, so the GPTBot line and the *
		// line make one group: GPTBot is closed out, as Googlebot's parser
		// says. Bing reads Crawl-delay as a group member: its own group,
		// with no rule.
		{"crawl-delay-only group, google engine", 200, "User-agent: GPTBot\nCrawl-delay: 10\n\nUser-agent: *\nDisallow: /\n", "GPTBot", Full, ClassRules, "gptbot", 5, 10, "unknown"},
		{"crawl-delay-only group, bing engine", 200, "User-agent: bingbot\nCrawl-delay: 10\n\nUser-agent: *\nDisallow: /\n", "bingbot", None, ClassRules, "bingbot", 0, 10, "unknown"},
		{"crawl-delay with rules", 200, "User-agent: bingbot\nCrawl-delay: 5\nDisallow: /search\n", "bingbot", Partial, ClassRules, "bingbot", 0, 5, "unknown"},
		{"usage line", 200, "User-agent: *\nContent-Usage: train-ai=n\nAllow: /\n", "GPTBot", None, ClassRules, "*", 3, 0, "disallowed"},
		{"content-signal", 200, "Content-Signal: ai-train=no, search=yes\nUser-agent: *\nAllow: /\n", "GPTBot", None, ClassRules, "*", 3, 0, "disallowed"},
		{"Google-Extended falls to star", 200, "User-agent: Googlebot\nDisallow: /\n", "Google-Extended", None, ClassRules, "", 0, 0, "unknown"},
		{"Googlebot-Image falls back to Googlebot", 200, "User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nAllow: /\n", "Googlebot-Image", Full, ClassRules, "googlebot", 2, 0, "unknown"},
		{"AdsBot ignores star", 200, "User-agent: *\nDisallow: /\n", "AdsBot-Google", None, ClassRules, "", 0, 0, "unknown"},
		{"404 allows all", 404, "", "GPTBot", None, ClassAllowAll, "", 0, 0, "unknown"},
		{"403 allows all", 403, "User-agent: *\nDisallow: /\n", "GPTBot", None, ClassAllowAll, "", 0, 0, "unknown"},
		{"503 disallows all", 503, "", "GPTBot", Full, ClassDisallowAll, "", 0, 0, "unknown"},
		{"429 disallows all", 429, "", "GPTBot", Full, ClassDisallowAll, "", 0, 0, "unknown"},
		{"no response disallows all", 0, "", "GPTBot", Full, ClassDisallowAll, "", 0, 0, "unknown"},
		{"html page served with 200", 200, "<!doctype html><html><body>Not found</body></html>", "GPTBot", None, ClassRules, "", 0, 0, "unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows := surveyAll(t, []string{tt.agent}, func(s *Store) error {
				return s.Add(Capture{Host: "example.com", Status: tt.status, Body: []byte(tt.body)})
			})
			if len(rows) != 1 {
				t.Fatalf("%d rows, want 1", len(rows))
			}
			r := rows[0]
			if Restriction(r.Restriction) != tt.want || r.Class != tt.class.String() || r.Group != tt.group || r.Line != tt.line || r.CrawlDelay != tt.delay || r.TrainAI != tt.train {
				t.Errorf("got restriction %s class %s group %q line %d delay %g train_ai %s\nwant %s %s %q %d %g %s\nrow %+v",
					r.Restriction, r.Class, r.Group, r.Line, r.CrawlDelay, r.TrainAI, tt.want, tt.class, tt.group, tt.line, tt.delay, tt.train, r)
			}
		})
	}
}

// TestRedirects follows redirects between captures.
func TestRedirects(t *testing.T) {
	t0 := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	body := []byte("User-agent: *\nDisallow: /\n")
	caps := []Capture{
		{Host: "a.test", URL: "http://a.test/robots.txt", Time: t0, Status: 301, Location: "https://www.a.test/robots.txt"},
		{Host: "www.a.test", URL: "https://www.a.test/robots.txt", Time: t0, Status: 200, Body: body},
		{Host: "b.test", URL: "http://b.test/robots.txt", Time: t0, Status: 302, Location: "https://elsewhere.test/robots.txt"},
		{Host: "c.test", URL: "http://c.test/robots.txt", Time: t0, Status: 301},
		{Host: "d.test", URL: "http://d.test/robots.txt", Time: t0, Status: 301, Location: "/robots.txt?1"},
	}
	for i := 1; i <= 5; i++ {
		caps = append(caps, Capture{Host: "d.test", URL: "http://d.test/robots.txt?" + itoa(i), Time: t0, Status: 301, Location: "/robots.txt?" + itoa(i+1)})
	}
	caps = append(caps, Capture{Host: "d.test", URL: "http://d.test/robots.txt?6", Time: t0, Status: 200, Body: body})
	rows := surveyAll(t, []string{"GPTBot"}, func(s *Store) error {
		for _, c := range caps {
			if err := s.Add(c); err != nil {
				return err
			}
		}
		return nil
	})
	want := map[string]string{
		"a.test":     "200 1 success rules full",
		"www.a.test": "200 0 success rules full",
		"b.test":     "302 1 not-captured missing unknown",
		"c.test":     "301 0 bad-redirect allow-all none",
		"d.test":     "301 5 too-many-redirects allow-all none",
	}
	for _, r := range rows[:5] {
		got := strings.Join([]string{itoa(r.Status), itoa(r.Redirects), r.Case, r.Class, r.Restriction}, " ")
		if got != want[r.Host] {
			t.Errorf("%s: %s, want %s", r.Host, got, want[r.Host])
		}
		if r.Month != "2025-01" {
			t.Errorf("%s: month %q", r.Host, r.Month)
		}
	}
}

// corpusCaptures turns the corpus into captures with a mix of statuses
// and redirects: every 7th host answers with a 301 to its https
// robots.txt, which is captured; synthetic hosts add 404, 403, 503, 429,
// a redirect to nowhere and a chain of six redirects.
func corpusCaptures(t testing.TB) (dir string, caps []Capture) {
	dir = corpus.Path(t, "robots")
	files := corpus.Robots(t)
	hosts := make([]string, 0, len(files))
	for h := range files {
		hosts = append(hosts, h)
	}
	sort.Strings(hosts)
	t0 := time.Date(2025, 1, 15, 0, 0, 0, 0, time.UTC)
	for i, h := range hosts {
		ts := t0.Add(time.Duration(i) * time.Minute)
		if i%7 == 0 {
			caps = append(caps, Capture{Host: h, URL: "http://" + h + "/robots.txt", Time: ts, Status: 301, Location: "https://" + h + "/robots.txt"})
			caps = append(caps, Capture{Host: h, URL: "https://" + h + "/robots.txt", Time: ts.Add(time.Second), Status: 200, Body: files[h]})
			continue
		}
		caps = append(caps, Capture{Host: h, URL: "https://" + h + "/robots.txt", Time: ts, Status: 200, Body: files[h]})
	}
	for _, s := range []int{404, 403, 503, 429} {
		h := "status-" + itoa(s) + ".test"
		caps = append(caps, Capture{Host: h, URL: "https://" + h + "/robots.txt", Time: t0, Status: s, Body: []byte("User-agent: *\nDisallow: /\n")})
	}
	caps = append(caps, Capture{Host: "nowhere.test", URL: "https://nowhere.test/robots.txt", Time: t0, Status: 302, Location: "https://gone.test/robots.txt"})
	for i := 0; i < 6; i++ {
		caps = append(caps, Capture{Host: "loop.test", URL: "https://loop.test/robots.txt?" + itoa(i), Time: t0, Status: 302, Location: "/robots.txt?" + itoa(i+1)})
	}
	caps[len(caps)-6].URL = "https://loop.test/robots.txt"
	return dir, caps
}

// TestCorpusFormatsAgree surveys the corpus as a directory, as JSONL, as
// CSV, as TSV and as a WARC (plain and gzip): the verdicts are the same.
func TestCorpusFormatsAgree(t *testing.T) {
	dir, caps := corpusCaptures(t)
	agents := []string{"GPTBot", "Googlebot-Image", "bingbot", "AdsBot-Google"} // each way of choosing a group, each engine
	tmp := t.TempDir()
	var jl, warc, warcgz, csvb, tsvb bytes.Buffer
	writeJSONL(t, &jl, caps)
	writeWARC(t, &warc, caps, false)
	writeWARC(t, &warcgz, caps, true)
	writeTable(t, &csvb, caps, ',')
	writeTable(t, &tsvb, caps, '\t')
	inputs := map[string][]byte{"c.jsonl": jl.Bytes(), "c.warc": warc.Bytes(), "c.warc.gz": warcgz.Bytes(), "c.csv": csvb.Bytes(), "c.tsv": tsvb.Bytes()}
	byInput := map[string][]Row{}
	for name, b := range inputs {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		byInput[name] = surveyAll(t, agents, func(s *Store) error { return Load(s, []string{p}, "", nil, nil) })
	}
	dirRows := surveyAll(t, agents, func(s *Store) error { return Load(s, []string{dir}, "", nil, nil) })

	// Every format of the same captures gives the same rows, field for field.
	ref := byInput["c.jsonl"]
	if len(ref) == 0 {
		t.Fatal("no rows")
	}
	for name, rows := range byInput {
		if len(rows) != len(ref) {
			t.Errorf("%s: %d rows, jsonl %d", name, len(rows), len(ref))
			continue
		}
		for i := range rows {
			if rows[i] != ref[i] {
				t.Errorf("%s row %d:\n%+v\njsonl:\n%+v", name, i, rows[i], ref[i])
				break
			}
		}
	}
	// The directory (every file a 200) gives the verdicts of the corpus
	// hosts, redirected or not.
	dk := keys(dirRows, verdictKey)
	var corpusRows []Row
	for _, r := range ref {
		if !strings.HasSuffix(r.Host, ".test") {
			corpusRows = append(corpusRows, r)
		}
	}
	jk := keys(corpusRows, verdictKey)
	if strings.Join(dk, "\n") != strings.Join(jk, "\n") {
		t.Errorf("directory and JSONL verdicts differ: %d vs %d distinct rows", len(dk), len(jk))
		for i := range min(len(dk), len(jk)) {
			if dk[i] != jk[i] {
				t.Errorf("first difference:\n dir   %s\n jsonl %s", dk[i], jk[i])
				break
			}
		}
	}
	if len(dirRows) == 0 || len(dirRows)%1613 != 0 {
		t.Errorf("%d directory rows: not a multiple of the corpus's 1,613 hosts", len(dirRows))
	}
	// The synthetic hosts have the classes of their statuses.
	want := map[string]string{"status-404.test": "allow-all none", "status-403.test": "allow-all none",
		"status-503.test": "disallow-all full", "status-429.test": "disallow-all full",
		"nowhere.test": "missing unknown", "loop.test": "allow-all none"}
	for _, r := range ref {
		if w, ok := want[r.Host]; ok && r.URL != "https://loop.test/robots.txt?1" && !strings.Contains(r.URL, "?") {
			if got := r.Class + " " + r.Restriction; got != w {
				t.Errorf("%s %s: %s, want %s", r.Host, r.Crawler, got, w)
			}
		}
	}
}

func writeTable(t testing.TB, w *bytes.Buffer, caps []Capture, sep byte) {
	t.Helper()
	if sep == ',' {
		// encoding/csv drops a CR before an LF even in a quoted field:
		// exact bodies go as base64.
		w.WriteString("url,fetch_time,status,location,body_base64\n")
		for _, c := range caps {
			w.WriteString(c.URL + "," + c.Time.Format(time.RFC3339) + "," + itoa(c.Status) + "," + c.Location + "," + base64.StdEncoding.EncodeToString(c.Body) + "\n")
		}
		return
	}
	w.WriteString("url\tfetch_time\tstatus\tlocation\tbody\n")
	for _, c := range caps {
		w.WriteString(c.URL + "\t" + c.Time.Format(time.RFC3339) + "\t" + itoa(c.Status) + "\t" + c.Location + "\t" + EscapeTSV(string(c.Body)) + "\n")
	}
}

// TestParseClass: every class reads back from its name; an unknown name
// is an error that lists the valid ones (filter's rows say it so).
func TestParseClass(t *testing.T) {
	for _, c := range []Class{ClassRules, ClassAllowAll, ClassDisallowAll, ClassMissing} {
		if got, err := ParseClass(c.String()); err != nil || got != c {
			t.Errorf("ParseClass(%q) = %v, %v", c.String(), got, err)
		}
	}
	_, err := ParseClass("use-rules")
	if err == nil || err.Error() != `unknown class "use-rules": use rules, allow-all, disallow-all or missing` {
		t.Errorf("ParseClass(use-rules): %v", err)
	}
}
