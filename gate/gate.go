// Package gate enforces a crawler policy (package policy) in front of a
// site: Handler wraps any http.Handler, serves /robots.txt from the policy
// with an ETag and Cache-Control, adds the policy's X-Robots-Tag and
// Content-Usage headers per path, and judges every request that claims to
// be a crawler.
//
// A request whose User-Agent names a crawler of the registry is verified
// (published IP lists and forward-confirmed reverse DNS, package
// crawlers/identity; answers cached per IP) and asked of the generated
// robots.txt as that crawler reads it (verdict.Agent.Decide). Under the
// policy's enforce = "block" it is refused with 403 when verification finds
// it spoofed, or when its group disallows the path; under "log" the
// decision is only logged; under "off" nothing is judged. /robots.txt and
// everything under /.well-known/ are never refused: a crawler must be able
// to read the rules that shut it out.
//
// A request that carries a Web Bot Auth signature (Signature-Input and
// Signature, RFC 9421, tag "web-bot-auth") is verified too, per request
// (package crawlers/botauth), and the two verdicts are combined by
// identity.WithSignature. A signature made with a key from the directory of
// a Signature-Agent the registry lists for the claimed crawler proves the
// crawler: the request is verified by "signature", from any address, and no
// network check (no DNS lookup) is made for it. Any other signature (invalid,
// unverified, or made with a key from a directory not listed for that
// crawler) proves nothing and refutes nothing: the network check decides, as
// for an unsigned request, and the signature's verdict and reason are logged.
// An invalid signature is not refused for being invalid: whoever forges one
// could as well send none, so refusing it would stop only genuine crawlers
// whose signatures a proxy or a clock broke on the way. Key directories are
// fetched only for listed Signature-Agents, through the SSRF guard, without
// redirects, and cached by (directory URL, keyid) (botauth.Fetcher); a
// signature's verdict is never cached.
//
// Every request is judged on one path, computed once: its canonical form
// (Canonical), the path the origin serves, with escapes decoded, dot
// segments removed and slashes merged. The exemptions, the robots.txt
// rules and the policy's headers are matched on it, the request passed on
// is for it, and the log records it (and the client's spelling, when it
// differs, as raw_uri). A path origins would resolve differently (an
// encoded slash or dot segment, a backslash) is refused, as are a request
// with two User-Agent headers and, with Options.Hosts, one for another
// host: a *RequestError says which (Decision.Err).
//
// Forwarding headers are believed only from the proxies in Options.Trust:
// X-Forwarded-For (and X-Forwarded-Host and -Proto) by ServeHTTP, and by
// ForwardAuth only the headers its Front sets. A claimed crawler whose
// identity a DNS failure kept from being established is taken as spoofed
// unless Options.DNSFailure says otherwise.
//
// Each judged request is logged with log/slog as one record whose keys
// (time, client_ip, method, host, uri, status, user_agent) are those of a
// JSON access log: a slog.JSONHandler's output is a log rep audit reads.
// The record also says what the gate decided and why (action, reason,
// crawler, identity, robots_line), what proved a verified crawler
// (verified_by: the identity.Method, e.g. "fcrdns+ranges" or "signature"),
// and, for a signed request, the signature's verdict (signature:
// verified, invalid or unverified), why it failed (signature_reason), its
// signature_agent and keyid. ForwardAuth answers the same question for nginx
// auth_request, Caddy forward_auth and Traefik ForwardAuth.
//
// The path rules are RFC 3986 sections 5.2.4 and 6.2.2; signatures are
// RFC 9421 with the Web Bot Auth draft (draft-meunier-web-bot-auth-architecture).
package gate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/crawlers/botauth"
	"github.com/rep-toolkit/rep/crawlers/identity"
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/policy"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
	"github.com/rep-toolkit/rep/verdict"
)

