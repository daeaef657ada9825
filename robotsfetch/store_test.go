package robotsfetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// recordingStore is a MemoryStore that remembers the ttl of every Put.
type recordingStore struct {
	MemoryStore
	mu   sync.Mutex
	ttls []time.Duration
}

func (s *recordingStore) Put(ctx context.Context, key string, e *Entry, ttl time.Duration) error {
	s.mu.Lock()
	s.ttls = append(s.ttls, ttl)
	s.mu.Unlock()
	return s.MemoryStore.Put(ctx, key, e, ttl)
}

// TestStoredEntry: what a fetch leaves in the Store. The entry outlives
// its answer by the outage limit plus the cache lifetime (30 days + 24 h
// by default, RFC 9309 §2.3.1.4 and §2.4), so that the good copy is still
// there for the 30-day rule; the good copy records the definitive answer:
// its status (none for a redirect that led nowhere) and whether the body
// was cut at MaxBytes.
func TestStoredEntry(t *testing.T) {
	loop := func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/robots.txt?n="+r.URL.RawQuery+"x", http.StatusFound)
	}
	tests := []struct {
		name      string
		h         http.HandlerFunc
		o         Options
		ttl       time.Duration
		c         Case
		status    int
		truncated bool
	}{
		{"200", text(robotsBody), Options{}, 744 * time.Hour, Success, 200, false},
		{"200 over MaxBytes", text(robotsBody), Options{MaxBytes: 10}, 744 * time.Hour, Success, 200, true},
		{"200 at MaxBytes", text(robotsBody), Options{MaxBytes: len(robotsBody)}, 744 * time.Hour, Success, 200, false},
		{"404", status(404), Options{}, 744 * time.Hour, Unavailable, 404, false},
		{"302 without Location", status(302), Options{}, 744 * time.Hour, BadRedirect, 0, false},
		{"redirect loop", loop, Options{}, 744 * time.Hour, TooManyRedirects, 0, false},
		{"other limits", text(robotsBody), Options{OutageLimit: 48 * time.Hour, MaxAge: time.Hour}, 49 * time.Hour, Success, 200, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSite(t, tt.h)
			st := &recordingStore{}
			o := tt.o
			o.Store = st
			f := newFetcher(t, o)
			get(t, f, s.URL)
			if len(st.ttls) != 1 || st.ttls[0] != tt.ttl {
				t.Errorf("Put ttls %v, want [%v]", st.ttls, tt.ttl)
			}
			e, err := st.Get(context.Background(), StoreKey(s.URL, f.Options().UserAgent))
			if err != nil || e == nil || e.Good == nil {
				t.Fatalf("stored %+v, %v", e, err)
			}
			if g := e.Good; g.Case != tt.c || g.Status != tt.status || g.Truncated != tt.truncated {
				t.Errorf("good copy %s, status %d, truncated %v; want %s, %d, %v", g.Case, g.Status, g.Truncated, tt.c, tt.status, tt.truncated)
			}
		})
	}
}

// TestOutageAcrossFetchers: the outage's start and the good copy travel
// through the Store. A Fetcher that starts during an outage (a restart,
// nothing in memory), or whose own copy is older than the one another
// Fetcher stored, counts the 30 days (RFC 9309 §2.3.1.4; Google) from the
// first failure the Store recorded, not from its own first attempt.
func TestOutageAcrossFetchers(t *testing.T) {
	for _, tt := range []struct {
		name string
		warm bool // the second Fetcher read the good copy before the outage
	}{{"restart", false}, {"older copy in memory", true}} {
		t.Run(tt.name, func(t *testing.T) {
			clk := newClock()
			var down atomic.Bool
			s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
				if down.Load() {
					w.WriteHeader(http.StatusServiceUnavailable)
					return
				}
				text(robotsBody)(w, r)
			})
			st := &MemoryStore{Now: clk.Now}
			a := newFetcher(t, Options{Store: st, Now: clk.Now})
			b := newFetcher(t, Options{Store: st, Now: clk.Now})
			get(t, a, s.URL)
			if tt.warm {
				if r := get(t, b, s.URL); r.Outcome.Source != FromStore {
					t.Fatalf("second fetcher: %s from %s", r.Outcome.String(), r.Outcome.Source)
				}
			}
			clk.Advance(25 * time.Hour)
			down.Store(true)
			start := clk.Now()
			if r := get(t, a, s.URL); r.Outcome.Case != Unreachable {
				t.Fatalf("first failure: %s", r.Outcome.String())
			}
			clk.Advance(720 * time.Hour)
			r := get(t, b, s.URL)
			if o := r.Outcome; o.Case != OutageCopy || !o.DownSince.Equal(start) {
				t.Fatalf("after 30 days: %s, down since %v; want outage-copy since %v", o.String(), o.DownSince, start)
			}
			if r.Check(s.URL+"/private/x").Allowed || !r.Check(s.URL+"/public").Allowed {
				t.Error("the last good copy does not apply")
			}
		})
	}
}

