package robotstxt

import (
	"encoding/binary"
	"math/bits"
	"strings"
	"sync"
	"unsafe"
)

// rule is the compact form of one allow or disallow rule. Its pattern (as
// compared: escaped, normalised) lives in the file's arena.
//
// It is 16 bytes: a crawler keeps many files, and a check reads these records
// in a row. The pattern length fits 16 bits because a line is cut at
// MaxLineBytes and escaping at most triples it; the line number fits 27 bits
// because parsing stops at MaxParseBytes.
type rule struct {
	off uint32 // pattern in arena
	lf  uint32 // line number << flagBits | flags
	// need has bit c&31 set for every byte c that the pattern's tail (after
	// the head) requires; a path lacking one cannot match. It lets a check
	// skip most wildcard rules with one AND.
	need uint32
	n    uint16 // pattern length = match priority (RFC 9309 §2.2.2: octets)
	head uint16 // length of the literal head: up to the first '*', without a final '$'
}

func (r *rule) flags() uint32 { return r.lf & (1<<flagBits - 1) }
func (r *rule) line() uint32  { return r.lf >> flagBits }

const (
	fAllow  = 1 << iota
	fWild   // the pattern has a '*'
	fAnchor // the pattern ends with '$'
	fIndex  // synthetic "/dir/$" made from "Allow: /dir/index.html"
	fRaw    // the pattern as written differs from the compared form

	flagBits = iota
)

// index finds the longest match among one merged group's rules. keys are
// the distinct literal heads, sorted; each key lists its rules from the
// highest priority down, and links to the longest other key that is a
// prefix of it. Every key that is a prefix of a path is then on the parent
// chain of the greatest key ≤ that path, so a lookup is one binary search
// plus a short walk up the chain.
type index struct {
	keys []ikey
	// ents are the rules, grouped by key: copies of the rule records, so a
	// check reads one array and never the file's.
	ents []rule
	// multi matches the wildcard rules in one pass when there are many.
	multi *lazyMulti
}

type ikey struct {
	// word is the head's first 8 bytes, big-endian and zero-padded: the
	// binary search compares words and looks at the bytes only on a tie.
	word uint64
	// fh is first<<8 | min(head length, 255). The key's rules are
	// ents[first:], up to the next key's first; the head is that of
	// ents[first]. A head of at most 8 bytes is all in word, so a check
	// compares it without reading ents or the arena. (A file holds fewer
	// than 2^24 rules: MaxParseBytes.)
	fh     uint32
	parent int32
}

func (k *ikey) first() uint32 { return k.fh >> 8 }
func (k *ikey) hlen() uint32  { return k.fh & 0xff }

// topMask[n] keeps the first n bytes of a word.
var topMask = [9]uint64{0, 0xff << 56, 0xffff << 48, 0xffffff << 40, 0xffffffff << 32,
	0xffffffffff << 24, 0xffffffffffff << 16, 0xffffffffffffff << 8, ^uint64(0)}

// head returns the literal head of a rule.
func (r *rule) headIn(arena string) string { return arena[r.off : r.off+uint32(r.head)] }

// chunk is prefixWord(r.headIn(arena)[at:]) (0 when at is past the head),
// read with one 8-byte load where the arena has 8 bytes from there, which
// is everywhere but near its end: an index build reads every rule's
// first chunk, and deeper ones where heads share their first 8 bytes.
func (r *rule) chunk(arena string, at uint32) uint64 {
	if p := r.off + at; at < uint32(r.head) && int(p)+8 <= len(arena) {
		w := bits.ReverseBytes64(*(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.StringData(arena)), p)))
		return w & topMask[min(uint32(r.head)-at, 8)]
	}
	return r.chunkNearEnd(arena, at)
}

// chunkNearEnd is chunk without the 8-byte load, kept out of line so that
// chunk inlines.
//
//go:noinline
func (r *rule) chunkNearEnd(arena string, at uint32) uint64 {
	if at >= uint32(r.head) {
		return 0
	}
	return prefixWord(r.headIn(arena)[at:])
}

// prefixWord packs the first 8 bytes of s, big-endian, zero-padded, so that
// word order is byte order wherever the words differ.
func prefixWord(s string) uint64 {
	if len(s) >= 8 {
		return binary.BigEndian.Uint64(unsafe.Slice(unsafe.StringData(s), 8))
	}
	var w uint64
	n := min(len(s), 8)
	for i := 0; i < n; i++ {
		w |= uint64(s[i]) << (56 - 8*i)
	}
	return w
}

// byteMask has bit c&31 set for each byte c of s. Eight bytes a round,
// with two accumulators, keep the loop's own cost out of the way.
func byteMask(s string) uint32 {
	var m0, m1 uint32
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i:]), 8))
		m0 |= 1<<(w&31) | 1<<(w>>8&31) | 1<<(w>>16&31) | 1<<(w>>24&31)
		m1 |= 1<<(w>>32&31) | 1<<(w>>40&31) | 1<<(w>>48&31) | 1<<(w>>56&31)
	}
	for ; i < len(s); i++ {
		m0 |= 1 << (s[i] & 31)
	}
	return m0 | m1
}

