package robotsfetch

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/internal/netguard"
	"github.com/rep-toolkit/rep/internal/testkit"
)

const robotsBody = "User-agent: *\nDisallow: /private\n\nUser-agent: ExampleBot\nDisallow: /\n"

// site is a test origin: it counts requests and answers with handler.
type site struct {
	*httptest.Server
	hits atomic.Int64
	mu   sync.Mutex
	last *http.Request
}

func newSite(t testing.TB, h http.HandlerFunc) *site {
	t.Helper()
	s := &site{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		s.mu.Lock()
		s.last = r.Clone(context.Background())
		s.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *site) lastRequest() *http.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

func text(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, body)
	}
}

func status(code int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(code) }
}

func newFetcher(t *testing.T, o Options) *Fetcher {
	t.Helper()
	if o.UserAgent == "" {
		o.UserAgent = "ExampleBot/1.0 (+https://example.com/bot)"
	}
	f, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func get(t *testing.T, f *Fetcher, url string) *Robots {
	t.Helper()
	r, err := f.Get(context.Background(), url)
	if err != nil {
		t.Fatalf("Get(%s): %v", url, err)
	}
	return r
}

// TestStatusTable covers every row of the status table: what each response
// means for a crawler that no group names ("OtherBot") at /private/x and /.
func TestStatusTable(t *testing.T) {
	tests := []struct {
		name    string
		h       http.HandlerFunc
		rule    Case
		verdict Verdict
		status  int
		private bool // OtherBot may fetch /private/x
		root    bool // OtherBot may fetch /
	}{
		{"200", text(robotsBody), Success, UseRules, 200, false, true},
		{"200 empty", text(""), Success, UseRules, 200, true, true},
		{"204", status(204), Success, UseRules, 204, true, true},
		{"203 with rules", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(203)
			fmt.Fprint(w, robotsBody)
		}, Success, UseRules, 203, false, true},
		// RFC 9309 §2.3.1.1: every 2xx is a success, 299 the last.
		{"299", status(299), Success, UseRules, 299, true, true},
		{"300", status(300), BadRedirect, AllowAll, 300, true, true},
		// §2.3.1.2: 3xx are redirects; one that cannot be followed,
		// 399 the last of them, makes the file unavailable.
		{"399", status(399), BadRedirect, AllowAll, 399, true, true},
		{"302 without Location", status(302), BadRedirect, AllowAll, 302, true, true},
		{"304 unasked", status(304), BadRedirect, AllowAll, 304, true, true},
		{"400", status(400), Unavailable, AllowAll, 400, true, true},
		{"401", status(401), Unavailable, AllowAll, 401, true, true},
		{"403", status(403), Unavailable, AllowAll, 403, true, true},
		{"404", status(404), Unavailable, AllowAll, 404, true, true},
		{"410", status(410), Unavailable, AllowAll, 410, true, true},
		{"451", status(451), Unavailable, AllowAll, 451, true, true},
		// §2.3.1.3: every 4xx but 429 (Google) makes the file
		// unavailable, 499 the last.
		{"499", status(499), Unavailable, AllowAll, 499, true, true},
		{"429", status(429), Unreachable, DisallowAll, 429, false, false},
		{"500", status(500), Unreachable, DisallowAll, 500, false, false},
		{"502", status(502), Unreachable, DisallowAll, 502, false, false},
		{"503", status(503), Unreachable, DisallowAll, 503, false, false},
		{"504", status(504), Unreachable, DisallowAll, 504, false, false},
		{"599", status(599), Unreachable, DisallowAll, 599, false, false},
		{"600", status(600), Unreachable, DisallowAll, 600, false, false},
		{"connection closed", func(w http.ResponseWriter, r *http.Request) {
			c, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				c.Close()
			}
		}, Unreachable, DisallowAll, 0, false, false},
		{"unsupported encoding", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "br")
			fmt.Fprint(w, "\x0b\x02\x80garbage")
		}, Unreachable, DisallowAll, 200, false, false},
		{"deflate too short for a header", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "deflate")
			fmt.Fprint(w, "x")
		}, Unreachable, DisallowAll, 200, false, false},
		{"deflate with no body", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "deflate")
		}, Unreachable, DisallowAll, 200, false, false},
		{"corrupt gzip", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "gzip")
			fmt.Fprint(w, "not gzip at all")
		}, Unreachable, DisallowAll, 200, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSite(t, tt.h)
			f := newFetcher(t, Options{})
			r := get(t, f, s.URL+"/some/page")
			o := r.Outcome
			if o.Case != tt.rule || o.Verdict != tt.verdict || o.Status != tt.status {
				t.Fatalf("got %s/%s/%d, want %s/%s/%d (%s)", o.Case, o.Verdict, o.Status, tt.rule, tt.verdict, tt.status, o.String())
			}
			if got := r.Check(s.URL+"/private/x", "OtherBot").Allowed; got != tt.private {
				t.Errorf("/private/x allowed = %v, want %v", got, tt.private)
			}
			if got := r.Check("/", "OtherBot").Allowed; got != tt.root {
				t.Errorf("/ allowed = %v, want %v", got, tt.root)
			}
			if (tt.rule == Unreachable || tt.rule == BadRedirect) != (o.Error != "") {
				t.Errorf("Error = %q for rule %s", o.Error, o.Case)
			}
			if o.Origin != s.URL || o.URL != s.URL+"/robots.txt" {
				t.Errorf("origin %q url %q", o.Origin, o.URL)
			}
			if o.Case == Unreachable && o.DownSince.IsZero() {
				t.Error("unreachable without DownSince")
			}
		})
	}
}

