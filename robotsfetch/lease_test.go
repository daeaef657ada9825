package robotsfetch_test

import (
	"context"
	"testing"
	"time"

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

// TestLeaseExpires: another Fetcher took the lease and died. The Fetcher
// waits, finds the lease expired with no entry, takes it and fetches.
func TestLeaseExpires(t *testing.T) {
	site := storetest.NewOrigin(t, 0, func(string) string { return "User-agent: *\nDisallow: /\n" })
	st := &robotsfetch.MemoryStore{}
	f := newFetcher(t, robotsfetch.Options{Store: st})
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
	if r.Outcome.Source != robotsfetch.FromNetwork || site.Hits() != 1 || s.LeaseWaits != 1 || s.LeaseFallbacks != 1 || took < 150*time.Millisecond {
		t.Errorf("%s after %v, %d requests, stats %+v", r.Outcome.Source, took, site.Hits(), s)
	}
	// The lease is released once the entry is stored.
	if _, ok, _ := st.AcquireLease(context.Background(), key, time.Second); !ok {
		t.Error("lease still held after the fetch")
	}
}

// denyingStore never grants a lease.
type denyingStore struct{ robotsfetch.MemoryStore }

func (*denyingStore) AcquireLease(context.Context, string, time.Duration) (string, bool, error) {
	return "", false, nil
}

func (*denyingStore) ReleaseLease(context.Context, string, string) error { return nil }

// TestLeaseWaitBound: a lease that is never granted nor fulfilled holds a
// Fetcher for LeaseWait at most; then it fetches regardless.
func TestLeaseWaitBound(t *testing.T) {
	site := storetest.NewOrigin(t, 0, func(string) string { return "" })
	f := newFetcher(t, robotsfetch.Options{Store: &denyingStore{}, LeaseWait: 100 * time.Millisecond})
	start := time.Now()
	r, err := f.Get(context.Background(), site.URL)
	took := time.Since(start)
	if err != nil || r.Outcome.Source != robotsfetch.FromNetwork || site.Hits() != 1 || took < 100*time.Millisecond || took > 5*time.Second {
		t.Fatalf("%v %v after %v, %d requests", r, err, took, site.Hits())
	}
	if s := f.Stats(); s.LeaseWaits != 1 || s.LeaseFallbacks != 1 {
		t.Errorf("stats %+v", s)
	}
	// LeaseTTL < 0 takes no lease: no wait at all.
	site2 := storetest.NewOrigin(t, 0, func(string) string { return "" })
	f = newFetcher(t, robotsfetch.Options{Store: &denyingStore{}, LeaseTTL: -1})
	if _, err := f.Get(context.Background(), site2.URL); err != nil || f.Stats().LeaseWaits != 0 || site2.Hits() != 1 {
		t.Errorf("LeaseTTL -1: %v, stats %+v", err, f.Stats())
	}
}
