package server

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// adviceSite serves robots ($SITE stands for the site's URL), a sitemap of
// the pages that are not noindex, and three pages: / links to /news and
// to /private/old, which is noindex.
func adviceSite(t *testing.T, robots string) *origin {
	t.Helper()
	var o *origin
	o = newOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/robots.txt":
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, strings.ReplaceAll(robots, "$SITE", o.URL))
		case "/sitemap.xml":
			w.Header().Set("Content-Type", "application/xml")
			io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>`+o.URL+`/</loc></url><url><loc>`+o.URL+`/news</loc></url></urlset>`)
		case "/":
			io.WriteString(w, `<html><body><a href="/news">news</a> <a href="/private/old">old</a></body></html>`)
		case "/news":
			io.WriteString(w, `<html><body>news</body></html>`)
		case "/private/old":
			io.WriteString(w, `<html><head><meta name="robots" content="noindex"></head><body>old</body></html>`)
		default:
			http.NotFound(w, r)
		}
	})
	return o
}

// TestAdviceInTheTester runs correct setups and real mistakes through the
// web tester's three doors: the robots.txt tab's findings (/api/lint), the
// Page tab (/api/page: a crawler whose blocking is a problem is one that
// keeps an index, shown in the tab's warning; any other is told what its
// refusal means, as a fact) and the Site tab (/api/crawl: the report's
// warnings and errors). Correct setups (AdSense and AdsBot groups, AI
// crawlers and control tokens refused on purpose, names with digits that
// only Google's parser reads differently) draw nothing; mistakes (the
// Google merge trap, a Googlebot group that forgets the * rules, a noindex
// behind a Disallow for a search crawler) still do, naming the crawler
// misled.
func TestAdviceInTheTester(t *testing.T) {
	tests := []struct {
		name, robots string
		agents       []string
		page         string   // the Page tab's path
		lint         []string // codes of the lint warnings and errors
		flagged      []string // Page tab: crawlers warned of being blocked
		crawl        []string // "code agent" of the crawl's warnings and errors
	}{
		{name: "AdSense and AdsBot groups",
			robots: "User-agent: *\nDisallow: /private/\n\nUser-agent: Mediapartners-Google\nDisallow:\n\nUser-agent: AdsBot-Google\nUser-agent: AdsBot-Google-Mobile\nDisallow: /checkout/\n\nSitemap: $SITE/sitemap.xml\n",
			agents: []string{"AdsBot-Google", "Mediapartners-Google"}, page: "/private/old"},
		{name: "AI crawlers blocked on purpose",
			robots: "User-agent: *\nDisallow:\n\nUser-agent: GPTBot\nUser-agent: CCBot\nUser-agent: ClaudeBot\nDisallow: /\n\nSitemap: $SITE/sitemap.xml\n",
			agents: []string{"Googlebot", "GPTBot", "CCBot", "ClaudeBot"}, page: "/news"},
		{name: "control tokens",
			robots: "User-agent: Google-Extended\nUser-agent: Applebot-Extended\nDisallow: /\n\nUser-agent: *\nDisallow:\n\nSitemap: $SITE/sitemap.xml\n",
			agents: []string{"Googlebot", "Google-Extended", "Applebot-Extended"}, page: "/news"},
		{name: "non-Google names with digits",
			robots: "User-agent: MJ12bot\nUser-agent: Baiduspider+\nUser-agent: Mediapartners-Google*\nDisallow: /\n\nUser-agent: *\nDisallow:\n\nSitemap: $SITE/sitemap.xml\n",
			agents: []string{"Googlebot", "MJ12bot"}, page: "/news"},
		{name: "the Google merge trap",
			robots: "User-agent: msnbot\nCrawl-delay: 5\n\nUser-agent: slurp\nCrawl-delay: 12\nDisallow: /cgi-bin/\n\nSitemap: $SITE/sitemap.xml\n",
			agents: []string{"Googlebot"}, page: "/news", lint: []string{"merged-group"}},
		{name: "a Googlebot group that forgets the * rules",
			robots: "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /search\n\nSitemap: $SITE/sitemap.xml\n",
			// bingbot, held by the * group, never reads /private/old's
			// noindex: the Site tab says so.
			agents: []string{"Googlebot", "bingbot"}, page: "/news", lint: []string{"star-overridden"}, crawl: []string{"noindex-unseen bingbot"}},
		{name: "a noindex behind a Disallow for a search crawler",
			robots: "User-agent: *\nDisallow: /private/\n\nSitemap: $SITE/sitemap.xml\n",
			agents: []string{"Googlebot", "GPTBot"}, page: "/private/old",
			flagged: []string{"Googlebot"}, crawl: []string{"noindex-unseen Googlebot"}},
	}
	ts, _ := newGuardedServer(t, Config{RatePerSecond: -1, OriginRate: -1})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := adviceSite(t, tt.robots)
			robots := strings.ReplaceAll(tt.robots, "$SITE", o.URL)

			// The robots.txt tab's findings.
			var lint lintResponse
			post(t, ts.URL+"/api/lint", map[string]any{"robots": robots, "url": o.URL + "/robots.txt"}, &lint)
			var codes []string
			for _, f := range lint.Findings {
				if f.Severity == "warning" || f.Severity == "error" {
					codes = append(codes, f.Code)
				}
			}
			if !slices.Equal(codes, tt.lint) {
				t.Errorf("robots.txt tab: warnings and errors %v, want %v (%+v)", codes, tt.lint, lint.Findings)
			}

			// The Page tab: every crawler refused the page is either
			// warned of (an indexer), or told what it means for it.
			var page struct {
				Crawlers []struct {
					Agent, Kind, Meaning string
					Blocked              bool
				}
			}
			post(t, ts.URL+"/api/page", map[string]any{"url": o.URL + tt.page, "agents": tt.agents}, &page)
			var flagged []string
			for _, c := range page.Crawlers {
				if c.Blocked && c.Meaning == "" {
					flagged = append(flagged, c.Agent)
				}
				if indexer := c.Kind == "search" || c.Kind == "ai-search" || c.Kind == "unknown"; indexer != (c.Meaning == "") {
					t.Errorf("Page tab: %s (%s) meaning %q", c.Agent, c.Kind, c.Meaning)
				}
			}
			if !slices.Equal(flagged, tt.flagged) {
				t.Errorf("Page tab: warned of %v, want %v (%+v)", flagged, tt.flagged, page.Crawlers)
			}

			// The Site tab: the report's warnings and errors.
			res := postCrawl(t, context.Background(), ts.URL, map[string]any{"url": o.URL + "/", "agents": tt.agents})
			defer res.Body.Close()
			var report crawlLine
			sc := bufio.NewScanner(res.Body)
			sc.Buffer(nil, 16<<20)
			for sc.Scan() {
				var e crawlLine
				if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
					t.Fatal(err)
				}
				if e.Type == "report" || e.Type == "error" {
					report = e
				}
			}
			if report.Type != "report" {
				t.Fatalf("Site tab: no report: %+v", report)
			}
			var fs []findingJSON
			if err := json.Unmarshal(report.Findings, &fs); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range fs {
				if f.Severity == "warning" || f.Severity == "error" {
					got = append(got, f.Code+" "+f.Agent)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.crawl) {
				t.Errorf("Site tab: warnings and errors %v, want %v (%+v)", got, tt.crawl, fs)
			}
		})
	}
}

// post sends body as JSON and decodes a 200 answer into v.
func post(t *testing.T, u string, body, v any) {
	t.Helper()
	status, raw := postRaw(t, u, body)
	if status != http.StatusOK {
		t.Fatalf("%s: %d %s", u, status, raw)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v: %s", u, err, raw)
	}
}

// postRaw sends body as JSON and returns the answer's status and body.
func postRaw(t *testing.T, u string, body any) (int, []byte) {
	t.Helper()
	res, err := http.Post(u, "application/json", strings.NewReader(jsonBody(t, body)))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, raw
}
