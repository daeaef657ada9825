package crawlers

import (
	"fmt"
	"testing"
)

var benchUAs = []struct{ name, ua string }{
	{"googlebot", "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.7390.122 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"},
	{"ahrefs", "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)"},
	{"browser", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36"},
}

// BenchmarkClassify is the cold path: a User-Agent seen for the first time.
func BenchmarkClassify(b *testing.B) {
	dataSet() // build the index outside the timer
	for _, bu := range benchUAs {
		b.Run(bu.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Classify(bu.ua)
			}
		})
	}
}

// BenchmarkMatchCached is the hot path of a log audit: a known User-Agent.
func BenchmarkMatchCached(b *testing.B) {
	for _, bu := range benchUAs {
		for range 1000 {
			Match(bu.ua)
		}
		ua := []byte(bu.ua)
		b.Run(bu.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				MatchBytes(ua)
			}
		})
	}
}

// BenchmarkMatchCachedParallel measures the shared cache under contention,
// with 2,000 distinct User-Agents.
func BenchmarkMatchCachedParallel(b *testing.B) {
	uas := make([]string, 2000)
	for i := range uas {
		uas[i] = fmt.Sprintf("%s #%d", benchUAs[i%len(benchUAs)].ua, i)
		for range 20 {
			Match(uas[i])
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			Match(uas[i%len(uas)])
			i++
		}
	})
}
