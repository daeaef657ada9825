package netguard

import (
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/internal/testkit/dnstest"
)

// server starts an HTTP server on addr ("127.0.0.1:0") counting its
// requests.
func server(t *testing.T, addr string, h http.HandlerFunc) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int32
	s := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		h(w, r)
	}))
	s.Listener.Close()
	s.Listener = l
	s.Start()
	t.Cleanup(s.Close)
	return s, &n
}

// allow returns a policy that lets addr through and judges the rest by
// Check.
func allow(addr string) func(netip.Addr) error {
	a := netip.MustParseAddr(addr)
	return func(b netip.Addr) error {
		if b == a {
			return nil
		}
		return Check(b)
	}
}

func TestClientRefuses(t *testing.T) {
	target, hits := server(t, "127.0.0.1:0", func(w http.ResponseWriter, r *http.Request) {})
	port := target.Listener.Addr().(*net.TCPAddr).Port
	c := NewClient(Options{})
	for _, host := range []string{"127.0.0.1", "10.0.0.1", "[::1]", "169.254.169.254", "0.0.0.0", "[::ffff:127.0.0.1]", "[::ffff:10.0.0.1]"} {
		u := "http://" + host + ":" + strconv.Itoa(port) + "/"
		_, err := c.Get(u)
		if !errors.Is(err, ErrBlocked) {
			t.Errorf("GET %s: %v, want ErrBlocked", u, err)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the loopback target got %d requests", n)
	}
	// AllowPrivate reaches it.
	resp, err := NewClient(Options{AllowPrivate: true}).Get(target.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if hits.Load() != 1 {
		t.Errorf("AllowPrivate: %d requests, want 1", hits.Load())
	}
}

// TestClientRedirectChecked: a redirect from an allowed origin to a
// refused address is refused at the hop.
func TestClientRedirectChecked(t *testing.T) {
	inner, innerHits := server(t, "127.0.0.1:0", func(w http.ResponseWriter, r *http.Request) {})
	outer, _ := server(t, "127.0.0.2:0", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, inner.URL+"/secret", http.StatusFound)
	})
	c := NewClient(Options{Check: allow("127.0.0.2")})
	_, err := c.Get(outer.URL)
	var be *BlockedError
	if !errors.As(err, &be) || be.Reason != "loopback" {
		t.Fatalf("got %v, want the hop refused as loopback", err)
	}
	if innerHits.Load() != 0 {
		t.Fatal("the redirect's target was reached")
	}
}

func TestClientRedirectLimit(t *testing.T) {
	var s *httptest.Server
	s, hits := server(t, "127.0.0.1:0", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, s.URL+"/again", http.StatusFound)
	})
	_, err := NewClient(Options{AllowPrivate: true, MaxRedirects: 2}).Get(s.URL)
	if !errors.Is(err, ErrRedirect) || hits.Load() != 3 {
		t.Errorf("got %v after %d requests, want ErrRedirect after 3", err, hits.Load())
	}
	resp, err := NewClient(Options{AllowPrivate: true, MaxRedirects: -1}).Get(s.URL)
	if err != nil || resp.StatusCode != http.StatusFound {
		t.Fatalf("MaxRedirects -1: %v, want the 302 itself", err)
	}
	resp.Body.Close()
}

func TestClientBodyCapAndUserAgent(t *testing.T) {
	var ua atomic.Value
	s, _ := server(t, "127.0.0.1:0", func(w http.ResponseWriter, r *http.Request) {
		ua.Store(r.UserAgent())
		io.WriteString(w, strings.Repeat("x", 100))
	})
	c := NewClient(Options{AllowPrivate: true, MaxBodyBytes: 99, UserAgent: "probe/1"})
	// The URL carries a password: the error names the URL without it.
	withPassword := strings.Replace(s.URL, "http://", "http://u:secret@", 1)
	req, err := http.NewRequest(http.MethodGet, withPassword, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	var le *BodyLimitError
	if !errors.As(err, &le) || len(b) != 99 {
		t.Fatalf("read %d bytes, %v; want 99 and a BodyLimitError", len(b), err)
	}
	if strings.Contains(le.URL, "secret") || strings.Contains(err.Error(), "secret") {
		t.Errorf("the body limit error shows the password: %v", err)
	}
	if ua.Load() != "probe/1" {
		t.Errorf("User-Agent %q", ua.Load())
	}
	// The User-Agent goes on a copy: the caller's request is as it was
	// (http.RoundTripper's contract).
	plain, _ := http.NewRequest(http.MethodGet, s.URL, nil)
	if resp, err = c.Do(plain); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if len(plain.Header) != 0 {
		t.Errorf("the caller's request was changed: header %v", plain.Header)
	}
	resp, err = NewClient(Options{AllowPrivate: true, MaxBodyBytes: 100}).Get(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	b, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || len(b) != 100 {
		t.Errorf("a body at the limit: %d bytes, %v", len(b), err)
	}
}

// TestClientProxyTargetChecked: with a proxy (127.0.0.2 stands for a
// proxy the policy lets through), the target is checked, never only the
// proxy's address: a private target is refused before the proxy sees it,
// an allowed one goes through the proxy.
func TestClientProxyTargetChecked(t *testing.T) {
	proxy, proxyHits := server(t, "127.0.0.2:0", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "via proxy "+r.URL.String())
	})
	pu, _ := url.Parse(proxy.URL)
	c := NewClient(Options{Check: allow("127.0.0.3"), Proxy: http.ProxyURL(pu)})
	for _, u := range []string{"http://10.0.0.1/", "http://127.0.0.1:1/", "http://[::ffff:169.254.169.254]/", "http://0.0.0.0/"} {
		if _, err := c.Get(u); !errors.Is(err, ErrBlocked) {
			t.Errorf("GET %s through a proxy: %v, want ErrBlocked", u, err)
		}
	}
	if proxyHits.Load() != 0 {
		t.Fatalf("the proxy got %d requests for refused targets", proxyHits.Load())
	}
	resp, err := c.Get("http://127.0.0.3:9/ok")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "via proxy http://127.0.0.3:9/ok" {
		t.Errorf("allowed target: %q", b)
	}
}

