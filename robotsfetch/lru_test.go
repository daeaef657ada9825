package robotsfetch

import (
	"fmt"
	"testing"
)

// TestClock: the cache never holds more than max items, and an item used
// between two sweeps outlives items that were not.
func TestClock(t *testing.T) {
	c := &lru{max: 10}
	hot := &item{origin: "https://hot.example"}
	c.put(hot)
	for i := range 100 {
		if c.get(hot.origin) != hot {
			t.Fatalf("round %d: the hot item was evicted", i)
		}
		c.put(&item{origin: fmt.Sprintf("https://cold%d.example", i)})
		if c.len() > 10 || len(c.ring) > 10 {
			t.Fatalf("round %d: %d items", i, c.len())
		}
	}
	for i := range 90 {
		if c.get(fmt.Sprintf("https://cold%d.example", i)) != nil {
			t.Errorf("cold%d still held", i)
		}
	}
	// Replacing an item keeps its slot and the count.
	n := &item{origin: hot.origin}
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
