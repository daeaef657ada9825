package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/robotstxt"
	"github.com/rep-toolkit/rep/server"
)

// doorCase is one question asked of every door of rep: may this crawler
// fetch this path under this robots.txt? Every door must give one verdict,
// one deciding line and one group.
type doorCase struct {
	name    string
	robots  string
	agent   string // as a user types it: token, User-Agent header or chain
	engine  string // -profile; "" follows the agent
	parser  bool   // -parser-only
	path    string
	allowed bool
	line    int
	group   string // the token that selected the group, "*", or "" for none
}

const (
	doorStar       = "User-agent: *\nDisallow: /private\n"
	doorGoogleStar = "User-agent: googlebot\nDisallow: /g\n\nUser-agent: *\nDisallow: /s\n"
	doorBing       = "User-agent: bingbot\nDisallow: /b\nCrawl-delay: 5\n\nUser-agent: *\nDisallow: /\n"
	doorEscaped    = "User-agent: *\nDisallow: /%62az\n"
	doorAds        = "User-agent: AdsBot-Google\nDisallow: /ads\n\nUser-agent: *\nDisallow: /\n"
	doorIndex      = "User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n"
	doorUpper      = "User-agent: GOOGLEBOT\nDisallow: /x\n"
	doorAll        = "User-agent: *\nDisallow: /\n"
	doorYandex     = "User-agent: Yandex\nDisallow: /y\n\nUser-agent: *\nDisallow: /\n"
	doorDelayGroup = "User-agent: bingbot\nCrawl-delay: 5\n\nUser-agent: ExampleBot\nDisallow: /x\n"
	doorMSN        = "User-agent: msnbot\nDisallow: /m\n\nUser-agent: *\nDisallow: /\n"
	doorCafe       = "User-agent: *\nDisallow: /café\nDisallow: /p\n"
)

