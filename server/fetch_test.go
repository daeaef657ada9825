package server

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/internal/netguard"
)

// origin is a loopback web site counting the requests it gets.
type origin struct {
	*httptest.Server
	hits atomic.Int64
}

func newOrigin(t testing.TB, h http.HandlerFunc) *origin {
	t.Helper()
	o := &origin{}
	o.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o.hits.Add(1)
		h(w, r)
	}))
	t.Cleanup(o.Close)
	return o
}

// site serves a robots.txt and a page with robots directives; /moved
// redirects to 10.0.0.1, which the guard must refuse before connecting.
func site(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/robots.txt":
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: https://example.com/s.xml\n"))
	case "/article":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("X-Robots-Tag", "bingbot: noarchive")
		w.Write([]byte("<!doctype html><html><head>\n<title>t</title>\n<meta name=\"robots\" content=\"max-snippet:20\">\n</head><body><p>hello</p></body></html>"))
	case "/moved":
		http.Redirect(w, r, "http://10.0.0.1/secret", http.StatusFound)
	default:
		http.NotFound(w, r)
	}
}

// loopbackOnly is the production guard with one hole: the test's own
// loopback origin. Every other address, 10.0.0.1 included, meets
// netguard.Check, which refuses it before connect(2). It records what it
// refused.
type loopbackOnly struct {
	mu      sync.Mutex
	refused []netip.Addr
}

func (l *loopbackOnly) check(a netip.Addr) error {
	if a == netip.MustParseAddr("127.0.0.1") {
		return nil
	}
	err := netguard.Check(a)
	if err != nil {
		l.mu.Lock()
		l.refused = append(l.refused, a)
		l.mu.Unlock()
	}
	return err
}

func newGuardedServer(t *testing.T, c Config) (*httptest.Server, *loopbackOnly) {
	t.Helper()
	l := &loopbackOnly{}
	s, err := newServer(c, l.check)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return ts, l
}

func TestAllowed(t *testing.T) {
	o := newOrigin(t, site)
	ts, _ := newGuardedServer(t, Config{RatePerSecond: -1})
	tests := []struct {
		path, agent string
		allowed     bool
		line        int
		rule        string
	}{
		{"/private/x", "Googlebot", false, 2, "Disallow: /private"},
		{"/public", "Googlebot", true, 0, ""},
		{"/public", "GPTBot", false, 5, "Disallow: /"},
		{"/robots.txt", "GPTBot", true, 0, ""},
	}
	for _, tt := range tests {
		u := o.URL + tt.path
		st, m := call(t, "GET", ts.URL+"/api/allowed?url="+u+"&agent="+tt.agent, "")
		if st != 200 {
			t.Fatalf("%s: status %d %v", u, st, m)
		}
		if m["url"] != u || m["agent"] != tt.agent || m["allowed"] != tt.allowed || int(m["line"].(float64)) != tt.line || m["rule"] != tt.rule {
			t.Errorf("%s for %s = %v", tt.path, tt.agent, m)
		}
		f := m["fetch"].(map[string]any)
		if f["status"].(float64) != 200 || f["verdict"] != "use-rules" || f["url"] != o.URL+"/robots.txt" {
			t.Errorf("fetch = %v", f)
		}
	}
	// One fetch served every question: the cache is warm.
	if n := o.hits.Load(); n != 1 {
		t.Errorf("origin saw %d requests, want 1", n)
	}
}

// TestStrayPercent checks that a URL with a stray '%' in its path, which
// crawlers meet and robots.txt matching takes as it is, gets an answer from
// /api/allowed and /api/check instead of a 400.
func TestStrayPercent(t *testing.T) {
	o := newOrigin(t, site)
	ts, _ := newGuardedServer(t, Config{RatePerSecond: -1})
	for _, tt := range []struct {
		url     string
		allowed bool
	}{
		{o.URL + "/private/100%", false},
		{strings.Replace(o.URL, "http://", "HTTP://", 1) + "/a%zz", true},
	} {
		st, m := call(t, "GET", ts.URL+"/api/allowed?agent=Googlebot&url="+url.QueryEscape(tt.url), "")
		if st != 200 || m["url"] != tt.url || m["allowed"] != tt.allowed {
			t.Errorf("/api/allowed %s: status %d %v, want allowed=%v", tt.url, st, m, tt.allowed)
		}
	}
	body := `{"robots":"User-agent: *\nDisallow: /100%\n","agent":"x","urls":["https://example.com/100%/x","/100%"]}`
	st, m := call(t, "POST", ts.URL+"/api/check", body)
	if st != 200 {
		t.Fatalf("/api/check: status %d %v", st, m)
	}
	for i, r := range m["results"].([]any) {
		if r := r.(map[string]any); r["allowed"] != false || r["line"].(float64) != 2 {
			t.Errorf("/api/check result %d = %v, want disallowed by line 2", i, r)
		}
	}
	// A broken authority is still refused.
	if st, m := call(t, "GET", ts.URL+"/api/allowed?agent=x&url="+url.QueryEscape("http://example.com:abc/100%"), ""); st != 400 {
		t.Errorf("broken port: status %d %v, want 400", st, m)
	}
}