// better reports whether rule x beats the current best b (nil for none):
// longer pattern, then allow over disallow (RFC 9309 §2.2.2 "SHOULD"),
// then the earlier line (Google keeps the first rule it meets at a given
// priority).
func better(b *rule, x *rule) bool {
	if b == nil || x.n > b.n {
		return true
	}
	if x.n < b.n {
		return false
	}
	if al := x.flags()&fAllow != 0; al != (b.flags()&fAllow != 0) {
		return al
	}
	return x.line() < b.line()
}

// buildIndex makes the index of the rules of the given groups of f. In
// place (one group only), the group's rules are reordered into index order
// and become the index's entries; else the entries are copies.
func buildIndex(f *File, groups []int, inPlace bool) *index {
	arena, rules := f.arena, f.rules
	n := 0
	for _, g := range groups {
		n += int(f.groups[g].ruleHi - f.groups[g].ruleLo)
	}
	// The sort's scratch (the items and the radix sort's second buffer)
	// is pooled: only the index itself stays.
	scratch := sortScratch.Get().(*[]sortItem)
	if cap(*scratch) < 2*n {
		*scratch = make([]sortItem, 2*n)
	}
	items, buf := (*scratch)[:n], (*scratch)[n:2*n]
	i := 0
	for _, g := range groups {
		for id := f.groups[g].ruleLo; id < f.groups[g].ruleHi; id++ {
			items[i] = sortItem{word: rules[id].chunk(arena, 0), id: id}
			i++
		}
	}
	sortRules(items, buf, rules, arena, 0)
	ix := &index{}
	distinct := 0
	for i := range items {
		if !items[i].same {
			distinct++
		}
	}
	ix.keys = make([]ikey, 0, distinct)
	if inPlace {
		g := f.groups[groups[0]]
		ix.ents = rules[g.ruleLo:g.ruleHi]
		orig := ruleScratch.Get().(*[]rule)
		*orig = append((*orig)[:0], ix.ents...)
		for j := range items {
			ix.ents[j] = (*orig)[items[j].id-g.ruleLo]
		}
		if cap(*orig) <= maxPooledRules {
			ruleScratch.Put(orig)
		}
	} else {
		ix.ents = make([]rule, n)
		for j := range items {
			ix.ents[j] = rules[items[j].id]
		}
	}
	var stackBuf [16]int32
	stack := stackBuf[:0]
	for i := 0; i < n; {
		h := ix.ents[i].headIn(arena)
		j := i + 1
		for j < n && items[j].same {
			j++
		}
		k := ikey{word: ix.ents[i].chunk(arena, 0), fh: uint32(i)<<8 | uint32(min(len(h), 255)), parent: -1}
		for len(stack) > 0 {
			top := &ix.keys[stack[len(stack)-1]]
			if strings.HasPrefix(h, ix.ents[top.first()].headIn(arena)) {
				k.parent = stack[len(stack)-1]
				break
			}
			stack = stack[:len(stack)-1]
		}
		stack = append(stack, int32(len(ix.keys)))
		ix.keys = append(ix.keys, k)
		i = j
	}
	ix.multi = newLazyMulti(ix.ents)
	if cap(*scratch) <= maxPooledItems {
		sortScratch.Put(scratch)
	}
	return ix
}

// Scratch of larger builds is left to the GC, so the pools stay small:
// they keep what the largest group of a file within the default limit
// needs (the corpus's largest, 19,125 rules, sorts in 38,250 items), about
// 1.5 MiB in all.
const (
	maxPooledItems = 64 << 10
	maxPooledRules = 32 << 10
)

var (
	sortScratch = sync.Pool{New: func() any { return new([]sortItem) }}
	ruleScratch = sync.Pool{New: func() any { return new([]rule) }}
)