// leaseStore is a MemoryStore whose lease and reads fail or refuse as a
// test says: acquire answers the n-th AcquireLease (from 1), get says
// whether the n-th Get fails.
type leaseStore struct {
	MemoryStore
	acquire        func(n int64) (bool, error)
	get            func(n int64) error
	gets, acquires atomic.Int64
}

var errStoreDown = errors.New("store down")

func (s *leaseStore) Get(ctx context.Context, key string) (*Entry, error) {
	if n := s.gets.Add(1); s.get != nil {
		if err := s.get(n); err != nil {
			return nil, err
		}
	}
	return s.MemoryStore.Get(ctx, key)
}

func (s *leaseStore) AcquireLease(_ context.Context, key string, ttl time.Duration) (string, bool, error) {
	ok, err := s.acquire(s.acquires.Add(1))
	if !ok || err != nil {
		return "", false, err
	}
	return "token", true, nil
}

func (s *leaseStore) ReleaseLease(context.Context, string, string) error { return nil }

// TestLeaseFailures: a Store that fails while a Fetcher takes or waits for
// a lease does not hold the Fetcher: it fetches at once, says the Store
// failed, and waits only while another Fetcher holds the lease. The waiter
// polls the Store with growing intervals (from 5 ms up to 250 ms), not in
// a busy loop.
func TestLeaseFailures(t *testing.T) {
	never := func(int64) (bool, error) { return false, nil }
	tests := []struct {
		name      string
		o         Options
		acquire   func(n int64) (bool, error)
		get       func(n int64) error
		waits     int64 // Stats.LeaseWaits
		fallbacks int64 // Stats.LeaseFallbacks
		failed    bool  // the Outcome has WarnStoreFailed
		maxGets   int64 // at most this many Store reads
		took      time.Duration
	}{
		{name: "acquire fails", acquire: func(int64) (bool, error) { return false, errStoreDown },
			failed: true, maxGets: 1},
		{name: "acquire fails while waiting", acquire: func(n int64) (bool, error) {
			if n == 1 {
				return false, nil
			}
			return false, errStoreDown
		}, waits: 1, failed: true, maxGets: 2, took: 5 * time.Millisecond}, // one poll
		{name: "get fails while waiting", acquire: never, get: func(n int64) error {
			if n > 1 {
				return errStoreDown
			}
			return nil
		}, waits: 1, failed: true, maxGets: 2, took: 5 * time.Millisecond},
		// 200 ms of polls doubling from 5 ms: 5, 10, 20, 40, 80, then
		// the 45 ms left; a busy loop reads thousands of times.
		{name: "held for LeaseWait", o: Options{LeaseWait: 200 * time.Millisecond}, acquire: never,
			waits: 1, fallbacks: 1, maxGets: 12, took: 200 * time.Millisecond},
		// A lease of 1 ns is a lease: the Fetcher waits for its holder.
		{name: "lease of 1ns", o: Options{LeaseTTL: time.Nanosecond, LeaseWait: 50 * time.Millisecond}, acquire: never,
			waits: 1, fallbacks: 1, maxGets: 12, took: 50 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var hits atomic.Int64
				site := memClient(func(w http.ResponseWriter, r *http.Request) {
					hits.Add(1)
					text(robotsBody)(w, r)
				})
				st := &leaseStore{acquire: tt.acquire, get: tt.get}
				o := tt.o
				o.Store, o.Client = st, site
				if o.LeaseWait == 0 {
					o.LeaseWait = 5 * time.Second
				}
				f := newFetcher(t, o)
				start := time.Now()
				r := get(t, f, "http://127.0.0.1:8080")
				took := time.Since(start)
				stats := f.Stats()
				if r.Outcome.Case != Success || hits.Load() != 1 {
					t.Errorf("%s, %d requests", r.Outcome.String(), hits.Load())
				}
				if stats.LeaseWaits != tt.waits || stats.LeaseFallbacks != tt.fallbacks {
					t.Errorf("lease waits %d, fallbacks %d; want %d, %d", stats.LeaseWaits, stats.LeaseFallbacks, tt.waits, tt.fallbacks)
				}
				if r.Outcome.Has(WarnStoreFailed) != tt.failed || (tt.failed && r.Outcome.StoreError != errStoreDown.Error()) {
					t.Errorf("warnings %v, store error %q; want store-failed %v", r.Outcome.Warnings, r.Outcome.StoreError, tt.failed)
				}
				// Virtual time (a synctest bubble): the Fetcher waited
				// exactly as long as its polls.
				if took != tt.took {
					t.Errorf("took %v, want %v", took, tt.took)
				}
				if n := st.gets.Load(); n > tt.maxGets {
					t.Errorf("%d Store reads, want at most %d", n, tt.maxGets)
				}
			})
		})
	}
}

