package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// newTestServer starts the server on a loopback port.
func newTestServer(t *testing.T, c Config) *httptest.Server {
	t.Helper()
	s, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return ts
}

// call sends a request and decodes the JSON answer into a map.
func call(t *testing.T, method, url, body string) (int, map[string]any) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s %s: answer is not a JSON object: %v\n%s", method, url, err, raw)
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("%s %s: Content-Type %q", method, url, ct)
	}
	return res.StatusCode, m
}

func jsonBody(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const testRobots = "User-agent: *\nDisallow: /private\nAllow: /private/ok\n\nUser-agent: Googlebot\nDisallow: /nogoogle\n\nSitemap: https://example.com/sitemap.xml\n"

func TestCheck(t *testing.T) {
	ts := newTestServer(t, Config{})
	tests := []struct {
		name   string
		agent  string
		urls   []string
		want   []bool
		lines  []int
		rules  []string
		via    string
		groupL []int
	}{
		{"star group", "ExampleBot", []string{"/private/x", "/private/ok/y", "/public", "https://example.com/private"},
			[]bool{false, true, true, false}, []int{2, 3, 0, 2}, []string{"Disallow: /private", "Allow: /private/ok", "", "Disallow: /private"}, "star", []int{1}},
		{"own group", "Googlebot", []string{"/private/x", "/nogoogle/a"},
			[]bool{true, false}, []int{0, 6}, []string{"", "Disallow: /nogoogle"}, "token", []int{5}},
		{"fallback chain for Googlebot-Image", "Googlebot-Image", []string{"/nogoogle"},
			[]bool{false}, []int{6}, []string{"Disallow: /nogoogle"}, "fallback", []int{5}},
		{"full user agent", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", []string{"/nogoogle"},
			[]bool{false}, []int{6}, []string{"Disallow: /nogoogle"}, "token", []int{5}},
		{"explicit crawler ignores star", "AdsBot-Google", []string{"/private/x"},
			[]bool{true}, []int{0}, []string{""}, "none", []int{}},
		{"robots.txt always allowed", "ExampleBot", []string{"/robots.txt"},
			[]bool{true}, []int{0}, []string{""}, "star", []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, m := call(t, "POST", ts.URL+"/api/check", jsonBody(t, map[string]any{"robots": testRobots, "agent": tt.agent, "urls": tt.urls}))
			if st != 200 {
				t.Fatalf("status %d: %v", st, m)
			}
			res := m["results"].([]any)
			if len(res) != len(tt.urls) {
				t.Fatalf("%d results for %d URLs", len(res), len(tt.urls))
			}
			for i, r := range res {
				r := r.(map[string]any)
				if r["url"] != tt.urls[i] || r["allowed"] != tt.want[i] || int(r["line"].(float64)) != tt.lines[i] || r["rule"] != tt.rules[i] {
					t.Errorf("result %d = %v, want url %q allowed %v line %d rule %q", i, r, tt.urls[i], tt.want[i], tt.lines[i], tt.rules[i])
				}
			}
			for i, r := range res {
				if r := r.(map[string]any); r["via"] != tt.via || jsonBody(t, r["group_lines"]) != jsonBody(t, tt.groupL) {
					t.Errorf("result %d: via %v group_lines %v, want %s %v", i, r["via"], r["group_lines"], tt.via, tt.groupL)
				}
			}
			g := m["group"].(map[string]any)
			if g["why"] == "" {
				t.Errorf("group %v says nothing of why", g)
			}
			if got := jsonBody(t, g["lines"]); got != jsonBody(t, tt.groupL) {
				t.Errorf("group lines %s, want %v", got, tt.groupL)
			}
			sm := m["sitemaps"].([]any)
			if len(sm) != 1 || sm[0].(map[string]any)["line"].(float64) != 8 {
				t.Errorf("sitemaps = %v", sm)
			}
		})
	}
}