func TestNetworkErrors(t *testing.T) {
	// Connection refused: a listener closed before the fetch.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	f := newFetcher(t, Options{})
	r := get(t, f, "http://"+addr+"/")
	if r.Outcome.Case != Unreachable || r.Outcome.Verdict != DisallowAll || !strings.Contains(r.Outcome.Error, "refused") {
		t.Errorf("refused: %s", r.Outcome.String())
	}

	// DNS failure, injected through the client's dialer: no test may send
	// a query to a real resolver.
	dnsErr := &net.DNSError{Err: "no such host", Name: "robots.invalid", IsNotFound: true}
	c := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		return nil, &net.OpError{Op: "dial", Net: network, Err: dnsErr}
	}}}
	f = newFetcher(t, Options{Client: c})
	r = get(t, f, "https://robots.invalid/x")
	if r.Outcome.Case != Unreachable || !strings.Contains(r.Outcome.Error, "no such host") {
		t.Errorf("dns: %s", r.Outcome.String())
	}
	if r.Check("/x").Allowed {
		t.Error("allowed after a DNS error")
	}
}

func TestRequestHeaders(t *testing.T) {
	s := newSite(t, text(robotsBody))
	f := newFetcher(t, Options{UserAgent: "Mozilla/5.0 (compatible; ExampleBot/2.0)"})
	get(t, f, s.URL)
	req := s.lastRequest()
	if req.URL.Path != "/robots.txt" {
		t.Errorf("path %q", req.URL.Path)
	}
	if ua := req.Header.Get("User-Agent"); ua != "Mozilla/5.0 (compatible; ExampleBot/2.0)" {
		t.Errorf("User-Agent %q", ua)
	}
	if ae := req.Header.Get("Accept-Encoding"); ae != "gzip, deflate" {
		t.Errorf("Accept-Encoding %q", ae)
	}
	if _, err := New(Options{}); err == nil {
		t.Error("New without a UserAgent succeeded")
	}
	if _, err := New(Options{UserAgent: "x", Guard: true, Client: http.DefaultClient}); err == nil {
		t.Error("Guard with a Client succeeded")
	}
}

// redirector serves hops redirects, alternating between two hosts, before
// the robots.txt on the last one.
func redirector(t *testing.T, hops int) (first *site, last *site) {
	var a, b *site
	handler := func(self **site, other **site) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			var n int
			fmt.Sscanf(r.URL.Query().Get("n"), "%d", &n)
			if n >= hops {
				text("User-agent: *\nDisallow: /final-rules\n")(w, r)
				return
			}
			code := []int{301, 302, 307, 308, 303}[n%5]
			http.Redirect(w, r, fmt.Sprintf("%s/robots-%d.txt?n=%d", (*other).URL, n+1, n+1), code)
		}
	}
	a = newSite(t, handler(&a, &b))
	b = newSite(t, handler(&b, &a))
	if hops%2 == 0 {
		return a, a
	}
	return a, b
}

func TestRedirects(t *testing.T) {
	for _, hops := range []int{1, 2, 5, 6, 9} {
		t.Run(fmt.Sprint(hops), func(t *testing.T) {
			first, last := redirector(t, hops)
			f := newFetcher(t, Options{})
			r := get(t, f, first.URL+"/page")
			o := r.Outcome
			if o.Origin != first.URL {
				t.Errorf("origin %q, want the original %q", o.Origin, first.URL)
			}
			if hops <= 5 {
				if o.Case != Success || len(o.Redirects) != hops || !strings.HasPrefix(o.FinalURL, last.URL) {
					t.Fatalf("%d hops: %s, %d redirects", hops, o.String(), len(o.Redirects))
				}
				// The file reached is applied to the original origin.
				if r.Check(first.URL+"/final-rules/x").Allowed || !r.Check(first.URL+"/other").Allowed {
					t.Error("final rules not applied to the original origin")
				}
				return
			}
			if o.Case != TooManyRedirects || o.Verdict != AllowAll || len(o.Redirects) != 5 {
				t.Fatalf("%d hops: %s, %d redirects", hops, o.String(), len(o.Redirects))
			}
			if !r.Check(first.URL + "/final-rules/x").Allowed {
				t.Error("too many redirects must allow all")
			}
		})
	}
}

func TestRedirectToOtherScheme(t *testing.T) {
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "ftp://example.com/robots.txt", http.StatusMovedPermanently)
	})
	r := get(t, newFetcher(t, Options{}), s.URL)
	if r.Outcome.Case != BadRedirect || r.Outcome.Verdict != AllowAll {
		t.Errorf("%s", r.Outcome.String())
	}
}

