package identity

import (
	"context"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/crawlers/botauth"
)

// Verification is the answer to "is this request from the crawler it
// claims?".
type Verification string

// Verdict is the former name of Verification.
//
// Deprecated: use Verification.
type Verdict = Verification

// Verdicts.
const (
	// Verified: the IP is in the operator's list or passes FCrDNS.
	Verified Verification = "verified"
	// Spoofed: the claim is provably false (not in a published list, a PTR
	// outside the operator's domains or without a matching forward record,
	// or a robots.txt-only token used as a User-Agent).
	Spoofed Verification = "spoofed"
	// Unverifiable: the operator publishes nothing usable (or the method it
	// documents is unavailable here: DNS when offline, a list not fetched,
	// a DNS failure); the claim can be neither confirmed nor refuted.
	Unverifiable Verification = "unverifiable"
	// RDNSOnly: the PTR name is in the operator's domain but the forward
	// lookup did not confirm it, for operators whose forward records are
	// documented as unreliable (Baidu).
	RDNSOnly Verification = "rdns-only"
	// NotCrawler: the User-Agent names no known crawler (or, when none is
	// given, no list or DNS name of a known crawler matches the IP).
	NotCrawler Verification = "not-a-crawler"
)

// Method names the evidence behind a verdict.
type Method string

// Methods.
const (
	ByRanges      Method = "ranges"        // published IP list
	ByFCrDNS      Method = "fcrdns"        // forward-confirmed reverse DNS
	ByBoth        Method = "fcrdns+ranges" // both agree
	ByRDNS        Method = "rdns"          // reverse lookup only
	ByToken       Method = "token-only"    // robots.txt-only token
	ByNone        Method = ""              // nothing to check
	ByUserAgent   Method = "user-agent"    // the User-Agent alone decided
	ByUnpublished Method = "unpublished"   // operator publishes nothing
)

// Result is the verdict for one IP and the evidence behind it.
type Result struct {
	IP      netip.Addr
	Claimed string            // the User-Agent, if one was given
	Crawler *crawlers.Crawler // the claimed (or, without a User-Agent, identified) crawler; nil if none
	Verdict Verification
	Method  Method
	// Reason explains a verdict other than verified, in a few words.
	Reason string

	// PTR is the reverse-DNS name considered (the first in the operator's
	// domain, else the first returned); empty if no PTR lookup was made or
	// none was found.
	PTR string
	// ForwardConfirmed reports that PTR's A/AAAA records contain IP.
	ForwardConfirmed bool
	// Forward holds PTR's addresses when they were looked up.
	Forward []netip.Addr
	// DNSChecked reports whether DNS was consulted.
	DNSChecked bool

	// Range is the list prefix containing IP, if any.
	Range netip.Prefix
	// List is the list consulted (the one containing IP, else the first
	// one checked); nil if the crawler has no list or no copy is known.
	List *List
	// ListPredates is false when every known version of List is newer
	// than the time the request was judged at.
	ListPredates bool

	// Err is a DNS failure (timeout, server failure) that prevented a
	// verdict, a *LookupError; the Verdict is then Unverifiable.
	Err error

	// Signature is the Web Bot Auth verdict WithSignature added, nil when
	// the request carried no signature or none was checked.
	Signature *botauth.Result
}

// Operator returns the crawler's operator, or "".
func (r *Result) Operator() string {
	if r.Crawler == nil {
		return ""
	}
	return r.Crawler.Operator
}

// Evidence describes the evidence in one line, e.g.
// "crawl-66-249-66-1.googlebot.com → 66.249.66.1, in google-common 2026-03-16 (66.249.66.0/27)".
func (r *Result) Evidence() string {
	var parts []string
	if r.PTR != "" {
		s := r.PTR
		switch {
		case r.ForwardConfirmed:
			s += " → " + r.IP.String()
		case r.Forward != nil:
			s += " → " + joinAddrs(r.Forward) + " (not " + r.IP.String() + ")"
		}
		parts = append(parts, s)
	}
	if r.List != nil {
		if r.Range.IsValid() {
			parts = append(parts, fmt.Sprintf("in %s %s (%s)", r.List.ID, r.List.Date.Format(time.DateOnly), r.Range))
		} else {
			parts = append(parts, fmt.Sprintf("not in %s %s (%d prefixes)", r.List.ID, r.List.Date.Format(time.DateOnly), r.List.Len()))
		}
		if !r.ListPredates {
			parts[len(parts)-1] += ", a list newer than the request"
		}
	}
	if s := r.Signature; s != nil && s.Verdict == botauth.Verified {
		by := "a key given locally"
		if s.Key != nil && s.Key.Directory != "" {
			by = "a key from " + s.Key.Directory
		}
		parts = append(parts, "signed with "+by+" (keyid "+s.KeyID+")")
	}
	if r.Reason != "" {
		parts = append(parts, r.Reason)
	}
	if r.Err != nil {
		parts = append(parts, r.Err.Error())
	}
	return strings.Join(parts, "; ")
}