func TestCheckProfile(t *testing.T) {
	ts := newTestServer(t, Config{})
	robots := "User-agent: *\nDisallow: /%62az\n"
	for _, tc := range []struct {
		profile string
		allowed bool
	}{{"google", true}, {"bing", true}, {"yandex", true}, {"rfc9309", false}} {
		st, m := call(t, "POST", ts.URL+"/api/check", jsonBody(t, map[string]any{"robots": robots, "agent": "x", "urls": []string{"/baz"}, "profile": tc.profile}))
		if st != 200 {
			t.Fatalf("%s: status %d %v", tc.profile, st, m)
		}
		if got := m["results"].([]any)[0].(map[string]any)["allowed"]; got != tc.allowed || m["engine"] != tc.profile {
			t.Errorf("%s: allowed %v engine %v, want %v", tc.profile, got, m["engine"], tc.allowed)
		}
	}
}

// TestCheckCrawlDelayGroups: the Google guide's example. Under bing and
// yandex a Crawl-delay line ends its group, so slurp has its own delay;
// under google the two User-agent lines form one group.
func TestCheckCrawlDelayGroups(t *testing.T) {
	ts := newTestServer(t, Config{})
	robots := "User-agent: msnbot\nCrawl-delay: 5\n\nUser-agent: slurp\nCrawl-delay: 12\n"
	for _, tc := range []struct {
		profile, agent string
		seconds, line  float64
	}{{"bing", "slurp", 12, 5}, {"yandex", "slurp", 12, 5}, {"bing", "msnbot", 5, 2}, {"google", "slurp", 5, 2}} {
		st, m := call(t, "POST", ts.URL+"/api/check", jsonBody(t, map[string]any{"robots": robots, "agent": tc.agent, "urls": []string{"/"}, "profile": tc.profile}))
		if st != 200 {
			t.Fatalf("%s: status %d %v", tc.profile, st, m)
		}
		cd, _ := m["crawl_delay"].(map[string]any)
		if cd == nil || cd["seconds"] != tc.seconds || cd["line"] != tc.line {
			t.Errorf("%s %s: crawl_delay %v, want %vs line %v", tc.profile, tc.agent, m["crawl_delay"], tc.seconds, tc.line)
		}
	}
}