// TestTimeouts: a server that never answers, and one that sends its
// headers and then trickles the body forever. Both are unreachable.
func TestTimeouts(t *testing.T) {
	never := newSite(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	trickle := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "User-agent: *\n")
		w.(http.Flusher).Flush()
		for {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(20 * time.Millisecond):
				fmt.Fprint(w, "#")
				w.(http.Flusher).Flush()
			}
		}
	})
	// Each server meets one limit whatever the load on the machine: the
	// trickle's headers come at once, and only the body can end its
	// fetch (its header limit is generous).
	f := newFetcher(t, Options{HeaderTimeout: 200 * time.Millisecond})
	ft := newFetcher(t, Options{HeaderTimeout: time.Minute, BodyTimeout: 300 * time.Millisecond})
	for _, tc := range []struct {
		f *Fetcher
		s *site
	}{{f, never}, {ft, trickle}} {
		r := get(t, tc.f, tc.s.URL)
		if r.Outcome.Case != Unreachable || r.Check("/").Allowed {
			t.Errorf("%s", r.Outcome.String())
		}
	}
	// The cause is named once: the read's error already carries it.
	if r := get(t, ft, trickle.URL); strings.Count(r.Outcome.Error, "body timeout") != 1 {
		t.Errorf("trickle error %q does not name the body timeout once", r.Outcome.Error)
	}
	// The whole-attempt timeout also bounds a server slow on headers.
	f = newFetcher(t, Options{Timeout: 200 * time.Millisecond})
	if r := get(t, f, never.URL); r.Outcome.Case != Unreachable {
		t.Errorf("overall timeout: %s", r.Outcome.String())
	}
}

// TestConnectTimeout: ConnectTimeout bounds the connection set-up, TLS
// handshake included. The server accepts TCP connections on a loopback port
// and never says a word, so an https fetch hangs in the handshake until
// ConnectTimeout ends it, well before the other limits.
func TestConnectTimeout(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c) // held open, silent
			mu.Unlock()
		}
	}()
	defer func() {
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	}()
	f := newFetcher(t, Options{ConnectTimeout: 300 * time.Millisecond, HeaderTimeout: 20 * time.Second, Timeout: 30 * time.Second})
	r := get(t, f, "https://"+ln.Addr().String()+"/page")
	if r.Outcome.Case != Unreachable || r.Check("/").Allowed {
		t.Errorf("%s", r.Outcome.String())
	}
	// The error names the limit that ended the fetch: the handshake's,
	// not the 20 s header or 30 s overall limit.
	if !strings.Contains(r.Outcome.Error, "handshake timeout") {
		t.Errorf("error %q does not name the handshake timeout", r.Outcome.Error)
	}
}

// TestEndlessBody: a body that never ends is read up to the limit; the
// lines before it apply.
func TestEndlessBody(t *testing.T) {
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
		line := []byte("# padding padding padding padding padding padding\n")
		for r.Context().Err() == nil {
			if _, err := w.Write(line); err != nil {
				return
			}
		}
	})
	f := newFetcher(t, Options{MaxBytes: 64 << 10})
	r := get(t, f, s.URL)
	o := r.Outcome
	if o.Case != Success || !o.Has(WarnTruncated) || o.Bytes != 64<<10+1 {
		t.Fatalf("%s bytes=%d warnings=%v", o.String(), o.Bytes, o.Warnings)
	}
	if r.Check("/private/x").Allowed || !r.Check("/public").Allowed {
		t.Error("rules before the limit not applied")
	}
	if !r.File.Truncated() {
		t.Error("file not marked truncated")
	}
}

// TestTenMegabytes: a 10 MB body with a rule past the 500 KiB limit.
func TestTenMegabytes(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("User-agent: *\nDisallow: /early\n")
	for b.Len() < 600<<10 {
		b.WriteString("Allow: /filler/line/to/pass/the/limit\n")
	}
	b.WriteString("Disallow: /late\n")
	for b.Len() < 10<<20 {
		b.WriteString("# more filler, never read\n")
	}
	body := b.Bytes()
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) { w.Write(body) })
	r := get(t, newFetcher(t, Options{}), s.URL)
	if r.Outcome.Bytes != 500<<10+1 || !r.Outcome.Has(WarnTruncated) {
		t.Fatalf("bytes %d, warnings %v", r.Outcome.Bytes, r.Outcome.Warnings)
	}
	if r.Check("/early").Allowed || !r.Check("/late").Allowed {
		t.Error("the limit did not cut the file")
	}
}

func compressed(t *testing.T, enc string, data []byte) []byte {
	var b bytes.Buffer
	var w interface {
		Write([]byte) (int, error)
		Close() error
	}
	switch enc {
	case "gzip":
		w, _ = gzip.NewWriterLevel(&b, gzip.BestCompression)
	case "zlib":
		w, _ = zlib.NewWriterLevel(&b, zlib.BestCompression)
	case "flate":
		w, _ = flate.NewWriter(&b, flate.BestCompression)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	w.Close()
	return b.Bytes()
}

// TestGzipBomb: 1 GiB of newlines in about 1 MB of gzip (a multi-member
// stream: one member with the rules, then 4,096 copies of a member holding
// 256 KiB of newlines). Only MaxBytes+1 decoded bytes are ever produced.
func TestGzipBomb(t *testing.T) {
	pad := compressed(t, "gzip", bytes.Repeat([]byte("\n"), 256<<10))
	bomb := append(compressed(t, "gzip", []byte("User-agent: *\nDisallow: /bomb\n")), bytes.Repeat(pad, 4096)...)
	if len(bomb) > 2<<20 {
		t.Fatalf("bomb is %d bytes", len(bomb))
	}
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(bomb)
	})
	r := get(t, newFetcher(t, Options{}), s.URL)
	o := r.Outcome
	if o.Case != Success || o.Bytes != 500<<10+1 || !o.Has(WarnTruncated) || o.ContentEncoding != "gzip" {
		t.Fatalf("%s bytes=%d warnings=%v", o.String(), o.Bytes, o.Warnings)
	}
	if r.Check("/bomb").Allowed {
		t.Error("rule before the bomb's padding not applied")
	}
}

