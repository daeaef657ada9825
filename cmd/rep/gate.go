package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/crawlers/botauth"
	"github.com/rep-toolkit/rep/crawlers/identity"
	"github.com/rep-toolkit/rep/gate"
	"github.com/rep-toolkit/rep/internal/netguard"
	"github.com/rep-toolkit/rep/lint"
	"github.com/rep-toolkit/rep/policy"
)

func init() {
	register(&command{name: "gate", summary: "enforce a policy in front of a site: reverse proxy or forward-auth endpoint", run: runGate})
}

const gateUsage = `usage: rep gate -policy POLICY -upstream URL [-host NAME ...] [-addr HOST:PORT] [-store ...] [-trust CIDR ...] [flags]
       rep gate -policy POLICY -forward-auth -front nginx|caddy|traefik -trust CIDR [-host NAME ...] [flags]

Puts a policy (see rep policy and docs/policy.md) in front of a site. With
-upstream it is a reverse proxy: it serves /robots.txt from the policy, adds
the policy's X-Robots-Tag and Content-Usage headers, and under enforce =
"block" refuses with 403 a request claiming a crawler that verification
(IP lists, reverse DNS) finds spoofed, or a crawler asking for a path its
group disallows; under "log" it only logs. /robots.txt and /.well-known/
are never refused.

Every request is judged on its canonical path, the one the origin serves:
escapes decoded, dot segments removed, duplicate slashes merged (unless
-keep-slashes), and that is the path passed on and logged (with the raw
one as raw_uri). A path origins resolve differently (an encoded slash or
dot segment, a backslash, a malformed escape) is refused with 400, as is a
request with two User-Agent headers; with -host, a request for another
host is refused with 421.

With -forward-auth it answers a proxy's questions instead: 200 to let a
request through, 403 to refuse it. -front names the proxy, and so the
headers the original request is read from: nginx (auth_request, sending
X-Original-URI, X-Original-Method, X-Real-IP, X-Forwarded-Host and
X-Forwarded-Proto as docs/policy.md shows), caddy (forward_auth) or
traefik (ForwardAuth): X-Forwarded-Uri, -Method, -Host, -Proto and -For.
No other header is read, and questions are believed only from -trust:
from any other peer they are refused.

A request that carries a Web Bot Auth signature (RFC 9421, tag
web-bot-auth) is verified too, each time: a signature made with a key from
the directory of a Signature-Agent the registry lists for the claimed
crawler (Google-Agent: https://agent.bot.goog) proves that crawler from any
address, with no reverse DNS. Any other signature, invalid ones included,
proves nothing and refutes nothing: the request is verified as an unsigned
one would be, and the signature's verdict is logged. Only listed
directories are fetched, refusing loopback and private addresses and http
unless -allow-private, never following redirects, and cached by directory
and key; -keys ORIGIN=JWKS_FILE gives a local copy of one instead, and
-signature-agent CRAWLER=ORIGIN lists another origin for a crawler.

A claimed crawler whose identity a DNS failure (a timeout, no answer)
kept from being established is taken as spoofed (-dns-failure spoofed,
the default) or judged as the crawler it claims (-dns-failure
unverifiable); DNS failures are remembered for 30 seconds.

A Web Bot Auth signature proves a crawler only when the request's
authority is one of the -host names: without -host, none does.

Verification verdicts are cached per address and crawler for -cache-ttl,
in memory and, with -store bolt:PATH, redis://HOST:PORT/DB or
redis-cluster://HOST:PORT,..., in a store that survives restarts or is
shared by several gates.

Every decision is logged as one JSON line on standard output (or -log
FILE): a log rep audit reads.

Exit status: 0 stopped by a signal, 1 the server failed, 2 usage or input
error.

flags:
`

// pairFlag is a repeatable NAME=VALUE flag.
type pairFlag struct {
	what  string // "ORIGIN=JWKS_FILE", for errors
	pairs [][2]string
}

func (p *pairFlag) String() string {
	if p == nil {
		return ""
	}
	s := make([]string, len(p.pairs))
	for i, kv := range p.pairs {
		s[i] = kv[0] + "=" + kv[1]
	}
	return strings.Join(s, " ")
}

