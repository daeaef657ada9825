package server

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/internal/netguard"
)

// TestFetchTimeouts: every fetch has the timeouts the docs state
// (docs/serve.md: connect 10 s, headers 15 s, whole request 30 s), the TLS
// handshake bounded as the connect, and no proxy.
func TestFetchTimeouts(t *testing.T) {
	o := fetchOptions(guard(netguard.Check), "rep-test")
	if o.Timeout != 30*time.Second || pageClient(nil, "rep-test").Timeout != 30*time.Second {
		t.Errorf("whole request: %v, want 30s", o.Timeout)
	}
	if o.HeaderTimeout != 15*time.Second {
		t.Errorf("headers: %v, want 15s", o.HeaderTimeout)
	}
	if o.ConnectTimeout != 10*time.Second || o.TLSTimeout != 10*time.Second {
		t.Errorf("connect, TLS handshake: %v, %v, want 10s", o.ConnectTimeout, o.TLSTimeout)
	}
	if o.Proxy != nil || o.AllowPrivate {
		t.Error("a proxy would hide the destination from the guard")
	}
}

// TestResponseHeaderCap: a fetch reads at most 256 KiB of response
// headers; a site that sends more gets an error, not a server holding
// its headers.
func TestResponseHeaderCap(t *testing.T) {
	for _, tt := range []struct {
		size int // bytes of one header's value
		ok   bool
	}{
		{250 << 10, true},
		{(256 << 10) + 512, false},
	} {
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-Big", strings.Repeat("a", tt.size))
			w.Header().Set("Content-Length", "0")
		}))
		res, err := pageClient(nil, "rep-test").Get(ts.URL)
		if err == nil {
			res.Body.Close()
		}
		if (err == nil) != tt.ok {
			t.Errorf("headers of %d bytes: %v, want ok %v", tt.size, err, tt.ok)
		}
		ts.Close()
	}
}

// TestFetchHTTP2: fetches speak HTTP/2 to a site that offers it over TLS
// (a custom dialer turns it off unless asked for).
func TestFetchHTTP2(t *testing.T) {
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, r.Proto+" "+r.Header.Get("User-Agent"))
	}))
	ts.EnableHTTP2 = true
	ts.StartTLS()
	defer ts.Close()
	o := fetchOptions(nil, "rep-test")
	o.TLSConfig = ts.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
	c := netguard.NewClient(o)
	defer c.CloseIdleConnections()
	res, err := c.Get(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if string(b) != "HTTP/2.0 rep-test" {
		t.Errorf("the site saw %q, want HTTP/2.0 and the User-Agent rep-test", b)
	}
}

// TestFetchTarget: the URLs the server fetches: absolute http and https,
// any case of the scheme, with a host; the rest refused with errTarget and
// a message naming the URL.
func TestFetchTarget(t *testing.T) {
	for _, tt := range []struct {
		raw, err string
	}{
		{"http://example.com/x", ""},
		{"https://example.com/x", ""},
		{"HTTPS://example.com:8443/x", ""},
		{"", `missing field "url": an absolute http(s) URL`},
		{"/x", `url "/x" is not absolute: give https://host/path`},
		{"ftp://example.com/x", `url "ftp://example.com/x": scheme "ftp" is not http or https`},
		{"https:///x", `url "https:///x": https:///x has no host`},
		{"http://exa mple.com/", `url "http://exa mple.com/" does not parse: invalid character " " in host name`},
	} {
		u, err := fetchTarget(tt.raw)
		if tt.err == "" {
			if err != nil || !strings.EqualFold(u.String(), tt.raw) {
				t.Errorf("fetchTarget(%q) = %v, %v", tt.raw, u, err)
			}
			continue
		}
		if err == nil || err.Error() != tt.err || !errors.Is(err, errTarget) {
			t.Errorf("fetchTarget(%q): %v, want %q (errTarget)", tt.raw, err, tt.err)
		}
	}
	// A site's robots.txt is wanted: only the scheme and authority count.
	u, err := originTarget("https://example.com/100%")
	if err != nil || u.Host != "example.com" {
		t.Errorf("originTarget: %v, %v", u, err)
	}
	if _, err := originTarget("gopher://example.com/"); !errors.Is(err, errTarget) {
		t.Errorf("originTarget of gopher: %v", err)
	}
}

// TestGuardLiteral: a URL whose host is a refused address literal is
// refused before any fetch, IPv4-mapped IPv6 included; names and allowed
// addresses pass, and no guard refuses nothing.
func TestGuardLiteral(t *testing.T) {
	g := guard(netguard.Check)
	for _, tt := range []struct {
		raw     string
		refused bool
	}{
		{"http://127.0.0.1/", true},
		{"http://[::ffff:10.0.0.1]/", true},
		{"http://[::1]:8080/", true},
		{"http://192.0.2.1/", true}, // documentation range
		{"http://8.8.8.8/", false},
		{"http://localhost/", false}, // a name: checked when connecting
	} {
		u, _ := url.Parse(tt.raw)
		if err := g.literal(u); (err != nil) != tt.refused {
			t.Errorf("literal(%s) = %v, want refused %v", tt.raw, err, tt.refused)
		}
		if err := guard(nil).literal(u); err != nil {
			t.Errorf("no guard: literal(%s) = %v", tt.raw, err)
		}
	}
}

// TestFetchErrorMessage: a refused address is named with why and how to
// allow it; any other error is given as it is.
func TestFetchErrorMessage(t *testing.T) {
	blocked := netguard.Check(netip.MustParseAddr("10.0.0.1"))
	if blocked == nil {
		t.Fatal("10.0.0.1 not refused")
	}
	for _, tt := range []struct {
		err  error
		want string
	}{
		{&url.Error{Op: "Get", URL: "http://x.example/", Err: blocked}, "fetching http://x.example/: refused: 10.0.0.1 is a private address (start the server with -allow-private to test local sites)"},
		{errors.New("connection refused"), "fetching http://x.example/: connection refused"},
	} {
		if got := fetchErrorMessage("http://x.example/", tt.err); got != tt.want {
			t.Errorf("got %q\nwant %q", got, tt.want)
		}
	}
}
