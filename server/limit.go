package server

import (
	"context"
	"math"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"github.com/rep-toolkit/rep/robotsfetch"
)

// maxClients bounds the buckets held at once.
const maxClients = 1 << 16

// limiter is a token bucket per key. Buckets idle long enough to be full
// again are dropped, so memory follows the active keys.
type limiter struct {
	rate  float64 // tokens per second
	burst float64
	now   func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
	swept   time.Time
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newLimiter(rate float64, burst int, now func() time.Time) *limiter {
	return &limiter{rate: rate, burst: float64(burst), now: now, buckets: map[string]*bucket{}, swept: now()}
}

// allow takes a token for key, or says how long until one is free. A nil
// limiter allows everything.
func (l *limiter) allow(key string) (bool, time.Duration) {
	if l == nil {
		return true, 0
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	full := time.Duration(l.burst / l.rate * float64(time.Second))
	if now.Sub(l.swept) > full && len(l.buckets) > 0 {
		for k, b := range l.buckets {
			if now.Sub(b.last) > full {
				delete(l.buckets, k)
			}
		}
		l.swept = now
	}
	b, ok := l.buckets[key]
	if !ok {
		if len(l.buckets) >= maxClients {
			// Too many distinct keys at once (an address-spraying
			// flood): new ones wait for the sweep rather than grow memory.
			return false, full
		}
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[key] = b
	}
	if el := now.Sub(b.last).Seconds(); el > 0 {
		b.tokens = math.Min(l.burst, b.tokens+el*l.rate)
	}
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
}

// refund gives back a token taken by allow, when the other limit refused
// the same fetch.
func (l *limiter) refund(key string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	if b := l.buckets[key]; b != nil {
		b.tokens = math.Min(l.burst, b.tokens+1)
	}
	l.mu.Unlock()
}

// limitedError is an outbound fetch refused by a limit: the client may
// retry after Wait.
type limitedError struct {
	// Origin is the site that would have been fetched; PerOrigin says the
	// site's limit refused, else the client's.
	Origin    string
	PerOrigin bool
	Wait      time.Duration
}

func (e *limitedError) Error() string {
	if e.PerOrigin {
		return "too many fetches from " + e.Origin + " just now (per-site politeness): retry in " + e.Wait.Round(time.Millisecond).String()
	}
	return "too many outbound fetches for this client: retry in " + e.Wait.Round(time.Millisecond).String() + " (answers from the cache are not limited)"
}

// retryAfter is the Retry-After value in whole seconds, at least 1.
func (e *limitedError) retryAfter() int { return max(1, int(math.Ceil(e.Wait.Seconds()))) }

// admitFetch spends the tokens for one outbound fetch to origin on behalf
// of client: the client's (unless it is trusted), then the origin's. It
// returns a *limitedError when either is out.
func (s *Server) admitFetch(client netip.Addr, origin string) error {
	trusted := s.trusted(client)
	key := client.String()
	if !trusted {
		if ok, wait := s.limit.allow(key); !ok {
			s.metrics.limited(false)
			return &limitedError{Origin: origin, Wait: wait}
		}
	}
	if ok, wait := s.originLimit.allow(origin); !ok {
		if !trusted {
			s.limit.refund(key)
		}
		s.metrics.limited(true)
		return &limitedError{Origin: origin, PerOrigin: true, Wait: wait}
	}
	return nil
}

// trusted reports whether client is in a trusted network, exempt from the
// per-client limit.
func (s *Server) trusted(client netip.Addr) bool {
	for _, p := range s.cfg.Trust {
		if p.Contains(client) {
			return true
		}
	}
	return false
}

// admit is admitFetch for rawurl's robots.txt, and only when a fetch would
// be needed: an answer the cache holds is never limited.
func (s *Server) admit(ctx context.Context, client netip.Addr, rawurl string) error {
	origin, err := robotsfetch.Origin(rawurl)
	if err != nil {
		return nil // no fetch: the fetcher answers the error
	}
	if (s.limit == nil && s.originLimit == nil) || s.warm.fresh(ctx, origin) {
		return nil
	}
	return s.admitFetch(client, origin)
}

// writeLimited answers 429 with Retry-After for a refused fetch.
func writeLimited(w http.ResponseWriter, e *limitedError) {
	w.Header().Set("Retry-After", strconv.Itoa(e.retryAfter()))
	writeError(w, http.StatusTooManyRequests, e.Error())
}

// clientAddr is the request's remote address without its port, unmapped.
// Forwarded headers are not trusted: behind a proxy every client shares
// the proxy's bucket, which errs on the side of limiting (trust the
// proxy's network with Config.Trust).
func clientAddr(r *http.Request) netip.Addr {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return netip.Addr{}
	}
	return ap.Addr().Unmap()
}

// warmIndex knows which origins have a fresh robots.txt in the cache, so
// that answering from it spends no token. It is a hint in front of the
// Store: an origin it does not know (or has dropped) is looked up in the
// Store before a fetch is charged, so it never charges for an answer the
// cache holds. It also tells fetches apart from the answers that shared
// them, for the metrics.
type warmIndex struct {
	store robotsfetch.Store
	now   func() time.Time

	mu      sync.RWMutex
	origins map[string]warmEntry
}

type warmEntry struct {
	expires, fetched time.Time
}

// maxWarm bounds the origins the index holds.
const maxWarm = robotsfetch.DefaultMaxOrigins

// fresh reports whether origin's robots.txt can be answered without a
// fetch: from memory, else from the Store.
func (w *warmIndex) fresh(ctx context.Context, origin string) bool {
	now := w.now()
	w.mu.RLock()
	e, ok := w.origins[origin]
	w.mu.RUnlock()
	if ok && now.Before(e.expires) {
		return true
	}
	if w.store == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, robotsfetch.DefaultStoreTimeout)
	defer cancel()
	st, err := w.store.Get(ctx, origin)
	if err != nil || st == nil || !now.Before(st.Last.ExpiresAt) {
		return false
	}
	w.put(origin, warmEntry{expires: st.Last.ExpiresAt, fetched: st.Last.FetchedAt})
	return true
}

// seen records the outcome an answer for origin came with. It returns true
// the first time it sees a fetch (an outcome not from the cache): callers
// waiting on one fetch share its outcome, and it is counted once.
func (w *warmIndex) seen(origin string, o *robotsfetch.Outcome) bool {
	w.mu.RLock()
	e, ok := w.origins[origin]
	w.mu.RUnlock()
	if ok && e.expires.Equal(o.ExpiresAt) && e.fetched.Equal(o.FetchedAt) {
		return false
	}
	return w.put(origin, warmEntry{expires: o.ExpiresAt, fetched: o.FetchedAt}) && !o.Cached
}

// put records e for origin and reports whether it is news.
func (w *warmIndex) put(origin string, e warmEntry) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if old, ok := w.origins[origin]; ok && old.fetched.Equal(e.fetched) {
		w.origins[origin] = e
		return false
	}
	if len(w.origins) >= maxWarm {
		now := w.now()
		for k, v := range w.origins {
			if !now.Before(v.expires) {
				delete(w.origins, k)
			}
		}
		// Still full: drop an arbitrary half. The Store still answers for
		// them, so nothing is charged twice.
		for k := range w.origins {
			if len(w.origins) < maxWarm/2 {
				break
			}
			delete(w.origins, k)
		}
	}
	w.origins[origin] = e
	return true
}
