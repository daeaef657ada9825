package server

import (
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/rep-toolkit/rep/internal/netguard"
	"github.com/rep-toolkit/rep/internal/urlhead"
)

// maxRedirects is how many redirects a page fetch follows (RFC 9309 §2.3.1.2
// asks robots.txt fetchers for at least five; pages get the same).
const maxRedirects = 5

// fetchOptions are the settings of every outbound fetch, from the one
// guarded client of internal/netguard: each connection goes through g
// (nil: none), there is no proxy (a proxy would hide the real destination
// from the guard), connect and TLS take at most 10 s each, the headers
// 15 s, a whole request fetchTimeout; at most maxRedirects redirects, http
// and https only, and 256 KiB of response headers. ua is set on requests
// that carry none.
func fetchOptions(g guard, ua string) netguard.Options {
	return netguard.Options{
		AllowPrivate:   g == nil,
		Check:          g,
		UserAgent:      ua,
		ConnectTimeout: 10 * time.Second,
		TLSTimeout:     10 * time.Second,
		HeaderTimeout:  15 * time.Second,
		Timeout:        fetchTimeout,
		MaxRedirects:   maxRedirects,
		MaxHeaderBytes: 256 << 10,
		Redirect: func(req *http.Request, _ []*http.Request) error {
			return checkScheme(req.URL)
		},
	}
}

// pageClient is the HTTP client for fetching pages on a client's behalf.
func pageClient(g guard, ua string) *http.Client { return netguard.NewClient(fetchOptions(g, ua)) }

// guardedTransport is the transport of the server's crawls: the crawl sets
// its own User-Agent and follows redirects itself.
func guardedTransport(g guard) http.RoundTripper { return netguard.NewTransport(fetchOptions(g, "")) }

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