func joinAddrs(as []netip.Addr) string {
	if len(as) == 0 {
		return "no address"
	}
	s := make([]string, len(as))
	for i, a := range as {
		s[i] = a.String()
	}
	return strings.Join(s, ", ")
}

// Verifier checks crawler identities. Set its fields before first use; it
// is then safe for concurrent use.
type Verifier struct {
	// Ranges supplies the IP lists; nil means Embedded().
	Ranges *Ranges
	// Resolver answers PTR and A/AAAA queries; nil disables DNS (offline:
	// only lists are used).
	Resolver Resolver
	// Timeout bounds each DNS lookup; zero means 5 seconds.
	Timeout time.Duration
	// TTL and NegativeTTL are how long DNS answers and "no such name"
	// answers are cached; zero means 1 hour and 5 minutes.
	TTL, NegativeTTL time.Duration
	// FailureTTL is how long a failed lookup (a timeout, a server
	// failure: Result.Err) is remembered, so that a name whose servers do
	// not answer costs one Timeout per FailureTTL rather than per request;
	// zero means 30 seconds, a negative value not at all. A lookup the
	// caller's context cancelled is never remembered.
	FailureTTL time.Duration
	// Now is the clock for the DNS cache; nil means time.Now.
	Now func() time.Time

	once  sync.Once
	cache *dnsCache
	rng   *Ranges
}

func (v *Verifier) init() {
	v.once.Do(func() {
		v.rng = v.Ranges
		if v.rng == nil {
			v.rng = Embedded()
		}
		if v.Resolver == nil {
			return
		}
		c := &dnsCache{res: v.Resolver, timeout: v.Timeout, ttl: v.TTL, negTTL: v.NegativeTTL, failTTL: v.FailureTTL, now: v.Now}
		if c.timeout <= 0 {
			c.timeout = 5 * time.Second
		}
		if c.ttl <= 0 {
			c.ttl = time.Hour
		}
		if c.negTTL <= 0 {
			c.negTTL = 5 * time.Minute
		}
		switch {
		case c.failTTL == 0:
			c.failTTL = 30 * time.Second
		case c.failTTL < 0:
			c.failTTL = 0
		}
		if c.now == nil {
			c.now = time.Now
		}
		v.cache = c
	})
}

// Verify judges a request from ip with the given User-Agent against the
// current lists. See VerifyAt.
func (v *Verifier) Verify(ctx context.Context, ip netip.Addr, userAgent string) Result {
	return v.VerifyAt(ctx, ip, userAgent, time.Time{})
}

// VerifyAt judges a request from ip with the given User-Agent made at time
// t (zero: now), against the version of each list current at t. With an
// empty User-Agent it identifies which known crawler, if any, the IP
// belongs to.
func (v *Verifier) VerifyAt(ctx context.Context, ip netip.Addr, userAgent string, t time.Time) Result {
	if userAgent == "" {
		return v.identify(ctx, ip, t)
	}
	c, ok := crawlers.Match(userAgent)
	if !ok {
		return Result{IP: ip, Claimed: userAgent, Verdict: NotCrawler, Method: ByUserAgent, Reason: "the User-Agent names no known crawler"}
	}
	r := v.VerifyCrawler(ctx, ip, c, t)
	r.Claimed = userAgent
	return r
}

