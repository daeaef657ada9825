package crawl

import (
	"hash/maphash"
	"net/url"
	"strings"
)

// item is one URL of the frontier.
type item struct {
	url   string
	depth int
	from  string // the page that linked to it
}

func (c *crawler) hash(parts ...string) uint64 {
	var h maphash.Hash
	h.SetSeed(c.seed)
	for _, p := range parts {
		h.WriteString(p)
		h.WriteByte(0)
	}
	return h.Sum64()
}

// sameSite reports whether u is on the crawled host.
func (c *crawler) sameSite(u *url.URL) bool {
	return (u.Scheme == "http" || u.Scheme == "https") && strings.EqualFold(u.Host, c.host)
}

// normalize drops the fragment; "" when u is not on the site or is
// filtered out.
func (c *crawler) normalize(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || !c.sameSite(u) {
		return "", false
	}
	u.Fragment, u.RawFragment = "", ""
	if u.Path == "" {
		u.Path = "/"
	}
	s := u.String()
	if c.cfg.Include != nil && !c.cfg.Include.MatchString(s) {
		return "", false
	}
	if c.cfg.Exclude != nil && c.cfg.Exclude.MatchString(s) {
		return "", false
	}
	return s, true
}

// enqueue adds a URL once; false when MaxPages is reached.
func (c *crawler) enqueue(it item) {
	h := c.hash(it.url)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, dup := c.seen[h]; dup {
		return
	}
	if len(c.seen) >= c.cfg.MaxPages {
		c.rep.Truncated = true
		return
	}
	c.seen[h] = struct{}{}
	c.queue = append(c.queue, it)
	c.cond.Signal()
}

// next returns the next URL, waiting while others are in flight; false
// when the crawl is over.
func (c *crawler) next() (item, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.head == len(c.queue) && c.inflight > 0 && c.ctx.Err() == nil {
		c.cond.Wait()
	}
	if c.head == len(c.queue) || c.ctx.Err() != nil {
		c.cond.Broadcast()
		return item{}, false
	}
	it := c.queue[c.head]
	c.queue[c.head] = item{}
	c.head++
	if c.head > 1024 && c.head*2 > len(c.queue) { // give the consumed half back
		c.queue = append(c.queue[:0:0], c.queue[c.head:]...)
		c.head = 0
	}
	c.inflight++
	return it, true
}

func (c *crawler) done() {
	c.mu.Lock()
	c.inflight--
	c.cond.Broadcast()
	c.mu.Unlock()
}