func TestEncodings(t *testing.T) {
	for _, enc := range []struct{ header, writer string }{{"gzip", "gzip"}, {"x-gzip", "gzip"}, {"deflate", "zlib"}, {"deflate", "flate"}, {"identity", ""}, {" Identity ", ""}} {
		t.Run(enc.header+"/"+enc.writer, func(t *testing.T) {
			body := []byte(robotsBody)
			if enc.writer != "" {
				body = compressed(t, enc.writer, body)
			}
			s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Encoding", enc.header)
				w.Write(body)
			})
			r := get(t, newFetcher(t, Options{}), s.URL)
			if r.Outcome.Case != Success || r.Outcome.Bytes != len(robotsBody) || r.Check("/private").Allowed {
				t.Errorf("%s bytes=%d", r.Outcome.String(), r.Outcome.Bytes)
			}
		})
	}
}

const loginPage = `<!DOCTYPE html>
<html lang="en"><head><title>Sign in</title></head>
<body><form action="/login" method="post">
Username: <input name="user"> Disallow: <input name="pw" type="password">
</form></body></html>
`

// TestHTML: an HTML login page served with 200 is parsed as robots.txt,
// as Google does: it holds no rules, so everything is allowed, with
// warnings. A text/html body that is a real robots.txt still counts.
func TestHTML(t *testing.T) {
	html := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, body)
		}
	}
	s := newSite(t, html(loginPage))
	r := get(t, newFetcher(t, Options{}), s.URL)
	o := r.Outcome
	if o.Case != Success || !o.Has(WarnHTML) || !o.Has(WarnContentType) || !r.Check("/login").Allowed || !r.Check("/").Allowed {
		t.Errorf("login page: %s warnings=%v", o.String(), o.Warnings)
	}
	// The same page served as text/plain still looks like HTML.
	s = newSite(t, text("  <!-- x -->\n<HTML><body>Sorry</body></HTML>"))
	if r = get(t, newFetcher(t, Options{}), s.URL); !r.Outcome.Has(WarnHTML) || r.Outcome.Has(WarnContentType) {
		t.Errorf("text/plain HTML: warnings %v", r.Outcome.Warnings)
	}
	s = newSite(t, html(robotsBody))
	r = get(t, newFetcher(t, Options{}), s.URL)
	if r.Outcome.Has(WarnHTML) || !r.Outcome.Has(WarnContentType) || r.Check("/private").Allowed {
		t.Errorf("robots.txt as text/html: %s warnings=%v", r.Outcome.String(), r.Outcome.Warnings)
	}
}

// TestContentTypeWarning: RFC 9309 §2.3 says the file MUST be text/plain;
// any other media type is parsed all the same, with WarnContentType. A
// response with no Content-Type is not warned about.
func TestContentTypeWarning(t *testing.T) {
	for _, tt := range []struct {
		ct   []string // nil: no Content-Type header at all
		warn bool
	}{
		{nil, false},
		{[]string{"text/plain"}, false},
		{[]string{"text/plain; charset=utf-8"}, false},
		{[]string{"Text/Plain"}, false},
		{[]string{"text/html"}, true},
		{[]string{"application/octet-stream"}, true},
		{[]string{"text/plain;;"}, true},
	} {
		s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header()["Content-Type"] = tt.ct // nil keeps the server from sniffing one
			fmt.Fprint(w, robotsBody)
		})
		r := get(t, newFetcher(t, Options{}), s.URL)
		if o := r.Outcome; o.Case != Success || o.Has(WarnContentType) != tt.warn || r.Check("/private").Allowed {
			t.Errorf("Content-Type %q: %s, warnings %v; want content-type %v", tt.ct, o.String(), o.Warnings, tt.warn)
		}
	}
}