func TestAllowedUnreachableDisallows(t *testing.T) {
	o := newOrigin(t, func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) })
	ts, _ := newGuardedServer(t, Config{RatePerSecond: -1})
	st, m := call(t, "GET", ts.URL+"/api/allowed?agent=Googlebot&url="+o.URL+"/x", "")
	if st != 200 || m["allowed"] != false {
		t.Fatalf("503 robots.txt: status %d %v, want disallowed", st, m)
	}
	if f := m["fetch"].(map[string]any); f["verdict"] != "disallow-all" || f["status"].(float64) != 503 {
		t.Errorf("fetch = %v", f)
	}
}

func TestRefused(t *testing.T) {
	o := newOrigin(t, site)
	_, port, _ := net.SplitHostPort(o.Listener.Addr().String())
	guarded := newTestServer(t, Config{RatePerSecond: -1})
	holed, l := newGuardedServer(t, Config{RatePerSecond: -1})
	tests := []struct {
		name, method, url, body string
		srv                     *httptest.Server
		msg                     string
	}{
		{"allowed to 127.0.0.1", "GET", "/api/allowed?agent=x&url=" + o.URL + "/", "", guarded, "127.0.0.1 is a loopback address"},
		{"allowed to localhost (a name resolving to loopback)", "GET", "/api/allowed?agent=x&url=http://localhost:" + port + "/", "", guarded, "loopback"},
		{"fetch to 127.0.0.1", "POST", "/api/fetch", `{"url":"` + o.URL + `/"}`, guarded, "loopback"},
		{"fetch to [::1]", "POST", "/api/fetch", `{"url":"http://[::1]:` + port + `/"}`, guarded, "loopback"},
		{"page to 127.0.0.1", "POST", "/api/page", `{"url":"` + o.URL + `/article"}`, guarded, "loopback"},
		{"allowed to 169.254.169.254", "GET", "/api/allowed?agent=x&url=http://169.254.169.254/latest", "", guarded, "link-local"},
		{"allowed to 0.0.0.0", "GET", "/api/allowed?agent=x&url=http://0.0.0.0:" + port + "/", "", guarded, "unspecified"},
		{"page redirect to 10.0.0.1", "POST", "/api/page", `{"url":"` + o.URL + `/moved"}`, holed, "10.0.0.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := o.hits.Load()
			st, m := call(t, tt.method, tt.srv.URL+tt.url, tt.body)
			if st != http.StatusForbidden {
				t.Fatalf("status %d %v, want 403", st, m)
			}
			if msg := m["error"].(string); !strings.Contains(msg, tt.msg) || !strings.Contains(msg, "refused") {
				t.Errorf("error %q, want it to say refused and %q", msg, tt.msg)
			}
			if tt.srv == guarded && o.hits.Load() != before {
				t.Errorf("the guarded server reached the loopback origin")
			}
		})
	}
	if len(l.refused) != 1 || l.refused[0] != netip.MustParseAddr("10.0.0.1") {
		t.Errorf("guard refused %v, want exactly 10.0.0.1", l.refused)
	}
}

