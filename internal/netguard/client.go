package netguard

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// Defaults of Options: what the zero Options gives.
const (
	DefaultConnectTimeout = 10 * time.Second // DNS and connect
	DefaultTLSTimeout     = 10 * time.Second // the TLS handshake
	DefaultHeaderTimeout  = 15 * time.Second // from the request written to the response headers
	DefaultTimeout        = 60 * time.Second // a whole request, redirects and body included (NewClient)
	DefaultMaxRedirects   = 5                // RFC 9309 §2.3.1.2 asks robots.txt fetchers for at least five
	DefaultMaxBodyBytes   = 64 << 20         // over the 50 MB a sitemap may hold uncompressed
	DefaultMaxHeaderBytes = 256 << 10
)

// Options configure NewTransport and NewClient. The zero Options is the
// guarded default: every address Check refuses is refused, no proxy, the
// Default timeouts and caps.
type Options struct {
	// AllowPrivate turns the address policy off: every address may be
	// connected to (a command run by the site's owner against a local
	// server, tests). Check is then not called.
	AllowPrivate bool
	// Check replaces the address policy; nil means Check (the package
	// function). It is given every address about to be connected to
	// (IPv4-mapped addresses unmapped) and every IP literal a request
	// names. Tests use it to let one loopback origin through.
	Check func(netip.Addr) error
	// Proxy chooses a proxy per request, as http.Transport.Proxy does
	// (http.ProxyFromEnvironment reads HTTPS_PROXY, HTTP_PROXY and
	// NO_PROXY). nil means no proxy, whatever the environment says: the
	// default. Under the address policy, the dialer then checks the
	// proxy's address no more (a site's proxy is usually on a private
	// network), and each request's target is checked instead before it is
	// sent: an IP literal by Check, a host name by resolving it with
	// Resolver and checking every address. The proxy resolves the name
	// again, so a name whose answers change between the two lookups (DNS
	// rebinding) can still reach a refused address through a proxy: leave
	// Proxy nil when that matters.
	Proxy func(*http.Request) (*url.URL, error)
	// Resolver resolves host names, for the connections and for the check
	// of a proxied request's target; nil means net.DefaultResolver.
	Resolver *net.Resolver
	// UserAgent is set on every request that has no User-Agent of its own.
	UserAgent string
	// ConnectTimeout bounds DNS and connect, TLSTimeout the TLS handshake,
	// HeaderTimeout the wait for the response headers once the request is
	// written, Timeout (NewClient only) a whole request: redirects and
	// reading the body included. Zero means the Default; a negative
	// Timeout means none (give each request a context).
	ConnectTimeout, TLSTimeout, HeaderTimeout, Timeout time.Duration
	// MaxRedirects is how many redirects NewClient's client follows; each
	// hop must be http or https, and its address is checked as the first
	// request's is. Zero means DefaultMaxRedirects; negative means none is
	// followed: the 3xx response is returned as it is.
	MaxRedirects int
	// Redirect, when set, is asked about each redirect hop NewClient's
	// client is about to follow, after the hop limit and the scheme: a
	// non-nil error stops there (http.ErrUseLastResponse returns the 3xx).
	Redirect func(req *http.Request, via []*http.Request) error
	// MaxBodyBytes caps each response body: reading past it fails with a
	// *BodyLimitError (never a silent cut). Zero means DefaultMaxBodyBytes,
	// negative none. Callers reading less set their own, smaller limit.
	MaxBodyBytes int64
	// MaxHeaderBytes caps the response headers; zero means
	// DefaultMaxHeaderBytes.
	MaxHeaderBytes int64
	// MaxIdleConnsPerHost is how many idle connections are kept per host;
	// zero means 4. MaxConnsPerHost bounds the connections to one host,
	// dialling, active and idle (zero: no bound). IdleConnTimeout closes
	// an idle connection after that long (zero: 60 s).
	MaxIdleConnsPerHost, MaxConnsPerHost int
	IdleConnTimeout                      time.Duration
	// TLSConfig configures TLS (a test server's roots); nil means the
	// system's.
	TLSConfig *tls.Config
	// DisableCompression keeps the transport from asking for gzip and
	// decoding it: for a caller that decodes itself, so that its size
	// limit applies after decoding.
	DisableCompression bool
}

