package robotsfetch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rep-toolkit/rep/internal/netguard"
	"github.com/rep-toolkit/rep/internal/urlhead"
	"github.com/rep-toolkit/rep/internal/wire"
	"github.com/rep-toolkit/rep/robotstxt"
)

// Outage chooses what an origin unreachable for Options.OutageLimit means.
type Outage uint8

const (
	// OutageUseCopy is Google's rule: the last good copy, or no
	// restrictions when there is none.
	OutageUseCopy Outage = iota
	// OutageAllowAll treats the file as unavailable: no restrictions (RFC
	// 9309 §2.3.1.4's first MAY).
	OutageAllowAll
	// OutageDisallow keeps disallowing everything, however long the outage
	// (the RFC's MUST without its MAY).
	OutageDisallow
)

// Defaults for the zero Options.
const (
	DefaultMaxAge         = 24 * time.Hour      // RFC 9309 §2.4, Google
	DefaultMinAge         = time.Minute         // floor on reuse, against max-age=0
	DefaultRetryInterval  = 10 * time.Minute    // retry of an unreachable origin
	DefaultOutageLimit    = 30 * 24 * time.Hour // RFC 9309 §2.3.1.4's example, Google
	DefaultMaxRedirects   = 5                   // RFC 9309 §2.3.1.2, Google
	DefaultMaxOrigins     = 10000
	DefaultMaxCacheBytes  = 32 << 20 // parsed files kept in memory: about 20 files at the 500 KiB limit, thousands of typical ones
	DefaultConnectTimeout = 10 * time.Second
	DefaultHeaderTimeout  = 10 * time.Second
	DefaultBodyTimeout    = 20 * time.Second
	DefaultTimeout        = 60 * time.Second
	DefaultStoreTimeout   = 2 * time.Second
	DefaultLeaseTTL       = 15 * time.Second // a fetch usually takes well under a second
	DefaultLeaseWait      = 20 * time.Second // past DefaultLeaseTTL, so that an expired lease is taken over first
)

// Options configure a Fetcher. Zero durations and counts mean the defaults
// above.
type Options struct {
	// UserAgent is the crawler's full User-Agent header, sent with every
	// request (servers answer some crawlers differently). Required.
	UserAgent string
	// Profile is how Robots.File is parsed (robotstxt.Google by default).
	Profile robotstxt.Profile
	// CrawlDelayEndsGroup parses Robots.File with Crawl-delay as a group
	// member (robotstxt.Options.CrawlDelayEndsGroup), as the engines that
	// read it do. engine.Engine.ParseOptions gives Profile and this field.
	// A Fetcher serves every engine with one fetch per origin:
	// Robots.FileFor parses the same body as another engine does.
	CrawlDelayEndsGroup bool
	// MaxBytes is the body limit after decoding; 0 means
	// robotstxt.DefaultMaxBytes (500 KiB, RFC 9309 §2.5's minimum).
	MaxBytes int
	// MaxRedirects is how many redirects are followed; one more makes the
	// file unavailable.
	MaxRedirects int
	// MaxOrigins and MaxCacheBytes bound the origins kept parsed in memory,
	// by count and by their estimated footprint (body, parsed file and
	// outcome); the least recently used go first. A negative MaxCacheBytes
	// lifts the byte bound.
	MaxOrigins    int
	MaxCacheBytes int64
	// MaxAge caps how long any result is reused; MinAge is how long every
	// result is reused at least (negative: not at all); RetryInterval is how
	// long an unreachable result stands when the server sends no
	// Retry-After.
	MaxAge, MinAge, RetryInterval time.Duration
	// OutageLimit is how long an origin must stay unreachable before
	// AfterOutage applies.
	OutageLimit time.Duration
	AfterOutage Outage
	// StaleIfUnreachable lets the last good copy answer while the origin is
	// unreachable, as RFC 9309 §2.4 permits ("unless the robots.txt file is
	// unreachable"), instead of disallowing everything. Off by default:
	// Google disallows until the 30-day rule applies.
	StaleIfUnreachable bool
	// ConnectTimeout bounds DNS, connect and the TLS handshake;
	// HeaderTimeout the wait for each response's headers; BodyTimeout the
	// reading of the body; Timeout the whole attempt, redirects included.
	ConnectTimeout, HeaderTimeout, BodyTimeout, Timeout time.Duration
	// Guard refuses loopback, private, link-local and other special
	// addresses at connect time, DNS rebinding and redirects included (every
	// entry of IANA's special-purpose registries). Set it when
	// fetching on behalf of someone else; it cannot be combined with Client.
	Guard bool
	// Client replaces the default HTTP client (its CheckRedirect is
	// replaced, to count redirects). ConnectTimeout and HeaderTimeout then
	// do not apply; Timeout and BodyTimeout still do.
	Client *http.Client
	// Store holds fetched entries behind the in-memory layer; nil means
	// memory only.
	Store Store
	// StoreTimeout bounds each Store call.
	StoreTimeout time.Duration
	// LeaseTTL is how long a lease taken in a Store that is a Leaser lasts
	// (negative: take none, every Fetcher fetches what it cannot find);
	// LeaseWait bounds how long a Fetcher polls the Store for an entry
	// another Fetcher holds the lease for, before fetching it itself. Both
	// run on the wall clock, not Now. A fetch slower than LeaseTTL may be
	// made again by a waiter that takes the expired lease over.
	LeaseTTL, LeaseWait time.Duration
	// Logger, when set, logs every fetch from the network (Info: origin,
	// case, status, duration, bytes, error), every answer from the Store and
	// every wait for another Fetcher's lease (Debug), and every Store
	// failure (Warn). Answers from memory are not logged.
	Logger *slog.Logger
	// OnFetch, when set, is called once for every fetch from the network
	// and every answer read from the Store (Outcome.Source tells which),
	// before the callers waiting for it get their answer; answers from
	// memory do not call it. It is called from the Fetcher's goroutines,
	// concurrently for different origins: it must be safe for concurrent
	// use, return quickly (the callers for that origin wait for it), and
	// not modify the Outcome's slices.
	OnFetch func(Outcome)
	// Now is the clock; nil means time.Now. Tests inject one.
	Now func() time.Time
}

// Fetcher fetches and caches robots.txt files. It is safe for concurrent
// use; create one per crawler and keep it.
type Fetcher struct {
	o      Options
	client *http.Client

	mu     sync.RWMutex // the write lock guards flight and cache changes
	cache  lru
	flight map[string]*call

	leaser Leaser // o.Store as a Leaser; nil when it is none or leases are off
	stats  counters
}

type call struct {
	done   chan struct{}
	robots *Robots
}

// New returns a Fetcher.
func New(o Options) (*Fetcher, error) {
	if o.UserAgent == "" {
		return nil, errors.New("robotsfetch: Options.UserAgent is required: servers see it on every request")
	}
	if o.Guard && o.Client != nil {
		return nil, errors.New("robotsfetch: Options.Guard cannot protect a caller-supplied Client; set one or the other")
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	def(&o.MaxAge, DefaultMaxAge)
	def(&o.MinAge, DefaultMinAge)
	o.MinAge = max(o.MinAge, 0)
	def(&o.RetryInterval, DefaultRetryInterval)
	def(&o.OutageLimit, DefaultOutageLimit)
	def(&o.ConnectTimeout, DefaultConnectTimeout)
	def(&o.HeaderTimeout, DefaultHeaderTimeout)
	def(&o.BodyTimeout, DefaultBodyTimeout)
	def(&o.Timeout, DefaultTimeout)
	def(&o.StoreTimeout, DefaultStoreTimeout)
	def(&o.LeaseTTL, DefaultLeaseTTL)
	def(&o.LeaseWait, DefaultLeaseWait)
	if o.MaxBytes <= 0 {
		o.MaxBytes = robotstxt.DefaultMaxBytes
	}
	if o.MaxRedirects <= 0 {
		o.MaxRedirects = DefaultMaxRedirects
	}
	if o.MaxOrigins <= 0 {
		o.MaxOrigins = DefaultMaxOrigins
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	f := &Fetcher{o: o, flight: make(map[string]*call)}
	f.cache.max = o.MaxOrigins
	switch {
	case o.MaxCacheBytes == 0:
		f.cache.maxBytes = DefaultMaxCacheBytes
	case o.MaxCacheBytes > 0:
		f.cache.maxBytes = o.MaxCacheBytes
	}
	if l, ok := o.Store.(Leaser); ok && o.LeaseTTL > 0 {
		f.leaser = l
	}
	if o.Client != nil {
		c := *o.Client
		f.client = &c
	} else {
		// The one guarded client (internal/netguard): with Guard, no proxy
		// and every address checked; without, the environment's proxy.
		no := netguard.Options{
			AllowPrivate:        !o.Guard,
			UserAgent:           o.UserAgent,
			ConnectTimeout:      o.ConnectTimeout,
			TLSTimeout:          o.ConnectTimeout,
			HeaderTimeout:       o.HeaderTimeout,
			Timeout:             -1, // Options.Timeout bounds each attempt, through its context
			MaxIdleConnsPerHost: 2,
			DisableCompression:  true, // we decode, so the size limit applies after decoding
		}
		if !o.Guard {
			no.Proxy = http.ProxyFromEnvironment
		}
		f.client = netguard.NewClient(no)
	}
	f.client.CheckRedirect = f.checkRedirect
	return f, nil
}

// Options returns the options in force, defaults filled in.
func (f *Fetcher) Options() Options { return f.o }

// ParseOptions are the options a Fetcher with these Options parses bodies
// with: Profile, MaxBytes and CrawlDelayEndsGroup.
func (o Options) ParseOptions() robotstxt.Options {
	return robotstxt.Options{Profile: o.Profile, MaxBytes: o.MaxBytes, CrawlDelayEndsGroup: o.CrawlDelayEndsGroup}
}

// Requests returns how many fetch attempts the Fetcher has made (one per
// attempt, whatever the redirects).
func (f *Fetcher) Requests() int64 { return f.stats.requests.Load() }

// Len returns how many origins are held in memory.
func (f *Fetcher) Len() int {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.cache.len()
}

// CacheBytes returns the estimated footprint of the origins held in
// memory (see Options.MaxCacheBytes).
func (f *Fetcher) CacheBytes() int64 {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.cache.bytes
}

// Robots is the answer for one origin: the fetch outcome and, when the
// verdict is UseRules, the parsed file. It is immutable and safe for
// concurrent use.
//
// One fetch serves every engine: File is the body parsed with the
// Fetcher's Options (Profile, CrawlDelayEndsGroup), and FileFor parses the
// same body as another engine groups it, once, on first use.
type Robots struct {
	Outcome Outcome
	// File holds the rules in force when Outcome.Verdict is UseRules, as
	// the Fetcher's Options parse them; nil otherwise. FileFor gives them
	// as another engine parses them.
	File *robotstxt.File
	// Body is the file's bytes as crawlers read them (after content
	// decoding, at most MaxBytes+1) when Outcome.Verdict is UseRules; nil
	// otherwise. It is shared and must not be modified.
	Body []byte
	memo atomic.Pointer[agentMemo]
	// parses holds the other parses of Body, shared by the copies of one
	// answer (the one handed to the callers of a fetch and the one kept in
	// memory); nil for a Robots built by hand.
	parses *parses
}

// parses memoises a body's parses per way of grouping it.
type parses struct {
	maxBytes int
	mu       sync.Mutex
	m        map[parseKey]*robotstxt.File
}

// parseKey is what an engine changes about a parse (engine.Engine's
// ParseOptions); the size limit is the Fetcher's.
type parseKey struct {
	profile robotstxt.Profile
	cdEnds  bool
}

// FileFor returns the rules in force parsed with o's Profile and
// CrawlDelayEndsGroup (engine.Engine.ParseOptions gives an engine's;
// o.MaxBytes is ignored, the Fetcher's limit applies): File when it was
// parsed so, else Body parsed once on first use and remembered, so N
// engines asking about one origin cost one fetch and at most one parse
// each. A Robots built without a Body answers with File. Nil when no file
// is in force.
func (r *Robots) FileFor(o robotstxt.Options) *robotstxt.File {
	f := r.File
	if f == nil || r.Body == nil || (f.Profile() == o.Profile && f.CrawlDelayEndsGroup() == o.CrawlDelayEndsGroup) {
		return f
	}
	k := parseKey{o.Profile, o.CrawlDelayEndsGroup}
	p := r.parses
	if p == nil {
		return robotstxt.ParseWith(r.Body, robotstxt.Options{Profile: k.profile, CrawlDelayEndsGroup: k.cdEnds})
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if pf := p.m[k]; pf != nil {
		return pf
	}
	pf := robotstxt.ParseWith(r.Body, robotstxt.Options{Profile: k.profile, CrawlDelayEndsGroup: k.cdEnds, MaxBytes: p.maxBytes})
	if p.m == nil {
		p.m = map[parseKey]*robotstxt.File{}
	}
	p.m[k] = pf
	return pf
}

type agentMemo struct {
	names []string
	agent *robotstxt.Agent
}

// Agent returns the robotstxt.Agent of File for a fallback chain of
// crawler names, resolved once and remembered for the last chain asked (a
// crawler asks with the same names every time); nil when no file is in
// force.
func (r *Robots) Agent(names ...string) *robotstxt.Agent {
	if r.File == nil {
		return nil
	}
	if m := r.memo.Load(); m != nil && slices.Equal(m.names, names) {
		return m.agent
	}
	a := r.File.Agent(names...)
	r.memo.Store(&agentMemo{names: slices.Clone(names), agent: a})
	return a
}

// Check decides rawurl for the crawler names in File, as Decide does with
// their group. It knows no crawler registry (no * group exceptions, no
// engine): verdict.Agent.DecideFetched is the verdict every door gives.
func (r *Robots) Check(rawurl string, names ...string) robotstxt.Decision {
	return r.Decide(r.Agent(names...), rawurl)
}

// Decide decides rawurl against the fetch: the fetch's verdict when it
// allows or disallows everything (no rule matched, Reason Unavailable or
// Unreachable, Group.Via ViaFetch), else g's rules, g being the group the
// crawler obeys in the file in force. rawurl is matched in its wire form,
// and an escape of an unreserved character is read both as written and
// decoded, the stricter verdict winning (see package wire). It is the one
// verdict of a fetched robots.txt: verdict's Agent.DecideIn is built on it.
func (r *Robots) Decide(g *robotstxt.Agent, rawurl string) robotstxt.Decision {
	switch r.Outcome.Verdict {
	case UseRules:
		d, _ := wire.Check(g, rawurl)
		return d
	case AllowAll:
		d := robotstxt.Decision{Allowed: true, Reason: robotstxt.Unavailable}
		d.Group.Via = robotstxt.ViaFetch
		return d
	default:
		d := robotstxt.Decision{Reason: robotstxt.Unreachable}
		d.Group.Via = robotstxt.ViaFetch
		return d
	}
}

// Get returns the robots.txt answer for rawurl's origin, from memory while
// it is fresh, else from the Store or the network. Concurrent calls for one
// origin share one fetch. The error is non-nil only for a URL with no
// origin to fetch or when ctx ends first; every fetch failure is an answer
// (Unreachable, DisallowAll), never an error.
func (f *Fetcher) Get(ctx context.Context, rawurl string) (*Robots, error) {
	origin, err := Origin(rawurl)
	if err != nil {
		return nil, err
	}
	now := f.o.Now()
	f.mu.RLock()
	it := f.cache.get(origin)
	f.mu.RUnlock()
	if it != nil && now.Before(it.expires) {
		f.stats.cacheHits.Add(1)
		return &it.robots, nil
	}
	f.stats.cacheMisses.Add(1)
	f.mu.Lock()
	if it = f.cache.get(origin); it != nil && now.Before(it.expires) {
		f.mu.Unlock() // refreshed meanwhile
		return &it.robots, nil
	}
	c, ok := f.flight[origin]
	if !ok {
		c = &call{done: make(chan struct{})}
		f.flight[origin] = c
		var prev *Entry
		if it != nil {
			prev = it.entry
		}
		// The fetch runs on its own: the callers waiting for it may give
		// up (their ctx), the fetch and its caching do not.
		go f.refresh(origin, prev, c)
	}
	f.mu.Unlock()
	select {
	case <-c.done:
		return c.robots, nil
	case <-ctx.Done():
		return nil, &Error{Op: OpGet, URL: origin + "/robots.txt", Err: context.Cause(ctx)}
	}
}

func (f *Fetcher) refresh(origin string, prev *Entry, c *call) {
	if f.o.Store == nil {
		f.finish(origin, c, f.fetch(origin, prev))
		return
	}
	key := StoreKey(origin, f.o.UserAgent)
	e, prev, storeErr := f.storeGet(origin, key, prev)
	if e != nil {
		f.finish(origin, c, e)
		return
	}
	var token string
	if storeErr == nil && f.leaser != nil {
		token, e, prev, storeErr = f.lease(origin, key, prev)
		if e != nil {
			f.finish(origin, c, e)
			return
		}
	}
	e = f.fetch(origin, prev)
	if storeErr == nil && !e.Last.Has(WarnNoStore) {
		ctx, cancel := context.WithTimeout(context.Background(), f.o.StoreTimeout)
		storeErr = f.o.Store.Put(ctx, key, e, f.o.OutageLimit+f.o.MaxAge)
		cancel()
		f.storeFailed(origin, "put", storeErr)
	}
	if token != "" {
		// After the Put: a waiter that takes the lease over finds the entry.
		ctx, cancel := context.WithTimeout(context.Background(), f.o.StoreTimeout)
		f.storeFailed(origin, "release lease", f.leaser.ReleaseLease(ctx, key, token))
		cancel()
	}
	if storeErr != nil {
		e.Last.StoreError = storeErr.Error()
		e.Last.Warnings = append(e.Last.Warnings, WarnStoreFailed)
	}
	f.finish(origin, c, e)
}

// storeGet reads key from the Store. It returns the entry when it is fresh
// and fetched with this Fetcher's User-Agent (its Source set to
// FromStore); else the entry the next fetch replaces: prev, or the stored
// one when it is newer (its good copy and outage start count).
func (f *Fetcher) storeGet(origin, key string, prev *Entry) (fresh, newPrev *Entry, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), f.o.StoreTimeout)
	e, err := f.o.Store.Get(ctx, key)
	cancel()
	switch {
	case err != nil:
		f.storeFailed(origin, "get", err)
		return nil, prev, err
	case e == nil || e.UserAgent != f.o.UserAgent:
		return nil, prev, nil // absent, or another crawler's (a key collision)
	case f.o.Now().Before(e.Last.ExpiresAt):
		e.Last.Source = FromStore
		f.stats.storeHits.Add(1)
		return e, prev, nil
	case prev == nil || e.Last.FetchedAt.After(prev.Last.FetchedAt):
		return nil, e, nil
	}
	return nil, prev, nil
}

// Poll intervals while another Fetcher holds the lease: doubling from
// leasePollMin up to leasePollMax, so a fetch over a fast network is
// picked up within milliseconds and a slow one costs few Store reads.
const (
	leasePollMin = 5 * time.Millisecond
	leasePollMax = 250 * time.Millisecond
)

// lease takes the lease on key, or waits for the Fetcher holding it. It
// returns the lease's token when this Fetcher is to fetch under it; a
// fresh entry when the holder wrote one; neither when the wait ended
// without (LeaseWait passed, or the Store failed: err) and the origin is
// to be fetched regardless.
func (f *Fetcher) lease(origin, key string, prev *Entry) (token string, fresh, newPrev *Entry, err error) {
	acquire := func() (string, bool, error) {
		ctx, cancel := context.WithTimeout(context.Background(), f.o.StoreTimeout)
		defer cancel()
		token, ok, err := f.leaser.AcquireLease(ctx, key, f.o.LeaseTTL)
		f.storeFailed(origin, "acquire lease", err)
		return token, ok, err
	}
	// recheck reads the Store again once the lease is taken: the previous
	// holder may have written the entry and released the lease between
	// this Fetcher's read and its lease.
	recheck := func(token string) (string, *Entry, *Entry, error) {
		fresh, prev, err := f.storeGet(origin, key, prev)
		if fresh != nil {
			ctx, cancel := context.WithTimeout(context.Background(), f.o.StoreTimeout)
			f.storeFailed(origin, "release lease", f.leaser.ReleaseLease(ctx, key, token))
			cancel()
			return "", fresh, prev, nil
		}
		return token, nil, prev, err
	}
	token, ok, err := acquire()
	switch {
	case err != nil:
		return "", nil, prev, err
	case ok:
		return recheck(token)
	}
	f.stats.leaseWaits.Add(1)
	start := time.Now()
	if l := f.o.Logger; l != nil {
		l.LogAttrs(context.Background(), slog.LevelDebug, "robots.txt: waiting for another fetcher's lease",
			slog.String("origin", origin))
	}
	for poll := leasePollMin; ; poll = min(2*poll, leasePollMax) {
		left := f.o.LeaseWait - time.Since(start)
		if left <= 0 {
			f.stats.leaseFallbacks.Add(1)
			return "", nil, prev, nil
		}
		time.Sleep(min(poll, left))
		if fresh, prev, err = f.storeGet(origin, key, prev); fresh != nil || err != nil {
			return "", fresh, prev, err
		}
		// No entry yet: the holder is still fetching, or its lease ended
		// without one (it died, or the answer said no-store).
		switch token, ok, err = acquire(); {
		case err != nil:
			return "", nil, prev, err
		case ok:
			token, fresh, prev, err = recheck(token)
			if fresh == nil {
				f.stats.leaseFallbacks.Add(1)
			}
			return token, fresh, prev, err
		}
	}
}

func (f *Fetcher) finish(origin string, c *call, e *Entry) {
	r := f.build(e)
	// The callers waiting now get the fetch made for them; later callers
	// get the same answer from memory, marked Cached.
	it := &item{origin: origin, entry: e, robots: Robots{Outcome: r.Outcome, File: r.File, Body: r.Body, parses: r.parses}}
	it.robots.Outcome.Cached = true
	f.mu.Lock()
	f.cache.put(it)
	delete(f.flight, origin)
	c.robots = r
	f.mu.Unlock()
	f.observe(&r.Outcome) // before the answer: a caller sees its fetch counted
	close(c.done)
}

// build parses the entry's good copy when its rules are in force.
func (f *Fetcher) build(e *Entry) *Robots {
	r := &Robots{Outcome: e.Last}
	r.Outcome.Cached = e.Last.Source == FromStore
	if r.Outcome.Verdict == UseRules {
		if e.Good == nil {
			// Only a damaged store entry gets here: fail closed.
			r.Outcome.Verdict = DisallowAll
			r.Outcome.fail(errNoBody)
			return r
		}
		r.Body = e.Good.Body
		r.File = robotstxt.ParseWith(e.Good.Body, f.o.ParseOptions())
		r.parses = &parses{maxBytes: f.o.MaxBytes}
	}
	return r
}

var errNoBody = errors.New("stored entry has rules in force but no body")

type hopsKey struct{}

func (f *Fetcher) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > f.o.MaxRedirects {
		return fmt.Errorf("%w: more than %d", ErrTooManyRedirects, f.o.MaxRedirects)
	}
	if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
		return fmt.Errorf("%w: to %s, which has no robots.txt to fetch", ErrBadRedirect, req.URL.Redacted())
	}
	if hops, ok := req.Context().Value(hopsKey{}).(*[]string); ok {
		*hops = append(*hops, req.URL.String())
	}
	return nil
}

