package server

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/rep-toolkit/rep/internal/netguard"
	"github.com/rep-toolkit/rep/internal/urlhead"
)

// maxRedirects is how many redirects a page fetch follows (RFC 9309 §2.3.1.2
// asks robots.txt fetchers for at least five; pages get the same).
const maxRedirects = 5

// pageClient is the HTTP client for fetching pages on a client's behalf:
// every connection goes through netguard unless private addresses are
// allowed, there is no proxy (a proxy would hide the real destination from
// the guard), and only http and https are followed.
func pageClient(g guard, ua string) *http.Client {
	return &http.Client{
		Transport: uaTransport{guardedTransport(g), ua},
		Timeout:   fetchTimeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > maxRedirects {
				return fmt.Errorf("more than %d redirects", maxRedirects)
			}
			return checkScheme(req.URL)
		},
	}
}

// guardedTransport is the transport of every outbound fetch: each
// connection goes through g (nil: none), and there is no proxy.
func guardedTransport(g guard) *http.Transport {
	d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	if g != nil {
		d.Control = g.control
	}
	return &http.Transport{
		Proxy:                  nil,
		DialContext:            d.DialContext,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    10 * time.Second,
		ResponseHeaderTimeout:  15 * time.Second,
		ExpectContinueTimeout:  time.Second,
		MaxIdleConns:           64,
		MaxIdleConnsPerHost:    4,
		IdleConnTimeout:        60 * time.Second,
		MaxResponseHeaderBytes: 256 << 10,
	}
}

type uaTransport struct {
	rt http.RoundTripper
	ua string
}

func (t uaTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("User-Agent", t.ua)
	return t.rt.RoundTrip(r)
}

// checkScheme allows http and https on any port.
func checkScheme(u *url.URL) error {
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		if u.Host == "" {
			return fmt.Errorf("%s has no host", u.Redacted())
		}
		return nil
	}
	return fmt.Errorf("scheme %q is not http or https", u.Scheme)
}

// guard decides whether an address may be connected to: nil allows all;
// netguard.Check refuses loopback, private, link-local and the like.
type guard func(netip.Addr) error

// control runs g on the address about to be connected to, after DNS
// resolution, for every connection of every redirect hop.
func (g guard) control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("netguard: cannot parse address %q: %v", address, err)
	}
	return g(ap.Addr().Unmap())
}

// literal refuses a URL whose host is an IP address the guard refuses,
// before any fetch: the answer can then name the address plainly.
func (g guard) literal(u *url.URL) error {
	if g == nil {
		return nil
	}
	a, err := netip.ParseAddr(strings.Trim(u.Hostname(), "[]"))
	if err != nil {
		return nil // a name: checked when connecting
	}
	return g(a.Unmap())
}

// errTarget marks a URL the server will not fetch because of its form.
var errTarget = errors.New("bad URL")

// targetError is a bad URL, wrapping errTarget.
type targetError struct{ msg string }

func (e targetError) Error() string { return e.msg }
func (e targetError) Unwrap() error { return errTarget }

// fetchTarget parses a URL the server is asked to fetch.
func fetchTarget(raw string) (*url.URL, error) {
	u, err := parseTarget(raw)
	if err != nil {
		return nil, targetError{err.Error()}
	}
	return u, nil
}

// originTarget is fetchTarget for a URL whose site's robots.txt is wanted:
// only its scheme and authority are parsed and returned. A path with a
// stray '%' ("/100%") is a URL crawlers meet and robots.txt matching takes
// as it is, so it must not be refused.
func originTarget(raw string) (*url.URL, error) {
	u, err := parseTargetAs(raw, urlhead.Cut(raw))
	if err != nil {
		return nil, targetError{err.Error()}
	}
	return u, nil
}

func parseTarget(raw string) (*url.URL, error) { return parseTargetAs(raw, raw) }

// parseTargetAs parses part, a prefix of raw or raw itself, and names raw
// in its errors.
func parseTargetAs(raw, part string) (*url.URL, error) {
	if raw == "" {
		return nil, errors.New(`missing field "url": an absolute http(s) URL`)
	}
	u, err := url.Parse(part)
	if err != nil {
		return nil, fmt.Errorf("url %q does not parse: %v", raw, urlhead.Unwrap(err))
	}
	if u.Scheme == "" {
		return nil, fmt.Errorf("url %q is not absolute: give https://host/path", raw)
	}
	if err := checkScheme(u); err != nil {
		return nil, fmt.Errorf("url %q: %v", raw, err)
	}
	return u, nil
}

// fetchErrorMessage explains a fetch error, naming a refused address.
func fetchErrorMessage(raw string, err error) string {
	var blocked *netguard.BlockedError
	if errors.As(err, &blocked) {
		return fmt.Sprintf("fetching %s: refused: %s is a %s address (start the server with -allow-private to test local sites)", raw, blocked.Addr, blocked.Reason)
	}
	return fmt.Sprintf("fetching %s: %v", raw, urlhead.Unwrap(err))
}
