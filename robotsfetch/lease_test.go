package robotsfetch_test

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rep-toolkit/rep/internal/testkit"
	"github.com/rep-toolkit/rep/internal/testkit/storetest"
	"github.com/rep-toolkit/rep/robotsfetch"
)

// TestColdFleet: two cold Fetchers sharing a MemoryStore ask for 20
// origins at once; the origins answer at once, or after 20 ms. The
// store's lease makes one Fetcher fetch each origin while the other waits
// for the entry: 20 requests of 40 possible. A store without leases (the
// MemoryStore behind a wrapper that hides them) is measured beside it.
func TestColdFleet(t *testing.T) {
	for _, delay := range []time.Duration{0, 20 * time.Millisecond} {
		if n := storetest.ColdFleet(t, &robotsfetch.MemoryStore{}, 2, 20, delay); n != 20 {
			t.Errorf("2 Fetchers × 20 origins answering in %v, with leases: %d requests, want 20", delay, n)
		}
		n := storetest.ColdFleet(t, struct{ robotsfetch.Store }{&robotsfetch.MemoryStore{}}, 2, 20, delay)
		t.Logf("origins answering in %v, without leases: %d requests", delay, n)
	}
}

func newFetcher(t *testing.T, o robotsfetch.Options) *robotsfetch.Fetcher {
	t.Helper()
	o.UserAgent = "ExampleBot/1.0"
	f, err := robotsfetch.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// memOrigin is a site answered in memory (testkit.Transport), for the
// tests that run in a synctest bubble; it counts its requests.
type memOrigin struct {
	URL    string
	Client *http.Client
	hits   atomic.Int64
}

func newMemOrigin(robots string) *memOrigin {
	o := &memOrigin{URL: "http://127.0.0.1:8080"}
	o.Client = &http.Client{Transport: testkit.Transport{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o.hits.Add(1)
		fmt.Fprint(w, robots)
	})}}
	return o
}

func (o *memOrigin) Hits() int { return int(o.hits.Load()) }

// TestLeaseExpires: another Fetcher took the lease and died. The Fetcher
// waits, finds the lease expired with no entry, takes it and fetches. It
// runs in virtual time (a synctest bubble): the fetch comes once the
// lease's 150 ms are over, at the first poll after them.
func TestLeaseExpires(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		site := newMemOrigin("User-agent: *\nDisallow: /\n")
		st := &robotsfetch.MemoryStore{}
		f := newFetcher(t, robotsfetch.Options{Store: st, Client: site.Client})
		key := robotsfetch.StoreKey(site.URL, "ExampleBot/1.0")
		if _, ok, _ := st.AcquireLease(context.Background(), key, 150*time.Millisecond); !ok {
			t.Fatal("lease not taken")
		}
		start := time.Now()
		r, err := f.Get(context.Background(), site.URL)
		if err != nil {
			t.Fatal(err)
		}
		took := time.Since(start)
		s := f.Stats()
		// At the first poll after the lease's end (polls at 5, 15, 35,
		// 75, 155 ms today; a poll interval is at most 250 ms).
		if r.Outcome.Source != robotsfetch.FromNetwork || site.Hits() != 1 || s.LeaseWaits != 1 || s.LeaseFallbacks != 1 || took < 150*time.Millisecond || took > 400*time.Millisecond {
			t.Errorf("%s after %v, %d requests, stats %+v", r.Outcome.Source, took, site.Hits(), s)
		}
		// The lease is released once the entry is stored.
		if _, ok, _ := st.AcquireLease(context.Background(), key, time.Second); !ok {
			t.Error("lease still held after the fetch")
		}
	})
}

// denyingStore never grants a lease.
type denyingStore struct{ robotsfetch.MemoryStore }

func (*denyingStore) AcquireLease(context.Context, string, time.Duration) (string, bool, error) {
	return "", false, nil
}

func (*denyingStore) ReleaseLease(context.Context, string, string) error { return nil }

// TestLeaseWaitBound: a lease that is never granted nor fulfilled holds a
// Fetcher for LeaseWait exactly (virtual time, a synctest bubble); then it
// fetches regardless.
func TestLeaseWaitBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		site := newMemOrigin("")
		f := newFetcher(t, robotsfetch.Options{Store: &denyingStore{}, LeaseWait: 100 * time.Millisecond, Client: site.Client})
		start := time.Now()
		r, err := f.Get(context.Background(), site.URL)
		took := time.Since(start)
		if err != nil || r.Outcome.Source != robotsfetch.FromNetwork || site.Hits() != 1 || took != 100*time.Millisecond {
			t.Fatalf("%v %v after %v, %d requests", r, err, took, site.Hits())
		}
		if s := f.Stats(); s.LeaseWaits != 1 || s.LeaseFallbacks != 1 {
			t.Errorf("stats %+v", s)
		}
		// LeaseTTL < 0 takes no lease: no wait at all.
		site2 := newMemOrigin("")
		f = newFetcher(t, robotsfetch.Options{Store: &denyingStore{}, LeaseTTL: -1, Client: site2.Client})
		start = time.Now()
		if _, err := f.Get(context.Background(), site2.URL); err != nil || f.Stats().LeaseWaits != 0 || site2.Hits() != 1 || time.Since(start) != 0 {
			t.Errorf("LeaseTTL -1: %v after %v, stats %+v", err, time.Since(start), f.Stats())
		}
	})
}