// TestRedirectFreshness: a redirect that ends the fetch (too many, or one
// that cannot be followed) is cached as its last response says, within
// the 24-hour cap (RFC 9309 §2.4).
func TestRedirectFreshness(t *testing.T) {
	loop := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "max-age=120")
		http.Redirect(w, r, "/robots.txt?n="+r.URL.RawQuery+"x", http.StatusFound)
	}
	toFTP := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "max-age=120")
		http.Redirect(w, r, "ftp://example.com/robots.txt", http.StatusFound)
	}
	for _, tt := range []struct {
		name string
		h    http.HandlerFunc
		c    Case
	}{{"too many redirects", loop, TooManyRedirects}, {"redirect to ftp", toFTP, BadRedirect}} {
		t.Run(tt.name, func(t *testing.T) {
			clk := newClock()
			s := newSite(t, tt.h)
			r := get(t, newFetcher(t, Options{Now: clk.Now}), s.URL)
			if o := r.Outcome; o.Case != tt.c || !o.ExpiresAt.Equal(clk.Now().Add(2*time.Minute)) {
				t.Errorf("%s, expires in %v; want %s, 2m0s", o.String(), o.ExpiresAt.Sub(clk.Now()), tt.c)
			}
		})
	}
}

// TestRevalidationValidators: the refresh of a 2xx copy is conditional on
// whichever validator the server sent (an ETag, a Last-Modified date or
// both); a 304 that sends new validators replaces the old ones, one that
// sends none keeps them.
func TestRevalidationValidators(t *testing.T) {
	const lm1, lm2 = "Sun, 01 Mar 2026 10:00:00 GMT", "Sun, 01 Mar 2026 11:00:00 GMT"
	tests := []struct {
		name                string
		etag, lm            string // sent with the 200
		etag304, lm304      string // sent with the first 304
		wantETag, wantSince string // the third request's conditions
	}{
		{"ETag and Last-Modified", `"v1"`, lm1, "", "", `"v1"`, lm1},
		{"ETag only", `"v1"`, "", "", "", `"v1"`, ""},
		{"Last-Modified only", "", lm1, "", "", "", lm1},
		{"304 with new validators", `"v1"`, lm1, `"v1b"`, lm2, `"v1b"`, lm2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := newClock()
			var n atomic.Int64
			s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
				switch n.Add(1) {
				case 1:
					if tt.etag != "" {
						w.Header().Set("ETag", tt.etag)
					}
					if tt.lm != "" {
						w.Header().Set("Last-Modified", tt.lm)
					}
					fmt.Fprint(w, "User-agent: *\nDisallow: /v1\n")
				case 2:
					if tt.etag304 != "" {
						w.Header().Set("ETag", tt.etag304)
					}
					if tt.lm304 != "" {
						w.Header().Set("Last-Modified", tt.lm304)
					}
					w.WriteHeader(http.StatusNotModified)
				default:
					w.WriteHeader(http.StatusNotModified)
				}
			})
			f := newFetcher(t, Options{Now: clk.Now})
			get(t, f, s.URL)
			for i := 2; i <= 3; i++ {
				clk.Advance(25 * time.Hour)
				r := get(t, f, s.URL)
				if o := r.Outcome; o.Status != 304 || o.Case != Success || o.Source != FromRevalidation || r.Check(s.URL+"/v1").Allowed {
					t.Fatalf("request %d: %s from %s", i, o.String(), o.Source)
				}
			}
			req := s.lastRequest()
			if got, gotSince := req.Header.Get("If-None-Match"), req.Header.Get("If-Modified-Since"); got != tt.wantETag || gotSince != tt.wantSince {
				t.Errorf("third request: If-None-Match %q, If-Modified-Since %q; want %q, %q", got, gotSince, tt.wantETag, tt.wantSince)
			}
		})
	}
}
