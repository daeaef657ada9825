// Package netguard refuses network connections to addresses that a program
// fetching URLs on someone else's behalf must not reach: loopback, private
// (RFC 1918, RFC 4193), shared (RFC 6598), link-local (RFC 3927, RFC 4291),
// unspecified, multicast, broadcast, documentation (RFC 5737, RFC 3849,
// RFC 9637) and reserved ranges: every entry of IANA's IPv4 and IPv6
// special-purpose address registries but the public anycast services. It is the usual
// defence against server-side request forgery (OWASP SSRF Prevention Cheat
// Sheet: validate the address actually connected to, not the host name).
//
// The check runs in a net.Dialer's Control function, after DNS resolution and
// just before connect(2), for every connection of every redirect hop, so a
// host name that resolves to 127.0.0.1, a DNS rebinding answer, or a redirect
// to http://169.254.169.254/ is refused where a check of the URL's host name
// alone would pass it.
//
// # One guarded client
//
// Every fetch rep makes for someone else takes its transport from one
// constructor, NewTransport (or NewClient, the http.Client over it): the
// address policy (Check, or Options.Check; Options.AllowPrivate turns it
// off), the proxy rule, the connect, TLS, response-header and overall
// timeouts, the redirect rule (a hop limit, http and https only, each hop's
// address checked again), a cap on every response body and the
// User-Agent:
//
//	c := netguard.NewClient(netguard.Options{UserAgent: "mybot/1.0"})
//	resp, err := c.Get(u) // errors.Is(err, netguard.ErrBlocked) for a refused address
//
// # Proxies
//
// A proxy would defeat a check at connect time: the dialer then connects
// to the proxy only. So the transport uses no proxy unless
// Options.Proxy says so, whatever HTTPS_PROXY, HTTP_PROXY and ALL_PROXY
// hold. With Options.Proxy set, the proxy's own address is no longer
// checked and each request's target is checked before it is sent instead:
// an IP literal as it is, a host name by resolving it (see Options.Proxy
// for what that cannot catch).
package netguard

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"syscall"
	"time"
)

// ErrBlocked matches every refusal of Control and Check with errors.Is,
// however deeply a dialer, a transport or a client wraps it.
var ErrBlocked = errors.New("netguard: address refused")

// BlockedError is returned by Check, and so by Control, for a refused
// address. It matches ErrBlocked with errors.Is.
type BlockedError struct {
	Addr   netip.Addr
	Reason string // e.g. "loopback", "private"
}

func (e *BlockedError) Error() string {
	return fmt.Sprintf("netguard: refusing to connect to %s address %s", e.Reason, e.Addr)
}

// Is reports whether target is ErrBlocked.
func (e *BlockedError) Is(target error) bool { return target == ErrBlocked }

// Control is a net.Dialer Control function that refuses a connection to
// any address for which Check returns an error.
func Control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		// The dialer always passes a numeric host:port; anything else is
		// refused rather than trusted.
		return fmt.Errorf("%w: cannot check address %q (network %s): %v", ErrBlocked, address, network, err)
	}
	return Check(ap.Addr())
}

// special ranges not covered by netip.Addr's predicates: every entry of
// IANA's IPv4 and IPv6 Special-Purpose Address Registries is refused
// (testdata/iana-special.tsv lists them with the decision for each) except
// the globally reachable anycast services (AS112, AMT) and 64:ff9b::/96,
// whose addresses are judged by the IPv4 address they carry. The
// IPv4-compatible (::a.b.c.d) and IPv4-translated (::ffff:0:a.b.c.d) forms
// are refused whole: no public service is reached through them.
var special = []struct {
	p      netip.Prefix
	reason string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "this-network"},          // RFC 1122
	{netip.MustParsePrefix("100.64.0.0/10"), "shared"},            // RFC 6598 carrier-grade NAT
	{netip.MustParsePrefix("192.0.0.0/24"), "IETF protocol"},      // RFC 6890
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking"},      // RFC 2544
	{netip.MustParsePrefix("192.0.2.0/24"), "documentation"},      // RFC 5737 TEST-NET-1
	{netip.MustParsePrefix("198.51.100.0/24"), "documentation"},   // RFC 5737 TEST-NET-2
	{netip.MustParsePrefix("203.0.113.0/24"), "documentation"},    // RFC 5737 TEST-NET-3
	{netip.MustParsePrefix("192.88.99.0/24"), "6to4 relay"},       // RFC 7526, deprecated anycast
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},            // RFC 1112, includes broadcast
	{netip.MustParsePrefix("64:ff9b:1::/48"), "local NAT64"},      // RFC 8215
	{netip.MustParsePrefix("2001:db8::/32"), "documentation"},     // RFC 3849
	{netip.MustParsePrefix("3fff::/20"), "documentation"},         // RFC 9637
	{netip.MustParsePrefix("100:0:0:1::/64"), "dummy prefix"},     // RFC 9780
	{netip.MustParsePrefix("5f00::/16"), "SRv6 SIDs"},             // RFC 9602
	{netip.MustParsePrefix("::/96"), "IPv4-compatible"},           // RFC 4291 §2.5.5.1, deprecated
	{netip.MustParsePrefix("::ffff:0:0:0/96"), "IPv4-translated"}, // RFC 2765 (SIIT)
	{netip.MustParsePrefix("100::/64"), "discard-only"},           // RFC 6666
	{netip.MustParsePrefix("2001::/23"), "IETF protocol"},         // RFC 2928 (Teredo, ORCHID, ...)
	{netip.MustParsePrefix("2002::/16"), "6to4"},                  // RFC 3056: embeds any IPv4 address
	{netip.MustParsePrefix("fec0::/10"), "site-local"},            // RFC 3879, deprecated
}

var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// Check returns a *BlockedError when a must not be connected to, else nil.
// IPv4-mapped and NAT64 IPv6 addresses are judged by the IPv4 address they
// carry.
func Check(a netip.Addr) error {
	a = a.Unmap()
	if a.Is6() && nat64.Contains(a) {
		b := a.As16()
		return Check(netip.AddrFrom4([4]byte(b[12:])))
	}
	reason := ""
	switch {
	case !a.IsValid():
		reason = "invalid"
	case a.IsUnspecified():
		reason = "unspecified"
	case a.IsLoopback():
		reason = "loopback"
	case a.IsPrivate():
		reason = "private"
	case a.IsLinkLocalUnicast():
		reason = "link-local"
	case a.IsMulticast(), a.IsLinkLocalMulticast(), a.IsInterfaceLocalMulticast():
		reason = "multicast"
	default:
		for _, s := range special {
			if s.p.Contains(a) {
				reason = s.reason
				break
			}
		}
	}
	if reason == "" {
		return nil
	}
	return &BlockedError{Addr: a, Reason: reason}
}

// Dialer returns a net.Dialer with the given connect timeout whose
// connections pass Check.
func Dialer(timeout time.Duration) *net.Dialer {
	return &net.Dialer{Timeout: timeout, Control: Control}
}