func TestBadInput(t *testing.T) {
	ts := newTestServer(t, Config{})
	huge := `{"robots":"` + strings.Repeat("a", MaxBody) + `","agent":"x","urls":["/"]}`
	tests := []struct {
		name, method, path, body string
		status                   int
		msg                      string // part of the error message
	}{
		{"malformed JSON", "POST", "/api/check", `{"robots": "x", "agent": }`, 400, "malformed JSON"},
		{"truncated JSON", "POST", "/api/check", `{"robots": "x"`, 400, "ends early"},
		{"not an object", "POST", "/api/check", `["x"]`, 400, "JSON object"},
		{"empty body", "POST", "/api/check", ``, 400, "empty request body"},
		{"two objects", "POST", "/api/check", `{"robots":"","agent":"x","urls":[]} {}`, 400, "extra data"},
		{"huge body", "POST", "/api/check", huge, 413, "8 MiB"},
		{"huge lint body", "POST", "/api/lint", huge, 413, "8 MiB"},
		{"missing robots", "POST", "/api/check", `{"agent":"x","urls":["/"]}`, 400, `"robots"`},
		{"missing agent", "POST", "/api/check", `{"robots":"","urls":["/"]}`, 400, `"agent"`},
		{"blank agent", "POST", "/api/check", `{"robots":"","agent":"  ","urls":["/"]}`, 400, `"agent"`},
		{"missing urls", "POST", "/api/check", `{"robots":"","agent":"x"}`, 400, `"urls"`},
		{"misspelt field", "POST", "/api/check", `{"robots":"","agent":"x","url":["/"]}`, 400, `unknown field "url"`},
		{"wrong type", "POST", "/api/check", `{"robots":"","agent":"x","urls":"/"}`, 400, `"urls" must be an array`},
		{"batch without queries", "POST", "/api/allowed", `{"agent":"x"}`, 400, `"queries"`},
		{"batch misspelt field", "POST", "/api/allowed", `{"queries":[{"url":"https://example.com/","agnt":"x"}]}`, 400, `unknown field "agnt"`},
		{"bad profile", "POST", "/api/check", `{"robots":"","agent":"x","urls":["/"],"profile":"bogus"}`, 400, "unknown profile"},
		{"lint missing robots", "POST", "/api/lint", `{}`, 400, `"robots"`},
		{"page with nothing", "POST", "/api/page", `{}`, 400, `"url"`},
		{"page path to fetch", "POST", "/api/page", `{"url":"/x"}`, 400, "absolute"},
		{"page bad headers", "POST", "/api/page", `{"headers":"not a header","html":"<p>"}`, 400, "not a header field"},
		{"page too many agents", "POST", "/api/page", jsonBody(t, map[string]any{"html": "<p>", "agents": make([]string, 40)}), 400, "at most"},
		{"fetch missing url", "POST", "/api/fetch", `{}`, 400, `"url"`},
		{"fetch relative url", "POST", "/api/fetch", `{"url":"example.com"}`, 400, "not absolute"},
		{"fetch file url", "POST", "/api/fetch", `{"url":"file:///etc/passwd"}`, 400, "not http or https"},
		{"allowed missing url", "GET", "/api/allowed?agent=x", "", 400, `"url"`},
		{"allowed missing agent", "GET", "/api/allowed?url=https://example.com/", "", 400, `"agent"`},
		{"allowed gopher", "GET", "/api/allowed?agent=x&url=gopher://example.com/", "", 400, "not http or https"},
		{"unknown endpoint", "GET", "/api/nope", "", 404, "no such endpoint"},
		{"wrong method", "GET", "/api/check", "", 405, "takes POST"},
		{"PUT", "PUT", "/api/check", "{}", 405, "takes POST, not PUT"},
		{"DELETE", "DELETE", "/api/allowed", "", 405, "takes GET, POST, not DELETE"},
		{"PUT unknown endpoint", "PUT", "/api/nope", "", 404, "no such endpoint"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, m := call(t, tt.method, ts.URL+tt.path, tt.body)
			if st != tt.status {
				t.Errorf("status %d, want %d (%v)", st, tt.status, m)
			}
			msg, _ := m["error"].(string)
			if !strings.Contains(msg, tt.msg) {
				t.Errorf("error %q, want it to mention %q", msg, tt.msg)
			}
		})
	}
}

func TestMethodNotAllowed(t *testing.T) {
	ts := newTestServer(t, Config{})
	res, err := http.Get(ts.URL + "/api/fetch")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 405 || res.Header.Get("Allow") != "POST" {
		t.Errorf("GET /api/fetch: %d Allow %q", res.StatusCode, res.Header.Get("Allow"))
	}
	req, _ := http.NewRequest("PUT", ts.URL+"/api/allowed", nil)
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 405 || res.Header.Get("Allow") != "GET, POST" {
		t.Errorf("PUT /api/allowed: %d Allow %q", res.StatusCode, res.Header.Get("Allow"))
	}
}

func TestLint(t *testing.T) {
	ts := newTestServer(t, Config{})
	st, m := call(t, "POST", ts.URL+"/api/lint", jsonBody(t, map[string]any{"robots": "User-agent: *\nDisalow /x\n"}))
	if st != 200 {
		t.Fatalf("status %d %v", st, m)
	}
	fs := m["findings"].([]any)
	if len(fs) == 0 {
		t.Fatal("no findings for a misspelt, colon-less line")
	}
	for _, f := range fs {
		f := f.(map[string]any)
		if f["line"].(float64) != 2 || f["code"] == "" || f["message"] == "" {
			t.Errorf("finding %v: want line 2 with a code and a message", f)
		}
	}
	if m["lines"].(float64) != 3 {
		t.Errorf("lines = %v, want 3", m["lines"])
	}
}

