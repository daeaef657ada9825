package robotsfetch

import (
	"context"
	"testing"
)

// BenchmarkGetCached measures the hot path: a fresh origin in memory.
func BenchmarkGetCached(b *testing.B) {
	s := newSite(b, text(robotsBody))
	f, err := New(Options{UserAgent: "ExampleBot/1.0"})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	url := s.URL + "/private/x"
	if _, err := f.Get(ctx, url); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		r, _ := f.Get(ctx, url)
		r.Check(url, "ExampleBot")
	}
}