var doorCases = []doorCase{
	// Crawlers Google documents as ignoring the * group.
	{"adsbot ignores *", doorStar, "AdsBot-Google", "", false, "/private/x", true, 0, ""},
	{"adsbot-mobile ignores *", doorStar, "AdsBot-Google-Mobile", "", false, "/private/x", true, 0, ""},
	{"mediapartners ignores *", doorStar, "Mediapartners-Google", "", false, "/private/x", true, 0, ""},
	{"adsbot own group", doorAds, "AdsBot-Google", "", false, "/ads/1", false, 2, "adsbot-google"},
	{"adsbot not under *", doorAds, "AdsBot-Google", "", false, "/other", true, 0, "adsbot-google"},
	{"adsbot full UA", doorAds, "AdsBot-Google (+http://www.google.com/adsbot.html)", "", false, "/ads/1", false, 2, "adsbot-google"},
	{"googlebot under *", doorAds, "Googlebot", "", false, "/other", false, 5, "*"},
	{"googlebot star", doorStar, "Googlebot", "", false, "/private/x", false, 2, "*"},
	// Fallback chains.
	{"image falls back", doorGoogleStar, "Googlebot-Image", "", false, "/g/x", false, 2, "googlebot"},
	{"image not under *", doorGoogleStar, "Googlebot-Image", "", false, "/s/x", true, 0, "googlebot"},
	{"news falls back", doorGoogleStar, "Googlebot-News", "", false, "/g", false, 2, "googlebot"},
	{"video falls back", doorGoogleStar, "Googlebot-Video", "", false, "/g", false, 2, "googlebot"},
	{"inspection tool falls back", doorGoogleStar, "Google-InspectionTool", "", false, "/g", false, 2, "googlebot"},
	{"image full UA", doorGoogleStar, "Googlebot-Image/1.0", "", false, "/g/x", false, 2, "googlebot"},
	{"googlebot full UA", doorGoogleStar, "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "", false, "/g", false, 2, "googlebot"},
	{"explicit chain", doorGoogleStar, "Googlebot-Image,Googlebot", "", false, "/g", false, 2, "googlebot"},
	{"gptbot star", doorGoogleStar, "GPTBot", "", false, "/s/x", false, 5, "*"},
	{"gptbot not googlebot's", doorGoogleStar, "GPTBot", "", false, "/g/x", true, 0, "*"},
	{"applebot falls back to googlebot", doorGoogleStar, "Applebot", "", false, "/g", false, 2, "googlebot"},
	{"yandexbot falls back to Yandex", doorYandex, "YandexBot", "", false, "/y/1", false, 2, "yandex"},
	{"yandeximages not under *", doorYandex, "YandexImages", "", false, "/other", true, 0, "yandex"},
	// Under bing, Crawl-delay is a group member: bingbot's group ends
	// before ExampleBot's, whose rule Google's grouping would merge in.
	{"crawl-delay ends bing's group", doorDelayGroup, "bingbot", "", false, "/x", true, 0, "bingbot"},
	{"google merges the groups", doorDelayGroup, "bingbot", "google", false, "/x", false, 5, "bingbot"},
	{"bingbot falls back to msnbot", doorMSN, "bingbot", "", false, "/m", false, 2, "msnbot"},
	// Bing's crawler follows Bing's rules; matching is the same.
	{"bingbot own group", doorBing, "bingbot", "", false, "/b/x", false, 2, "bingbot"},
	{"bingbot allowed", doorBing, "bingbot", "", false, "/other", true, 0, "bingbot"},
	{"bingbot full UA", doorBing, "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "", false, "/b", false, 2, "bingbot"},
	{"unknown under *", doorBing, "ExampleBot", "", false, "/x", false, 6, "*"},
	// Every engine by name.
	{"google engine", doorEscaped, "ExampleBot", "google", false, "/baz", true, 0, "*"},
	{"rfc9309 decodes", doorEscaped, "ExampleBot", "rfc9309", false, "/baz", false, 2, "*"},
	{"bing engine", doorStar, "ExampleBot", "bing", false, "/private", false, 2, "*"},
	{"yandex engine", doorStar, "ExampleBot", "yandex", false, "/private/x", false, 2, "*"},
	{"rfc9309 engine", doorStar, "ExampleBot", "rfc9309", false, "/private/x", false, 2, "*"},
	{"google index.html", doorIndex, "Googlebot", "", false, "/d/", true, 3, "*"},
	{"rfc9309 no index.html", doorIndex, "Googlebot", "rfc9309", false, "/d/", false, 2, "*"},
	// The bare parser, for those testing the parser itself.
	{"parser-only adsbot", doorStar, "AdsBot-Google", "", true, "/private/x", false, 2, "*"},
	{"parser-only image", doorGoogleStar, "Googlebot-Image", "", true, "/s/x", false, 5, "*"},
	// Case, /robots.txt, crawlers that ignore robots.txt.
	{"case-insensitive", doorUpper, "Googlebot", "", false, "/x", false, 2, "googlebot"},
	{"robots.txt always allowed", doorAll, "GPTBot", "", false, "/robots.txt", true, 0, "*"},
	{"user fetcher still judged", doorStar, "ChatGPT-User", "", false, "/private/x", false, 2, "*"},
	// One URL form: a path as typed and as sent on the wire get one
	// answer; an escaped unreserved character is read decoded too.
	{"non-ASCII as typed", doorCafe, "ExampleBot", "", false, "/café", false, 2, "*"},
	{"non-ASCII encoded", doorCafe, "ExampleBot", "", false, "/caf%C3%A9", false, 2, "*"},
	{"non-ASCII lower-case hex", doorCafe, "ExampleBot", "", false, "/caf%c3%a9/x", false, 2, "*"},
	{"escaped unreserved, google", doorCafe, "Googlebot", "", false, "/%70rivate", false, 3, "*"},
	{"escaped unreserved, rfc9309", doorCafe, "ExampleBot", "rfc9309", false, "/%70rivate", false, 3, "*"},
}

// doorSites serves each distinct robots.txt of the cases on its own
// loopback origin, and every other path as a small HTML page.
type doorSites struct {
	mu    sync.Mutex
	sites map[string]*httptest.Server
}

func (d *doorSites) url(t *testing.T, robots string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if s := d.sites[robots]; s != nil {
		return s.URL
	}
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, robots)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<!doctype html><title>x</title><p>x</p>")
	}))
	t.Cleanup(s.Close)
	d.sites[robots] = s
	return s.URL
}

// doorVerdict is what every door must agree on.
type doorVerdict struct {
	Allowed bool   `json:"allowed"`
	Line    int    `json:"line"`
	Group   string `json:"group"`
}

func (c doorCase) want() doorVerdict { return doorVerdict{c.allowed, c.line, c.group} }

