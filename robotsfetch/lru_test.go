package robotsfetch

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestClock: the cache never holds more than max items, and an item used
// between two sweeps outlives items that were not.
func TestClock(t *testing.T) {
	c := &lru{max: 10}
	hot := &item{origin: "https://hot.example", robots: Robots{}}
	c.put(hot)
	for i := range 100 {
		if c.get(hot.origin) != hot {
			t.Fatalf("round %d: the hot item was evicted", i)
		}
		c.put(&item{origin: fmt.Sprintf("https://cold%d.example", i), robots: Robots{}})
		if c.len() > 10 || len(c.ring) > 11 { // the ring keeps one slot spare
			t.Fatalf("round %d: %d items", i, c.len())
		}
	}
	for i := range 90 {
		if c.get(fmt.Sprintf("https://cold%d.example", i)) != nil {
			t.Errorf("cold%d still held", i)
		}
	}
	// Replacing an item keeps its slot and the count.
	n := &item{origin: hot.origin, robots: Robots{}}
	c.put(n)
	if c.get(hot.origin) != n || c.len() != 10 || c.ring[n.slot] != n {
		t.Error("replacement lost")
	}
	for origin, it := range c.m {
		if c.ring[it.slot] != it || it.origin != origin {
			t.Fatalf("map and ring disagree on %s", origin)
		}
	}
}

// TestClockBytes: the cache holds no more than its byte budget, however
// few the items; a hot item outlives the cold ones; the count of bytes
// follows replacements and evictions; one item larger than the budget is
// still kept (the one just fetched is always served).
func TestClockBytes(t *testing.T) {
	body := func(n int) *Robots { return &Robots{Body: make([]byte, n)} }
	const budget = 1 << 20
	c := &lru{max: 1000, maxBytes: budget}
	hot := &item{origin: "https://hot.example", robots: *body(100 << 10)}
	c.put(hot)
	for i := range 200 {
		c.get(hot.origin)
		c.put(&item{origin: fmt.Sprintf("https://cold%d.example", i), robots: *body(150 << 10)})
		if c.bytes > budget {
			t.Fatalf("round %d: %d bytes held, budget %d", i, c.bytes, budget)
		}
		if c.get(hot.origin) != hot {
			t.Fatalf("round %d: the hot item was evicted", i)
		}
	}
	var sum int64
	for _, it := range c.m {
		sum += it.size
	}
	if sum != c.bytes {
		t.Fatalf("items add up to %d bytes, the cache counts %d", sum, c.bytes)
	}
	big := &item{origin: "https://big.example", robots: *body(2 << 20)}
	c.put(big)
	if c.get(big.origin) != big || c.len() != 1 || c.bytes != big.size {
		t.Errorf("an item over the budget: %d items, %d bytes", c.len(), c.bytes)
	}
}

// TestMemoryStoreBytes: a MemoryStore holds no more than its byte bound;
// past it the entries that expire soonest go first, and the one just put
// stays.
func TestMemoryStoreBytes(t *testing.T) {
	now := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	s := &MemoryStore{Now: func() time.Time { return now }, MaxBytes: 2 << 20}
	put := func(key string, n int, ttl time.Duration) {
		e := &Entry{Origin: key, Good: &Copy{Case: Success, Status: 200, Body: make([]byte, n)}}
		if err := s.Put(context.Background(), key, e, ttl); err != nil {
			t.Fatal(err)
		}
	}
	put("long", 200<<10, 48*time.Hour)
	for i := range 100 {
		put(fmt.Sprintf("k%d", i), 100<<10, time.Duration(i+1)*time.Minute)
		if s.Bytes() > 2<<20 {
			t.Fatalf("after %d puts: %d bytes, bound %d", i+1, s.Bytes(), 2<<20)
		}
		if e, _ := s.Get(context.Background(), fmt.Sprintf("k%d", i)); e == nil {
			t.Fatalf("the entry just put (k%d) was dropped", i)
		}
	}
	if e, _ := s.Get(context.Background(), "long"); e == nil {
		t.Error("the entry that expires last was dropped before the ones that expire sooner")
	}
	if e, _ := s.Get(context.Background(), "k0"); e != nil {
		t.Error("the entry that expires first is still held")
	}
}

// TestClockReplace: a refreshed origin counts as used (the CLOCK sweep
// spares it once), and the byte count follows its new size.
func TestClockReplace(t *testing.T) {
	body := func(n int) *Robots { return &Robots{Body: make([]byte, n)} }
	c := &lru{max: 2}
	a := &item{origin: "https://a.example", robots: *body(100)}
	c.put(a)
	c.put(&item{origin: "https://b.example", robots: *body(100)})
	a2 := &item{origin: a.origin, robots: *body(1000)}
	c.put(a2) // a refreshed, larger
	b := c.m["https://b.example"]
	if c.bytes != a2.size+b.size {
		t.Fatalf("%d bytes counted, the items hold %d + %d", c.bytes, a2.size, b.size)
	}
	c.put(&item{origin: "https://c.example", robots: *body(100)})
	if c.get(a.origin) != a2 || c.get("https://b.example") != nil {
		t.Errorf("after a third origin: a held %v, b held %v; want a kept, b evicted",
			c.get(a.origin) != nil, c.get("https://b.example") != nil)
	}
}

// TestFootprint: an origin held in memory counts about three times its
// body (the body, and the parsed file at about twice its input) and a
// fixed overhead, so an empty file still counts.
func TestFootprint(t *testing.T) {
	for _, n := range []int{0, 512000} {
		s := newSite(t, text(strings.Repeat("#", n)))
		f := newFetcher(t, Options{})
		get(t, f, s.URL)
		if got := f.CacheBytes(); got <= int64(2*n) || got > int64(3*n+4096) || got <= 0 {
			t.Errorf("a body of %d bytes counts %d", n, got)
		}
	}
}

// TestClockBytesBound: items adding up to exactly the byte bound are all
// kept; one byte less and one goes.
func TestClockBytesBound(t *testing.T) {
	size := footprint(&Robots{Body: make([]byte, 100)})
	for _, tt := range []struct {
		bound int64
		held  int
	}{{2 * size, 2}, {2*size - 1, 1}, {2*size + 1, 2}} {
		c := &lru{max: 10, maxBytes: tt.bound}
		c.put(&item{origin: "https://a.example", robots: Robots{Body: make([]byte, 100)}})
		c.put(&item{origin: "https://b.example", robots: Robots{Body: make([]byte, 100)}})
		if c.len() != tt.held {
			t.Errorf("bound %d, two items of %d: %d held, want %d", tt.bound, size, c.len(), tt.held)
		}
	}
}
