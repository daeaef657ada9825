package identity

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/crawlers"
)

// failingResolver answers every query with err and counts the queries.
type failingResolver struct {
	mu  sync.Mutex
	n   int
	err func(ctx context.Context) error
}

func (f *failingResolver) LookupAddr(ctx context.Context, addr string) ([]string, error) {
	f.mu.Lock()
	f.n++
	f.mu.Unlock()
	return nil, f.err(ctx)
}

func (f *failingResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	f.mu.Lock()
	f.n++
	f.mu.Unlock()
	return nil, f.err(ctx)
}

func (f *failingResolver) queries() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n
}

// TestDNSFailureRemembered: a lookup that times out is remembered for
// FailureTTL on the Verifier's clock, so a client whose DNS does not
// answer costs one lookup per FailureTTL, not one per request; a lookup
// its caller cancelled is not remembered at all.
func TestDNSFailureRemembered(t *testing.T) {
	yandex, ok := crawlers.ByName("YandexBot")
	if !ok {
		t.Fatal("no YandexBot in the registry")
	}
	ip := netip.MustParseAddr("203.0.113.7")
	timeout := &net.DNSError{Err: "i/o timeout", Name: "7.113.0.203.in-addr.arpa.", IsTimeout: true}

	for _, tt := range []struct {
		name    string
		ttl     time.Duration // Verifier.FailureTTL
		advance time.Duration // the clock between the two checks
		want    int           // queries after the second check
	}{
		{"within the default 30 seconds", 0, 29 * time.Second, 1},
		{"after the default 30 seconds", 0, 30 * time.Second, 2},
		{"within a FailureTTL of 5 minutes", 5 * time.Minute, 4 * time.Minute, 1},
		{"a negative FailureTTL remembers nothing", -1, 0, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
			res := &failingResolver{err: func(context.Context) error { return timeout }}
			v := &Verifier{Resolver: res, FailureTTL: tt.ttl, Now: func() time.Time { return now }}
			r := v.VerifyCrawler(context.Background(), ip, yandex, time.Time{})
			var le *LookupError
			if r.Verdict != Unverifiable || !errors.As(r.Err, &le) || res.queries() != 1 {
				t.Fatalf("first check: %s %v, %d queries", r.Verdict, r.Err, res.queries())
			}
			now = now.Add(tt.advance)
			r = v.VerifyCrawler(context.Background(), ip, yandex, time.Time{})
			if r.Verdict != Unverifiable || r.Err == nil {
				t.Errorf("second check: %s %v, want unverifiable with the failure", r.Verdict, r.Err)
			}
			if got := res.queries(); got != tt.want {
				t.Errorf("%d queries, want %d", got, tt.want)
			}
		})
	}

	t.Run("a cancelled caller is not remembered", func(t *testing.T) {
		now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
		res := &failingResolver{err: func(ctx context.Context) error { return ctx.Err() }}
		v := &Verifier{Resolver: res, Now: func() time.Time { return now }}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		v.VerifyCrawler(ctx, ip, yandex, time.Time{})
		res.err = func(context.Context) error { return timeout }
		r := v.VerifyCrawler(context.Background(), ip, yandex, time.Time{})
		if got := res.queries(); got != 2 || r.Err == nil {
			t.Errorf("%d queries (want 2), Err %v", got, r.Err)
		}
	})
}