func (p *pairFlag) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || strings.TrimSpace(k) == "" || strings.TrimSpace(val) == "" {
		return fmt.Errorf("%q: want %s", v, p.what)
	}
	p.pairs = append(p.pairs, [2]string{strings.TrimSpace(k), strings.TrimSpace(val)})
	return nil
}

type cidrFlag []netip.Prefix

func (c *cidrFlag) String() string {
	s := make([]string, len(*c))
	for i, p := range *c {
		s[i] = p.String()
	}
	return strings.Join(s, ",")
}

func (c *cidrFlag) Set(v string) error {
	for f := range strings.SplitSeq(v, ",") {
		f = strings.TrimSpace(f)
		p, err := netip.ParsePrefix(f)
		if err != nil {
			a, aerr := netip.ParseAddr(f)
			if aerr != nil {
				return fmt.Errorf("%q is neither a CIDR (10.0.0.0/8) nor an address", f)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		*c = append(*c, p.Masked())
	}
	return nil
}

func runGate(e *env) int {
	fs := flag.NewFlagSet("gate", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	policyFile := fs.String("policy", "", "the policy `FILE` (TOML)")
	upstream := fs.String("upstream", "", "reverse-proxy to the site at `URL`")
	forwardAuth := fs.Bool("forward-auth", false, "answer forward-auth requests (200 or 403) instead of proxying")
	addr := fs.String("addr", "127.0.0.1:8090", "listen on `HOST:PORT`")
	var trust cidrFlag
	fs.Var(&trust, "trust", "believe X-Forwarded-For and X-Real-IP from proxies in `CIDR` (repeatable, or comma-separated)")
	enforce := fs.String("enforce", "", "override the policy's enforce: off, log or block")
	offline := fs.Bool("offline", false, "verify by IP lists only, without reverse DNS")
	resolver := fs.String("resolver", "", "DNS server `HOST:PORT` for reverse DNS (default: the system's)")
	logFile := fs.String("log", "", "append the decision log to `FILE` instead of standard output")
	store := fs.String("store", "memory", "verification cache: memory, bolt:PATH, redis://HOST:PORT/DB or redis-cluster://HOST:PORT,HOST:PORT")
	cacheTTL := fs.Duration("cache-ttl", time.Hour, "how long a verification verdict is reused for one address and crawler")
	keys := &pairFlag{what: "ORIGIN=JWKS_FILE, e.g. https://agent.bot.goog=google-agent.jwks"}
	fs.Var(keys, "keys", "`ORIGIN=JWKS_FILE`: use the file as the key directory of the Signature-Agent origin, without fetching it (repeatable)")
	agents := &pairFlag{what: "CRAWLER=ORIGIN, e.g. ChatGPT-User=https://chatgpt.com"}
	fs.Var(agents, "signature-agent", "`CRAWLER=ORIGIN`: a key from the origin's directory proves the registry crawler too (repeatable)")
	allowPrivate := fs.Bool("allow-private", false, "fetch key directories from loopback, private and link-local addresses and over http too (refused by default)")
	frontName := fs.String("front", "", "with -forward-auth, the proxy asking: `nginx`, caddy or traefik (the headers read)")
	var hosts []string
	fs.Func("host", "a host `NAME` (or NAME:PORT) of the site: other hosts are refused, and a signature's @authority must be one (repeatable)", func(v string) error {
		v = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(v)), ".")
		if v == "" || strings.ContainsAny(v, "/@ ") {
			return fmt.Errorf("%q is not a host name: give one such as www.example.com", v)
		}
		hosts = append(hosts, v)
		return nil
	})
	keepSlashes := fs.Bool("keep-slashes", false, "judge // as two separators, for a front with merge_slashes off (default: merged, as nginx, Apache and Caddy do)")
	dnsFailure := fs.String("dns-failure", string(gate.DNSSpoofed), "a claimed crawler whose identity a DNS failure kept from being established is `RULE`: spoofed or unverifiable")
	readTimeout := fs.Duration("read-timeout", 30*time.Second, "longest time to read a request, body included")
	writeTimeout := fs.Duration("write-timeout", 5*time.Minute, "longest time to answer a request, the upstream's response included")
	idleTimeout := fs.Duration("idle-timeout", 60*time.Second, "close a keep-alive connection idle this long")
	maxUpstream := fs.Int("max-upstream", 256, "requests passed to the upstream at once; more are answered 503 (and the connections to it are bounded alike)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), gateUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(e.args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "rep gate: unexpected argument %q: the policy is given with -policy\n", fs.Arg(0))
		return exitUsage
	}
	if *policyFile == "" {
		fmt.Fprintln(e.stderr, "rep gate: -policy is required")
		return exitUsage
	}
	if (*upstream == "") == !*forwardAuth {
		fmt.Fprintln(e.stderr, "rep gate: give -upstream URL (reverse proxy) or -forward-auth, not both")
		return exitUsage
	}
	var front gate.Front
	if *forwardAuth {
		f, ok := gate.Fronts[*frontName]
		if !ok {
			fmt.Fprintf(e.stderr, "rep gate: -forward-auth needs -front nginx, caddy or traefik (got %q): it decides which headers give the original request\n", *frontName)
			return exitUsage
		}
		if len(trust) == 0 {
			fmt.Fprintln(e.stderr, "rep gate: -forward-auth needs -trust CIDR, the front's address: questions from anywhere else are refused")
			return exitUsage
		}
		front = f
	} else if *frontName != "" {
		fmt.Fprintln(e.stderr, "rep gate: -front goes with -forward-auth")
		return exitUsage
	}
	switch gate.DNSRule(*dnsFailure) {
	case gate.DNSSpoofed, gate.DNSUnverifiable:
	default:
		fmt.Fprintf(e.stderr, "rep gate: -dns-failure %q: want spoofed or unverifiable\n", *dnsFailure)
		return exitUsage
	}
	if *readTimeout <= 0 || *writeTimeout <= 0 || *idleTimeout <= 0 || *maxUpstream <= 0 {
		fmt.Fprintln(e.stderr, "rep gate: -read-timeout, -write-timeout, -idle-timeout and -max-upstream must be positive")
		return exitUsage
	}
	var target *url.URL
	if *upstream != "" {
		u, err := url.Parse(*upstream)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			fmt.Fprintf(e.stderr, "rep gate: -upstream %q: want an http or https URL, e.g. http://127.0.0.1:8080\n", *upstream)
			return exitUsage
		}
		target = u
	}
	switch policy.Enforce(*enforce) {
	case "", policy.Off, policy.Log, policy.Block:
	default:
		fmt.Fprintf(e.stderr, "rep gate: -enforce %q: want off, log or block\n", *enforce)
		return exitUsage
	}
	p, err := policy.Load(*policyFile)
	if err != nil {
		fmt.Fprintf(e.stderr, "rep gate: %v\n", err)
		return exitUsage
	}
	findings, err := p.CheckContext(e.ctx)
	if err != nil {
		fmt.Fprintf(e.stderr, "rep gate: checking %s: %v\n", p.Source, err)
		return exitUsage
	}
	for _, f := range findings {
		fmt.Fprintf(e.stderr, "rep gate: %s:%d: %s: %s [%s]\n", p.Source, f.Line, f.Severity, f.Message, f.Code)
		if f.Severity >= lint.Error {
			fmt.Fprintln(e.stderr, "rep gate: the policy has errors (above): fix them first (rep policy check)")
			return exitUsage
		}
	}
	v := &identity.Verifier{}
	switch {
	case *offline:
	case *resolver != "":
		if _, _, err := net.SplitHostPort(*resolver); err != nil {
			fmt.Fprintf(e.stderr, "rep gate: -resolver %q: want HOST:PORT, e.g. 127.0.0.1:53\n", *resolver)
			return exitUsage
		}
		v.Resolver = identity.NewResolver(*resolver)
	default:
		v.Resolver = net.DefaultResolver
	}
	dirs, sigAgents, warn, msg := gateSignatureFlags(keys, agents, *allowPrivate)
	if msg != "" {
		fmt.Fprintln(e.stderr, "rep gate: "+msg)
		return exitUsage
	}
	for _, w := range warn {
		fmt.Fprintln(e.stderr, "rep gate: warning: "+w)
	}
	var logw io.Writer = e.stdout
	if *logFile != "" {
		f, err := os.OpenFile(*logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintf(e.stderr, "rep gate: %v\n", err)
			return exitUsage
		}
		defer f.Close()
		logw = f
	}
	if *cacheTTL <= 0 {
		fmt.Fprintln(e.stderr, "rep gate: -cache-ttl must be positive, e.g. 1h")
		return exitUsage
	}
	logger := slog.New(slog.NewJSONHandler(logw, nil))
	redis.SetLogger(serveRedisLog{})
	st, closeStore, err := openStore("rep gate", *store, false, e.stderr)
	if err != nil {
		fmt.Fprintf(e.stderr, "rep gate: -store %s: %v\n", redactStore(*store), err)
		return exitUsage
	}
	redis.SetLogger(serveRedisLog{logger})
	defer closeStore()
	opts := gate.Options{Verifier: v, Logger: logger, Trust: trust, Enforce: policy.Enforce(*enforce), Store: st, CacheTTL: *cacheTTL,
		Directories: dirs, SignatureAgents: sigAgents, AllowPrivate: *allowPrivate,
		Hosts: hosts, KeepSlashes: *keepSlashes, DNSFailure: gate.DNSRule(*dnsFailure), MaxInFlight: *maxUpstream}
	// What net/http and the proxy would print with the standard logger
	// goes into the same JSON log.
	errLog := slog.NewLogLogger(logger.Handler(), slog.LevelError)
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(e.stderr, "rep gate: %v\n", err)
		return exitUsage
	}
	var h http.Handler
	if target != nil {
		// The one transport constructor, for the site the gate fronts:
		// its own origin, usually on a private address, so no address
		// policy; no proxy; the site's responses passed whole (no body
		// cap). The connections to it are bounded as the requests are
		// (gate.Options.MaxInFlight), and a site that never answers frees
		// its slot when the client could no longer be answered anyway.
		transport := netguard.NewTransport(netguard.Options{AllowPrivate: true, MaxBodyBytes: -1,
			MaxConnsPerHost: *maxUpstream, MaxIdleConnsPerHost: min(*maxUpstream, 64),
			IdleConnTimeout: *idleTimeout, HeaderTimeout: *writeTimeout})
		proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(target)
			// The site learns the client's address from the gate's
			// X-Forwarded-For: a trusted proxy's chain with the proxy
			// added, and from anyone else no address header of theirs
			// (ReverseProxy drops their Forwarded and X-Forwarded-*).
			if gateTrusted(trust, r.In.RemoteAddr) {
				r.Out.Header["X-Forwarded-For"] = r.In.Header["X-Forwarded-For"]
			} else {
				r.Out.Header.Del("X-Real-IP")
			}
			r.SetXForwarded()
			r.Out.Host = r.In.Host
		}, Transport: transport, ErrorHandler: gateProxyError(logger, target), ErrorLog: errLog}
		g := gate.New(p, proxy, opts)
		h = g
		fmt.Fprintf(e.stderr, "rep gate: enforce %s, proxying http://%s/ to %s\n", gateMode(p, *enforce), ln.Addr(), target)
	} else {
		g := gate.New(p, http.NotFoundHandler(), opts)
		h = g.ForwardAuth(front)
		fmt.Fprintf(e.stderr, "rep gate: enforce %s, forward-auth endpoint on http://%s/\n", gateMode(p, *enforce), ln.Addr())
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: min(10*time.Second, *readTimeout), ReadTimeout: *readTimeout,
		WriteTimeout: *writeTimeout, IdleTimeout: *idleTimeout, MaxHeaderBytes: 64 << 10, ErrorLog: errLog}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		fmt.Fprintf(e.stderr, "rep gate: %v\n", err)
		return exitFinding
	case <-e.ctx.Done():
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(e.stderr, "rep gate: %v\n", err)
	}
	return exitOK
}

