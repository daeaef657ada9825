package audit

import (
	"container/heap"
	"sort"
)

// topK counts the most frequent keys in bounded memory with the
// Space-Saving algorithm (Metwally, Agrawal, El Abbadi 2005): at most k
// keys are tracked; a new key replaces the least-counted one and inherits
// its count as an error bound. Counts are exact while there are at most k
// distinct keys.
type topK struct {
	k     int
	index map[string]*tkEntry
	h     tkHeap
}

type tkEntry struct {
	key   string
	count int64
	err   int64
	pos   int
}

type tkHeap []*tkEntry

func (h tkHeap) Len() int { return len(h) }
func (h tkHeap) Less(i, j int) bool {
	if h[i].count != h[j].count {
		return h[i].count < h[j].count
	}
	return h[i].key > h[j].key // deterministic eviction
}
func (h tkHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i]; h[i].pos = i; h[j].pos = j }
func (h *tkHeap) Push(x any)   { e := x.(*tkEntry); e.pos = len(*h); *h = append(*h, e) }
func (h *tkHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

func newTopK(k int) *topK { return &topK{k: k, index: make(map[string]*tkEntry)} }

// add counts key n times; key is copied only when it is new.
func (t *topK) add(key []byte, n int64) {
	if e, ok := t.index[string(key)]; ok {
		e.count += n
		heap.Fix(&t.h, e.pos)
		return
	}
	t.addNew(string(key), n, 0)
}

func (t *topK) addNew(key string, n, errBound int64) {
	if len(t.h) < t.k {
		e := &tkEntry{key: key, count: n, err: errBound}
		t.index[key] = e
		heap.Push(&t.h, e)
		return
	}
	min := t.h[0]
	delete(t.index, min.key)
	min.key, min.err, min.count = key, min.count+errBound, min.count+n
	t.index[key] = min
	heap.Fix(&t.h, 0)
}

// PathCount is one entry of a top-k list.
type PathCount struct {
	Path  string `json:"path"`
	Count int64  `json:"count"`
	// Error bounds the overcount: the true count is in [Count-Error, Count].
	Error int64 `json:"error,omitempty"`
	// Estimated is set when Count is an estimate (Error > 0): the list
	// outgrew its bound and Space-Saving counted this key in another's slot.
	Estimated bool `json:"estimated,omitempty"`
}

// list returns all tracked entries, most frequent first.
func (t *topK) list() []PathCount {
	out := make([]PathCount, 0, len(t.h))
	for _, e := range t.h {
		out = append(out, PathCount{Path: e.key, Count: e.count, Error: e.err, Estimated: e.err > 0})
	}
	sortPaths(out)
	return out
}

func sortPaths(p []PathCount) {
	sort.Slice(p, func(i, j int) bool {
		if p[i].Count != p[j].Count {
			return p[i].Count > p[j].Count
		}
		return p[i].Path < p[j].Path
	})
}

// mergePaths combines two top-k lists into one of at most k entries: the
// counts of shared keys add up, as do their error bounds.
func mergePaths(a, b []PathCount, k int) []PathCount {
	m := make(map[string]PathCount, len(a)+len(b))
	for _, l := range [][]PathCount{a, b} {
		for _, p := range l {
			q := m[p.Path]
			q.Path, q.Count, q.Error = p.Path, q.Count+p.Count, q.Error+p.Error
			q.Estimated = q.Error > 0
			m[p.Path] = q
		}
	}
	out := make([]PathCount, 0, len(m))
	for _, p := range m {
		out = append(out, p)
	}
	sortPaths(out)
	if len(out) > k {
		out = out[:k]
	}
	return out
}