func verdictOf(r Case) Verdict { return CaseVerdict(r) }

// fetch makes one attempt and returns the new entry; prev is the entry it
// replaces (nil for none).
func (f *Fetcher) fetch(origin string, prev *Entry) *Entry {
	f.stats.requests.Add(1)
	now := f.o.Now()
	e := &Entry{Version: EntryVersion, Origin: origin, UserAgent: f.o.UserAgent}
	start := time.Now()
	defer func() { e.Last.Duration = time.Since(start) }()
	if prev != nil {
		e.Good = prev.Good
	}
	out := &e.Last
	out.Origin, out.URL, out.FetchedAt, out.Source = origin, origin+"/robots.txt", now, FromNetwork

	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	ctx, cancelT := context.WithTimeout(ctx, f.o.Timeout)
	defer cancelT()
	var hops []string
	ctx = context.WithValue(ctx, hopsKey{}, &hops)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, out.URL, nil)
	if err != nil {
		return f.unreachable(e, prev, nil, err)
	}
	req.Header.Set("User-Agent", f.o.UserAgent)
	req.Header.Set("Accept", "text/plain, */*;q=0.5")
	req.Header.Set("Accept-Encoding", "gzip, deflate")
	conditional := false
	if g := e.Good; g != nil && g.Case == Success {
		if g.ETag != "" {
			req.Header.Set("If-None-Match", g.ETag)
			conditional = true
		}
		if g.LastModified != "" {
			req.Header.Set("If-Modified-Since", g.LastModified)
			conditional = true
		}
	}
	resp, err := f.client.Do(req)
	out.Redirects = hops
	if resp != nil {
		out.Status = resp.StatusCode
		out.FinalURL = resp.Request.URL.String()
		out.ContentType = resp.Header.Get("Content-Type")
		out.ContentEncoding = resp.Header.Get("Content-Encoding")
		defer resp.Body.Close()
	}
	switch {
	case errors.Is(err, ErrTooManyRedirects):
		out.fail(urlhead.Unwrap(err))
		return f.definitive(e, TooManyRedirects, header(resp), nil)
	case errors.Is(err, ErrBadRedirect):
		out.fail(urlhead.Unwrap(err))
		return f.definitive(e, BadRedirect, header(resp), nil)
	case err != nil:
		return f.unreachable(e, prev, nil, urlhead.Unwrap(err))
	}
	code := resp.StatusCode
	switch {
	case code == http.StatusNotModified && conditional:
		g := *e.Good
		g.FetchedAt = now
		if v := resp.Header.Get("ETag"); v != "" {
			g.ETag = v
		}
		if v := resp.Header.Get("Last-Modified"); v != "" {
			g.LastModified = v
		}
		out.Source = FromRevalidation
		out.CopyFetchedAt = e.Good.FetchedAt
		out.Bytes = len(g.Body)
		out.FinalURL = g.URL
		return f.definitive(e, Success, resp.Header, &g)
	case code >= 200 && code <= 299:
		body, err := f.readBody(resp, cancel)
		if err != nil {
			return f.unreachable(e, prev, resp, fmt.Errorf("%d, reading the body: %w", code, err))
		}
		out.Bytes = len(body)
		g := &Copy{Case: Success, Status: code, URL: out.FinalURL, Body: body, FetchedAt: now,
			ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified")}
		if len(body) > f.o.MaxBytes {
			g.Truncated = true
			out.Warnings = append(out.Warnings, WarnTruncated)
		}
		if LooksLikeHTML(body) {
			out.Warnings = append(out.Warnings, WarnHTML)
		}
		if !plainText(out.ContentType) {
			out.Warnings = append(out.Warnings, WarnContentType)
		}
		return f.definitive(e, Success, resp.Header, g)
	case code >= 300 && code <= 399:
		cause := fmt.Errorf("%w: %d with no Location to follow", ErrBadRedirect, code)
		if code == http.StatusNotModified {
			cause = fmt.Errorf("%w: 304 to a request that was not conditional", ErrBadRedirect)
		}
		out.fail(cause)
		return f.definitive(e, BadRedirect, resp.Header, nil)
	case StatusCase(code) == Unavailable:
		return f.definitive(e, Unavailable, resp.Header, nil)
	default: // 429, 5xx and the rest: StatusCase's Unreachable
		return f.unreachable(e, prev, resp, &StatusError{Code: code})
	}
}