// BodyLimitError is the error of a read past Options.MaxBodyBytes.
type BodyLimitError struct {
	URL   string
	Limit int64
}

func (e *BodyLimitError) Error() string {
	return fmt.Sprintf("netguard: the body of %s is over %d bytes", e.URL, e.Limit)
}

// Transport is the guarded http.RoundTripper NewTransport returns: the
// address policy at connect time (every connection, every redirect hop,
// DNS answers included) and on every IP literal a request names, the
// proxy rule of Options.Proxy, the timeouts, the header and body caps and
// the User-Agent. It is safe for concurrent use.
type Transport struct {
	o     Options
	check func(netip.Addr) error // nil: no address policy
	base  *http.Transport
}

// NewTransport returns the guarded transport of o: the one place rep
// builds the transport of a fetch made for someone else (robots.txt,
// pages, sitemaps, key directories, the server's fetches).
func NewTransport(o Options) *Transport {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.ConnectTimeout, DefaultConnectTimeout)
	def(&o.TLSTimeout, DefaultTLSTimeout)
	def(&o.HeaderTimeout, DefaultHeaderTimeout)
	if o.MaxBodyBytes == 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.MaxHeaderBytes <= 0 {
		o.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	if o.MaxIdleConnsPerHost <= 0 {
		o.MaxIdleConnsPerHost = 4
	}
	def(&o.IdleConnTimeout, 60*time.Second)
	t := &Transport{o: o}
	if !o.AllowPrivate {
		t.check = o.Check
		if t.check == nil {
			t.check = Check
		}
	}
	d := &net.Dialer{Timeout: o.ConnectTimeout, KeepAlive: 30 * time.Second, Resolver: o.Resolver}
	dial := d.DialContext
	if t.check != nil {
		guarded := &net.Dialer{Timeout: o.ConnectTimeout, KeepAlive: 30 * time.Second, Resolver: o.Resolver, Control: t.control}
		dial = guarded.DialContext
		if o.Proxy != nil {
			// The proxy's own address is not checked (see Options.Proxy);
			// a request the proxy function sends direct is dialled with
			// the check, and every target is checked in RoundTrip.
			dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
				if ctx.Value(proxiedKey{}) == addr {
					return d.DialContext(ctx, network, addr)
				}
				return guarded.DialContext(ctx, network, addr)
			}
		}
	}
	t.base = &http.Transport{
		Proxy:                  o.Proxy,
		DialContext:            dial,
		TLSClientConfig:        o.TLSConfig,
		TLSHandshakeTimeout:    o.TLSTimeout,
		ResponseHeaderTimeout:  o.HeaderTimeout,
		ExpectContinueTimeout:  time.Second,
		MaxResponseHeaderBytes: o.MaxHeaderBytes,
		MaxIdleConns:           64,
		MaxIdleConnsPerHost:    o.MaxIdleConnsPerHost,
		MaxConnsPerHost:        o.MaxConnsPerHost,
		IdleConnTimeout:        o.IdleConnTimeout,
		ForceAttemptHTTP2:      true,
		DisableCompression:     o.DisableCompression,
	}
	return t
}

// NewClient returns an http.Client over NewTransport(o) with the redirect
// rule and the overall timeout of o.
func NewClient(o Options) *http.Client {
	c := &http.Client{Transport: NewTransport(o), CheckRedirect: o.CheckRedirect}
	switch {
	case o.Timeout == 0:
		c.Timeout = DefaultTimeout
	case o.Timeout > 0:
		c.Timeout = o.Timeout
	}
	return c
}

// ErrRedirect matches the refusals of Options.CheckRedirect with
// errors.Is: too many redirects, or a hop that is not http or https.
var ErrRedirect = errors.New("netguard: redirect not followed")

