package gate

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/accesslog"
	"github.com/rep-toolkit/rep/crawlers/identity"
	"github.com/rep-toolkit/rep/internal/testkit/dnstest"
	"github.com/rep-toolkit/rep/policy"
)

const (
	browserUA   = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
	googlebotUA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	gptbotUA    = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
)

const testPolicy = `enforce = "block"

[[group]]
categories = ["ai-training"]
disallow = ["/"]

[[group]]
agents = ["*"]
disallow = ["/private/"]

[[header]]
path = "/*.pdf$"
x_robots_tag = "noindex, nofollow"

[[header]]
path = "/drafts/"
content_usage = "train-ai=n"
`

// upstream answers every request with its path.
var upstream = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	io.WriteString(w, "upstream "+r.URL.Path)
})

// testHosts are the fixtures' Options.Hosts unless a test gives its own:
// the test servers' address and the name the signatures are made for.
var testHosts = []string{"127.0.0.1", "site.example"}

type fixture struct {
	srv *httptest.Server
	log *bytes.Buffer
	g   *Gate
}

// newFixture serves the gate on loopback; the verifier is offline (IP
// lists only) unless v is given.
func newFixture(t *testing.T, src string, o Options) *fixture {
	t.Helper()
	p, err := policy.Parse("site.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{log: &bytes.Buffer{}}
	o.Logger = slog.New(slog.NewJSONHandler(f.log, nil))
	if o.Verifier == nil {
		o.Verifier = &identity.Verifier{}
	}
	if o.Hosts == nil { // an empty, non-nil list stays empty
		o.Hosts = testHosts
	}
	f.g = New(p, upstream, o)
	f.srv = httptest.NewServer(f.g)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fixture) get(t *testing.T, path, ua string, hdr ...string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, f.srv.URL+path, nil)
	req.Header.Set("User-Agent", ua)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func body(t *testing.T, r *http.Response) string {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// records decodes the decision log.
func (f *fixture) records(t *testing.T) []map[string]any {
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(f.log.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

func TestBrowserPasses(t *testing.T) {
	f := newFixture(t, testPolicy, Options{})
	for _, path := range []string{"/", "/private/x", "/a.pdf"} {
		r := f.get(t, path, browserUA)
		if r.StatusCode != 200 || body(t, r) != "upstream "+path {
			t.Errorf("browser %s: %d", path, r.StatusCode)
		}
	}
	recs := f.records(t)
	if len(recs) != 3 || recs[0]["action"] != "allow" || recs[0]["reason"] != "not a crawler" {
		t.Errorf("log %v", recs)
	}
}

func TestRobotsTxtServedToEveryone(t *testing.T) {
	f := newFixture(t, testPolicy, Options{})
	for _, ua := range []string{browserUA, gptbotUA, googlebotUA /* spoofed: loopback */} {
		r := f.get(t, "/robots.txt", ua)
		b := body(t, r)
		if r.StatusCode != 200 || !bytes.Equal([]byte(b), f.g.p.RobotsTxt()) {
			t.Fatalf("%s: %d\n%s", ua, r.StatusCode, b)
		}
		if r.Header.Get("ETag") == "" || r.Header.Get("Cache-Control") != "public, max-age=3600" || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/plain") {
			t.Errorf("headers %v", r.Header)
		}
		if r2 := f.get(t, "/robots.txt", ua, "If-None-Match", r.Header.Get("ETag")); r2.StatusCode != http.StatusNotModified {
			t.Errorf("If-None-Match: %d", r2.StatusCode)
		}
	}
	// /.well-known/ is never refused either.
	if r := f.get(t, "/.well-known/security.txt", gptbotUA); r.StatusCode != 200 {
		t.Errorf("GPTBot /.well-known/: %d", r.StatusCode)
	}
	if r := f.get(t, "/blog/", gptbotUA); r.StatusCode != 403 {
		t.Errorf("GPTBot /blog/: %d, want 403", r.StatusCode)
	}
}

func TestSpoofedGooglebot(t *testing.T) {
	// Under block: refused, on any path, and logged.
	f := newFixture(t, testPolicy, Options{})
	r := f.get(t, "/public", googlebotUA)
	if r.StatusCode != 403 || !strings.Contains(body(t, r), "spoofed Googlebot") {
		t.Fatalf("spoofed Googlebot under block: %d", r.StatusCode)
	}
	recs := f.records(t)
	if len(recs) != 1 || recs[0]["action"] != "refuse" || recs[0]["identity"] != "spoofed" || recs[0]["status"] != 403.0 ||
		recs[0]["client_ip"] != "127.0.0.1" || recs[0]["crawler"] != "Googlebot" {
		t.Errorf("log %v", recs)
	}
	// Under log: passed on, logged as what block would have done.
	f = newFixture(t, strings.Replace(testPolicy, `"block"`, `"log"`, 1), Options{})
	if r := f.get(t, "/public", googlebotUA); r.StatusCode != 200 {
		t.Fatalf("spoofed Googlebot under log: %d", r.StatusCode)
	}
	recs = f.records(t)
	if len(recs) != 1 || recs[0]["action"] != "log-only" || recs[0]["identity"] != "spoofed" || recs[0]["status"] != 200.0 || recs[0]["level"] != "WARN" {
		t.Errorf("log %v", recs)
	}
	// Under off: passed on, nothing judged or logged.
	f = newFixture(t, strings.Replace(testPolicy, `"block"`, `"off"`, 1), Options{})
	if r := f.get(t, "/private/x", googlebotUA); r.StatusCode != 200 || f.log.Len() != 0 {
		t.Fatalf("under off: %d, log %q", r.StatusCode, f.log)
	}
}

// TestVerifiedCrawler runs reverse DNS against a loopback DNS server that
// confirms 127.0.0.2 as a Googlebot, and a proxy in -trust forwarding it.
func TestVerifiedCrawler(t *testing.T) {
	ip := netip.MustParseAddr("127.0.0.2")
	dns, err := dnstest.Start(dnstest.Zone{
		PTR:   map[netip.Addr][]string{ip: {"crawl-127-0-0-2.googlebot.com"}},
		Addrs: map[string][]netip.Addr{"crawl-127-0-0-2.googlebot.com": {ip}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dns.Close() })
	f := newFixture(t, testPolicy, Options{
		Verifier: &identity.Verifier{Resolver: identity.NewResolver(dns.Addr), Timeout: 10 * time.Second},
		Trust:    []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")},
	})
	if r := f.get(t, "/public", googlebotUA, "X-Forwarded-For", "127.0.0.2"); r.StatusCode != 200 {
		t.Errorf("verified Googlebot /public: %d", r.StatusCode)
	}
	r := f.get(t, "/private/x", googlebotUA, "X-Forwarded-For", "127.0.0.2")
	if b := body(t, r); r.StatusCode != 403 || !strings.Contains(b, "disallowed by robots.txt line") {
		t.Errorf("verified Googlebot /private/x: %d %s", r.StatusCode, b)
	}
	recs := f.records(t)
	if len(recs) != 2 || recs[1]["identity"] != "verified" || recs[1]["client_ip"] != "127.0.0.2" || recs[1]["robots_line"] == nil {
		t.Errorf("log %v", recs)
	}
	// An untrusted peer's X-Forwarded-For is ignored: judged as 127.0.0.1.
	f.g.o.Trust = nil
	if r := f.get(t, "/public", googlebotUA, "X-Forwarded-For", "127.0.0.2"); r.StatusCode != 403 {
		t.Errorf("X-Forwarded-For from an untrusted peer believed: %d", r.StatusCode)
	}
}

func TestHeadersOnMatchingPathsOnly(t *testing.T) {
	f := newFixture(t, testPolicy, Options{})
	for _, tc := range []struct {
		path, xrt, cu string
	}{
		{"/docs/a.pdf", "noindex, nofollow", ""},
		{"/docs/a.pdf.html", "", ""},
		{"/docs/a.html", "", ""},
		{"/drafts/b.pdf", "noindex, nofollow", "train-ai=n"},
		{"/drafts", "", ""},
		// Matched on the canonical path: the origin serves these as
		// /drafts/b.pdf and /docs/a.pdf.
		{"/%64rafts/b.pdf", "noindex, nofollow", "train-ai=n"},
		{"/docs/./x/../a.pdf", "noindex, nofollow", ""},
	} {
		r := f.get(t, tc.path, browserUA)
		if got := strings.Join(r.Header.Values("X-Robots-Tag"), "|"); got != tc.xrt {
			t.Errorf("%s: X-Robots-Tag %q, want %q", tc.path, got, tc.xrt)
		}
		if got := r.Header.Get("Content-Usage"); got != tc.cu {
			t.Errorf("%s: Content-Usage %q, want %q", tc.path, got, tc.cu)
		}
	}
}

// TestLogIsAnAccessLog reads the decision log with package accesslog, as
// rep audit does (cmd/rep's gate test runs rep audit itself).
func TestLogIsAnAccessLog(t *testing.T) {
	f := newFixture(t, testPolicy, Options{})
	f.get(t, "/a?b=c", browserUA)
	f.get(t, "/private/x", googlebotUA)
	format, err := accesslog.Detect(f.log.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	p, err := format.NewParser(accesslog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(f.log.String()), "\n")
	var rec accesslog.Record
	if err := p.Parse([]byte(lines[1]), &rec); err != nil {
		t.Fatalf("%s: %v", format, err)
	}
	if string(rec.IP) != "127.0.0.1" || string(rec.Method) != "GET" || string(rec.Target) != "/private/x" || rec.Status != 403 ||
		string(rec.UserAgent) != googlebotUA || rec.Time == 0 {
		t.Errorf("record %+v", rec)
	}
	if err := p.Parse([]byte(lines[0]), &rec); err != nil || string(rec.Target) != "/a?b=c" || rec.Status != 200 {
		t.Errorf("record %+v, %v", rec, err)
	}
}

func TestForwardAuth(t *testing.T) {
	f := newFixture(t, testPolicy, Options{Trust: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}})
	fa := httptest.NewServer(f.g.ForwardAuth(Caddy))
	t.Cleanup(fa.Close)
	ask := func(uri, ua, ip string) int {
		req, _ := http.NewRequest(http.MethodGet, fa.URL+"/auth", nil)
		req.Header.Set("User-Agent", ua)
		req.Header.Set("X-Forwarded-Uri", uri)
		req.Header.Set("X-Forwarded-Method", "GET")
		req.Header.Set("X-Forwarded-For", ip)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, tc := range []struct {
		uri, ua, ip string
		want        int
	}{
		{"/x", browserUA, "203.0.113.9", 200},
		{"/x", gptbotUA, "203.0.113.9", 403},
		{"/robots.txt", gptbotUA, "203.0.113.9", 200},
		{"/x", googlebotUA, "203.0.113.9", 403}, // not in Google's lists
		{"/x", googlebotUA, "66.249.66.1", 200}, // in Googlebot's list
		{"/private/", googlebotUA, "66.249.66.1", 403},
	} {
		if got := ask(tc.uri, tc.ua, tc.ip); got != tc.want {
			t.Errorf("%s %s from %s: %d, want %d", tc.uri, tc.ua, tc.ip, got, tc.want)
		}
	}
	if recs := f.records(t); len(recs) != 6 || recs[1]["uri"] != "/x" || recs[1]["client_ip"] != "203.0.113.9" {
		t.Errorf("log %v", recs)
	}
}

// TestForwardAuthRobots: the endpoint serves the policy's robots.txt to a
// request the proxy passed on, even one whose client added a front's URI
// header: a question is never asked at /robots.txt, and reading that
// header would log a decision the client wrote.
func TestForwardAuthRobots(t *testing.T) {
	f := newFixture(t, testPolicy, Options{})
	fa := httptest.NewServer(f.g.ForwardAuth(Nginx))
	t.Cleanup(fa.Close)
	resp, err := http.Get(fa.URL + "/robots.txt")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Equal(body, f.g.robots) || resp.Header.Get("ETag") != f.g.etag {
		t.Errorf("robots.txt: %d %q %q", resp.StatusCode, resp.Header.Get("ETag"), body)
	}
	req, _ := http.NewRequest(http.MethodGet, fa.URL+"/robots.txt", nil)
	req.Header.Set("X-Original-URI", "/x")
	req.Header.Set("User-Agent", gptbotUA)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Equal(body, f.g.robots) {
		t.Errorf("/robots.txt with X-Original-URI: %d %q", resp.StatusCode, body)
	}
	recs := f.records(t)
	if len(recs) != 2 {
		t.Errorf("%d records, want the two robots.txt fetches: %v", len(recs), recs)
	}
	for _, rec := range recs {
		if rec["uri"] != "/robots.txt" {
			t.Errorf("logged %v, want /robots.txt only", rec)
		}
	}
}
