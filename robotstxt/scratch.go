package robotstxt

import (
	"sync"
	"unsafe"
)

// parseScratch holds what a parse in progress grows: the arena, the rule
// records, the groups, the user-agent lines, the Sitemap and unknown lines
// and finish's token order.
type parseScratch struct {
	arena    []byte
	rules    []rule
	groups   []group
	uas      []uaLine
	sitemaps []textLine
	unknown  []textLine
	// diags hold strings: put clears them.
	diags []Diagnostic
	order []int32
}

// textLine is a Sitemap or unknown line while the file is parsed: its key
// (empty for Sitemap) and value as written are in the arena, the key at
// off and the value right after it. own turns them into the File's
// Sitemap and Unknown values, whose strings are then slices of the File's
// arena: one allocation for all their text instead of one or two a line.
type textLine struct {
	off, keyLen, valLen uint32
	line, group         int32
}

// text copies a line's key and value to the arena.
func (p *parser) text(key, val []byte, line int) textLine {
	t := textLine{off: uint32(len(p.arena)), keyLen: uint32(len(key)), valLen: uint32(len(val)), line: int32(line), group: int32(p.cur)}
	p.arena = append(p.arena, key...)
	p.arena = append(p.arena, val...)
	return t
}

var parseScratchPool = sync.Pool{New: func() any { return new(parseScratch) }}

// put empties the scratch and returns it to the pool, unless a huge file
// made it larger than maxPooledScratch: the pool should not pin megabytes.
// The diagnostics are cleared, so the pool keeps no message alive.
func (sc *parseScratch) put() {
	clear(sc.diags)
	sc.arena, sc.rules, sc.groups, sc.uas = sc.arena[:0], sc.rules[:0], sc.groups[:0], sc.uas[:0]
	sc.sitemaps, sc.unknown, sc.diags, sc.order = sc.sitemaps[:0], sc.unknown[:0], sc.diags[:0], sc.order[:0]
	if sc.bytes() <= maxPooledScratch {
		parseScratchPool.Put(sc)
	}
}

// bytes is the memory the scratch holds.
func (sc *parseScratch) bytes() int {
	return cap(sc.arena) + cap(sc.rules)*int(unsafe.Sizeof(rule{})) +
		cap(sc.groups)*int(unsafe.Sizeof(group{})) + cap(sc.uas)*int(unsafe.Sizeof(uaLine{})) +
		(cap(sc.sitemaps)+cap(sc.unknown))*int(unsafe.Sizeof(textLine{})) +
		cap(sc.diags)*int(unsafe.Sizeof(Diagnostic{})) + cap(sc.order)*4
}

// maxPooledScratch is the largest scratch kept for reuse, in bytes: more
// than a real file at the default limit needs (the corpus's largest,
// docs.oracle.com, needs about 0.65 MB cut at the limit and 1.05 MB read
// whole), and the most one pooled scratch pins.
const maxPooledScratch = 2 << 20

// own gives the File its own copies of what grew in the scratch, each at
// its length, and hands the scratch back the arrays it grew into, so the
// next parse starts with them.
func (p *parser) own() {
	f, sc := p.f, p.sc
	f.arena = string(p.arena)
	sc.arena, sc.rules, sc.groups, sc.uas = p.arena, p.rules, f.groups, f.uas
	f.rules, f.groups, f.uas = cloneOrNil(p.rules), cloneOrNil(f.groups), cloneOrNil(f.uas)
	p.arena, p.rules = nil, nil
	if len(sc.sitemaps) > 0 {
		f.sitemaps = make([]Sitemap, len(sc.sitemaps))
		for i, t := range sc.sitemaps {
			f.sitemaps[i] = Sitemap{URL: t.value(f.arena), Line: int(t.line)}
		}
	}
	if len(sc.unknown) > 0 {
		f.unknown = make([]Unknown, len(sc.unknown))
		for i, t := range sc.unknown {
			f.unknown[i] = Unknown{Key: f.arena[t.off : t.off+t.keyLen], Value: t.value(f.arena), Line: int(t.line), Group: int(t.group)}
		}
	}
	f.diags = cloneOrNil(sc.diags)
}

func (t textLine) value(arena string) string {
	v := t.off + t.keyLen
	return arena[v : v+t.valLen]
}