func TestCacheControl(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	date := now.Format(http.TimeFormat)
	tests := []struct {
		name    string
		headers map[string]string
		ttl     time.Duration
		noStore bool
	}{
		{"nothing", nil, 24 * time.Hour, false},
		{"max-age", map[string]string{"Cache-Control": "public, max-age=3600"}, time.Hour, false},
		{"max-age over the cap", map[string]string{"Cache-Control": "max-age=31536000"}, 24 * time.Hour, false},
		{"max-age=0", map[string]string{"Cache-Control": "max-age=0"}, 0, false},
		{"max-age minus Age", map[string]string{"Cache-Control": "max-age=600", "Age": "100"}, 500 * time.Second, false},
		{"Age over max-age", map[string]string{"Cache-Control": "max-age=60", "Age": "100"}, 0, false},
		{"invalid max-age", map[string]string{"Cache-Control": "max-age=soon"}, 0, false},
		{"quoted max-age", map[string]string{"Cache-Control": `max-age="120"`}, 2 * time.Minute, false},
		// Two max-age directives: the shorter lifetime wins, whichever
		// comes first, and however large the other.
		{"two max-age", map[string]string{"Cache-Control": "max-age=60, max-age=120"}, time.Minute, false},
		{"two max-age, the second past Duration", map[string]string{"Cache-Control": "max-age=60, max-age=10000000000"}, time.Minute, false},
		// RFC 9111 §1.2.2: a delta-seconds too large to represent is read
		// as the greatest value the cache can represent, not as invalid.
		{"max-age past int64", map[string]string{"Cache-Control": "max-age=99999999999999999999"}, 24 * time.Hour, false},
		{"negative max-age past int64", map[string]string{"Cache-Control": "max-age=-99999999999999999999"}, 0, false},
		{"Age past int64", map[string]string{"Cache-Control": "max-age=600", "Age": "99999999999999999999"}, 0, false},
		// max-age and Age are both read up to 2^32 seconds: past that,
		// the response is as old as it may live.
		{"max-age and Age past 2^32 s", map[string]string{"Cache-Control": "max-age=8589934592", "Age": "4294967296"}, 0, false},
		{"Age 1", map[string]string{"Cache-Control": "max-age=60", "Age": "1"}, 59 * time.Second, false},
		{"Age 0", map[string]string{"Cache-Control": "max-age=60", "Age": "0"}, time.Minute, false},
		{"negative Age ignored", map[string]string{"Cache-Control": "max-age=60", "Age": "-5"}, time.Minute, false},
		{"no-cache", map[string]string{"Cache-Control": "no-cache"}, 0, false},
		{"no-store", map[string]string{"Cache-Control": "No-Store"}, 0, true},
		{"max-age wins over Expires", map[string]string{"Cache-Control": "max-age=60", "Expires": now.Add(time.Hour).Format(http.TimeFormat)}, time.Minute, false},
		{"Expires", map[string]string{"Date": date, "Expires": now.Add(2 * time.Hour).Format(http.TimeFormat)}, 2 * time.Hour, false},
		{"Expires past", map[string]string{"Date": date, "Expires": now.Add(-time.Hour).Format(http.TimeFormat)}, 0, false},
		{"Expires over the cap", map[string]string{"Expires": now.Add(90 * 24 * time.Hour).Format(http.TimeFormat)}, 24 * time.Hour, false},
		{"Expires invalid", map[string]string{"Expires": "0"}, 0, false},
		{"Expires against a skewed Date", map[string]string{"Date": now.Add(-time.Hour).Format(http.TimeFormat), "Expires": now.Format(http.TimeFormat)}, time.Hour, false},
	}
	for _, tt := range tests {
		h := http.Header{}
		for k, v := range tt.headers {
			h.Set(k, v)
		}
		ttl, noStore := freshness(h, now, 24*time.Hour, 24*time.Hour)
		if ttl != tt.ttl || noStore != tt.noStore {
			t.Errorf("%s: ttl %v noStore %v, want %v %v", tt.name, ttl, noStore, tt.ttl, tt.noStore)
		}
	}
}

// TestRetryAfterValues: Retry-After (RFC 9110 §10.2.3) is delay-seconds
// or an HTTP date; anything else is no answer, and the retry interval
// applies.
func TestRetryAfterValues(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		value string
		d     time.Duration
		ok    bool
	}{
		{"", 0, false},
		{"120", 2 * time.Minute, true},
		{" 120 ", 2 * time.Minute, true},
		{"1", time.Second, true},
		{"0", 0, true},
		{"-1", 0, false},
		{"soon", 0, false},
		{"4294967296", 4294967296 * time.Second, true},
		{"4294967297", 4294967296 * time.Second, true},
		// RFC 9111 §1.2.2, as for max-age: too large to represent is
		// the greatest value, not garbage.
		{"99999999999999999999", 4294967296 * time.Second, true},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, true},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0, true},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.value != "" {
			h.Set("Retry-After", tt.value)
		}
		d, ok := retryAfter(h, now)
		if d != tt.d || ok != tt.ok {
			t.Errorf("Retry-After %q: %v, %v; want %v, %v", tt.value, d, ok, tt.d, tt.ok)
		}
	}
}

// TestCacheLifetime: the clock decides when a copy is fetched again.
func TestCacheLifetime(t *testing.T) {
	clk := newClock()
	var cc atomic.Value
	cc.Store("max-age=3600")
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", cc.Load().(string))
		fmt.Fprint(w, robotsBody)
	})
	store := &MemoryStore{Now: clk.Now}
	f := newFetcher(t, Options{Now: clk.Now, Store: store})
	r := get(t, f, s.URL)
	if !r.Outcome.ExpiresAt.Equal(clk.Now().Add(time.Hour)) {
		t.Errorf("expires %v", r.Outcome.ExpiresAt)
	}
	clk.Advance(59 * time.Minute)
	get(t, f, s.URL)
	if n := s.hits.Load(); n != 1 {
		t.Fatalf("%d requests within max-age", n)
	}
	clk.Advance(2 * time.Minute)
	cc.Store("no-store")
	r = get(t, f, s.URL)
	if n := s.hits.Load(); n != 2 || !r.Outcome.Has(WarnNoStore) {
		t.Fatalf("%d requests after max-age; warnings %v", n, r.Outcome.Warnings)
	}
	// no-store: reused for MinAge only, and the store keeps the older entry.
	if !r.Outcome.ExpiresAt.Equal(clk.Now().Add(DefaultMinAge)) {
		t.Errorf("no-store expires %v", r.Outcome.ExpiresAt.Sub(clk.Now()))
	}
	if e, _ := store.Get(context.Background(), StoreKey(s.URL, f.Options().UserAgent)); e == nil || e.Last.Has(WarnNoStore) {
		t.Errorf("no-store result written to the store: %+v", e)
	}
	clk.Advance(DefaultMinAge)
	get(t, f, s.URL)
	if n := s.hits.Load(); n != 3 {
		t.Fatalf("%d requests after MinAge", n)
	}
}