// TestClientIgnoresProxyEnv: the default transport uses no proxy, whatever
// the environment says (the proxy function is never consulted).
func TestClientIgnoresProxyEnv(t *testing.T) {
	tr := NewTransport(Options{})
	if tr.base.Proxy != nil {
		t.Fatal("the default transport has a proxy function")
	}
}

// TestClientHTTP2: the transport speaks HTTP/2 to a server that offers it
// over TLS, and closes idle connections after a while (a crawler meets
// many hosts once each).
func TestClientHTTP2(t *testing.T) {
	var proto atomic.Value
	s := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proto.Store(r.Proto)
	}))
	s.EnableHTTP2 = true
	s.StartTLS()
	t.Cleanup(s.Close)
	roots := s.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	tr := NewTransport(Options{Check: allow("127.0.0.1"), TLSConfig: &tls.Config{RootCAs: roots}})
	resp, err := (&http.Client{Transport: tr}).Get(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if proto.Load() != "HTTP/2.0" {
		t.Errorf("spoke %v, want HTTP/2.0", proto.Load())
	}
	if d := tr.base.IdleConnTimeout; d <= 0 || d > time.Minute {
		t.Errorf("idle connections kept for %v, want a bound of at most a minute", d)
	}
}

// TestClientNames: host names are checked by the addresses they resolve to
// (a loopback DNS server answers): at connect time without a proxy, before
// the request is sent with one; a name that resolves to an allowed address
// goes through the proxy.
func TestClientNames(t *testing.T) {
	target, targetHits := server(t, "127.0.0.1:0", func(w http.ResponseWriter, r *http.Request) {})
	port := strconv.Itoa(target.Listener.Addr().(*net.TCPAddr).Port)
	proxy, proxyHits := server(t, "127.0.0.2:0", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "via proxy "+r.URL.String())
	})
	dns, err := dnstest.Start(dnstest.Zone{Addrs: map[string][]netip.Addr{
		"rebind.test":   {netip.MustParseAddr("127.0.0.1")},
		"internal.test": {netip.MustParseAddr("10.0.0.1")},
		"mixed.test":    {netip.MustParseAddr("127.0.0.3"), netip.MustParseAddr("169.254.169.254")},
		"public.test":   {netip.MustParseAddr("127.0.0.3")},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer dns.Close()
	res := dnstest.Resolver(dns)
	pu, _ := url.Parse(proxy.URL)
	direct := NewClient(Options{Check: allow("127.0.0.3"), Resolver: res})
	proxied := NewClient(Options{Check: allow("127.0.0.3"), Resolver: res, Proxy: http.ProxyURL(pu)})
	for _, tt := range []struct {
		host string
		addr string // the address refused
	}{
		{"rebind.test", "127.0.0.1"},
		{"internal.test", "10.0.0.1"},
		{"mixed.test", "169.254.169.254"},
	} {
		for name, c := range map[string]*http.Client{"direct": direct, "proxied": proxied} {
			_, err := c.Get("http://" + tt.host + ":" + port + "/")
			var be *BlockedError
			if err == nil {
				t.Errorf("%s %s: fetched", name, tt.host)
				continue
			}
			if name == "direct" && tt.host == "mixed.test" {
				// The dialer tries each address, the allowed one
				// first, and reports the first failure: what matters
				// for it is that nothing is reached.
				continue
			}
			if !errors.As(err, &be) || be.Addr.String() != tt.addr {
				t.Errorf("%s %s: %v, want %s refused", name, tt.host, err, tt.addr)
			}
		}
	}
	if n, m := targetHits.Load(), proxyHits.Load(); n != 0 || m != 0 {
		t.Fatalf("the target got %d requests, the proxy %d", n, m)
	}
	resp, err := proxied.Get("http://public.test/ok")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "via proxy http://public.test/ok" {
		t.Errorf("allowed name through the proxy: %q", b)
	}
}