// CheckRedirect is the redirect rule of NewClient's client, for a caller
// that builds its own http.Client over NewTransport: at most MaxRedirects
// hops, each http or https with a host, then Options.Redirect.
func (o Options) CheckRedirect(req *http.Request, via []*http.Request) error {
	n := o.MaxRedirects
	switch {
	case n < 0:
		return http.ErrUseLastResponse
	case n == 0:
		n = DefaultMaxRedirects
	}
	if len(via) > n {
		return fmt.Errorf("%w: more than %d redirects", ErrRedirect, n)
	}
	if s := req.URL.Scheme; (s != "http" && s != "https") || req.URL.Host == "" {
		return fmt.Errorf("%w: %s is not an http or https URL", ErrRedirect, req.URL.Redacted())
	}
	if o.Redirect != nil {
		return o.Redirect(req, via)
	}
	return nil
}

type proxiedKey struct{}

// RoundTrip checks the request's target, sets the User-Agent, sends it and
// caps the response body.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.check != nil {
		r, err := t.target(req)
		if err != nil {
			if req.Body != nil {
				req.Body.Close()
			}
			return nil, err
		}
		req = r
	}
	if t.o.UserAgent != "" && req.Header.Get("User-Agent") == "" {
		req = withUserAgent(req, t.o.UserAgent)
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil || t.o.MaxBodyBytes < 0 || resp.Body == nil {
		return resp, err
	}
	resp.Body = &cappedBody{rc: resp.Body, left: t.o.MaxBodyBytes, limit: t.o.MaxBodyBytes, url: req.URL}
	return resp, nil
}

// withUserAgent returns a copy of req with the User-Agent ua, leaving req
// as it was (http.RoundTripper's contract). The copy has a header map of
// its own and shares the rest (URL, body, header values), which the
// transport only reads.
func withUserAgent(req *http.Request, ua string) *http.Request {
	out := req.WithContext(req.Context())
	h := make(http.Header, len(req.Header)+1)
	for k, v := range req.Header {
		h[k] = v
	}
	h["User-Agent"] = []string{ua}
	out.Header = h
	return out
}

// target refuses a request whose host is a refused IP literal and, when a
// proxy will carry it, a host name that resolves to a refused address.
// A proxied request is returned with the proxy's address in its context,
// for the dialer.
func (t *Transport) target(req *http.Request) (*http.Request, error) {
	host := req.URL.Hostname()
	if a, err := netip.ParseAddr(host); err == nil {
		if err := t.check(a.WithZone("").Unmap()); err != nil {
			return nil, err
		}
	}
	if t.o.Proxy == nil {
		return req, nil
	}
	pu, err := t.o.Proxy(req)
	if err != nil || pu == nil {
		return req, nil // the transport reports the error, or dials direct with the check
	}
	if _, err := netip.ParseAddr(host); err != nil {
		r := t.o.Resolver
		if r == nil {
			r = net.DefaultResolver
		}
		ctx, cancel := context.WithTimeout(req.Context(), t.o.ConnectTimeout)
		addrs, err := r.LookupNetIP(ctx, "ip", host)
		cancel()
		if err != nil {
			return nil, fmt.Errorf("netguard: resolving %s to check it before the proxy: %w", host, err)
		}
		for _, a := range addrs {
			if err := t.check(a.Unmap()); err != nil {
				return nil, err
			}
		}
	}
	return req.WithContext(context.WithValue(req.Context(), proxiedKey{}, proxyAddr(pu))), nil
}

// proxyAddr is the host:port http.Transport dials for proxy u.
func proxyAddr(u *url.URL) string {
	port := u.Port()
	if port == "" {
		switch strings.ToLower(u.Scheme) {
		case "https":
			port = "443"
		case "socks5", "socks5h":
			port = "1080"
		default:
			port = "80"
		}
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// control checks the address about to be connected to.
func (t *Transport) control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: cannot check address %q (network %s): %v", ErrBlocked, address, network, err)
	}
	return t.check(ap.Addr().WithZone("").Unmap())
}

// CloseIdleConnections closes the idle connections of the transport.
func (t *Transport) CloseIdleConnections() { t.base.CloseIdleConnections() }

// cappedBody fails a read past the body limit.
type cappedBody struct {
	rc    io.ReadCloser
	left  int64
	limit int64
	url   *url.URL // the request's, written out only in the error
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		var one [1]byte
		n, err := b.rc.Read(one[:])
		if n > 0 {
			return 0, &BodyLimitError{URL: b.url.Redacted(), Limit: b.limit}
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }
