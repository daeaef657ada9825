package robotstxt

import (
	"slices"
	"strings"
	"sync"
)

// multiThreshold is how many wildcard rules an index must hold before they
// are matched through one shared pass over the path instead of one scan
// each. One scan per rule is the fastest way for the few wildcard rules of
// real files, but its cost is (rules × path length): 20,000 distinct
// wildcard rules against a 2 KiB path take milliseconds. The shared pass
// costs (path length + occurrences + rules × log), whatever the rules.
var multiThreshold = 64

// multi matches the wildcard rules of one index together. Every rule's tail
// (the pattern after its literal head) is a list of '*'-separated segments;
// one Aho–Corasick pass over the path finds every occurrence of every
// distinct segment, and each rule is then decided by binary searches in
// those occurrence lists, placing its segments greedily leftmost exactly as
// globRest does.
type multi struct {
	segLen []int32 // by segment ID
	// The segments of ents[j] are ids[off[j]:off[j+1]]. For an anchored
	// rule ('$') the last segment is not in the list: it is checked as a
	// suffix of the path, in last (or "" when the pattern ends with "*$").
	off, ids []int32
	last     []string // by ent, for anchored rules
	nodes    []acNode
	edges    []acEdge // each node's children, sorted by byte
}

type acNode struct {
	edgeLo, edgeHi int32
	fail           int32
	out            int32 // segment ending here, or -1
	dict           int32 // nearest node on the fail chain with out >= 0, or -1
}

type acEdge struct {
	c    byte
	next int32
}

// lazyMulti builds the shared matcher on the first check that needs it.
// Crawlers mostly send short paths, for which matching rule by rule is the
// cheaper way (see worth), so an index does not pay for an automaton that
// may never run. The build runs once, under sync.Once, like the index's.
type lazyMulti struct {
	wild int // wildcard rules in the index
	once sync.Once
	m    *multi
}

// newLazyMulti returns the lazy shared matcher for the wildcard rules of
// ents, or nil when there are too few of them to need it.
func newLazyMulti(ents []rule) *lazyMulti {
	n := 0
	for j := range ents {
		if ents[j].flags()&fWild != 0 {
			n++
		}
	}
	if n <= multiThreshold {
		return nil
	}
	return &lazyMulti{wild: n}
}

// get returns the matcher of the index's rules (ents, patterns in arena),
// building it on the first call.
func (l *lazyMulti) get(arena string, ents []rule) *multi {
	l.once.Do(func() { l.m = buildMulti(arena, ents) })
	return l.m
}

// buildMulti returns the shared matcher for the wildcard rules of ents.
func buildMulti(arena string, ents []rule) *multi {
	m := &multi{off: make([]int32, len(ents)+1), last: make([]string, len(ents))}
	segID := map[string]int32{}
	var segs []string
	for j := range ents {
		r := &ents[j]
		m.off[j] = int32(len(m.ids))
		if r.flags()&fWild == 0 {
			continue
		}
		tail := arena[r.off+uint32(r.head) : r.off+uint32(r.n)]
		anchored := r.flags()&fAnchor != 0
		if anchored {
			tail = tail[:len(tail)-1]
			k := strings.LastIndexByte(tail, '*')
			m.last[j] = tail[k+1:]
			tail = tail[:k]
		}
		for s := range strings.SplitSeq(tail, "*") {
			if s == "" {
				continue
			}
			id, ok := segID[s]
			if !ok {
				id = int32(len(segs))
				segID[s] = id
				segs = append(segs, s)
			}
			m.ids = append(m.ids, id)
		}
	}
	m.off[len(ents)] = int32(len(m.ids))
	m.segLen = make([]int32, len(segs))
	for i, s := range segs {
		m.segLen[i] = int32(len(s))
	}
	m.build(segs)
	return m
}

// build makes the Aho–Corasick automaton of segs.
func (m *multi) build(segs []string) {
	type key struct {
		node int32
		c    byte
	}
	child := map[key]int32{}
	m.nodes = []acNode{{out: -1, dict: -1}}
	for id, s := range segs {
		cur := int32(0)
		for i := 0; i < len(s); i++ {
			nx, ok := child[key{cur, s[i]}]
			if !ok {
				nx = int32(len(m.nodes))
				m.nodes = append(m.nodes, acNode{out: -1, dict: -1})
				child[key{cur, s[i]}] = nx
			}
			cur = nx
		}
		m.nodes[cur].out = int32(id)
	}
	// Edges grouped by node, sorted by byte.
	m.edges = make([]acEdge, 0, len(child))
	byNode := make([][]acEdge, len(m.nodes))
	for k, v := range child {
		byNode[k.node] = append(byNode[k.node], acEdge{k.c, v})
	}
	for i, es := range byNode {
		slices.SortFunc(es, func(a, b acEdge) int { return int(a.c) - int(b.c) })
		m.nodes[i].edgeLo = int32(len(m.edges))
		m.edges = append(m.edges, es...)
		m.nodes[i].edgeHi = int32(len(m.edges))
	}
	// Fail and dictionary links, breadth first.
	queue := []int32{0}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, e := range m.edges[m.nodes[u].edgeLo:m.nodes[u].edgeHi] {
			v := e.next
			f := int32(0)
			if u != 0 {
				f = m.step(m.nodes[u].fail, e.c)
			}
			m.nodes[v].fail = f
			if m.nodes[f].out >= 0 {
				m.nodes[v].dict = f
			} else {
				m.nodes[v].dict = m.nodes[f].dict
			}
			queue = append(queue, v)
		}
	}
}

// child returns node u's child on c, or -1.
func (m *multi) child(u int32, c byte) int32 {
	es := m.edges[m.nodes[u].edgeLo:m.nodes[u].edgeHi]
	lo, hi := 0, len(es)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if es[h].c < c {
			lo = h + 1
		} else {
			hi = h
		}
	}
	if lo < len(es) && es[lo].c == c {
		return es[lo].next
	}
	return -1
}

// step is the automaton's transition from u on c.
func (m *multi) step(u int32, c byte) int32 {
	for {
		if v := m.child(u, c); v >= 0 {
			return v
		}
		if u == 0 {
			return 0
		}
		u = m.nodes[u].fail
	}
}

// worth reports whether the shared pass beats one scan per rule for a path
// of n bytes. The pass costs about a hundred instructions per path byte
// (plus a little per segment); a rule's own scan costs a few per byte. So
// for the short paths crawlers mostly send, a few hundred wildcard rules
// are still cheaper one by one; the pass wins when rules × bytes is large.
// A negative multiThreshold (tests) forces the pass.
func (l *lazyMulti) worth(n int) bool { return multiThreshold < 0 || l.wild*n >= 1<<16 }

// occ holds, for one path, the start positions of every segment's
// occurrences, segment by segment in increasing order.
type occ struct {
	first []int32 // segment id → its starts are at[first[id]:first[id+1]]
	at    []int32
	raw   []int32 // (segment, start) pairs as found
}

var occPool = sync.Pool{New: func() any { return new(occ) }}

// scan finds every occurrence of every segment in path. The scratch comes
// from a pool, so a check does not allocate once the pool is warm. When
// the segments occur too often (segments nested in each other, such as a,
// aa, aaa, all occur at every position of a run of a's), it gives up and
// returns nil: such segments are found at once by a plain scan, so the
// per-rule matcher is the fast one there.
func (m *multi) scan(path string) *occ {
	o := occPool.Get().(*occ)
	o.raw = o.raw[:0]
	limit := 2 * (4*len(path) + 4096) // pairs: 4 occurrences per byte, plus slack
	u := int32(0)
	for i := 0; i < len(path); i++ {
		u = m.step(u, path[i])
		v := u
		if m.nodes[v].out < 0 {
			v = m.nodes[v].dict
		}
		for ; v >= 0; v = m.nodes[v].dict {
			id := m.nodes[v].out
			o.raw = append(o.raw, id, int32(i+1)-m.segLen[id])
		}
		if len(o.raw) > limit {
			o.release()
			return nil
		}
	}
	// Counting sort by segment; starts stay increasing within a segment.
	ns := len(m.segLen)
	o.first = slices.Grow(o.first[:0], ns+1)[:ns+1]
	clear(o.first)
	for k := 0; k < len(o.raw); k += 2 {
		o.first[o.raw[k]+1]++
	}
	for id := 1; id <= ns; id++ {
		o.first[id] += o.first[id-1]
	}
	o.at = slices.Grow(o.at[:0], len(o.raw)/2)[:len(o.raw)/2]
	fill := o.first[:ns] // next free slot of each segment, reusing first[0:ns] then restoring
	for k := 0; k < len(o.raw); k += 2 {
		id := o.raw[k]
		o.at[fill[id]] = o.raw[k+1]
		fill[id]++
	}
	// fill[id] now equals the old first[id+1]: shift back.
	copy(o.first[1:], fill)
	o.first[0] = 0
	return o
}

func (o *occ) release() { occPool.Put(o) }

// match decides ents[j]'s wildcard tail against path, its head already
// matched: segments placed greedily leftmost from the end of the head.
func (m *multi) match(o *occ, j int, e *rule, path string) bool {
	pos := int32(e.head)
	for _, id := range m.ids[m.off[j]:m.off[j+1]] {
		starts := o.at[o.first[id]:o.first[id+1]]
		k, _ := slices.BinarySearch(starts, pos)
		if k == len(starts) {
			return false
		}
		pos = starts[k] + m.segLen[id]
	}
	if e.flags()&fAnchor == 0 {
		return true
	}
	s := m.last[j]
	return len(path)-len(s) >= int(pos) && strings.HasSuffix(path, s)
}