// Options configure New. The zero value verifies with the embedded IP lists
// and the system's DNS resolver and logs with slog.Default.
type Options struct {
	// Verifier checks crawler identities; nil means the embedded IP lists
	// and the system's resolver.
	Verifier *identity.Verifier
	// Logger receives one record per judged request; nil means
	// slog.Default().
	Logger *slog.Logger
	// Trust lists the proxies whose forwarding headers are believed:
	// X-Forwarded-For, -Host and -Proto for ServeHTTP, the Front's headers
	// for ForwardAuth. A request from anywhere else is judged by its
	// connection's address and its own Host; a forward-auth question from
	// anywhere else is refused.
	Trust []netip.Prefix
	// Enforce overrides the policy's enforce key when set.
	Enforce policy.Enforce
	// CacheTTL is how long a verification is reused for one IP and
	// crawler; zero means an hour.
	CacheTTL time.Duration
	// Store, when set, keeps verification verdicts beside the in-process
	// cache, so that gates sharing it (Redis) or restarting (a bbolt
	// file) verify an address once per CacheTTL: each is an entry under
	// StoreKey whose body is the verdict's JSON (VerificationRecord), written
	// with CacheTTL as its TTL. A failing Store is logged and the gate
	// verifies without it.
	Store robotsfetch.Store
	// Now is the clock; nil means time.Now.
	Now func() time.Time

	// Signatures verifies Web Bot Auth signatures. Its Keys are asked only
	// for keys of a Signature-Agent listed for the claimed crawler
	// (identity.DirectoryListed): a key from anywhere else proves nothing,
	// so its directory is not fetched. nil means a Verifier whose keys a
	// botauth.Fetcher fetches (loopback and private addresses refused,
	// https only, no redirects, cached by directory and keyid), on the
	// gate's clock, refusing signatures valid for more than 24 hours, as
	// the draft recommends. A given Verifier is used as it is, with
	// Keys nil meaning that Fetcher and Now nil the gate's clock.
	Signatures *botauth.Verifier
	// Directories are local copies of key directories, by Signature-Agent
	// origin (e.g. "https://agent.bot.goog"): a key is taken from the
	// copy instead of being fetched, and counts as that directory's. A
	// copy proves a crawler only for an origin listed for it.
	Directories map[string]botauth.JWKS
	// SignatureAgents adds Signature-Agent origins, by registry crawler
	// name, to those the registry lists for it: a key from their
	// directories proves that crawler too.
	SignatureAgents map[string][]string
	// AllowPrivate lets the default Fetcher (Signatures nil or without
	// Keys) fetch key directories from loopback, private and link-local
	// addresses and over plain http.
	AllowPrivate bool

	// Hosts are the site's own host names (or IP literals), each alone,
	// matching any port, or as NAME:PORT: a request for another host is
	// refused (ForeignHost), and a Web Bot Auth signature proves nothing
	// unless its @authority is one of them. Empty means every host is
	// served, and no signature proves a crawler: the request's Host is
	// the client's to choose, and a signature made for another site would
	// otherwise replay here.
	Hosts []string
	// KeepSlashes judges "//" as a segment of its own instead of merging
	// it into one "/" as nginx, Apache and Caddy do by default: for a front
	// with merge_slashes off (see Canonical).
	KeepSlashes bool
	// DNSFailure is what a claimed crawler whose identity a DNS failure
	// (a timeout, no answer) kept from being established is taken for;
	// zero means DNSSpoofed.
	DNSFailure DNSRule
	// MaxInFlight bounds the requests passed to next at once; one more is
	// answered 503 with Retry-After. Zero means no bound.
	MaxInFlight int
}

// DNSRule is what the gate takes a claimed crawler for when a DNS failure
// kept its identity from being established (identity.Result.Err).
type DNSRule string

// Values of DNSRule.
const (
	// DNSSpoofed: not verified is not the claimed crawler. It is judged
	// as a spoofed one (refused under block, on every path), so that a
	// client whose reverse DNS zone does not answer gains nothing.
	DNSSpoofed DNSRule = "spoofed"
	// DNSUnverifiable: judged as the crawler it claims, by its group of
	// robots.txt, as a crawler whose operator publishes nothing is.
	DNSUnverifiable DNSRule = "unverifiable"
)

// Action is what the gate does with a request.
type Action string

// Values of Action.
const (
	Allow  Action = "allow"  // passed on
	Refuse Action = "refuse" // refused with 403
	// LogOnly is a request the policy refuses, passed on because
	// enforce is "log".
	LogOnly Action = "log-only"
)

