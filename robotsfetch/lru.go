package robotsfetch

import "container/list"

// lru is a least-recently-used map of origins to their items. It is not
// safe for concurrent use; the Fetcher guards it.
type lru struct {
	max int
	ll  list.List
	m   map[string]*list.Element
}

type item struct {
	origin string
	robots *Robots
	entry  *Entry
}

func (c *lru) get(origin string) *item {
	el, ok := c.m[origin]
	if !ok {
		return nil
	}
	c.ll.MoveToFront(el)
	return el.Value.(*item)
}

func (c *lru) put(it *item) {
	if c.m == nil {
		c.m = make(map[string]*list.Element)
	}
	if el, ok := c.m[it.origin]; ok {
		el.Value = it
		c.ll.MoveToFront(el)
		return
	}
	c.m[it.origin] = c.ll.PushFront(it)
	for c.ll.Len() > c.max {
		old := c.ll.Back()
		c.ll.Remove(old)
		delete(c.m, old.Value.(*item).origin)
	}
}

func (c *lru) len() int { return c.ll.Len() }
