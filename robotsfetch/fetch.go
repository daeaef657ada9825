package robotsfetch

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/rep-toolkit/rep/internal/netguard"
	"github.com/rep-toolkit/rep/robotstxt"
)

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