// Decision is the gate's verdict on one request and why.
type Decision struct {
	Action Action
	// Reason says in a few words why: "not a crawler", "spoofed: ...",
	// "disallowed by robots.txt line 12", "exempt: /robots.txt".
	Reason string
	// Crawler is the crawler the User-Agent names; nil for others.
	Crawler *crawlers.Crawler
	// Identity is the verification's verdict, empty when none was made.
	Identity identity.Verification
	// VerifiedBy is what proved a verified crawler, the identity.Method:
	// "ranges", "fcrdns", "fcrdns+ranges", or identity.BySignature for a
	// signature made with a key from a directory listed for it. Empty
	// unless Identity is verified.
	VerifiedBy identity.Method
	// Signature is the verdict on the request's Web Bot Auth signature;
	// nil when it carried none or none was checked (not a registry
	// crawler, an exempt path, Decide).
	Signature *botauth.Result
	// Rule is the robots.txt decision for the crawler; its Line is 0 when
	// no rule decided or no crawler was named.
	Rule robotstxt.Rule
	// ClientIP is the address the request was judged by.
	ClientIP netip.Addr
	// Target is the path and query judged, as the origin serves them
	// (Canonical); RawTarget is the one the client sent.
	Target, RawTarget string
	// Err is why a request was refused before it was judged, a
	// *RequestError (an ambiguous path, a foreign host, two User-Agent
	// headers, an untrusted forward-auth peer); nil for a judged one.
	Err error
}

// Gate is the middleware. It is safe for concurrent use.
type Gate struct {
	p       *policy.Policy
	next    http.Handler
	o       Options
	enforce policy.Enforce
	robots  []byte
	etag    string
	files   map[robotstxt.Profile]*robotstxt.File

	sig botauth.Verifier
	// dirs are Options.Directories by directory URL.
	dirs map[string]botauth.JWKS
	// signers are copies of registry crawlers with
	// Options.SignatureAgents added, for identity.WithSignature; the
	// registry's own entry decides everything else.
	signers map[*crawlers.Crawler]*crawlers.Crawler

	// hosts are Options.Hosts, lower-case, without a trailing dot.
	hosts []string
	// slots bounds the requests passed to next (Options.MaxInFlight).
	slots chan struct{}

	mu    sync.Mutex
	cache map[cacheKey]cacheEntry
}

type cacheKey struct {
	ip      netip.Addr
	crawler *crawlers.Crawler
}

type cacheEntry struct {
	v       identity.Result
	expires time.Time
}

// maxCache bounds the verification cache; when full, evict makes room.
const maxCache = 1 << 16

// Handler returns the middleware with default Options.
func Handler(p *policy.Policy, next http.Handler) http.Handler {
	return New(p, next, Options{})
}