// gateTrusted reports whether the peer at addr (host:port) is in trust.
func gateTrusted(trust []netip.Prefix, addr string) bool {
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		return false
	}
	for _, p := range trust {
		if p.Contains(ap.Addr().Unmap()) {
			return true
		}
	}
	return false
}

// gateProxyError answers 502 when the upstream fails and logs why as one
// JSON record (msg "rep gate: upstream error") beside the decisions.
func gateProxyError(logger *slog.Logger, target *url.URL) func(http.ResponseWriter, *http.Request, error) {
	return func(w http.ResponseWriter, r *http.Request, err error) {
		logger.LogAttrs(r.Context(), slog.LevelError, "rep gate: upstream error",
			slog.String("upstream", target.Redacted()),
			slog.String("method", r.Method),
			slog.String("host", r.Host),
			slog.String("uri", r.URL.RequestURI()),
			slog.String("error", err.Error()))
		w.WriteHeader(http.StatusBadGateway)
	}
}

func gateMode(p *policy.Policy, override string) policy.Enforce {
	if override != "" {
		return policy.Enforce(override)
	}
	return p.EnforceMode()
}

// gateSignatureFlags checks -keys and -signature-agent and reads the key
// files; msg is a usage error.
func gateSignatureFlags(keys, agents *pairFlag, allowPrivate bool) (dirs map[string]botauth.JWKS, sigAgents map[string][]string, warn []string, msg string) {
	// origin checks o, given in arg of flag.
	origin := func(flag, arg, o string) string {
		if _, err := (&botauth.SignatureAgent{URL: o}).DirectoryURL(allowPrivate); err != nil {
			if !allowPrivate && strings.HasPrefix(strings.ToLower(o), "http:") {
				return fmt.Sprintf("%s %s: an http origin needs -allow-private", flag, arg)
			}
			return fmt.Sprintf("%s %s: %s is not an https origin, e.g. https://agent.bot.goog", flag, arg, o)
		}
		return ""
	}
	for _, kv := range keys.pairs {
		arg := kv[0] + "=" + kv[1]
		if m := origin("-keys", arg, kv[0]); m != "" {
			return nil, nil, nil, m
		}
		data, name, err := readInput(kv[1], nil)
		if err != nil {
			return nil, nil, nil, fmt.Sprintf("-keys %s: %v", arg, err)
		}
		set, err := botauth.ParseJWKS(data)
		if err == nil && len(set.Keys) == 0 {
			err = errors.New("no keys")
		}
		if err != nil {
			return nil, nil, nil, fmt.Sprintf("-keys %s: %s: %v", arg, name, err)
		}
		if dirs == nil {
			dirs = map[string]botauth.JWKS{}
		}
		dirs[kv[0]] = set
	}
	for _, kv := range agents.pairs {
		arg := kv[0] + "=" + kv[1]
		c, ok := crawlers.ByName(kv[0])
		if !ok {
			return nil, nil, nil, fmt.Sprintf("-signature-agent %s: %s is not a crawler of the registry", arg, kv[0])
		}
		if m := origin("-signature-agent", arg, kv[1]); m != "" {
			return nil, nil, nil, m
		}
		if sigAgents == nil {
			sigAgents = map[string][]string{}
		}
		sigAgents[c.Name] = append(sigAgents[c.Name], kv[1])
	}
	for _, kv := range keys.pairs {
		if !gateOriginListed(kv[0], sigAgents) {
			warn = append(warn, fmt.Sprintf("-keys %s=%s: no crawler lists %s as its Signature-Agent, so these keys prove nothing (see -signature-agent)", kv[0], kv[1], kv[0]))
		}
	}
	return dirs, sigAgents, warn, ""
}

// gateOriginListed reports whether a registry crawler, or -signature-agent,
// lists origin as a Signature-Agent.
func gateOriginListed(origin string, sigAgents map[string][]string) bool {
	dir, err := (&botauth.SignatureAgent{URL: origin}).DirectoryURL(true)
	if err != nil {
		return false
	}
	for _, c := range crawlers.All() {
		if identity.DirectoryListed(c, dir) {
			return true
		}
	}
	for name, origins := range sigAgents {
		c, _ := crawlers.ByName(name)
		cp := *c
		cp.Verify.SignatureAgents = origins
		if identity.DirectoryListed(&cp, dir) {
			return true
		}
	}
	return false
}
