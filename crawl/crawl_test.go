package crawl

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/internal/testkit"
	"github.com/rep-toolkit/rep/internal/testkit/sitegen"
	"github.com/rep-toolkit/rep/robotsfetch"
)

func TestCodesSorted(t *testing.T) {
	for i := 1; i < len(codes); i++ {
		if codes[i-1].Code >= codes[i].Code {
			t.Errorf("codes out of order: %s before %s", codes[i-1].Code, codes[i].Code)
		}
	}
	for _, c := range codes {
		if c.Title == "" || c.Doc == "" {
			t.Errorf("%s: undocumented", c.Code)
		}
	}
}

// TestPlanted crawls the planted site: exactly the planted findings, for
// Googlebot and bingbot, and nothing else.
func TestPlanted(t *testing.T) {
	srv := httptest.NewServer(sitegen.Planted())
	defer srv.Close()
	var pages []*Page
	// 5 minutes per request, not 30 s: the 50 MB sitemap is read to its
	// end, which a loaded machine running -race can take longer than 30 s
	// to do, and it must be found too large, not unreachable.
	r, err := Run(context.Background(), Config{Start: srv.URL, AllowPrivate: true, Concurrency: 4, Timeout: 5 * time.Minute,
		OnPage: func(p *Page) { pages = append(pages, p) }})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, f := range r.Findings {
		got[f.Code+" "+f.Agent+" "+f.URL] = true
		if f.Message == "" || f.Evidence == "" {
			t.Errorf("finding without message or evidence: %+v", f)
		}
	}
	want := map[string]bool{}
	for _, w := range sitegen.PlantedWant(srv.URL) {
		want[w.String()] = true
	}
	for k := range want {
		if !got[k] {
			t.Errorf("missing: %s", k)
		}
	}
	for _, f := range r.Findings {
		if !want[f.Code+" "+f.Agent+" "+f.URL] {
			t.Errorf("unexpected: %s %s %s: %s (%s)", f.Code, f.Agent, f.URL, f.Message, f.Evidence)
		}
	}
	for _, c := range codes {
		// A crawl bound is reached by TestSitemapFanOutBounded, not by a
		// site of planted faults.
		found := c.Code == CodeSitemapsTruncated
		for k := range want {
			found = found || strings.HasPrefix(k, c.Code+" ")
		}
		if !found {
			t.Errorf("code %s is not planted", c.Code)
		}
	}
	byURL := map[string]*Page{}
	for _, p := range pages {
		byURL[strings.TrimPrefix(p.URL, srv.URL)] = p
	}
	for path, want := range map[string]string{
		"/":                "indexable indexable",
		"/private/secret":  "blocked blocked",
		"/report.pdf":      "noindex noindex",
		"/googlebot-noidx": "noindex indexable",
		"/bing-only/page":  "indexable blocked",
		"/gone":            "not-ok not-ok",
		"/moved":           "not-ok not-ok",
		"/expired":         "noindex indexable", // Bing does not read unavailable_after
		"/no-rep/x":        "unknown unknown",
	} {
		p := byURL[path]
		if p == nil {
			t.Errorf("%s not crawled", path)
			continue
		}
		var states []string
		for _, v := range p.Verdicts {
			states = append(states, v.State)
		}
		if strings.Join(states, " ") != want {
			t.Errorf("%s: states %v, want %s (%+v)", path, states, want, p.Verdicts)
		}
	}
	if p := byURL["/no-rep/x"]; p != nil && !strings.Contains(p.Skipped, "Disallow: /no-rep/") {
		t.Errorf("/no-rep/x: skipped %q", p.Skipped)
	}
	if p := byURL["/report.pdf"]; p != nil && (p.ContentType != "application/pdf" || !p.InSitemap) {
		t.Errorf("/report.pdf: %+v", p)
	}
	if v := byURL["/private/secret"].Verdicts[0]; v.Robots.Rule.Line != 2 || !strings.Contains(v.Why, "noindex") {
		t.Errorf("/private/secret: %+v", v)
	}
	var urls []string
	for u := range byURL {
		urls = append(urls, u)
	}
	sort.Strings(urls)
	if len(pages) != 17 {
		t.Errorf("%d pages crawled: %v", len(pages), urls)
	}
}