// New returns the middleware for p in front of next.
func New(p *policy.Policy, next http.Handler, o Options) *Gate {
	if o.Verifier == nil {
		o.Verifier = &identity.Verifier{Resolver: net.DefaultResolver}
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.CacheTTL <= 0 {
		o.CacheTTL = time.Hour
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	g := &Gate{p: p, next: next, o: o, enforce: o.Enforce, robots: p.RobotsTxt(),
		files: map[robotstxt.Profile]*robotstxt.File{}, cache: map[cacheKey]cacheEntry{}}
	if g.enforce == "" {
		g.enforce = p.EnforceMode()
	}
	if g.o.DNSFailure == "" {
		g.o.DNSFailure = DNSSpoofed
	}
	for _, h := range o.Hosts {
		h = strings.ToLower(strings.TrimSpace(h))
		if name, port, err := net.SplitHostPort(h); err == nil {
			h = net.JoinHostPort(hostName(name), port)
		} else {
			h = hostName(h)
		}
		g.hosts = append(g.hosts, h)
	}
	if o.MaxInFlight > 0 {
		g.slots = make(chan struct{}, o.MaxInFlight)
	}
	g.initSignatures()
	sum := sha256Sum(g.robots)
	g.etag = fmt.Sprintf(`"%x"`, sum[:12])
	for _, e := range []engine.Engine{engine.Google, engine.Bing, engine.Yandex, engine.RFC9309} {
		pr := e.Parser()
		if g.files[pr] == nil {
			g.files[pr] = robotstxt.ParseWith(matchRules(g.robots), robotstxt.Options{Profile: pr})
		}
	}
	return g
}

// Exempt reports whether path is never refused: /robots.txt and anything
// under /.well-known/.
func Exempt(path string) bool {
	return path == "/robots.txt" || strings.HasPrefix(path, "/.well-known/")
}

// ServeHTTP serves /robots.txt from the policy, judges the request, and
// passes it on with the policy's headers unless it is refused. The request
// next gets is for the canonical target (Canonical), the one judged: a
// request whose path cannot be made canonical is answered 400, one for a
// host not in Options.Hosts 421, and one with two User-Agent headers 400,
// under every enforce mode.
func (g *Gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw := requestTarget(r)
	host, proto := r.Host, ""
	if g.trusted(peer(r)) {
		if h := firstValue(r.Header.Get("X-Forwarded-Host")); h != "" {
			host = h
		}
		proto = firstValue(r.Header.Get("X-Forwarded-Proto"))
	}
	target, err := g.check(raw, host, r)
	if err != nil {
		d := Decision{Action: Refuse, Reason: err.Error(), Err: err, ClientIP: g.clientIP(r, "X-Forwarded-For"), RawTarget: raw}
		var re *RequestError
		errors.As(err, &re)
		rw := &recorder{ResponseWriter: w}
		http.Error(rw, http.StatusText(re.status())+": "+err.Error(), re.status())
		g.log(r.Context(), d, r.Method, host, r.Proto, r.Header.Get("User-Agent"), r.Referer(), rw.status(), rw.n)
		return
	}
	path, _, _ := strings.Cut(target, "?")
	if path == "/robots.txt" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		g.serveRobots(w, r, raw, target, g.clientIP(r, "X-Forwarded-For"), host)
		return
	}
	g.p.SetHeaders(w.Header(), path)
	dropUpgrade(r.Header)
	in := r
	if target != raw {
		r = withTarget(r, target)
	}
	if g.enforce == policy.Off {
		g.pass(w, r)
		return
	}
	var signed *http.Request
	if hasSignature(in) {
		signed = g.original(in, in.Method, raw, host, proto)
	}
	d := g.decide(r.Context(), g.clientIP(in, "X-Forwarded-For"), in.UserAgent(), target, signed)
	d.RawTarget = raw
	rw := &recorder{ResponseWriter: w}
	if d.Action == Refuse {
		http.Error(rw, "403 forbidden: "+d.Reason, http.StatusForbidden)
	} else {
		g.pass(rw, r)
	}
	g.log(r.Context(), d, r.Method, host, r.Proto, in.UserAgent(), r.Referer(), rw.status(), rw.n)
}

// dropUpgrade removes from h a request to upgrade the connection to
// another protocol than WebSocket: once an origin switched it to h2c, the
// requests it carries would reach the origin without the gate seeing
// them. Without its Upgrade the request is answered over HTTP/1.1.
func dropUpgrade(h http.Header) {
	for _, v := range h.Values("Upgrade") {
		for p := range strings.SplitSeq(v, ",") {
			if !strings.EqualFold(strings.TrimSpace(p), "websocket") {
				h.Del("Upgrade")
				h.Del("HTTP2-Settings")
				return
			}
		}
	}
}

// pass hands r to next, within Options.MaxInFlight.
func (g *Gate) pass(w http.ResponseWriter, r *http.Request) {
	if g.slots != nil {
		select {
		case g.slots <- struct{}{}:
			defer func() { <-g.slots }()
		default:
			w.Header().Set("Retry-After", "1")
			http.Error(w, "503 busy: too many requests in flight to the site", http.StatusServiceUnavailable)
			return
		}
	}
	g.next.ServeHTTP(w, r)
}

// requestTarget is r's target as the client sent it: its path and query.
// A CONNECT's is its authority (host:port), which has no path: it is
// refused rather than judged as "/" and passed on as a tunnel.
func requestTarget(r *http.Request) string {
	if strings.HasPrefix(r.RequestURI, "/") || r.Method == http.MethodConnect && r.RequestURI != "" {
		return r.RequestURI
	}
	return r.URL.RequestURI() // absolute-form, "*", or a client-side request
}

// withTarget returns a shallow copy of r for target, a canonical one.
func withTarget(r *http.Request, target string) *http.Request {
	u, err := url.ParseRequestURI(target)
	if err != nil { // cannot happen: Canonical writes a valid target
		return r
	}
	o := r.WithContext(r.Context())
	u.Scheme, u.Host = r.URL.Scheme, r.URL.Host
	o.URL = u
	o.RequestURI = target
	return o
}

// check canonicalises raw and checks what no policy decides: the host
// and the number of User-Agent headers.
func (g *Gate) check(raw, host string, r *http.Request) (string, error) {
	target, err := Canonical(raw, !g.o.KeepSlashes)
	if err != nil {
		return "", err
	}
	if !g.served(host) {
		return "", &RequestError{Reason: ForeignHost, Value: host, Detail: "not one of the site's hosts (Options.Hosts, -host)"}
	}
	if n := len(r.Header.Values("User-Agent")); n > 1 {
		return "", &RequestError{Reason: TwoUserAgents, Detail: fmt.Sprintf("%d User-Agent headers: the gate and the origin could judge different ones", n)}
	}
	return target, nil
}

// served reports whether host (a Host header: NAME or NAME:PORT) is one of
// Options.Hosts; any host is when there are none.
func (g *Gate) served(host string) bool {
	if len(g.hosts) == 0 {
		return true
	}
	return g.listed(host)
}

// listed reports whether host is one of Options.Hosts.
func (g *Gate) listed(host string) bool {
	host = strings.ToLower(host)
	name, port, err := net.SplitHostPort(host)
	if err != nil {
		name, port = host, ""
	}
	name = hostName(name)
	for _, h := range g.hosts {
		if h == name || port != "" && h == net.JoinHostPort(name, port) {
			return true
		}
	}
	return false
}

// hostName is a host name (lower-case) without a trailing dot, or an IP
// literal, without brackets, in its one spelling.
func hostName(name string) string {
	if strings.HasPrefix(name, "[") && strings.HasSuffix(name, "]") {
		name = name[1 : len(name)-1]
	}
	if a, err := netip.ParseAddr(name); err == nil {
		return a.String()
	}
	return strings.TrimSuffix(name, ".")
}

// serveRobots serves the policy's robots.txt and logs the request, from ip
// for host.
func (g *Gate) serveRobots(w http.ResponseWriter, r *http.Request, raw, target string, ip netip.Addr, host string) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("ETag", g.etag)
	h.Set("Cache-Control", "public, max-age=3600")
	rw := &recorder{ResponseWriter: w}
	http.ServeContent(rw, r, "robots.txt", time.Time{}, bytes.NewReader(g.robots))
	if g.enforce != policy.Off {
		d := g.decide(r.Context(), ip, r.UserAgent(), target, nil)
		d.RawTarget = raw
		g.log(r.Context(), d, r.Method, host, r.Proto, r.UserAgent(), r.Referer(), rw.status(), rw.n)
	}
}