func (c doorCase) flags() []string {
	args := []string{"-agent", c.agent}
	if c.engine != "" {
		args = append(args, "-profile", c.engine)
	}
	if c.parser {
		args = append(args, "-parser-only")
	}
	return args
}

// TestDoorsAgree runs each case through the library (a file given, and
// fetching), rep check with a file and fetching from a loopback site, the
// server's /api/check and /api/allowed, rep lint -agent's per-crawler
// view, rep page's robots verdict and rep audit on a log line, and asserts
// one verdict, one deciding line and one group everywhere (lint's view
// shows the group and the rules in force, not a verdict).
func TestDoorsAgree(t *testing.T) {
	if len(doorCases) < 30 {
		t.Fatalf("%d cases: the doors are held by at least 30", len(doorCases))
	}
	sites := &doorSites{sites: map[string]*httptest.Server{}}
	parent := t
	srv, err := server.New(server.Config{AllowPrivate: true, RatePerSecond: -1})
	if err != nil {
		t.Fatal(err)
	}
	api := httptest.NewServer(srv)
	defer api.Close()
	dir := t.TempDir()
	for i, c := range doorCases {
		t.Run(c.name, func(t *testing.T) {
			want := c.want()
			// The library, a file given.
			eng, err := engine.Parse(c.engine)
			if err != nil {
				t.Fatal(err)
			}
			a, err := rep.NewAgent(c.agent, rep.AgentOptions{Engine: eng, ParserOnly: c.parser})
			if err != nil {
				t.Fatal(err)
			}
			d := a.Decide(robotstxt.ParseWith([]byte(c.robots), a.ParseOptions()), c.path)
			if got := (doorVerdict{d.Allowed, d.Rule.Line, d.Group.Agent}); got != want {
				t.Errorf("library: %+v, want %+v (%s)", got, want, d)
			}
			base := sites.url(parent, c.robots)
			// The library, fetching: rep.New as a crawler would.
			opts := []rep.Option{rep.WithAgent(a), rep.WithEngine(eng)}
			cr, err := rep.New("rep-test/1.0", opts...)
			if err != nil {
				t.Fatal(err)
			}
			fd, err := cr.Check(context.Background(), base+c.path)
			if err != nil {
				t.Fatal(err)
			}
			if got := (doorVerdict{fd.Allowed, fd.Rule.Line, fd.Group.Agent}); got != want {
				t.Errorf("library fetching: %+v, want %+v (%s)", got, want, fd)
			}
			// rep check -robots FILE -json.
			file := filepath.Join(dir, fmt.Sprintf("robots%d.txt", i))
			if err := os.WriteFile(file, []byte(c.robots), 0o644); err != nil {
				t.Fatal(err)
			}
			doorCLI(t, "check -robots", want, append(append([]string{"check", "-json", "-robots", file}, c.flags()...), c.path)...)
			// rep lint -agent: the group its per-crawler view shows.
			doorLint(t, c, file)
			// rep check fetching from the loopback site.
			doorCLI(t, "check fetching", want, append(append([]string{"check", "-json", "-allow-private"}, c.flags()...), base+c.path)...)
			// The server: /api/check with the file inline, /api/allowed
			// fetching from the loopback site.
			doorCheckAPI(t, api.URL, c, want)
			doorAllowedAPI(t, api.URL, c, base, want)
			// rep page URL: its robots verdict.
			if c.path != "/robots.txt" {
				doorPage(t, want, append(append([]string{"page", "-json", "-allow-private"}, c.flags()...), base+c.path)...)
			}
			// rep audit on a log line, for the crawlers it recognises by
			// their User-Agent as the registry's.
			if c.engine == "" && !c.parser && a.Crawler != nil && !strings.Contains(c.agent, ",") {
				doorAudit(t, c, file, a)
			}
		})
	}
}

func doorCLI(t *testing.T, door string, want doorVerdict, args ...string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, nil, &out, &errb)
	var got doorVerdict
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%s: exit %d, %v: %s%s", door, code, err, out.String(), errb.String())
	}
	if got != want {
		t.Errorf("%s: %+v, want %+v\n%s", door, got, want, out.String())
	}
	if wantCode := map[bool]int{true: exitOK, false: exitFinding}[want.Allowed]; code != wantCode {
		t.Errorf("%s: exit %d, want %d", door, code, wantCode)
	}
}

