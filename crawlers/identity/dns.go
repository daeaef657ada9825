package identity

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"sync"
	"time"
)

// Resolver is the DNS client a Verifier uses; *net.Resolver implements it.
type Resolver interface {
	LookupAddr(ctx context.Context, addr string) ([]string, error)
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// ServerResolver is a Resolver that sends every query to one DNS server
// instead of the system's; NewResolver returns one. A Verifier using it
// names the server in its errors.
type ServerResolver struct {
	// Addr is the server's HOST:PORT.
	Addr string
	r    *net.Resolver
}

// NewResolver returns a resolver that sends every query to the DNS server
// at hostPort (e.g. "127.0.0.1:53" or "[::1]:5353") instead of the system's.
func NewResolver(hostPort string) *ServerResolver {
	return &ServerResolver{Addr: hostPort, r: &net.Resolver{
		PreferGo: true,
		Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, hostPort)
		},
	}}
}

// LookupAddr asks the server for the PTR names of addr.
func (s *ServerResolver) LookupAddr(ctx context.Context, addr string) ([]string, error) {
	return s.r.LookupAddr(ctx, addr)
}

// LookupNetIP asks the server for host's addresses.
func (s *ServerResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	return s.r.LookupNetIP(ctx, network, host)
}

// Server returns Addr.
func (s *ServerResolver) Server() string { return s.Addr }

// LookupError is a DNS lookup that got no usable answer (a timeout, a
// server failure, nothing listening), as opposed to an authoritative "no
// such name", which is evidence rather than an error. It is Result.Err.
type LookupError struct {
	// Query is "PTR" or "A/AAAA"; Name is the IP address or host name
	// asked about.
	Query, Name string
	// Server is the DNS server asked (HOST:PORT) when the Resolver has a
	// Server() string method, as a ServerResolver does; "" for the
	// system's resolver, which the cause then names.
	Server string
	// Err is the resolver's error, usually a *net.DNSError.
	Err error
}

// Error returns e.g. "PTR lookup for 198.51.100.9 on 127.0.0.1:5353: i/o
// timeout".
func (e *LookupError) Error() string {
	s := e.Query + " lookup for " + e.Name
	if e.Server == "" {
		return s + ": " + e.Err.Error()
	}
	// A *net.DNSError names the server the system configuration lists,
	// not the one a custom Dial reached: give its cause alone.
	cause := e.Err.Error()
	var de *net.DNSError
	if errors.As(e.Err, &de) && de.Err != "" {
		cause = de.Err
	}
	return s + " on " + e.Server + ": " + cause
}

// Unwrap returns the resolver's error.
func (e *LookupError) Unwrap() error { return e.Err }

// dnsCache remembers answers for a TTL and merges concurrent lookups of the
// same key, so verifying many IPs from many goroutines asks each question
// once. net.Resolver does not expose record TTLs, so the TTLs are the
// Verifier's settings.
type dnsCache struct {
	res                           Resolver
	timeout, ttl, negTTL, failTTL time.Duration
	now                           func() time.Time

	mu sync.Mutex
	m  map[string]*dnsEntry
}

type dnsEntry struct {
	done    chan struct{}
	names   []string
	addrs   []netip.Addr
	err     error
	expires time.Time
}

// maxDNSEntries bounds the cache; when full, expired entries are dropped
// and, if that is not enough, everything is.
const maxDNSEntries = 1 << 17

func (c *dnsCache) ptr(ctx context.Context, ip netip.Addr) ([]string, error) {
	e := c.get(ctx, "ptr "+ip.String(), func(ctx context.Context, e *dnsEntry) {
		e.names, e.err = c.res.LookupAddr(ctx, ip.String())
	})
	return e.names, e.err
}

func (c *dnsCache) forward(ctx context.Context, name string) ([]netip.Addr, error) {
	e := c.get(ctx, "ip "+name, func(ctx context.Context, e *dnsEntry) {
		// A trailing dot keeps the resolver from trying search domains.
		e.addrs, e.err = c.res.LookupNetIP(ctx, "ip", strings.TrimSuffix(name, ".")+".")
	})
	return e.addrs, e.err
}

func (c *dnsCache) get(ctx context.Context, key string, lookup func(context.Context, *dnsEntry)) *dnsEntry {
	c.mu.Lock()
	now := c.now()
	if e, ok := c.m[key]; ok {
		select {
		case <-e.done:
			if now.Before(e.expires) {
				c.mu.Unlock()
				return e
			}
		default: // in flight: wait for it
			c.mu.Unlock()
			select {
			case <-e.done:
				return e
			case <-ctx.Done():
				return &dnsEntry{err: ctx.Err()}
			}
		}
	}
	if c.m == nil {
		c.m = make(map[string]*dnsEntry)
	}
	if len(c.m) >= maxDNSEntries {
		c.evict(now)
	}
	e := &dnsEntry{done: make(chan struct{})}
	c.m[key] = e
	c.mu.Unlock()

	lctx, cancel := context.WithTimeout(ctx, c.timeout)
	lookup(lctx, e)
	cancel()
	switch {
	case e.err == nil:
		e.expires = c.now().Add(c.ttl)
	case isNotFound(e.err):
		e.expires = c.now().Add(c.negTTL)
	case ctx.Err() != nil:
		// The caller gave up: no answer about the name, and one client
		// hanging up must not stand for everyone asking after it.
		e.expires = c.now()
	default:
		// Timeouts and server failures are not answers, but asking again
		// at once would cost every request the timeout: remembered
		// briefly.
		e.expires = c.now().Add(c.failTTL)
	}
	close(e.done)
	return e
}

// evict drops expired entries, or all of them if none expired. Called with
// c.mu held.
func (c *dnsCache) evict(now time.Time) {
	for k, e := range c.m {
		select {
		case <-e.done:
			if !now.Before(e.expires) {
				delete(c.m, k)
			}
		default:
		}
	}
	if len(c.m) >= maxDNSEntries {
		clear(c.m)
	}
}

// isNotFound reports whether err is an authoritative "no such name / no
// such record", as opposed to a failure to get an answer.
func isNotFound(err error) bool {
	var de *net.DNSError
	return errors.As(err, &de) && de.IsNotFound
}

// hasSuffix reports whether host name is suffix or ends in "."+suffix,
// case-insensitively and ignoring a trailing dot: googlebot.com matches
// crawl-1-2-3-4.googlebot.com but neither evilgooglebot.com nor
// googlebot.com.evil.example.
func hasSuffix(name, suffix string) bool {
	name = strings.TrimSuffix(name, ".")
	if len(name) < len(suffix) || !strings.EqualFold(name[len(name)-len(suffix):], suffix) {
		return false
	}
	return len(name) == len(suffix) || name[len(name)-len(suffix)-1] == '.'
}