// TestRevalidation: a refresh is conditional; a 304 renews the copy.
func TestRevalidation(t *testing.T) {
	clk := newClock()
	var version atomic.Int64
	version.Store(1)
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		etag := fmt.Sprintf(`"v%d"`, version.Load())
		w.Header().Set("ETag", etag)
		w.Header().Set("Last-Modified", "Sun, 01 Mar 2026 10:00:00 GMT")
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		fmt.Fprintf(w, "User-agent: *\nDisallow: /v%d\n", version.Load())
	})
	f := newFetcher(t, Options{Now: clk.Now})
	r := get(t, f, s.URL)
	if r.Check("/v1").Allowed {
		t.Fatal("v1 rules not applied")
	}
	first := r.Outcome.FetchedAt
	clk.Advance(25 * time.Hour)
	r = get(t, f, s.URL)
	req := s.lastRequest()
	if req.Header.Get("If-None-Match") != `"v1"` || req.Header.Get("If-Modified-Since") != "Sun, 01 Mar 2026 10:00:00 GMT" {
		t.Errorf("refresh not conditional: %v", req.Header)
	}
	o := r.Outcome
	if o.Status != 304 || o.Source != FromRevalidation || o.Case != Success || !o.CopyFetchedAt.Equal(first) || r.Check("/v1").Allowed {
		t.Fatalf("after 304: %s source=%s", o.String(), o.Source)
	}
	if !o.ExpiresAt.Equal(clk.Now().Add(24 * time.Hour)) {
		t.Errorf("304 did not renew the copy: expires %v", o.ExpiresAt)
	}
	version.Store(2)
	clk.Advance(25 * time.Hour)
	r = get(t, f, s.URL)
	if r.Outcome.Status != 200 || !r.Check("/v1").Allowed || r.Check("/v2").Allowed {
		t.Errorf("changed file not picked up: %s", r.Outcome.String())
	}
}

// TestOutage: 31 days of 5xx. Everything is disallowed for 30 days, then
// the 30-day rule applies.
func TestOutage(t *testing.T) {
	tests := []struct {
		name   string
		good   bool // the origin served a robots.txt before the outage
		o      Options
		before Case
		after  Case
		// whether /public and /private/x are allowed after 30 days
		public, private bool
	}{
		{"google with copy", true, Options{}, Unreachable, OutageCopy, true, false},
		{"google without copy", false, Options{}, Unreachable, OutageAllow, true, true},
		{"allow all", true, Options{AfterOutage: OutageAllowAll}, Unreachable, OutageAllow, true, true},
		{"disallow", true, Options{AfterOutage: OutageDisallow}, Unreachable, Unreachable, false, false},
		{"stale if unreachable", true, Options{StaleIfUnreachable: true}, StaleCopy, OutageCopy, true, false},
		{"stale without copy", false, Options{StaleIfUnreachable: true}, Unreachable, OutageAllow, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := newClock()
			var down atomic.Bool
			down.Store(!tt.good)
			s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
				if down.Load() {
					w.WriteHeader(503)
					return
				}
				fmt.Fprint(w, robotsBody)
			})
			o := tt.o
			o.Now = clk.Now
			f := newFetcher(t, o)
			if tt.good {
				get(t, f, s.URL)
				clk.Advance(25 * time.Hour)
				down.Store(true)
			}
			start := clk.Now()
			r := get(t, f, s.URL)
			if !r.Outcome.DownSince.Equal(start) {
				t.Fatalf("down since %v, want %v", r.Outcome.DownSince, start)
			}
			for day := 1; ; day++ {
				if r.Outcome.Case != tt.before {
					t.Fatalf("day %d: %s, want %s", day, r.Outcome.Case, tt.before)
				}
				if tt.before == Unreachable && (r.Check("/public").Allowed || r.Outcome.Verdict != DisallowAll) {
					t.Fatalf("day %d: allowed while unreachable", day)
				}
				clk.Advance(24 * time.Hour)
				r = get(t, f, s.URL)
				if !r.Outcome.DownSince.Equal(start) {
					t.Fatalf("day %d: down since %v", day, r.Outcome.DownSince)
				}
				if day == 30 {
					break
				}
			}
			clk.Advance(24 * time.Hour) // day 31
			r = get(t, f, s.URL)
			if r.Outcome.Case != tt.after {
				t.Fatalf("day 31: %s, want %s", r.Outcome.String(), tt.after)
			}
			if got := r.Check("/public").Allowed; got != tt.public {
				t.Errorf("day 31: /public allowed %v", got)
			}
			if got := r.Check("/private/x").Allowed; got != tt.private {
				t.Errorf("day 31: /private/x allowed %v", got)
			}
			// The origin comes back: a normal fetch, the outage forgotten.
			down.Store(false)
			clk.Advance(24 * time.Hour)
			r = get(t, f, s.URL)
			if r.Outcome.Case != Success || !r.Outcome.DownSince.IsZero() {
				t.Errorf("after recovery: %s down since %v", r.Outcome.String(), r.Outcome.DownSince)
			}
		})
	}
}

