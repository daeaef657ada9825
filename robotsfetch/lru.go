package robotsfetch

import (
	"sync/atomic"
	"time"
	"unsafe"
)

// lru bounds the origins held in memory, by count and by bytes, with the
// CLOCK approximation of least-recently-used: a hit only sets the item's
// reference bit, so lookups run under a read lock and concurrent crawler
// goroutines do not serialise on the cache; eviction sweeps a ring,
// sparing (once) each item used since the last sweep, so hot origins stay.
// get may be called under a read lock; put needs the write lock.
type lru struct {
	max      int   // items
	maxBytes int64 // their footprint
	bytes    int64
	m        map[string]*item
	ring     []*item // nil slots are free
	free     []int32
	hand     int
}

// item is one origin's cached answer. The answer is held in the item
// itself, not behind a pointer: a warm lookup goes from the map straight
// to the lines it reads (the reference bit, the expiry, the verdict and the
// file), with no load waiting on another, which is what a crawler cycling
// through many origins pays for in cache misses.
type item struct {
	// The first line holds what the lookup reads: the reference bit, the
	// expiry and the origin's text, which the map's key compare reads
	// (origin is made from name when it fits, so the compare reads no
	// other object, and the key does not keep alive the URL it was cut
	// from).
	ref     atomic.Bool
	slot    int32     // in ring (fewer than 2^31 origins: MaxOrigins)
	expires time.Time // robots.Outcome.ExpiresAt
	name    [32]byte
	// robots starts on the second line, where its Verdict and its File
	// and Body take one line each: a warm Check reads three lines of the
	// item (TestItemLines), which matters when a crawler cycles through
	// more origins than the processor's caches hold.
	robots Robots
	origin string
	size   int64
	entry  *Entry
}

// ownOrigin points it.origin at a copy in it.name when it fits.
func (it *item) ownOrigin() {
	if n := len(it.origin); n > 0 && n <= len(it.name) {
		copy(it.name[:], it.origin)
		it.origin = unsafe.String(&it.name[0], n) // it.name is not written again
	}
}

// footprint estimates what an item keeps alive: the body (shared by the
// parsed answer and the entry), the parsed file (about twice its input:
// BENCHMARKS.md, retained bytes per input byte) and a fixed overhead for
// the outcome, the entry and the map.
func footprint(r *Robots) int64 {
	return 3*int64(len(r.Body)) + 2048
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
	it.ownOrigin()
	it.expires = it.robots.Outcome.ExpiresAt
	it.size = footprint(&it.robots)
	if old, ok := c.m[it.origin]; ok {
		it.slot = old.slot
		it.ref.Store(true)
		c.ring[it.slot] = it
		c.m[it.origin] = it
		c.bytes += it.size - old.size
	} else {
		c.m[it.origin] = it
		c.bytes += it.size
		if n := len(c.free); n > 0 {
			it.slot = c.free[n-1]
			c.free = c.free[:n-1]
			c.ring[it.slot] = it
		} else {
			it.slot = int32(len(c.ring))
			c.ring = append(c.ring, it)
		}
	}
	for len(c.m) > 1 && (len(c.m) > c.max || c.maxBytes > 0 && c.bytes > c.maxBytes) {
		c.evict(it)
	}
}

// evict removes one item other than keep, the first in the CLOCK sweep not
// used since the hand last passed it.
func (c *lru) evict(keep *item) {
	for {
		cand := c.ring[c.hand]
		c.hand = (c.hand + 1) % len(c.ring)
		switch {
		case cand == nil || cand == keep:
			continue
		case cand.ref.Load():
			cand.ref.Store(false)
			continue
		}
		delete(c.m, cand.origin)
		c.bytes -= cand.size
		c.ring[cand.slot] = nil
		c.free = append(c.free, cand.slot)
		return
	}
}

func (c *lru) len() int { return len(c.m) }