// VerifyCrawler judges whether a request from ip made at time t (zero:
// now) came from crawler c.
func (v *Verifier) VerifyCrawler(ctx context.Context, ip netip.Addr, c *crawlers.Crawler, t time.Time) Result {
	v.init()
	ip = ip.Unmap()
	r := Result{IP: ip, Crawler: c}
	switch c.Verify.Method {
	case crawlers.MethodTokenOnly:
		r.Verdict, r.Method = Spoofed, ByToken
		r.Reason = c.Name + " is a robots.txt control token only: " + c.Operator + " never sends it as a User-Agent"
		return r
	case crawlers.MethodNone:
		r.Verdict, r.Method = Unverifiable, ByUnpublished
		if c.Source == crawlers.SourceDataSet {
			r.Reason = "not in the registry: no published IP list or DNS names to check"
		} else {
			r.Reason = c.Operator + " publishes no IP list or DNS names"
		}
		return r
	case crawlers.MethodASN:
		r.Verdict, r.Method = Unverifiable, ByUnpublished
		r.Reason = fmt.Sprintf("%s publishes only AS%d, which covers all of %s: too weak to verify", c.Operator, c.Verify.ASN[0], c.Operator)
		return r
	}

	// Lists first: cheap, and what operators recommend.
	var missing []string
	for _, id := range c.Verify.Lists {
		l, predates := v.rng.At(id, t)
		if l == nil {
			missing = append(missing, id)
			continue
		}
		if p, ok := l.Lookup(ip); ok {
			r.List, r.ListPredates, r.Range = l, predates, p
			break
		}
		if r.List == nil {
			r.List, r.ListPredates = l, predates
		}
	}
	inList := r.Range.IsValid()

	// Then DNS, when the operator documents it and we may use it.
	if len(c.Verify.RDNS) > 0 && v.cache != nil {
		v.fcrdns(ctx, &r, c.Verify.RDNS)
	}

	switch {
	case inList && r.ForwardConfirmed:
		r.Verdict, r.Method = Verified, ByBoth
	case inList:
		// The list decides; a DNS failure alongside it is not an error.
		r.Verdict, r.Method, r.Err, r.Reason = Verified, ByRanges, nil, ""
	case r.ForwardConfirmed:
		r.Verdict, r.Method = Verified, ByFCrDNS
	case r.Err != nil:
		r.Verdict, r.Method = Unverifiable, ByFCrDNS
	case c.Verify.Method == crawlers.MethodRDNSOnly && r.PTR != "" && hasAnySuffix(r.PTR, c.Verify.RDNS):
		r.Verdict, r.Method = RDNSOnly, ByRDNS
		r.Reason = c.Operator + " documents only the reverse lookup"
	case r.DNSChecked:
		r.Verdict, r.Method = Spoofed, ByFCrDNS
		if r.List != nil {
			r.Method = ByBoth
		}
	case r.List != nil:
		r.Verdict, r.Method = Spoofed, ByRanges
		if len(c.Verify.RDNS) > 0 {
			r.Reason = "reverse DNS not checked (offline)"
		}
	case len(c.Verify.RDNS) > 0:
		r.Verdict, r.Method = Unverifiable, ByFCrDNS
		r.Reason = c.Operator + " is verified by reverse DNS, which is off (offline)"
	default:
		r.Verdict, r.Method = Unverifiable, ByRanges
		r.Reason = "no copy of the " + strings.Join(missing, ", ") + " list: run rep verify -update"
	}
	return r
}

// fcrdns runs forward-confirmed reverse DNS for ip against suffixes and
// records the evidence in r.
func (v *Verifier) fcrdns(ctx context.Context, r *Result, suffixes []string) {
	r.DNSChecked = true
	names, err := v.cache.ptr(ctx, r.IP)
	if err != nil {
		if isNotFound(err) {
			r.Reason = "no PTR record"
			return
		}
		r.Err = &LookupError{Query: "PTR", Name: r.IP.String(), Server: v.server(), Err: err}
		return
	}
	if len(names) == 0 {
		r.Reason = "no PTR record"
		return
	}
	var matched []string
	for _, n := range names {
		n = strings.ToLower(strings.TrimSuffix(n, "."))
		if hasAnySuffix(n, suffixes) {
			matched = append(matched, n)
		}
	}
	if len(matched) == 0 {
		r.PTR = strings.ToLower(strings.TrimSuffix(names[0], "."))
		r.Reason = "PTR " + r.PTR + " is not under " + strings.Join(suffixes, " or ")
		return
	}
	for _, n := range matched {
		addrs, err := v.cache.forward(ctx, n)
		if r.PTR == "" {
			r.PTR = n
		}
		switch {
		case err != nil && isNotFound(err):
			if r.Reason == "" {
				r.Reason = "PTR " + n + " has no A/AAAA record, so anyone could have set it"
			}
			continue
		case err != nil:
			r.Err = &LookupError{Query: "A/AAAA", Name: n, Server: v.server(), Err: err}
			continue
		}
		if slices.ContainsFunc(addrs, func(a netip.Addr) bool { return a.Unmap() == r.IP }) {
			r.PTR, r.Forward, r.ForwardConfirmed, r.Err, r.Reason = n, addrs, true, nil, ""
			return
		}
		if r.Forward == nil && r.PTR == n {
			r.Forward = addrs
			r.Reason = "PTR " + n + " resolves to other addresses, so anyone could have set it"
		}
	}
}

