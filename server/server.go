package server

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/internal/netguard"
	"github.com/rep-toolkit/rep/robotsfetch"
)

//go:embed static
var staticFS embed.FS

// MaxBody caps every request body but a batch's. Crawlers read the first
// 500 KiB of a robots.txt (RFC 9309 §2.5, Google) and ignore the rest, but
// site owners paste larger files: 8 MiB takes them whole, so the answer
// can show where the file is cut instead of refusing it.
const MaxBody = 8 << 20

// MaxBatchBody caps the body of a batch (POST /api/allowed): room for
// MaxBatch queries with long URLs.
const MaxBatchBody = 32 << 20

// Timeouts applied by Serve and by the handlers.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 15 * time.Second
	writeTimeout      = 45 * time.Second
	idleTimeout       = 90 * time.Second
	// fetchTimeout bounds one fetching request, redirects included.
	fetchTimeout = 30 * time.Second
	// shutdownTimeout is how long Serve waits for requests in flight.
	shutdownTimeout = 10 * time.Second
)

// Config configures a Server. The zero value is a working configuration:
// memory cache, public addresses only, rate limited.
type Config struct {
	// Logger receives one structured record per request; nil discards.
	Logger *slog.Logger
	// AllowPrivate lets fetching endpoints reach loopback, private and
	// link-local addresses, for testing against a local site. Off, every
	// connection (each redirect hop included) to such an address is refused
	// after DNS resolution, by package netguard.
	AllowPrivate bool
	// UserAgent is sent when fetching robots.txt and pages.
	UserAgent string
	// Store caches fetched robots.txt files behind the in-memory layer (a
	// robotsfetch.MemoryStore when nil; boltstore to survive restarts,
	// redisstore to share one cache across a fleet).
	Store robotsfetch.Store
	// CacheBytes bounds the memory of each robots.txt cache the server
	// keeps: the parsed files of each fetcher, and the MemoryStore when
	// Store is nil (0: robotsfetch's defaults, 32 MiB each; negative: no
	// bound).
	CacheBytes int64
	// RatePerSecond and Burst bound the outbound fetches made for one
	// client (by remote IP): a token bucket refilled at RatePerSecond
	// holding at most Burst tokens. Only requests that need a fetch spend
	// a token: pure computation (/api/check, /api/lint, /api/page with
	// pasted HTML) and answers from the cache are never limited. Zero means
	// 5 per second with a burst of 20; a negative rate disables the limit.
	RatePerSecond float64
	Burst         int
	// OriginRate and OriginBurst bound the fetches sent to one origin
	// (scheme://host:port), whichever client asks: politeness toward
	// sites. Zero means 1 per second with a burst of 5; a negative rate
	// disables the limit.
	OriginRate  float64
	OriginBurst int
	// Trust lists client networks exempt from the per-client limit (a
	// crawler fleet behind one NAT, a proxy in front of the server). The
	// per-origin limit still applies to them.
	Trust []netip.Prefix
	// MaxHeavy bounds the computing requests (lint, check, page) served at
	// once; 0 means one less than the number of CPUs (at least one).
	MaxHeavy int
	// Hosts are the host names (lower case, no port) the server answers
	// to beside IP literals and localhost; a request naming another host
	// is refused (421), against DNS rebinding.
	Hosts []string
	// AccessLogEvery says which requests are written to Logger: one in
	// AccessLogEvery (1: every request), and every answer of 5xx or
	// slower than SlowRequest whatever the sampling; negative: none, as
	// for a fleet that counts requests with /metrics only. 0 means
	// DefaultAccessLogEvery. The /metrics counters and latencies count
	// every request either way.
	AccessLogEvery int
	// Now is the clock, for tests; nil means time.Now.
	Now func() time.Time
}

// DefaultAccessLogEvery is the access log's default sampling: one request
// in 100 (and every 5xx and slow answer). A fleet answering 50,000
// requests a second writes 500 lines a second, not 50,000; a person
// trying the tester still sees their errors.
const DefaultAccessLogEvery = 100

// SlowRequest is how long a request takes before it is logged whatever
// the sampling.
const SlowRequest = time.Second

// Server is the HTTP handler for the page and the API. It is safe for
// concurrent use.
type Server struct {
	heavySlots   chan struct{} // see heavy
	cfg          Config
	log          *slog.Logger
	mux          *http.ServeMux
	handler      http.Handler
	seen         atomic.Uint64 // requests seen by the access log, for its sampling
	agentsByName agentCache
	// limit bounds fetches per client, originLimit per origin; nil when
	// disabled.
	limit       *limiter
	originLimit *limiter
	warm        *warmIndex
	metrics     *metrics
	agents      []crawlerInfo
	pages       *http.Client
	// fetchers hands out the one fetcher of every engine (rep.Fetchers):
	// one fetch per origin, each engine's parse made from it on demand.
	fetcher  *robotsfetch.Fetcher
	fetchers *rep.Fetchers
	guard    guard
	// crawlTransport sends the requests of crawls (POST /api/crawl),
	// guarded; crawls holds the ones running.
	crawlTransport http.RoundTripper
	crawls         crawlSlots
	// crawlFetchTimeout bounds each request of a crawl: fetchTimeout,
	// longer in tests whose crawl reads a 50 MB sitemap under -race.
	crawlFetchTimeout time.Duration
}

// New returns a Server for c.
func New(c Config) (*Server, error) {
	g := guard(netguard.Check)
	if c.AllowPrivate {
		g = nil
	}
	return newServer(c, g)
}

// newServer is New with the address guard given, so tests can let the
// guard pass their own loopback origin and nothing else.
func newServer(c Config, g guard) (*Server, error) {
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.AccessLogEvery == 0 {
		c.AccessLogEvery = DefaultAccessLogEvery
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.UserAgent == "" {
		c.UserAgent = "rep (+https://github.com/rep-toolkit/rep)"
	}
	if c.RatePerSecond == 0 {
		c.RatePerSecond, c.Burst = 5, 20
	}
	if c.Burst <= 0 {
		c.Burst = max(1, int(c.RatePerSecond))
	}
	if c.OriginRate == 0 {
		c.OriginRate, c.OriginBurst = 1, 5
	}
	if c.OriginBurst <= 0 {
		c.OriginBurst = max(1, int(c.OriginRate))
	}
	if c.Store == nil {
		c.Store = &robotsfetch.MemoryStore{Now: c.Now, MaxBytes: c.CacheBytes}
	}
	m := &metrics{}
	c.Store = countStore(c.Store, m)
	s := &Server{cfg: c, log: c.Logger, mux: http.NewServeMux(), agents: knownCrawlers(), guard: g, metrics: m}
	if c.MaxHeavy <= 0 {
		c.MaxHeavy = max(1, runtime.GOMAXPROCS(0)-1) // one CPU stays free for everything else
	}
	s.heavySlots = make(chan struct{}, c.MaxHeavy)
	s.warm = &warmIndex{store: c.Store, now: c.Now, origins: map[string]warmEntry{}}
	s.pages = pageClient(g, c.UserAgent)
	s.crawlTransport = guardedTransport(g)
	s.crawlFetchTimeout = fetchTimeout
	s.fetchers = rep.NewFetchers(robotsfetch.Options{UserAgent: c.UserAgent, Client: s.pages, Store: c.Store, Now: c.Now, MaxCacheBytes: c.CacheBytes})
	// One fetcher for every engine (made at start, so New reports a bad
	// option): each engine's parse is made from the one fetch on demand.
	var err error
	if s.fetcher, err = s.fetchers.ForEngine(engine.Google); err != nil {
		return nil, err
	}
	if c.RatePerSecond > 0 {
		s.limit = newLimiter(c.RatePerSecond, c.Burst, c.Now)
	}
	if c.OriginRate > 0 {
		s.originLimit = newLimiter(c.OriginRate, c.OriginBurst, c.Now)
	}
	static, err := fs.Sub(staticFS, "static")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	files := http.FileServerFS(static)
	s.mux.Handle("GET /", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A path that is no valid file name (invalid UTF-8 such as
		// %c0%ae, NUL) names no file: 404, not the file server's 500.
		if p := strings.TrimPrefix(path.Clean(r.URL.Path), "/"); p != "" && !fs.ValidPath(p) {
			writeError(w, http.StatusNotFound, "no such file")
			return
		}
		files.ServeHTTP(w, r)
	}))
	s.mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ok\n"))
	})
	s.mux.HandleFunc("POST /api/check", s.heavy(s.handleCheck))
	s.mux.HandleFunc("POST /api/lint", s.heavy(s.handleLint))
	s.mux.HandleFunc("POST /api/diff", s.heavy(s.handleDiff))
	s.mux.HandleFunc("GET /api/crawlers", s.handleCrawlers)
	s.mux.HandleFunc("GET /api/info", s.handleInfo)
	s.mux.HandleFunc("POST /api/page", s.heavy(s.handlePage))
	s.mux.HandleFunc("GET /metrics", s.handleMetrics)
	s.mux.HandleFunc("POST /api/fetch", s.handleFetch)
	s.mux.HandleFunc("GET /api/allowed", s.handleAllowed)
	s.mux.HandleFunc("POST /api/allowed", s.handleBatch)
	s.mux.HandleFunc("POST /api/crawl", s.handleCrawl)
	s.mux.HandleFunc("GET /api/crawl/codes", s.handleCrawlCodes)
	notFound := func(w http.ResponseWriter, r *http.Request) {
		if m, ok := endpoints[r.URL.Path]; ok {
			w.Header().Set("Allow", m)
			writeError(w, http.StatusMethodNotAllowed, r.URL.Path+" takes "+m+", not "+r.Method)
			return
		}
		writeError(w, http.StatusNotFound, "no such endpoint: "+r.URL.Path+" (see /api/check, /api/lint, /api/page, /api/fetch, /api/allowed, /api/crawl)")
	}
	s.mux.HandleFunc("GET /api/", notFound)
	s.mux.HandleFunc("POST /api/", notFound)
	// Browsers may only POST to the API from this origin; scripts (curl,
	// crawlers) send no Origin or Sec-Fetch-Site and are let through.
	cop := http.NewCrossOriginProtection()
	// Other methods (PUT, DELETE, ...) get the same JSON answer rather than
	// the mux's plain-text 405; a pattern "/api/" for every method would
	// conflict with "GET /".
	mux := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodPost:
		default:
			if strings.HasPrefix(r.URL.Path, "/api/") {
				notFound(w, r)
				return
			}
		}
		s.mux.ServeHTTP(w, r)
	})
	s.handler = s.logged(headers(s.hostCheck(cop.Handler(s.crossSiteFetch(mux)))))
	return s, nil
}

// heavy runs h under the server's cap on computing requests (lint, check,
// page): at most Config.MaxHeavy at once. A request waits up to
// heavyWait for a slot, then gets 503 with Retry-After, so a burst of
// large files cannot hold all the memory and CPU while /healthz and the
// cached answers stay fast. A client that leaves while waiting costs
// nothing.
func (s *Server) heavy(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		t := time.NewTimer(heavyWait)
		defer t.Stop()
		select {
		case s.heavySlots <- struct{}{}:
			defer func() { <-s.heavySlots }()
			h(w, r)
		case <-t.C:
			w.Header().Set("Retry-After", "1")
			writeError(w, http.StatusServiceUnavailable, "busy: too many large requests at once; retry in a second")
		case <-r.Context().Done():
		}
	}
}

// heavyWait is how long a computing request waits for a slot.
const heavyWait = 10 * time.Second

// hostCheck refuses a request whose Host header names a host the server
// was not told it answers to: a web page whose DNS name rebinds to a local
// rep serve would otherwise read its API from the browser. IP literals and
// localhost are always accepted (no page can rebind them); other names
// only as listed in Config.Hosts.
func (s *Server) hostCheck(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		host = strings.TrimSuffix(strings.ToLower(host), ".")
		if _, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil || host == "localhost" || host == "" || slices.Contains(s.cfg.Hosts, host) {
			next.ServeHTTP(w, r)
			return
		}
		writeError(w, http.StatusMisdirectedRequest, fmt.Sprintf("this server does not answer to host %q: start it with -host %s to serve that name", host, host))
	})
}

// fetching lists the endpoints that fetch on a caller's behalf.
var fetching = map[string]bool{"/api/allowed": true, "/api/fetch": true, "/api/page": true, "/api/crawl": true}

// crossSiteFetch refuses, for the endpoints that fetch, a request a
// browser marks as sent from another site (Sec-Fetch-Site: cross-site): a
// page elsewhere must not make this server fetch. Scripts and crawlers
// send no such header and pass; the cross-origin protection already stops
// cross-site POSTs, this stops the GETs too.
func (s *Server) crossSiteFetch(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if fetching[r.URL.Path] && r.Header.Get("Sec-Fetch-Site") == "cross-site" {
			writeError(w, http.StatusForbidden, "cross-site requests may not make this server fetch")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// endpoints maps each API path to its method, for 405 answers.
var endpoints = map[string]string{
	"/api/check": "POST", "/api/lint": "POST", "/api/diff": "POST", "/api/page": "POST", "/api/fetch": "POST",
	"/api/allowed": "GET, POST", "/api/crawl": "POST", "/api/crawl/codes": "GET", "/api/crawlers": "GET", "/api/info": "GET",
}

// ServeHTTP serves the page and the API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Serve accepts connections on ln until ctx is cancelled, then stops
// accepting, waits up to 10 seconds for requests in flight and returns nil.
// Any other error ends it early.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	s.log.Info("shutting down", "grace", shutdownTimeout.String())
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	err := hs.Shutdown(sctx)
	if e := <-done; !errors.Is(e, http.ErrServerClosed) && err == nil {
		err = e
	}
	return err
}

// headers sets the security headers every answer carries. The page uses no
// inline script or style, so the policy can forbid both.
func headers(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		// Shared values, assigned under their canonical names: no
		// allocation per answer (net/http only reads them).
		hd["X-Content-Type-Options"] = nosniff
		hd["Referrer-Policy"] = noReferrer
		hd["X-Frame-Options"] = frameDeny
		hd["Content-Security-Policy"] = csp
		if !strings.HasPrefix(r.URL.Path, "/api/") {
			hd["Cache-Control"] = noCache
		}
		h.ServeHTTP(w, r)
	})
}

// The values of the security headers every answer carries.
var (
	nosniff    = []string{"nosniff"}
	noReferrer = []string{"no-referrer"}
	frameDeny  = []string{"DENY"}
	csp        = []string{"default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"}
	noCache    = []string{"no-cache"}
)

// statusWriter records the status code for the request log.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// logged counts every request in the metrics and writes a structured
// record for those Config.AccessLogEvery selects: one in N, and every
// 5xx or slow answer.
func (s *Server) logged(h http.Handler) http.Handler {
	every := s.cfg.AccessLogEvery
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r)
		el := time.Since(start)
		s.metrics.latency[routeIndex(r.URL.Path)].observe(el)
		if every < 0 {
			return
		}
		if sw.status == 0 {
			sw.status = http.StatusOK
		}
		level := slog.LevelInfo
		failed := sw.status >= 500 && sw.status != http.StatusNotImplemented
		if failed {
			level = slog.LevelError
		}
		if n := s.seen.Add(1); !failed && el < SlowRequest && (every > 1 && n%uint64(every) != 1) {
			return
		}
		if !s.log.Enabled(r.Context(), level) {
			return
		}
		s.log.LogAttrs(r.Context(), level, "request",
			slog.String("method", r.Method),
			slog.String("path", r.URL.Path),
			slog.Int("status", sw.status),
			slog.Int("bytes", sw.bytes),
			slog.Duration("duration", el),
			slog.String("client", clientIP(r)),
		)
	})
}

// clientIP is the remote address without its port. Forwarded headers are
// not trusted: behind a proxy every client shares the proxy's bucket,
// which errs on the side of limiting.
func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