// lookup returns the best rule of ix matching path, or nil.
func (ix *index) lookup(arena string, path string) *rule {
	keys := ix.keys
	// Greatest key ≤ path. First the last key whose word is ≤ the path's,
	// in a loop without a data-dependent branch (the step is masked by
	// the compare's borrow): the branches of a plain binary search are a
	// coin toss each, and the compiler does not make them a CMOV.
	pw := prefixWord(path)
	base, n := 0, len(keys)
	for n > 1 {
		half := n >> 1
		// borrow is 1 when the word is > pw: base moves by half or by 0.
		_, borrow := bits.Sub64(pw, keys[base+half].word, 0)
		base += half & int(borrow-1)
		n -= half
	}
	i := int32(base)
	if k := &keys[base]; k.word > pw {
		i = -1
	} else if k.word == pw && k.hlen() > 8 {
		// Keys sharing the path's first 8 bytes and longer: the bytes
		// after them decide, among keys[:base+1].
		lo, hi := 0, base+1
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			k := &keys[m]
			// Equal words: a head of at most 8 bytes is then a prefix of
			// the path, so ≤ it.
			if k.word < pw || k.hlen() <= 8 || ix.ents[k.first()].headIn(arena) <= path {
				lo = m + 1
			} else {
				hi = m
			}
		}
		i = int32(lo - 1)
	}
	for i >= 0 {
		k := &keys[i]
		if h := k.hlen(); h <= 8 {
			if pw&topMask[h] == k.word {
				break
			}
		} else if pw == k.word && strings.HasPrefix(path, ix.ents[k.first()].headIn(arena)) {
			break
		}
		i = k.parent
	}
	if ix.multi != nil && ix.multi.worth(len(path)) {
		return ix.lookupMulti(arena, path, i)
	}
	// The common case, kept apart from the multi-pattern matcher's so the
	// loop's few variables stay in registers.
	var best *rule
	var have uint32 // byteMask(path) once haveSet: see lacks
	haveSet := false
	ents := ix.ents
	for i >= 0 {
		first, last := ix.span(i)
		for j := first; j < last; j++ {
			e := &ents[j]
			if !better(best, e) {
				// Rules under a key come best first: none of the rest can win.
				break
			}
			var no bool
			if no, have, haveSet = lacks(e.need, path, have, haveSet); no {
				continue
			}
			if e.flags()&(fWild|fAnchor) != 0 && !globRest(path[e.head:], arena[e.off+uint32(e.head):e.off+uint32(e.n)]) {
				continue
			}
			best = e
			break
		}
		i = keys[i].parent
	}
	return best
}

// lacks reports whether path lacks a byte that a rule's need asks for.
// The path's byteMask is computed on the first need (many checks never
// visit a wildcard rule) and carried by the caller in have and set: values
// in and out rather than a pointer, so that both rule loops keep them in
// registers. It must stay inlinable (go build -gcflags=-m): as a call, or
// through a pointer, it cost the typical check 15% more instructions.
func lacks(need uint32, path string, have uint32, set bool) (bool, uint32, bool) {
	if need != 0 && !set {
		have, set = byteMask(path), true
	}
	return need&^have != 0, have, set // false for need 0, whatever have is
}

// span returns the range of ix.ents that key i lists.
func (ix *index) span(i int32) (first, last uint32) {
	first, last = ix.keys[i].first(), uint32(len(ix.ents))
	if int(i)+1 < len(ix.keys) {
		last = ix.keys[i+1].first()
	}
	return first, last
}

// lookupMulti is the rule loop of lookup when the index's wildcard rules are
// matched in one pass (see lazyMulti); i is the longest key that is a
// prefix of path.
func (ix *index) lookupMulti(arena, path string, i int32) *rule {
	var best *rule
	var have uint32
	haveSet := false
	var m *multi
	var o *occ // the occurrences of the multi matcher, found at first need
	multiOff := false
	ents := ix.ents
	for i >= 0 {
		first, last := ix.span(i)
		rest := path[ents[first].head:]
		for j := first; j < last; j++ {
			e := &ents[j]
			if !better(best, e) {
				break
			}
			var no bool
			if no, have, haveSet = lacks(e.need, path, have, haveSet); no {
				continue
			}
			if e.flags()&fWild != 0 && !multiOff && o == nil {
				m = ix.multi.get(arena, ents)
				if o = m.scan(path); o == nil {
					multiOff = true // too many occurrences: match rule by rule
				}
			}
			if o != nil && e.flags()&fWild != 0 {
				if !m.match(o, int(j), e, path) {
					continue
				}
			} else if e.flags()&(fWild|fAnchor) != 0 && !globRest(rest, arena[e.off+uint32(e.head):e.off+uint32(e.n)]) {
				continue
			}
			best = e
			break
		}
		i = ix.keys[i].parent
	}
	if o != nil {
		o.release()
	}
	return best
}

// globRest matches the rest of a path against the rest of a pattern after
// their common literal head: pat is empty, "$", or starts with '*'. The
// pattern matches a prefix of the path unless it ends with '$'. Greedy
// leftmost placement of each '*'-separated segment is exact for such
// patterns and linear in the path: it never backtracks.
func globRest(path, pat string) bool {
	anchored := len(pat) > 0 && pat[len(pat)-1] == '$'
	if anchored {
		pat = pat[:len(pat)-1]
	}
	if pat == "" {
		return !anchored || path == ""
	}
	// pat starts with '*'.
	for {
		pat = pat[1:]
		j := strings.IndexByte(pat, '*')
		if j < 0 {
			if anchored {
				return len(path) >= len(pat) && path[len(path)-len(pat):] == pat
			}
			return strings.Contains(path, pat)
		}
		seg := pat[:j]
		pat = pat[j:]
		if seg == "" {
			continue
		}
		k := strings.Index(path, seg)
		if k < 0 {
			return false
		}
		path = path[k+len(seg):]
	}
}
