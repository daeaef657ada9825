package gate

// The gate under attack, in both modes: every spelling of a path is judged
// as the path the origin serves, forged headers change neither a decision
// nor the log, and what cannot be judged is refused. Requests are written
// byte for byte on a TCP connection, so no client library normalises them
// first.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/crawlers/identity"
	"github.com/rep-toolkit/rep/policy"
)

// rawRequest sends a GET of target, exactly as written, with the headers
// (name, value pairs; a name may repeat) to the server at base, and
// returns the status and body.
func rawRequest(t *testing.T, base, target string, hdr ...string) (int, string) {
	t.Helper()
	addr := strings.TrimPrefix(base, "http://")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var b strings.Builder
	fmt.Fprintf(&b, "GET %s HTTP/1.1\r\n", target)
	host := addr
	for i := 0; i+1 < len(hdr); i += 2 {
		if strings.EqualFold(hdr[i], "Host") {
			host = hdr[i+1]
			continue
		}
		fmt.Fprintf(&b, "%s: %s\r\n", hdr[i], hdr[i+1])
	}
	fmt.Fprintf(&b, "Host: %s\r\nConnection: close\r\n\r\n", host)
	if _, err := io.WriteString(c, b.String()); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// pathForms are spellings of a path (%s, without its leading "/") that
// the origin serves as that path.
var pathForms = []string{
	"/%s",
	"/./%s",
	"//%s",
	"/.well-known/../%s",
	"/.well-known/./../%s",
	"/robots.txt/../%s",
	"/a/b/../../%s",
}

// spell applies an escape to the first letter of path: /%70rivate/x.
func spell(path string) string {
	return fmt.Sprintf("/%%%02x%s", path[1], path[2:])
}

// ambiguousForms are spellings origins resolve differently: refused.
var ambiguousForms = []string{
	"/.well-known/%%2e%%2e/%s",
	"/.well-known/..%%2f%s",
	"/.well-known/%%2E%%2E%%2F%s",
	"/.well-known/.%%2e/%s",
	"/.well-known/..;/%s",
	"/%s%%2f",
	"/.well-known\\..\\%s",
	"/.well-known/%%5c../%s",
}

// googlebotFrom is a Googlebot in Google's list, through the proxy the
// fixtures trust.
var googlebotFrom = []string{"User-Agent", googlebotUA, "X-Forwarded-For", "66.249.66.1"}

func TestPathFormsProxy(t *testing.T) {
	f := newFixture(t, testPolicy, Options{Trust: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	for _, p := range []struct {
		path    string
		allowed bool
	}{{"private/x", false}, {"public/x", true}} {
		forms := append([]string{spell("/" + p.path)}, pathForms...)
		for _, form := range forms {
			target := form
			if strings.Contains(form, "%s") {
				target = fmt.Sprintf(form, p.path)
			}
			t.Run(target, func(t *testing.T) {
				f.log.Reset()
				code, body := rawRequest(t, f.srv.URL, target, googlebotFrom...)
				switch {
				case p.allowed && (code != 200 || body != "upstream /"+p.path):
					t.Errorf("%d %q, want 200 and the origin asked for /%s", code, body, p.path)
				case !p.allowed && (code != 403 || strings.Contains(body, "upstream")):
					t.Errorf("%d %q, want 403", code, body)
				}
				recs := f.records(t)
				if len(recs) != 1 || recs[0]["uri"] != "/"+p.path || target != "/"+p.path && recs[0]["raw_uri"] != target {
					t.Errorf("log: %v", recs)
				}
			})
		}
		for _, form := range ambiguousForms {
			target := fmt.Sprintf(form, p.path)
			t.Run(target, func(t *testing.T) {
				f.log.Reset()
				// A browser too: the path cannot be passed on as it is.
				for _, ua := range [][]string{googlebotFrom, {"User-Agent", browserUA}} {
					code, body := rawRequest(t, f.srv.URL, target, ua...)
					if code != 400 || strings.Contains(body, "upstream") {
						t.Errorf("%s: %d %q, want 400", ua[1], code, body)
					}
				}
				for _, rec := range f.records(t) {
					if rec["action"] != "refuse" || rec["uri"] != target || !strings.HasPrefix(rec["reason"].(string), "ambiguous path") {
						t.Errorf("log: %v", rec)
					}
				}
			})
		}
	}
}

// question asks the forward-auth endpoint at base as front would, about
// target, with the client's own headers added.
func question(t *testing.T, base string, front Front, target string, client ...string) int {
	t.Helper()
	hdr := []string{front.URI, target, front.Method, "GET", front.Host, "127.0.0.1", front.Proto, "http"}
	if front.Client == "X-Real-IP" {
		hdr = append(hdr, "X-Real-IP", "66.249.66.1")
	} else {
		hdr = append(hdr, "X-Forwarded-For", "66.249.66.1")
	}
	code, _ := rawRequest(t, base, "/_rep_gate", append(client, hdr...)...)
	return code
}

func TestPathFormsForwardAuth(t *testing.T) {
	for _, front := range []Front{Nginx, Caddy, Traefik} {
		t.Run(front.Name, func(t *testing.T) {
			f := newFixture(t, testPolicy, Options{Trust: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
			fa := httptest.NewServer(f.g.ForwardAuth(front))
			t.Cleanup(fa.Close)
			for _, p := range []struct {
				path string
				want int
			}{{"private/x", 403}, {"public/x", 200}} {
				for _, form := range append([]string{spell("/" + p.path)}, pathForms...) {
					target := form
					if strings.Contains(form, "%s") {
						target = fmt.Sprintf(form, p.path)
					}
					// Behind a front that passes the client's spelling on,
					// a dot segment or "//" is refused: the origin might
					// resolve it otherwise.
					want, uri := p.want, "/"+p.path
					if !front.Resolves && strings.Contains(form, "/.") || !front.Resolves && strings.Contains(form, "//") {
						want, uri = 403, target
					}
					f.log.Reset()
					if code := question(t, fa.URL, front, target, "User-Agent", googlebotUA); code != want {
						t.Errorf("%s: %d, want %d", target, code, want)
					}
					if recs := f.records(t); len(recs) != 1 || recs[0]["uri"] != uri || recs[0]["client_ip"] != "66.249.66.1" {
						t.Errorf("%s: log %v", target, recs)
					}
				}
				for _, form := range ambiguousForms {
					target := fmt.Sprintf(form, p.path)
					if code := question(t, fa.URL, front, target, "User-Agent", browserUA); code != 403 {
						t.Errorf("%s from a browser: %d, want 403", target, code)
					}
				}
			}
		})
	}
}

// TestForgedHeaders: what a client adds to the headers a front sets
// changes neither the decision nor the log.
func TestForgedHeaders(t *testing.T) {
	f := newFixture(t, testPolicy, Options{Trust: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	nginx := httptest.NewServer(f.g.ForwardAuth(Nginx))
	t.Cleanup(nginx.Close)
	caddy := httptest.NewServer(f.g.ForwardAuth(Caddy))
	t.Cleanup(caddy.Close)
	for _, c := range []struct {
		name   string
		base   string
		hdr    []string
		want   int
		uri    string
		client string
	}{
		{"nginx: the client's X-Forwarded-Uri", nginx.URL,
			[]string{"X-Forwarded-Uri", "/robots.txt", "X-Forwarded-Method", "GET", "X-Original-URI", "/private/x", "X-Real-IP", "66.249.66.1", "User-Agent", googlebotUA},
			403, "/private/x", "66.249.66.1"},
		{"nginx: the client's X-Forwarded-For", nginx.URL,
			[]string{"X-Original-URI", "/public/x", "X-Forwarded-For", "66.249.66.1", "X-Real-IP", "203.0.113.9", "User-Agent", googlebotUA},
			403, "/public/x", "203.0.113.9"},
		{"Caddy: the client's X-Original-URI", caddy.URL,
			[]string{"X-Original-URI", "/robots.txt", "X-Forwarded-Uri", "/private/x", "X-Forwarded-For", "66.249.66.1", "User-Agent", googlebotUA},
			403, "/private/x", "66.249.66.1"},
		{"Caddy: the client's X-Real-IP", caddy.URL,
			[]string{"X-Real-IP", "66.249.66.1", "X-Forwarded-Uri", "/public/x", "X-Forwarded-For", "203.0.113.9", "User-Agent", googlebotUA},
			403, "/public/x", "203.0.113.9"},
		{"two original URIs", nginx.URL,
			[]string{"X-Original-URI", "/robots.txt", "X-Original-URI", "/private/x", "X-Real-IP", "66.249.66.1", "User-Agent", googlebotUA},
			403, "/_rep_gate", "127.0.0.1"},
		{"two User-Agents", nginx.URL,
			[]string{"X-Original-URI", "/public/x", "X-Real-IP", "203.0.113.9", "User-Agent", browserUA, "User-Agent", googlebotUA},
			403, "/public/x", "203.0.113.9"},
		{"a host not served", nginx.URL,
			[]string{"X-Original-URI", "/public/x", "X-Real-IP", "203.0.113.9", "X-Forwarded-Host", "other.example", "User-Agent", browserUA},
			403, "/public/x", "203.0.113.9"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f.log.Reset()
			code, _ := rawRequest(t, c.base, "/_rep_gate", c.hdr...)
			if code != c.want {
				t.Errorf("%d, want %d", code, c.want)
			}
			recs := f.records(t)
			if len(recs) != 1 || recs[0]["uri"] != c.uri || recs[0]["client_ip"] != c.client {
				t.Errorf("log: %v", recs)
			}
		})
	}

	// Through the reverse proxy: two User-Agents and a foreign host are
	// refused before the origin sees them.
	for _, c := range []struct {
		name string
		hdr  []string
		want int
	}{
		{"two User-Agents", []string{"User-Agent", browserUA, "User-Agent", gptbotUA}, 400},
		{"a host not served", []string{"User-Agent", browserUA, "Host", "other.example"}, 421},
		{"a host not served, by X-Forwarded-Host", []string{"User-Agent", browserUA, "X-Forwarded-Host", "other.example"}, 421},
		{"a listed host on another port", []string{"User-Agent", browserUA, "Host", "site.example:8443"}, 200},
	} {
		t.Run("proxy: "+c.name, func(t *testing.T) {
			code, body := rawRequest(t, f.srv.URL, "/public/x", c.hdr...)
			if code != c.want || c.want != 200 && strings.Contains(body, "upstream") {
				t.Errorf("%d %q, want %d", code, body, c.want)
			}
		})
	}
}

// failingDNS answers nothing: every lookup times out. It counts lookups.
type failingDNS struct {
	mu sync.Mutex
	n  int
}

func (d *failingDNS) fail() error {
	d.mu.Lock()
	d.n++
	d.mu.Unlock()
	return &net.DNSError{Err: "i/o timeout", IsTimeout: true}
}

func (d *failingDNS) LookupAddr(context.Context, string) ([]string, error) { return nil, d.fail() }
func (d *failingDNS) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return nil, d.fail()
}

// TestDNSFailure: a Googlebot outside Google's lists whose reverse lookup
// times out is taken as spoofed by default, and as the crawler it claims
// under DNSUnverifiable; the Verifier remembers the failure, so the second
// request asks no DNS.
func TestDNSFailure(t *testing.T) {
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	for _, c := range []struct {
		rule           DNSRule
		public, secret int
	}{
		{"", 403, 403},
		{DNSSpoofed, 403, 403},
		{DNSUnverifiable, 200, 403},
	} {
		t.Run(string(c.rule), func(t *testing.T) {
			dns := &failingDNS{}
			f := newFixture(t, testPolicy, Options{DNSFailure: c.rule, Now: clock,
				Verifier: &identity.Verifier{Resolver: dns, Now: clock}})
			ip := netip.MustParseAddr("203.0.113.9")
			d := f.g.Decide(context.Background(), ip, googlebotUA, "/public")
			if code := map[Action]int{Allow: 200, Refuse: 403}[d.Action]; code != c.public || d.Err != nil {
				t.Errorf("/public: %+v, want %d", d, c.public)
			}
			if c.rule != DNSUnverifiable && (d.Identity != identity.Spoofed || !strings.Contains(d.Reason, "identity not established")) {
				t.Errorf("/public: identity %s, reason %q", d.Identity, d.Reason)
			}
			d = f.g.Decide(context.Background(), ip, googlebotUA, "/private/x")
			if code := map[Action]int{Allow: 200, Refuse: 403}[d.Action]; code != c.secret {
				t.Errorf("/private/x: %+v, want %d", d, c.secret)
			}
			if dns.n != 1 {
				t.Errorf("%d lookups for two requests, want 1 (the failure remembered)", dns.n)
			}
		})
	}
}

func mustPolicy(t *testing.T, src string) *policy.Policy {
	t.Helper()
	p, err := policy.Parse("site.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func discardLogger() *slog.Logger { return slog.New(slog.NewJSONHandler(io.Discard, nil)) }

// TestMaxInFlight: no more than MaxInFlight requests reach the origin at
// once; one more is answered 503 without reaching it.
func TestMaxInFlight(t *testing.T) {
	p := mustPolicy(t, testPolicy)
	release := make(chan struct{})
	arrived := make(chan struct{}, 8)
	var mu sync.Mutex
	inside, most := 0, 0
	origin := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		inside++
		most = max(most, inside)
		mu.Unlock()
		arrived <- struct{}{}
		<-release
		mu.Lock()
		inside--
		mu.Unlock()
		io.WriteString(w, "origin")
	})
	g := New(p, origin, Options{Verifier: &identity.Verifier{}, MaxInFlight: 2, Logger: discardLogger()})
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	codes := make(chan int, 2)
	for range 2 {
		go func() {
			resp, err := http.Get(srv.URL + "/a")
			if err != nil {
				codes <- 0
				return
			}
			resp.Body.Close()
			codes <- resp.StatusCode
		}()
	}
	<-arrived
	<-arrived
	if code, _ := rawRequest(t, srv.URL, "/b", "User-Agent", browserUA); code != http.StatusServiceUnavailable {
		t.Errorf("a third request at once: %d, want 503", code)
	}
	close(release)
	for range 2 {
		if c := <-codes; c != 200 {
			t.Errorf("a request within the bound: %d", c)
		}
	}
	if code, body := rawRequest(t, srv.URL, "/c", "User-Agent", browserUA); code != 200 || body != "origin" {
		t.Errorf("after the others: %d %q", code, body)
	}
	if most != 2 {
		t.Errorf("%d requests reached the origin at once, want 2", most)
	}
}