// server names the Resolver's DNS server when it says which, else "".
func (v *Verifier) server() string {
	if s, ok := v.Resolver.(interface{ Server() string }); ok {
		return s.Server()
	}
	return ""
}

func hasAnySuffix(name string, suffixes []string) bool {
	for _, s := range suffixes {
		if hasSuffix(name, s) {
			return true
		}
	}
	return false
}

// identify finds the known crawler an IP belongs to, without a claim:
// first by list membership, then by FCrDNS against every registry suffix.
func (v *Verifier) identify(ctx context.Context, ip netip.Addr, t time.Time) Result {
	v.init()
	ip = ip.Unmap()
	for _, id := range v.rng.IDs() {
		if cl, ok := crawlers.ListByID(id); !ok || cl.Weak {
			continue // a weak list proves a cloud, not a crawler
		}
		l, predates := v.rng.At(id, t)
		if p, ok := l.Lookup(ip); ok {
			r := Result{IP: ip, Crawler: crawlerForList(id), Verdict: Verified, Method: ByRanges, List: l, ListPredates: predates, Range: p}
			if others := crawlersForList(id); len(others) > 3 {
				r.Reason = fmt.Sprintf("the list is shared by %s and %d other %s crawlers", others[0], len(others)-1, r.Crawler.Operator)
			} else if len(others) > 1 {
				r.Reason = "the list is shared by " + strings.Join(others, ", ")
			}
			return r
		}
	}
	r := Result{IP: ip, Verdict: NotCrawler, Method: ByRanges, Reason: "in no known crawler's IP list"}
	if v.cache == nil {
		r.Reason += "; reverse DNS not checked (offline)"
		return r
	}
	var suffixes []string
	for _, c := range crawlers.All() {
		suffixes = append(suffixes, c.Verify.RDNS...)
	}
	var fr Result
	fr.IP = ip
	v.fcrdns(ctx, &fr, suffixes)
	if fr.PTR == "" || !hasAnySuffix(fr.PTR, suffixes) {
		fr.Verdict, fr.Method = NotCrawler, ByFCrDNS
		if fr.Err == nil {
			fr.Reason = "in no known crawler's IP list or DNS domain"
		}
		return fr
	}
	fr.Crawler = crawlerForName(fr.PTR)
	switch {
	case fr.ForwardConfirmed:
		fr.Verdict, fr.Method = Verified, ByFCrDNS
	case fr.Err != nil:
		fr.Verdict, fr.Method = Unverifiable, ByFCrDNS
	case fr.Crawler.Verify.Method == crawlers.MethodRDNSOnly:
		fr.Verdict, fr.Method, fr.Reason = RDNSOnly, ByRDNS, fr.Crawler.Operator+" documents only the reverse lookup"
	default:
		fr.Verdict, fr.Method = Spoofed, ByFCrDNS
	}
	return fr
}

// crawlerForList returns the first registry crawler verified by list id.
func crawlerForList(id string) *crawlers.Crawler {
	for _, c := range crawlers.All() {
		if slices.Contains(c.Verify.Lists, id) {
			return c
		}
	}
	return nil
}

func crawlersForList(id string) []string {
	var names []string
	for _, c := range crawlers.All() {
		if slices.Contains(c.Verify.Lists, id) {
			names = append(names, c.Name)
		}
	}
	return names
}

// crawlerForName returns the first registry crawler whose rDNS suffixes
// cover name.
func crawlerForName(name string) *crawlers.Crawler {
	for _, c := range crawlers.All() {
		if hasAnySuffix(name, c.Verify.RDNS) {
			return c
		}
	}
	return nil
}