func TestObey(t *testing.T) {
	srv := httptest.NewServer(sitegen.Planted())
	defer srv.Close()
	r, err := Run(context.Background(), Config{Start: srv.URL, AllowPrivate: true, Obey: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range r.Findings {
		if f.Code == CodeNoindexUnseen {
			t.Errorf("-obey fetched a disallowed page: %+v", f)
		}
	}
	if r.Skipped < 3 {
		t.Errorf("skipped %d", r.Skipped)
	}
}

// TestMaxPagesAndDelay runs in virtual time (a synctest bubble, the site
// answered in memory): the requests for pages are 5 ms apart exactly.
func TestMaxPagesAndDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		var mu sync.Mutex
		var at []time.Duration
		site := sitegen.Large(1000)
		rt := testkit.Transport{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/robots.txt" {
				mu.Lock()
				at = append(at, time.Since(start))
				mu.Unlock()
			}
			site.ServeHTTP(w, r)
		})}
		r, err := Run(context.Background(), Config{Start: "http://127.0.0.1:8080/", Transport: rt, MaxPages: 50, Delay: 5 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if r.Crawled != 50 || !r.Truncated || len(r.Findings) != 0 {
			t.Errorf("crawled %d, truncated %v, findings %v", r.Crawled, r.Truncated, r.Findings)
		}
		if len(at) < 50 {
			t.Errorf("%d requests for 50 pages", len(at))
		}
		for i := 1; i < len(at); i++ {
			if at[i]-at[i-1] != 5*time.Millisecond {
				t.Fatalf("requests at %v: want one every 5 ms", at)
			}
		}
	})
}

func TestGuard(t *testing.T) {
	srv := httptest.NewServer(sitegen.Large(10))
	defer srv.Close()
	r, err := Run(context.Background(), Config{Start: srv.URL})
	var se *SiteError
	if !errors.As(err, &se) || se.Cause != CauseRefusedAddress || !errors.Is(err, robotsfetch.ErrRefused) {
		t.Fatalf("err %v, want a SiteError with cause %s", err, CauseRefusedAddress)
	}
	if r == nil || r.Unreachable != se || r.Fetched != 0 || len(r.Findings) != 0 || len(r.Sitemaps) != 0 {
		t.Errorf("report %+v: want the cause, nothing fetched, no finding, no sitemap", r)
	}
}

func TestStartError(t *testing.T) {
	for _, s := range []string{"", "ftp://x/", "/path", "http://"} {
		if _, err := Run(context.Background(), Config{Start: s}); err == nil {
			t.Errorf("%q: no error", s)
		}
	}
}

// TestMetaHeaderConflictNamesHeader: the finding names the header that
// disagrees with the meta element, X-Robots-Tag or Robots-Tag, and a
// Robots-Tag field counts only for an engine that reads it.
func TestMetaHeaderConflictNamesHeader(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nAllow: /\n")
	})
	page := func(header, value string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set(header, value)
			io.WriteString(w, `<html><head><meta name="robots" content="index"></head><body>x</body></html>`)
		}
	}
	mux.HandleFunc("/xrt", page("X-Robots-Tag", "noindex"))
	mux.HandleFunc("/rt", page("Robots-Tag", "*;noindex"))
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<html><body><a href="/xrt">a</a> <a href="/rt">b</a></body></html>`)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	google, err := rep.NewAgent("Googlebot", rep.AgentOptions{Engine: engine.Google})
	if err != nil {
		t.Fatal(err)
	}
	rfc, err := rep.NewAgent("ExampleBot", rep.AgentOptions{Engine: engine.RFC9309})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), Config{Start: srv.URL, AllowPrivate: true, Agents: []*rep.Agent{google, rfc}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range r.Findings {
		if f.Code == CodeMetaHeaderConflict {
			got[f.Agent+" "+strings.TrimPrefix(f.URL, srv.URL)] = f.Message
		}
	}
	want := map[string]string{
		"Googlebot /xrt":  "the robots meta elements and the X-Robots-Tag headers disagree for Googlebot: noindex against index",
		"ExampleBot /xrt": "the robots meta elements and the X-Robots-Tag headers disagree for ExampleBot: noindex against index",
		"ExampleBot /rt":  "the robots meta elements and the Robots-Tag headers disagree for ExampleBot: noindex against index",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %q, want %q", k, got[k], w)
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("unexpected %s: %q", k, g)
		}
	}
}

// TestFindingJSON: a finding's severity is written as its name, in
// rep crawl -json and the web tester's crawl report.
func TestFindingJSON(t *testing.T) {
	f := Finding{Code: CodeSitemapNotOK, Severity: codeOf(CodeSitemapNotOK).Severity, URL: "https://example.com/a", Message: "m", Evidence: "e"}
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"code":"sitemap-not-ok","severity":"` + f.Severity.String() + `","agent":"","url":"https://example.com/a","message":"m","evidence":"e"}`
	if string(b) != want || f.Severity.String() == "" {
		t.Errorf("%s, want %s", b, want)
	}
	for _, s := range []Severity{Info, Warning, Error} {
		if b, _ := json.Marshal(s); string(b) != `"`+[]string{"info", "warning", "error"}[s]+`"` {
			t.Errorf("%d: %s", s, b)
		}
	}
}
