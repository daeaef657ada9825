package filter

// cache keeps parsed captures up to a byte budget, evicting by the CLOCK
// rule (a second chance for each entry used since the hand last passed
// it): an approximation of least-recently-used whose hit costs one store,
// where a list would relink four entries on every document.
type cache struct {
	ents       []*entry // by capture index; nil when not held
	ring       []int32  // the captures held: the clock's face
	hand       int
	bytes, max int64
}

func newCache(captures int, max int64) *cache {
	return &cache{ents: make([]*entry, captures), max: max}
}

func (c *cache) get(ci int32) *entry {
	e := c.ents[ci]
	if e != nil && !e.ref {
		e.ref = true
	}
	return e
}

// put adds e, first evicting what the budget needs, never e itself.
func (c *cache) put(e *entry) {
	c.bytes += e.size
	for c.bytes > c.max && len(c.ring) > 0 {
		if c.hand >= len(c.ring) {
			c.hand = 0
		}
		old := c.ents[c.ring[c.hand]]
		if old.ref {
			old.ref = false
			c.hand++
			continue
		}
		c.ents[old.ci] = nil
		c.bytes -= old.size
		last := len(c.ring) - 1
		c.ring[c.hand] = c.ring[last]
		c.ring = c.ring[:last]
	}
	c.ents[e.ci] = e
	c.ring = append(c.ring, e.ci)
}