func doorLint(t *testing.T, c doorCase, file string) {
	t.Helper()
	var out, errb bytes.Buffer
	run(context.Background(), append(append([]string{"lint", "-json"}, c.flags()...), file), nil, &out, &errb)
	var rpt struct {
		Agents []struct {
			Group string `json:"group"`
			Rules []struct {
				Line int `json:"line"`
			} `json:"rules"`
		} `json:"agents"`
	}
	if err := json.Unmarshal(out.Bytes(), &rpt); err != nil || len(rpt.Agents) != 1 {
		t.Fatalf("lint: %v: %s%s", err, out.String(), errb.String())
	}
	v := rpt.Agents[0]
	if v.Group != c.group {
		t.Errorf("lint -agent: group %q, want %q", v.Group, c.group)
	}
	// The deciding line, when there is one, is among the rules in force.
	found := c.line == 0
	for _, r := range v.Rules {
		found = found || r.Line == c.line
	}
	if !found {
		t.Errorf("lint -agent: line %d not among the rules in force %v", c.line, v.Rules)
	}
}

func doorCheckAPI(t *testing.T, api string, c doorCase, want doorVerdict) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"robots": c.robots, "agent": c.agent, "urls": []string{c.path}, "profile": c.engine, "parser_only": c.parser})
	resp, err := http.Post(api+"/api/check", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got struct {
		Results []doorVerdict `json:"results"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil || resp.StatusCode != 200 || len(got.Results) != 1 {
		t.Fatalf("/api/check: %d %v %+v", resp.StatusCode, err, got)
	}
	if got.Results[0] != want {
		t.Errorf("/api/check: %+v, want %+v", got.Results[0], want)
	}
}

func doorAllowedAPI(t *testing.T, api string, c doorCase, base string, want doorVerdict) {
	t.Helper()
	q := url.Values{"agent": {c.agent}, "url": {base + c.path}, "profile": {c.engine}, "parser_only": {fmt.Sprint(c.parser)}}
	resp, err := http.Get(api + "/api/allowed?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got doorVerdict
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil || resp.StatusCode != 200 {
		t.Fatalf("/api/allowed: %d %v", resp.StatusCode, err)
	}
	if got != want {
		t.Errorf("/api/allowed: %+v, want %+v", got, want)
	}
}

func doorPage(t *testing.T, want doorVerdict, args ...string) {
	t.Helper()
	var out, errb bytes.Buffer
	run(context.Background(), args, nil, &out, &errb)
	var got struct {
		Robots *doorVerdict `json:"robots"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || got.Robots == nil {
		t.Fatalf("page: %v: %s%s", err, out.String(), errb.String())
	}
	if *got.Robots != want {
		t.Errorf("page: %+v, want %+v", *got.Robots, want)
	}
}

// doorAudit audits one request by the crawler and reads back whether it
// was counted as disallowed, and by which line.
func doorAudit(t *testing.T, c doorCase, robotsFile string, a *rep.Agent) {
	t.Helper()
	ua := c.agent
	if !strings.ContainsAny(ua, "/(") {
		ua += "/1.0"
	}
	log := filepath.Join(filepath.Dir(robotsFile), "access.log")
	line := fmt.Sprintf("203.0.113.9 - - [01/Mar/2026:00:00:01 +0000] \"GET %s HTTP/1.1\" 200 5 \"-\" %q\n", c.path, ua)
	if err := os.WriteFile(log, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	run(context.Background(), []string{"audit", "-json", "-robots", robotsFile, log}, nil, &out, &errb)
	var rpt struct {
		Crawlers []struct {
			Name       string `json:"name"`
			Disallowed int64  `json:"disallowed_requests"`
			Violations []struct {
				Line int `json:"line"`
			} `json:"violations"`
		} `json:"crawlers"`
	}
	if err := json.Unmarshal(out.Bytes(), &rpt); err != nil {
		t.Fatalf("audit: %v: %s%s", err, out.String(), errb.String())
	}
	for _, cr := range rpt.Crawlers {
		if cr.Name != a.Crawler.Name {
			continue
		}
		allowed, line := cr.Disallowed == 0, 0
		if len(cr.Violations) > 0 {
			line = cr.Violations[0].Line
		}
		if allowed != c.allowed || !allowed && line != c.line {
			t.Errorf("audit: allowed %v line %d, want %v line %d", allowed, line, c.allowed, c.line)
		}
		return
	}
	t.Errorf("audit: no crawler %s in the report: %s", a.Crawler.Name, out.String())
}
