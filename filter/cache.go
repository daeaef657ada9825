package filter

// lru keeps parsed captures up to a byte budget, least recently used out
// first.
type lru struct {
	m          map[int32]*entry
	head, tail *entry // head most recent
	bytes, max int64
}

func newLRU(max int64) *lru { return &lru{m: map[int32]*entry{}, max: max} }

func (c *lru) get(ci int32) *entry {
	e := c.m[ci]
	if e != nil && e != c.head {
		c.unlink(e)
		c.pushFront(e)
	}
	return e
}

func (c *lru) put(e *entry) {
	c.m[e.ci] = e
	c.pushFront(e)
	c.bytes += e.size
	for c.bytes > c.max && c.tail != nil && c.tail != e {
		old := c.tail
		c.unlink(old)
		delete(c.m, old.ci)
		c.bytes -= old.size
	}
}

func (c *lru) unlink(e *entry) {
	if e.prev != nil {
		e.prev.next = e.next
	} else {
		c.head = e.next
	}
	if e.next != nil {
		e.next.prev = e.prev
	} else {
		c.tail = e.prev
	}
	e.prev, e.next = nil, nil
}

func (c *lru) pushFront(e *entry) {
	e.next = c.head
	if c.head != nil {
		c.head.prev = e
	}
	c.head = e
	if c.tail == nil {
		c.tail = e
	}
}