// Decide judges a request for target (a path with its query, as sent)
// from ip with userAgent under the gate's enforcement, as an unsigned
// request: see DecideRequest for one whose signature counts. The target is
// judged in its canonical form (Canonical); one that has none is refused
// with Err set.
func (g *Gate) Decide(ctx context.Context, ip netip.Addr, userAgent, target string) Decision {
	canon, err := Canonical(target, !g.o.KeepSlashes)
	if err != nil {
		return Decision{Action: Refuse, Reason: err.Error(), Err: err, ClientIP: ip, RawTarget: target}
	}
	d := g.decide(ctx, ip, userAgent, canon, nil)
	d.RawTarget = target
	return d
}

// DecideRequest judges r from ip under the gate's enforcement as ServeHTTP
// does, its Web Bot Auth signature included. r is the request as its
// client sent it: its Method, Host, URL (with the Scheme when r.TLS does
// not tell it) and Header are what the signature's components are computed
// from.
//
// The request is refused, with Err set, as ServeHTTP refuses it: a target
// that has no canonical form, a Host not in Options.Hosts, two User-Agent
// headers.
func (g *Gate) DecideRequest(ctx context.Context, ip netip.Addr, r *http.Request) Decision {
	raw := requestTarget(r)
	canon, err := g.check(raw, r.Host, r)
	if err != nil {
		return Decision{Action: Refuse, Reason: err.Error(), Err: err, ClientIP: ip, RawTarget: raw}
	}
	var signed *http.Request
	if hasSignature(r) {
		signed = r
	}
	d := g.decide(ctx, ip, r.UserAgent(), canon, signed)
	d.RawTarget = raw
	return d
}

