package robotsfetch

import "sync/atomic"

// lru bounds the origins held in memory with the CLOCK approximation of
// least-recently-used: a hit only sets the item's reference bit, so lookups
// run under a read lock and concurrent crawler goroutines do not serialise
// on the cache; eviction sweeps a ring, sparing (once) each item used since
// the last sweep. get may be called under a read lock; put needs the write
// lock.
type lru struct {
	max  int
	m    map[string]*item
	ring []*item
	hand int
}

type item struct {
	origin string
	robots *Robots
	entry  *Entry
	ref    atomic.Bool
	slot   int
}

func (c *lru) get(origin string) *item {
	it := c.m[origin]
	if it != nil && !it.ref.Load() { // a load first keeps hot items' cache lines shared
		it.ref.Store(true)
	}
	return it
}

func (c *lru) put(it *item) {
	if c.m == nil {
		c.m = make(map[string]*item)
	}
	if old, ok := c.m[it.origin]; ok {
		it.slot = old.slot
		it.ref.Store(true)
		c.ring[it.slot] = it
		c.m[it.origin] = it
		return
	}
	c.m[it.origin] = it
	if len(c.ring) < c.max {
		it.slot = len(c.ring)
		c.ring = append(c.ring, it)
		return
	}
	for {
		cand := c.ring[c.hand]
		if cand.ref.Load() {
			cand.ref.Store(false)
			c.hand = (c.hand + 1) % len(c.ring)
			continue
		}
		delete(c.m, cand.origin)
		it.slot = c.hand
		c.ring[c.hand] = it
		c.hand = (c.hand + 1) % len(c.ring)
		return
	}
}

func (c *lru) len() int { return len(c.m) }