// readBody decodes and reads the body up to MaxBytes+1 bytes within
// BodyTimeout.
func (f *Fetcher) readBody(resp *http.Response, cancel context.CancelCauseFunc) ([]byte, error) {
	t := time.AfterFunc(f.o.BodyTimeout, func() { cancel(errBodyTimeout) })
	defer t.Stop()
	r, err := decodeBody(resp.Header.Get("Content-Encoding"), resp.Body)
	if err == nil {
		var body []byte
		body, err = readLimited(r, f.o.MaxBytes)
		if err == nil {
			return body, nil
		}
	}
	if cause := context.Cause(resp.Request.Context()); cause != nil && !errors.Is(err, cause) {
		err = fmt.Errorf("%w (%w)", err, cause)
	}
	return nil, err
}

// definitive records an answer that is not an outage: Success with its
// copy, or one of the allow-all rules.
func (f *Fetcher) definitive(e *Entry, rule Case, h http.Header, g *Copy) *Entry {
	out := &e.Last
	now := out.FetchedAt
	out.Case, out.Verdict = rule, verdictOf(rule)
	ttl, noStore := freshness(h, now, f.o.MaxAge, f.o.MaxAge)
	if noStore {
		out.Warnings = append(out.Warnings, WarnNoStore)
	}
	out.ExpiresAt = now.Add(max(ttl, f.o.MinAge))
	if g == nil {
		status := out.Status
		if rule == TooManyRedirects || rule == BadRedirect {
			status = 0
		}
		g = &Copy{Case: rule, Status: status, URL: out.FinalURL, FetchedAt: now}
	}
	e.Good = g
	return e
}