func TestPagePasted(t *testing.T) {
	ts := newTestServer(t, Config{})
	body := jsonBody(t, map[string]any{
		"url":     "https://example.com/secret/page",
		"headers": "HTTP/1.1 200 OK\nContent-Type: text/html\nX-Robots-Tag: googlebot: noindex",
		"html":    "<html><head>\n<meta name=\"robots\" content=\"nosnippet\">\n</head><body>x</body></html>",
		"robots":  "User-agent: bingbot\nDisallow: /secret\n",
		"agents":  []string{"Googlebot", "bingbot", "GPTBot"},
	})
	st, m := call(t, "POST", ts.URL+"/api/page", body)
	if st != 200 {
		t.Fatalf("status %d %v", st, m)
	}
	if m["robots"].(map[string]any)["source"] != "pasted" {
		t.Errorf("robots source %v", m["robots"])
	}
	cr := m["crawlers"].([]any)
	if len(cr) != 3 {
		t.Fatalf("%d crawlers", len(cr))
	}
	value := func(c map[string]any, field string) map[string]any {
		for _, v := range c["values"].([]any) {
			if v := v.(map[string]any); v["field"] == field {
				return v
			}
		}
		t.Fatalf("no field %s", field)
		return nil
	}
	g, b, o := cr[0].(map[string]any), cr[1].(map[string]any), cr[2].(map[string]any)
	if v := value(g, "index"); v["value"] != false || !strings.Contains(v["source"].(string), "X-Robots-Tag") || v["rule"] != "googlebot: noindex" {
		t.Errorf("googlebot index = %v", v)
	}
	if v := value(o, "index"); v["value"] != true || v["source"] != nil {
		t.Errorf("gptbot index = %v (the googlebot header must not reach it)", v)
	}
	if v := value(o, "snippet"); v["value"] != false || !strings.Contains(v["source"].(string), "meta") {
		t.Errorf("gptbot snippet = %v", v)
	}
	if b["engine"] != "bing" || b["blocked"] != true || g["blocked"] != false || g["engine"] != "google" {
		t.Errorf("bingbot engine %v blocked %v; googlebot engine %v blocked %v", b["engine"], b["blocked"], g["engine"], g["blocked"])
	}
	if r := b["robots"].(map[string]any); r["line"].(float64) != 2 || r["agent"] != "bingbot" || r["group"] != "bingbot" || r["fetch"] != nil {
		t.Errorf("bingbot robots verdict %v", r)
	}
	if len(m["sources"].([]any)) != 2 {
		t.Errorf("sources %v", m["sources"])
	}
}

func TestHealthzAndPage(t *testing.T) {
	ts := newTestServer(t, Config{})
	for path, want := range map[string]string{"/healthz": "ok", "/": "<title>rep", "/app.js": "use strict", "/style.css": ".editor"} {
		res, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || !bytes.Contains(b, []byte(want)) {
			t.Errorf("GET %s: %d, body lacks %q", path, res.StatusCode, want)
		}
		if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
			t.Errorf("GET %s: CSP %q", path, csp)
		}
	}
}

func TestCrossOriginPostRefused(t *testing.T) {
	ts := newTestServer(t, Config{})
	req, _ := http.NewRequest("POST", ts.URL+"/api/check", strings.NewReader(`{"robots":"","agent":"x","urls":[]}`))
	req.Header.Set("Origin", "https://evil.example")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site POST: %d, want 403", res.StatusCode)
	}
}

// TestCheckBadURLs: a bad URL gets its own error in its place; the others
// are still checked.
func TestCheckBadURLs(t *testing.T) {
	ts := newTestServer(t, Config{})
	urls := []string{"/private/x", "ftp://example.com/", "/public", "nope"}
	st, m := call(t, "POST", ts.URL+"/api/check", jsonBody(t, map[string]any{"robots": testRobots, "agent": "ExampleBot", "urls": urls}))
	if st != 200 {
		t.Fatalf("status %d %v", st, m)
	}
	res := m["results"].([]any)
	for i, want := range []string{"disallowed", "error", "allowed", "error"} {
		r := res[i].(map[string]any)
		got := "disallowed"
		switch {
		case r["error"] != nil:
			got = "error"
			if r["status"] != float64(400) || r["url"] != urls[i] {
				t.Errorf("result %d: %v", i, r)
			}
		case r["allowed"] == true:
			got = "allowed"
		}
		if got != want {
			t.Errorf("result %d = %s (%v), want %s", i, got, r, want)
		}
	}
}