// decide judges a request for target, a canonical one; signed is the
// request as its client sent it when it carries a signature, else nil.
func (g *Gate) decide(ctx context.Context, ip netip.Addr, userAgent, target string, signed *http.Request) Decision {
	d := Decision{Action: Allow, ClientIP: ip, Target: target}
	path, _, _ := strings.Cut(target, "?")
	c, ok := crawlers.Match(userAgent)
	if !ok {
		d.Reason = "not a crawler"
		return d
	}
	d.Crawler = c
	if Exempt(path) {
		d.Reason = "exempt: " + path
		return d
	}
	if c.Source == crawlers.SourceRegistry {
		res := g.identify(ctx, ip, c, signed)
		d.Identity, d.Signature = res.Verdict, res.Signature
		if res.Verdict == identity.Verified {
			d.VerifiedBy = res.Method
		}
		if res.Verdict == identity.Spoofed {
			d.Action = Refuse
			d.Reason = "spoofed " + c.Name
			if res.Reason != "" {
				d.Reason += ": " + res.Reason
			}
			return g.enforced(d)
		}
	}
	a := verdict.AgentFor(c, engine.Auto)
	f := g.files[a.Parser()]
	rd := a.Decide(f, matchTarget(target))
	as := ""
	if bare, ok := withoutParams(target); ok && rd.Allowed {
		// Tomcat, Jetty and the frameworks on them serve /private;x/y as
		// /private/y: a path with parameters is refused when either
		// reading of it is.
		if bd := a.Decide(f, matchTarget(bare)); !bd.Allowed {
			rd, as = bd, " as "+bare+", its ;parameters removed as servlet containers do"
		}
	}
	d.Rule = rd.Rule
	if rd.Allowed {
		d.Reason = "allowed by robots.txt"
		if rd.Rule.Line > 0 {
			d.Reason += fmt.Sprintf(" line %d", rd.Rule.Line)
		}
		return d
	}
	d.Action = Refuse
	d.Reason = fmt.Sprintf("%s disallowed by robots.txt line %d (%s)%s", c.Name, rd.Rule.Line, rd.Rule, as)
	return g.enforced(d)
}

// withoutParams returns target with every path segment's parameters (from
// ";" to the segment's end) removed, and whether it had any.
func withoutParams(target string) (string, bool) {
	path, query, hasQuery := strings.Cut(target, "?")
	if !strings.Contains(path, ";") {
		return target, false
	}
	var b strings.Builder
	b.Grow(len(target))
	for i, seg := range strings.Split(path, "/") {
		if i > 0 {
			b.WriteByte('/')
		}
		seg, _, _ = strings.Cut(seg, ";")
		b.WriteString(seg)
	}
	if hasQuery {
		b.WriteByte('?')
		b.WriteString(query)
	}
	return b.String(), true
}

// enforced turns a refusal into LogOnly unless the gate blocks.
func (g *Gate) enforced(d Decision) Decision {
	if d.Action == Refuse && g.enforce != policy.Block {
		d.Action = LogOnly
	}
	return d
}

// verify checks ip's claim to be c, reusing an answer for CacheTTL.
func (g *Gate) verify(ctx context.Context, ip netip.Addr, c *crawlers.Crawler) identity.Result {
	k := cacheKey{ip, c}
	now := g.o.Now()
	g.mu.Lock()
	e, ok := g.cache[k]
	g.mu.Unlock()
	if ok && now.Before(e.expires) {
		return e.v
	}
	if res, expires, ok := g.fromStore(ctx, ip, c, now); ok {
		g.remember(k, res, expires)
		return res
	}
	res := g.o.Verifier.VerifyCrawler(ctx, ip, c, now)
	if res.Err != nil {
		// A DNS failure: not kept here (the Verifier keeps it briefly),
		// and taken for what Options.DNSFailure says.
		if g.o.DNSFailure == DNSSpoofed {
			res.Verdict = identity.Spoofed
			res.Reason = "identity not established (" + res.Err.Error() + "): taken as not " + c.Name
		}
		return res
	}
	g.remember(k, res, now.Add(g.o.CacheTTL))
	g.toStore(ctx, ip, c, res, now)
	return res
}

func (g *Gate) remember(k cacheKey, res identity.Result, expires time.Time) {
	g.mu.Lock()
	if len(g.cache) >= maxCache {
		g.evict()
	}
	g.cache[k] = cacheEntry{res, expires}
	g.mu.Unlock()
}