// TestRobotsRedirectRefused: the robots.txt itself redirects to 10.0.0.1.
func TestRobotsRedirectRefused(t *testing.T) {
	o := newOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://10.0.0.1/robots.txt", http.StatusMovedPermanently)
	})
	ts, l := newGuardedServer(t, Config{RatePerSecond: -1})
	for _, path := range []string{"/api/allowed?agent=Googlebot&url=" + o.URL + "/x"} {
		st, m := call(t, "GET", ts.URL+path, "")
		if st != http.StatusForbidden || !strings.Contains(m["error"].(string), "10.0.0.1") {
			t.Errorf("%s: %d %v, want 403 naming 10.0.0.1", path, st, m)
		}
	}
	st, m := call(t, "POST", ts.URL+"/api/fetch", `{"url":"`+o.URL+`/"}`)
	if st != http.StatusForbidden || !strings.Contains(m["error"].(string), "10.0.0.1") {
		t.Errorf("fetch: %d %v, want 403 naming 10.0.0.1", st, m)
	}
	if len(l.refused) == 0 {
		t.Error("the guard was never asked about 10.0.0.1")
	}
	for _, a := range l.refused {
		if a != netip.MustParseAddr("10.0.0.1") {
			t.Errorf("refused %v", a)
		}
	}
}

func TestFetch(t *testing.T) {
	o := newOrigin(t, site)
	gone := newOrigin(t, http.NotFound)
	ts, _ := newGuardedServer(t, Config{RatePerSecond: -1})
	st, m := call(t, "POST", ts.URL+"/api/fetch", `{"url":"`+o.URL+`/some/page"}`)
	if st != 200 {
		t.Fatalf("status %d %v", st, m)
	}
	if !strings.HasPrefix(m["robots"].(string), "User-agent: *\nDisallow: /private\n") {
		t.Errorf("robots = %q", m["robots"])
	}
	f := m["outcome"].(map[string]any)
	if f["status"].(float64) != 200 || f["verdict"] != "use-rules" || f["bytes"].(float64) < 50 || f["cached"] != false || f["explain"] != "2xx: the rules in the file apply" {
		t.Errorf("fetch = %v", m)
	}
	_, m = call(t, "POST", ts.URL+"/api/fetch", `{"url":"`+o.URL+`/"}`)
	if m["outcome"].(map[string]any)["cached"] != true {
		t.Errorf("second fetch not from the cache: %v", m)
	}
	st, m = call(t, "POST", ts.URL+"/api/fetch", `{"url":"`+gone.URL+`/"}`)
	if st != 200 || m["outcome"].(map[string]any)["verdict"] != "allow-all" || !strings.Contains(m["robots"].(string), "everything is allowed") {
		t.Errorf("404: %d %v", st, m)
	}
}

func TestPageFetched(t *testing.T) {
	o := newOrigin(t, site)
	ts, _ := newGuardedServer(t, Config{RatePerSecond: -1})
	st, m := call(t, "POST", ts.URL+"/api/page", `{"url":"`+o.URL+`/article","agents":["bingbot","GPTBot","Googlebot"]}`)
	if st != 200 {
		t.Fatalf("status %d %v", st, m)
	}
	if f := m["fetch"].(map[string]any); f["status"].(float64) != 200 || !strings.HasPrefix(f["content_type"].(string), "text/html") {
		t.Errorf("fetch = %v", f)
	}
	if r := m["robots"].(map[string]any); r["source"] != "fetched" || r["outcome"].(map[string]any)["verdict"] != "use-rules" {
		t.Errorf("robots = %v", m["robots"])
	}
	cr := m["crawlers"].([]any)
	bing, gpt := cr[0].(map[string]any), cr[1].(map[string]any)
	if bing["blocked"] != false || gpt["blocked"] != true {
		t.Errorf("blocked: bingbot %v, GPTBot %v", bing["blocked"], gpt["blocked"])
	}
	for _, v := range bing["values"].([]any) {
		v := v.(map[string]any)
		if v["field"] == "archive" && (v["value"] != false || !strings.Contains(v["source"].(string), "X-Robots-Tag")) {
			t.Errorf("bingbot archive = %v", v)
		}
		if v["field"] == "max_snippet" && (v["value"].(float64) != 20 || !strings.Contains(v["source"].(string), "meta")) {
			t.Errorf("bingbot max_snippet = %v", v)
		}
	}
}

func TestServeShutdown(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	res, err := http.Get("http://" + ln.Addr().String() + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve after cancel: %v", err)
		}
	case <-time.After(time.Minute): // a hang guard: with nothing in flight Serve returns at once
		t.Fatal("Serve did not return in a minute after its context was cancelled")
	}
	if _, err := http.Get("http://" + ln.Addr().String() + "/healthz"); err == nil {
		t.Error("still serving after shutdown")
	}
}