func TestRetryAfter(t *testing.T) {
	clk := newClock()
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "120")
		w.WriteHeader(429)
	})
	f := newFetcher(t, Options{Now: clk.Now})
	r := get(t, f, s.URL)
	if r.Outcome.Case != Unreachable || !r.Outcome.ExpiresAt.Equal(clk.Now().Add(2*time.Minute)) {
		t.Errorf("%s expires in %v", r.Outcome.String(), r.Outcome.ExpiresAt.Sub(clk.Now()))
	}
	s2 := newSite(t, status(503))
	r = get(t, f, s2.URL)
	if !r.Outcome.ExpiresAt.Equal(clk.Now().Add(DefaultRetryInterval)) {
		t.Errorf("no Retry-After: expires in %v", r.Outcome.ExpiresAt.Sub(clk.Now()))
	}
}

// TestSingleflight: 1,000 goroutines ask for one origin; the server holds
// the response until they have all started. Exactly one request is made.
func TestSingleflight(t *testing.T) {
	const n = 1000
	var started atomic.Int64
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		testkit.Until(time.Minute, func() bool { return started.Load() >= n || r.Context().Err() != nil })
		fmt.Fprint(w, robotsBody)
	})
	f := newFetcher(t, Options{})
	var wg sync.WaitGroup
	var disallowed atomic.Int64
	for range n {
		wg.Go(func() {
			started.Add(1)
			r, err := f.Get(context.Background(), s.URL+"/private/x")
			if err != nil {
				t.Error(err)
				return
			}
			if !r.Check("/private/x", "OtherBot").Allowed {
				disallowed.Add(1)
			}
		})
	}
	wg.Wait()
	if h := s.hits.Load(); h != 1 {
		t.Fatalf("%d requests, want 1", h)
	}
	if disallowed.Load() != n {
		t.Fatalf("%d of %d answers disallowed", disallowed.Load(), n)
	}
}

// TestWaiterGivesUp: a caller whose context ends stops waiting; the fetch
// completes for the others.
func TestWaiterGivesUp(t *testing.T) {
	release := make(chan struct{})
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		<-release
		fmt.Fprint(w, robotsBody)
	})
	f := newFetcher(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := f.Get(ctx, s.URL); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	close(release)
	if r := get(t, f, s.URL); r.Outcome.Case != Success || s.hits.Load() != 1 {
		t.Errorf("%s, %d requests", r.Outcome.String(), s.hits.Load())
	}
}

func TestLRU(t *testing.T) {
	f := newFetcher(t, Options{MaxOrigins: 2})
	a, b, c := newSite(t, text(robotsBody)), newSite(t, text(robotsBody)), newSite(t, text(robotsBody))
	get(t, f, a.URL)
	get(t, f, b.URL)
	get(t, f, a.URL) // a is now the most recent
	get(t, f, c.URL) // evicts b
	if f.Len() != 2 {
		t.Fatalf("%d origins in memory", f.Len())
	}
	get(t, f, a.URL)
	get(t, f, b.URL)
	if a.hits.Load() != 1 || b.hits.Load() != 2 {
		t.Errorf("hits a=%d b=%d, want 1 and 2", a.hits.Load(), b.hits.Load())
	}
}

func TestGuard(t *testing.T) {
	s := newSite(t, text(robotsBody))
	f := newFetcher(t, Options{Guard: true})
	r := get(t, f, s.URL)
	if r.Outcome.Case != RefusedAddress || !r.Outcome.Refused || !strings.Contains(r.Outcome.Error, "netguard") || s.hits.Load() != 0 {
		t.Errorf("%s, refused=%v, %d hits", r.Outcome.String(), r.Outcome.Refused, s.hits.Load())
	}
	// An origin that is merely down is not "refused".
	down := newFetcher(t, Options{})
	if r := get(t, down, "http://127.0.0.1:1/"); r.Outcome.Refused {
		t.Errorf("a connection error is not a refusal: %s", r.Outcome.String())
	}
}