// TestCheckLargeFile: a file over 500 KiB is read up to the last line end
// before the limit, as crawlers read it; the answer says where.
func TestCheckLargeFile(t *testing.T) {
	ts := newTestServer(t, Config{})
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	lines := 1
	for b.Len() < 1300<<10 {
		fmt.Fprintf(&b, "Disallow: /section-%06d/with/a/longer/path/for/size\n", lines)
		lines++
	}
	b.WriteString("Disallow: /beyond\n")
	st, m := call(t, "POST", ts.URL+"/api/check", jsonBody(t, map[string]any{"robots": b.String(), "agent": "Googlebot", "urls": []string{"/section-000001/with/a/longer/path/for/size/x", "/beyond"}}))
	if st != 200 {
		t.Fatalf("status %d %v", st, m)
	}
	if m["truncated"] != true || m["size"].(float64) != float64(b.Len()) {
		t.Errorf("truncated %v size %v", m["truncated"], m["size"])
	}
	pb, pl := int(m["parsed_bytes"].(float64)), int(m["parsed_lines"].(float64))
	if pb > 500<<10 || pb < 500<<10-100 || !strings.HasSuffix(b.String()[:pb], "\n") {
		t.Errorf("parsed_bytes %d: want the last line end before 512000", pb)
	}
	if want := strings.Count(b.String()[:pb], "\n"); pl != want {
		t.Errorf("parsed_lines %d, want %d", pl, want)
	}
	res := m["results"].([]any)
	if res[0].(map[string]any)["allowed"] != false || res[1].(map[string]any)["allowed"] != true {
		t.Errorf("verdicts %v: the rule past the limit must not apply", res)
	}
}

// TestPageRobotsTagNotRead: a Robots-Tag member is listed, for each crawler
// whose engine does not read Robots-Tag, among the sources it does not
// read, with the reason; under rfc9309 it is read and applies.
func TestPageRobotsTagNotRead(t *testing.T) {
	ts := newTestServer(t, Config{})
	for _, tt := range []struct {
		profile string
		notRead bool
		index   bool
	}{
		{"", true, true},
		{"rfc9309", false, false},
	} {
		body := jsonBody(t, map[string]any{
			"url":     "https://example.com/page",
			"headers": "HTTP/1.1 200 OK\nContent-Type: text/html\nX-Robots-Tag: nosnippet\nRobots-Tag: *;noindex",
			"html":    "<html><head></head><body>x</body></html>",
			"robots":  "",
			"agents":  []string{"Googlebot", "bingbot"},
			"profile": tt.profile,
		})
		st, m := call(t, "POST", ts.URL+"/api/page", body)
		if st != 200 {
			t.Fatalf("profile %q: status %d %v", tt.profile, st, m)
		}
		for _, c := range m["crawlers"].([]any) {
			c := c.(map[string]any)
			nr, _ := c["not_read"].([]any)
			if !tt.notRead {
				if len(nr) != 0 {
					t.Errorf("profile %q, %s: not_read %v, want none", tt.profile, c["agent"], nr)
				}
			} else if len(nr) != 1 || nr[0].(map[string]any)["source"] != 1.0 ||
				nr[0].(map[string]any)["where"] != `Robots-Tag header (line 3, member "*;noindex")` ||
				nr[0].(map[string]any)["note"] != "not read under "+c["engine"].(string)+" rules: no search engine documents Robots-Tag (draft-illyes-repext-03); the rfc9309 profile reads it" {
				t.Errorf("profile %q, %s: not_read %v", tt.profile, c["agent"], nr)
			}
			for _, v := range c["values"].([]any) {
				if v := v.(map[string]any); v["field"] == "index" && v["value"] != tt.index {
					t.Errorf("profile %q, %s: index %v, want %v", tt.profile, c["agent"], v["value"], tt.index)
				}
			}
		}
	}
}