// evict makes room in the full cache: it drops the expired verdicts and
// those that are not Verified, which anyone can add by claiming a
// crawler from addresses of their own (an IPv6 /64 has enough), and only
// when every one left is a verified crawler's, all of them. A flood of
// spoofed claims so never evicts the crawlers already verified. g.mu is
// held.
func (g *Gate) evict() {
	now := g.o.Now()
	for k, e := range g.cache {
		if e.v.Verdict != identity.Verified || !now.Before(e.expires) {
			delete(g.cache, k)
		}
	}
	if len(g.cache) >= maxCache {
		clear(g.cache)
	}
}

// clientIP is the address to judge r by: the connection's, or when it
// comes from a trusted proxy, the one header names: for X-Forwarded-For the
// last address that is not a trusted proxy's, for another (X-Real-IP) its
// value. Nothing else is read: a header the proxy does not set is the
// client's own.
func (g *Gate) clientIP(r *http.Request, header string) netip.Addr {
	ip := peer(r)
	if !g.trusted(ip) {
		return ip
	}
	if !strings.EqualFold(header, "X-Forwarded-For") {
		if v := r.Header.Values(header); len(v) == 1 {
			if a, err := netip.ParseAddr(strings.TrimSpace(v[0])); err == nil {
				return a.Unmap()
			}
		}
		return ip
	}
	var hops []string
	for _, v := range r.Header.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(v, ",")...)
	}
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break
		}
		ip = a.Unmap()
		if !g.trusted(ip) {
			break
		}
	}
	return ip
}

// peer is the address r's connection comes from.
func peer(r *http.Request) netip.Addr {
	ap, _ := netip.ParseAddrPort(r.RemoteAddr)
	return ap.Addr().Unmap()
}

func (g *Gate) trusted(ip netip.Addr) bool {
	for _, p := range g.o.Trust {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// log writes one decision as an access-log record; a refusal and an
// invalid signature are warnings.
func (g *Gate) log(ctx context.Context, d Decision, method, host, proto, ua, referer string, status int, n int64) {
	uri := d.Target
	if uri == "" {
		uri = d.RawTarget
	}
	level := slog.LevelInfo
	if d.Action != Allow || d.Signature != nil && d.Signature.Verdict == botauth.Invalid {
		level = slog.LevelWarn
	}
	attrs := []slog.Attr{
		slog.String("client_ip", d.ClientIP.String()),
		slog.String("method", method),
		slog.String("host", host),
		slog.String("uri", uri),
	}
	if d.RawTarget != "" && d.RawTarget != uri {
		attrs = append(attrs, slog.String("raw_uri", d.RawTarget))
	}
	attrs = append(attrs,
		slog.String("proto", proto),
		slog.Int("status", status),
		slog.Int64("bytes", n),
		slog.String("user_agent", ua),
		slog.String("referer", referer),
		slog.String("action", string(d.Action)),
		slog.String("reason", d.Reason),
	)
	if d.Crawler != nil {
		attrs = append(attrs, slog.String("crawler", d.Crawler.Name))
	}
	if d.Identity != "" {
		attrs = append(attrs, slog.String("identity", string(d.Identity)))
	}
	if d.VerifiedBy != "" {
		attrs = append(attrs, slog.String("verified_by", string(d.VerifiedBy)))
	}
	if s := d.Signature; s != nil {
		attrs = append(attrs, slog.String("signature", string(s.Verdict)))
		if s.Err != nil {
			attrs = append(attrs, slog.String("signature_reason", s.Err.Error()))
		}
		if s.Agent != nil {
			attrs = append(attrs, slog.String("signature_agent", s.Agent.URL))
		}
		if s.KeyID != "" {
			attrs = append(attrs, slog.String("keyid", s.KeyID))
		}
	}
	if d.Rule.Line > 0 {
		attrs = append(attrs, slog.Int("robots_line", d.Rule.Line))
	}
	g.o.Logger.LogAttrs(ctx, level, "rep gate", attrs...)
}

// recorder remembers the status and size of a response.
type recorder struct {
	http.ResponseWriter
	code int
	n    int64
}

func (r *recorder) WriteHeader(code int) {
	if r.code == 0 {
		r.code = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.code == 0 {
		r.code = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.n += int64(n)
	return n, err
}

func (r *recorder) status() int {
	if r.code == 0 {
		return http.StatusOK
	}
	return r.code
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