// TestGuardRefusalNeverAges: a refusal by the address guard is a refusal,
// never an outage: after 31 days of fake clock, fetched again every day,
// it stays disallowed whatever AfterOutage and StaleIfUnreachable say,
// and no outage start is recorded. An origin that answered once and then
// resolves to a refused address (DNS rebinding) is refused the same way:
// its good copy does not answer.
func TestGuardRefusalNeverAges(t *testing.T) {
	for _, tt := range []struct {
		name string
		o    Options
	}{
		{"use copy", Options{AfterOutage: OutageUseCopy}},
		{"allow all", Options{AfterOutage: OutageAllowAll}},
		{"stale copy", Options{StaleIfUnreachable: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			clk := newClock()
			s := newSite(t, text("User-agent: *\nAllow: /\n"))
			// The same origin, first reachable, then refused: a guard that
			// lets 127.0.0.1 through until told otherwise.
			var refuse atomic.Bool
			check := func(a netip.Addr) error {
				if refuse.Load() {
					return netguard.Check(a)
				}
				return nil
			}
			o := tt.o
			o.Now = clk.Now
			o.Client = netguard.NewClient(netguard.Options{Check: check, Timeout: -1})
			f := newFetcher(t, o)
			if r := get(t, f, s.URL); r.Outcome.Case != Success {
				t.Fatalf("first fetch: %s", r.Outcome.String())
			}
			refuse.Store(true)
			for day := 1; day <= 31; day++ {
				clk.Advance(24 * time.Hour)
				r := get(t, f, s.URL)
				o := r.Outcome
				if o.Case != RefusedAddress || o.Verdict != DisallowAll || !o.Refused || !o.DownSince.IsZero() || r.Check(s.URL+"/x").Allowed {
					t.Fatalf("day %d: %s (down since %v), want refused-address, disallow-all", day, o.String(), o.DownSince)
				}
				if !errors.Is(o.Err(), ErrRefused) {
					t.Fatalf("day %d: %v does not match ErrRefused", day, o.Err())
				}
			}
			if n := s.hits.Load(); n != 1 {
				t.Errorf("the origin got %d requests, want the first only", n)
			}
		})
	}
}

func TestGetErrors(t *testing.T) {
	f := newFetcher(t, Options{})
	for _, u := range []string{"/relative", "ftp://example.com/x", "http://", "http://%zz/", "mailto:x@example.com"} {
		if _, err := f.Get(context.Background(), u); err == nil {
			t.Errorf("Get(%q) succeeded", u)
		}
	}
	if f.Requests() != 0 {
		t.Error("a request was made for an invalid URL")
	}
}

// TestSharedStore: a second Fetcher (another crawler of the fleet) reads
// the first one's result from the store without a request.
func TestSharedStore(t *testing.T) {
	s := newSite(t, text(robotsBody))
	store := &MemoryStore{}
	get(t, newFetcher(t, Options{Store: store}), s.URL)
	r := get(t, newFetcher(t, Options{Store: store}), s.URL)
	if s.hits.Load() != 1 || r.Outcome.Source != FromStore || r.Check("/private").Allowed {
		t.Errorf("%d hits, %s from %s", s.hits.Load(), r.Outcome.String(), r.Outcome.Source)
	}
}

// brokenStore fails every call.
type brokenStore struct{}

func (brokenStore) Get(context.Context, string) (*Entry, error) {
	return nil, errors.New("store down")
}
func (brokenStore) Put(context.Context, string, *Entry, time.Duration) error {
	return errors.New("store down")
}

func TestBrokenStore(t *testing.T) {
	s := newSite(t, text(robotsBody))
	r := get(t, newFetcher(t, Options{Store: brokenStore{}}), s.URL)
	if r.Outcome.Case != Success || !r.Outcome.Has(WarnStoreFailed) || r.Outcome.StoreError != "store down" {
		t.Errorf("%s %v %q", r.Outcome.String(), r.Outcome.Warnings, r.Outcome.StoreError)
	}
}

func TestEntryVersion(t *testing.T) {
	e := &Entry{Origin: "https://example.com", Last: Outcome{Case: Success, Warnings: []Warning{WarnHTML}}, Good: &Copy{Case: Success, Body: []byte("x")}}
	b, err := Encode(e)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(b)
	if err != nil || got.Version != EntryVersion || got.Last.Case != Success || string(got.Good.Body) != "x" || !got.Last.Has(WarnHTML) {
		t.Fatalf("round trip: %+v %v", got, err)
	}
	future := bytes.Replace(b, []byte(`"v":3`), []byte(`"v":4`), 1)
	if _, err := Decode(future); !errors.Is(err, ErrVersion) {
		t.Errorf("version 4: %v", err)
	}
	// Version 2 was keyed by the origin alone, fetched for nobody known.
	if _, err := Decode([]byte(`{"v":2,"origin":"https://example.com","last":{"case":"success","verdict":"use-rules"}}`)); !errors.Is(err, ErrVersion) {
		t.Errorf("version 2: %v", err)
	}
	// Version 1 named the status table's row "rule": read as absent.
	if _, err := Decode([]byte(`{"v":1,"last":{"rule":"success","verdict":"use-rules"}}`)); !errors.Is(err, ErrVersion) {
		t.Errorf("version 1: %v", err)
	}
	if _, err := Decode([]byte(`{"last":{"rule":"success"}}`)); !errors.Is(err, ErrVersion) {
		t.Errorf("no version: %v", err)
	}
	if _, err := Decode([]byte(`{"v":3,"last":{"case":"bogus"}}`)); err == nil {
		t.Error("unknown case name decoded")
	}
	st := &MemoryStore{}
	st.m = map[string]memoryItem{"https://example.com": {data: future, expires: time.Now().Add(time.Hour)}}
	if got, err := st.Get(context.Background(), "https://example.com"); got != nil || err != nil {
		t.Errorf("memory store returned a future entry: %v %v", got, err)
	}
}