// unreachable records a failed attempt and applies the outage rules.
func (f *Fetcher) unreachable(e *Entry, prev *Entry, resp *http.Response, cause error) *Entry {
	out := &e.Last
	now := out.FetchedAt
	out.fail(cause)
	retry := f.o.RetryInterval
	if resp != nil {
		if ra, ok := retryAfter(resp.Header, now); ok {
			retry = ra
		}
	}
	out.ExpiresAt = now.Add(min(max(retry, f.o.MinAge), f.o.MaxAge))
	if out.Refused {
		// A refusal, not an outage: it never ages into an allow.
		out.Case, out.Verdict = RefusedAddress, DisallowAll
		return e
	}
	out.DownSince = now
	if prev != nil && !prev.Last.DownSince.IsZero() {
		out.DownSince = prev.Last.DownSince
	}
	out.Case, out.Verdict = Unreachable, DisallowAll
	g := e.Good
	switch {
	case now.Sub(out.DownSince) >= f.o.OutageLimit && f.o.AfterOutage != OutageDisallow:
		if g != nil && f.o.AfterOutage == OutageUseCopy {
			out.Case, out.Verdict, out.CopyFetchedAt = OutageCopy, verdictOf(g.Case), g.FetchedAt
		} else {
			out.Case, out.Verdict = OutageAllow, AllowAll
		}
	case f.o.StaleIfUnreachable && g != nil:
		out.Case, out.Verdict, out.CopyFetchedAt = StaleCopy, verdictOf(g.Case), g.FetchedAt
	}
	return e
}

func header(resp *http.Response) http.Header {
	if resp == nil {
		return nil
	}
	return resp.Header
}
