package identity

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rep-toolkit/rep/crawlers"
)

// countingResolver answers every PTR query with name (or "no such name"
// when name is empty) and every forward query with ip, counting the PTR
// queries and recording the time left before each query's deadline.
type countingResolver struct {
	name string
	ip   netip.Addr

	mu   sync.Mutex
	ptrs int
	left time.Duration
}

func (c *countingResolver) LookupAddr(ctx context.Context, addr string) ([]string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ptrs++
	if dl, ok := ctx.Deadline(); ok {
		c.left = time.Until(dl)
	}
	if c.name == "" {
		return nil, &net.DNSError{Err: "no such host", Name: addr, IsNotFound: true}
	}
	return []string{c.name}, nil
}

func (c *countingResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	return []netip.Addr{c.ip}, nil
}

// TestVerifierDefaults: a Verifier's zero Timeout, TTL and NegativeTTL mean
// 5 seconds, 1 hour and 5 minutes, as documented; a cached answer is used
// until its TTL has passed, and asked again at that instant. It runs in a
// synctest bubble, whose clock stands still while the lookup is prepared:
// the lookup's deadline is 5 s away exactly.
func TestVerifierDefaults(t *testing.T) { synctest.Test(t, testVerifierDefaults) }

func testVerifierDefaults(t *testing.T) {
	ip := netip.MustParseAddr("66.249.66.1")
	c, ok := crawlers.Match("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")
	if !ok {
		t.Fatal("Googlebot not in the registry")
	}
	t0 := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name  string // PTR answer; "" for no such name
		after time.Duration
		ptrs  int // PTR queries after a first lookup at t0 and a second at t0+after
	}{
		{"crawl-66-249-66-1.googlebot.com", time.Hour - time.Second, 1},
		{"crawl-66-249-66-1.googlebot.com", time.Hour, 2},
		{"crawl-66-249-66-1.googlebot.com", time.Hour + time.Second, 2},
		{"", 5*time.Minute - time.Second, 1},
		{"", 5 * time.Minute, 2},
		{"", 5*time.Minute + time.Second, 2},
	} {
		res := &countingResolver{name: tc.name, ip: ip}
		now := t0
		v := &Verifier{Ranges: NewRanges(), Resolver: res, Now: func() time.Time { return now }}
		r := v.VerifyCrawler(context.Background(), ip, c, time.Time{})
		if tc.name != "" && r.Verdict != Verified {
			t.Fatalf("%s: %s (%s), want verified", tc.name, r.Verdict, r.Evidence())
		}
		if res.left != 5*time.Second {
			t.Errorf("DNS lookup deadline in %v, want 5s", res.left)
		}
		now = t0.Add(tc.after)
		v.VerifyCrawler(context.Background(), ip, c, time.Time{})
		if res.ptrs != tc.ptrs {
			t.Errorf("PTR %q, again after %v: %d PTR queries, want %d", tc.name, tc.after, res.ptrs, tc.ptrs)
		}
	}
}

// TestEvidence: the one-line evidence of a result.
func TestEvidence(t *testing.T) {
	list, err := ParseList("google-common", "test", []byte(`{"creationTime":"2026-03-16T10:00:00Z","prefixes":[{"ipv4Prefix":"66.249.66.0/27"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	ip := netip.MustParseAddr("66.249.66.1")
	for _, tc := range []struct {
		r    Result
		want string
	}{
		{Result{IP: ip, PTR: "crawl-66-249-66-1.googlebot.com", ForwardConfirmed: true, Forward: []netip.Addr{ip}},
			"crawl-66-249-66-1.googlebot.com → 66.249.66.1"},
		{Result{IP: ip, PTR: "x.googlebot.com", Forward: []netip.Addr{netip.MustParseAddr("192.0.2.1"), netip.MustParseAddr("192.0.2.2")}},
			"x.googlebot.com → 192.0.2.1, 192.0.2.2 (not 66.249.66.1)"},
		{Result{IP: ip, PTR: "x.googlebot.com", Forward: []netip.Addr{}},
			"x.googlebot.com → no address (not 66.249.66.1)"},
		{Result{IP: ip, PTR: "x.googlebot.com"}, "x.googlebot.com"},
		{Result{IP: ip, List: list, ListPredates: true, Range: netip.MustParsePrefix("66.249.66.0/27")},
			"in google-common 2026-03-16 (66.249.66.0/27)"},
		{Result{IP: ip, List: list, Range: netip.MustParsePrefix("66.249.66.0/27")},
			"in google-common 2026-03-16 (66.249.66.0/27), a list newer than the request"},
		{Result{IP: ip, List: list, ListPredates: true, Reason: "PTR x is not under googlebot.com"},
			"not in google-common 2026-03-16 (1 prefixes); PTR x is not under googlebot.com"},
		{Result{IP: ip, Err: errors.New("timeout")}, "timeout"},
		{Result{IP: ip}, ""},
	} {
		if got := tc.r.Evidence(); got != tc.want {
			t.Errorf("Evidence() = %q, want %q", got, tc.want)
		}
	}
	var r Result
	if r.Operator() != "" {
		t.Errorf("Operator() without a crawler = %q", r.Operator())
	}
	c, _ := crawlers.Match("Googlebot/2.1")
	r.Crawler = c
	if !strings.EqualFold(r.Operator(), "Google") {
		t.Errorf("Operator() = %q, want Google", r.Operator())
	}
}
