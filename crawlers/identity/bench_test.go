package identity

import (
	"context"
	"net/netip"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/internal/testkit/dnstest"
)

// BenchmarkLookup is the range check behind every verification: a binary
// search over Google's 307-prefix list.
func BenchmarkLookup(b *testing.B) {
	l, _ := Embedded().At("google-common", time.Time{})
	for _, ip := range []string{"66.249.79.70", "203.0.113.9", "2001:4860:4801:b5::1", "2001:db8::1"} {
		a := netip.MustParseAddr(ip)
		b.Run(ip, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				l.Lookup(a)
			}
		})
	}
}

// BenchmarkVerifyOffline is what an access-log auditor pays per line in
// offline mode: a cached User-Agent match, the dated list and the lookup.
func BenchmarkVerifyOffline(b *testing.B) {
	v := &Verifier{}
	ctx := context.Background()
	ua := "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	at := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	for _, ip := range []string{"66.249.66.1", "203.0.113.9"} {
		a := netip.MustParseAddr(ip)
		b.Run(ip, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				v.VerifyAt(ctx, a, ua, at)
			}
		})
	}
	c, _ := crawlers.ByName("GPTBot")
	a := netip.MustParseAddr("20.171.206.5")
	b.Run("crawler-known", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			v.VerifyCrawler(ctx, a, c, at)
		}
	})
}

// BenchmarkVerifyCachedDNS is the online path once PTR and forward answers
// are cached.
func BenchmarkVerifyCachedDNS(b *testing.B) {
	srv := startZone(b)
	v := &Verifier{Resolver: dnstest.Resolver(srv), Timeout: time.Second}
	ctx := context.Background()
	a := netip.MustParseAddr("66.249.66.1")
	v.Verify(ctx, a, "Googlebot/2.1")
	b.ReportAllocs()
	for b.Loop() {
		v.Verify(ctx, a, "Googlebot/2.1")
	}
}
