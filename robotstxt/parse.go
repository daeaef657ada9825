package robotstxt

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"
)

// Parse reads a robots.txt body with the default options (Google profile,
// 500 KiB limit). It never fails: problems are reported by Diagnostics.
func Parse(data []byte) *File { return ParseWith(data, Options{}) }

// ParseWith reads a robots.txt body with the given options.
func ParseWith(data []byte, o Options) *File { return parse(data, o, o.Profile == Google) }

// parse is ParseWith; fast says whether lines that fastRule takes are taken
// there (the Google profile), so a test can compare both readings.
func parse(data []byte, o Options, fast bool) *File {
	p := parser{f: &File{profile: o.Profile, size: len(data), cdEnds: o.CrawlDelayEndsGroup}, cur: -1}
	s := newScanner(data, o.maxBytes())
	// What the File keeps grows in scratch reused from parse to parse, and
	// finish gives the File one copy of each at its final size (own):
	// writes land in memory the cache already holds, and the File keeps no
	// spare capacity. Sizes come from the part of the input that is read,
	// not from a body that the limit cuts.
	sc := parseScratchPool.Get().(*parseScratch)
	defer sc.put()
	// The arena holds patterns, tokens, agent names and Sitemap and
	// unknown text: 5/8 of the input covers 1,384 of the corpus's 1,613
	// files; append grows it for the rest (those with many Sitemap or
	// unknown lines), and the grown array goes back to the pool.
	if c := len(s.data)*5/8 + 64; cap(sc.arena) < c {
		sc.arena = make([]byte, 0, c)
	}
	// A file has at most one rule per line (bar Google's index.html
	// rules): room for that is made up front.
	n := bytes.Count(s.data, nl)
	if n == 0 {
		n = bytes.Count(s.data, cr) // old Mac line ends
	}
	if c := min(n+1, len(s.data)/2+1); cap(sc.rules) < c {
		sc.rules = make([]rule, 0, c)
	}
	p.sc = sc
	p.arena, p.rules = sc.arena[:0], sc.rules[:0]
	p.f.groups, p.f.uas = sc.groups[:0], sc.uas[:0]
	var r rawLine
	for {
		// Most lines of most files are an allow or disallow rule spelled
		// exactly, with a plain value: those are read straight into the
		// rule records, the rest line by line through classify.
		if fast && p.cur >= 0 && p.fastRule(&s) {
			continue
		}
		if !s.next(&r) {
			break
		}
		p.line(data, &r)
	}
	p.finish(data, s.res)
	return p.f
}

// fastRule reads the line at s.i when it is "Disallow:" or "Allow:" (any
// case, the colon right after the key) followed by blanks and a value of
// printable ASCII other than '#' and '%', and nothing but blanks up to its
// line end; it reports false, having changed nothing, for any other line.
// For such a line classify and p.line would find no comment, NUL, cut,
// typo or missing colon, and the value would need no escaping: fastRule
// records the same rule they would (the test of that is
// TestFastRuleSameFile).
func (p *parser) fastRule(s *scanner) bool {
	data, i := s.data, s.i
	if len(data)-i < 8 {
		return false
	}
	var v int
	allow := false
	switch w := binary.LittleEndian.Uint64(data[i:]) | 0x2020202020202020; {
	case w == wDisallow && i+8 < len(data) && data[i+8] == ':':
		v = i + 9
	case uint32(w) == wAllo && byte(w>>32) == 'w' && data[i+5] == ':':
		v, allow = i+6, true
	default:
		return false
	}
	for v < len(data) && data[v] == ' ' {
		v++
	}
	e, star, ok := plainValueEnd(data, v)
	if !ok {
		return false
	}
	// Blanks, then the line end, within Google's line limit.
	j := e
	for j < len(data) && data[j] == ' ' {
		j++
	}
	if j-i > MaxLineBytes {
		return false
	}
	term := lineEnd(data, j)
	if term < 0 {
		return false
	}
	p.addRule(uint32(s.advance(j, term)), data[v:e], allow, true, star)
	return true
}

// plainValueEnd returns the end of the run of bytes from v that are
// printable ASCII but '#' and '%', and the first '*' in it (-1 for none).
// ok is false when the run ends on a byte that is none of ' ', '\n', '\r'
// or the end of data: then the line needs the general reading. Eight bytes
// a round; each test flags exactly the lowest byte it is after.
func plainValueEnd(data []byte, v int) (e, star int, ok bool) {
	const low7 = 0x7f7f7f7f7f7f7f7f
	star = -1
	i := v
	for ; i+8 <= len(data); i += 8 {
		w := binary.LittleEndian.Uint64(data[i:])
		w7 := w & low7
		// ≥ 0x80; < 0x21 (the sum carries into bit 7 from 0x21 up);
		// 0x7F; '#' or '%' (with '!' and '\'', which OR 0x06 also maps
		// to 0x27: such lines take the general path).
		bad := w&bytesHi | ^(w7+bytesLo*0x5f)&bytesHi | (w7+bytesLo)&bytesHi | zeroBytes((w|bytesLo*0x06)^(bytesLo*0x27))
		if star < 0 {
			if m := zeroBytes(w ^ (bytesLo * '*')); m != 0 {
				star = i + bits.TrailingZeros64(m)/8
			}
		}
		if bad != 0 {
			e = i + bits.TrailingZeros64(bad)/8
			break
		}
	}
	if i+8 > len(data) {
		for e = i; e < len(data) && plainByte[data[e]]; e++ {
			if data[e] == '*' && star < 0 {
				star = e
			}
		}
	}
	if star >= e {
		star = -1
	}
	if star >= 0 {
		star -= v
	}
	if e < len(data) {
		switch data[e] {
		case ' ', '\n', '\r':
		default:
			return e, star, false
		}
	}
	return e, star, true
}

// plainByte marks the bytes plainValueEnd takes: printable ASCII but '!',
// '#', '%' and the apostrophe.
var plainByte = func() (t [256]bool) {
	for c := 0x21; c < 0x7f; c++ {
		t[c] = c != '!' && c != '#' && c != '%' && c != '\''
	}
	return t
}()

var nl, cr = []byte{'\n'}, []byte{'\r'}

type parser struct {
	sc      *parseScratch
	lazies  []lazyIndex // backing array of the File's lazy indexes
	rules   []rule      // every rule, by number
	f       *File
	arena   []byte
	cur     int  // current group, -1 before the first user-agent line
	sepSeen bool // a group member (a rule) was seen since the last user-agent line
}

func (p *parser) diag(r *rawLine, col int, sev Severity, code, msg, hint string) {
	p.sc.diags = append(p.sc.diags, Diagnostic{Line: r.num, Column: col, Severity: sev, Code: code, Message: msg, Hint: hint})
}

func (p *parser) line(data []byte, r *rawLine) {
	if r.cut {
		p.diag(r, MaxLineBytes+1, Warning, "line-too-long",
			"line is longer than "+itoa(MaxLineBytes)+" bytes; the rest is ignored",
			"split the rule or shorten it; Google reads only the first "+itoa(MaxLineBytes)+" bytes of a line")
	}
	if r.nul {
		p.diag(r, r.end-r.off+1, Error, "nul-byte", "NUL byte: the rest of the line is ignored",
			"remove the NUL byte; robots.txt must be UTF-8 text")
	}
	switch r.key {
	case KeyNone:
		return
	case KeyInvalid:
		p.diag(r, 1, Warning, "no-separator", "line has no ':' separating a key from a value; it is ignored",
			"write the line as 'Key: value'")
		return
	}
	val := data[r.valOff:r.valEnd]
	if !r.noColon && !r.typo {
		// Most lines: a rule or a user-agent, spelled right.
		switch r.key {
		case KeyAllow, KeyDisallow:
			p.rule(r, val)
			return
		case KeyUserAgent:
			p.userAgent(r, val)
			return
		}
	}
	key := data[r.keyOff:r.keyEnd]
	if r.noColon {
		p.diag(r, r.keyEnd-r.off+1, Warning, "missing-colon", "missing ':' after "+clip(key)+"; Google accepts it, other parsers may not",
			"write '"+r.key.String()+": "+clip(val)+"'")
	}
	if r.typo && r.key != KeyUnknown {
		p.diag(r, r.keyOff-r.off+1, Warning, "misspelled-key", "'"+clip(key)+"' is read as "+r.key.String()+" by Google; other parsers may ignore it",
			"spell it '"+r.key.String()+"'")
	}
	switch r.key {
	case KeyUserAgent:
		p.userAgent(r, val)
	case KeyAllow, KeyDisallow:
		p.rule(r, val)
	case KeySitemap:
		p.sc.sitemaps = append(p.sc.sitemaps, p.text(nil, val, r.num))
	case KeyUnknown:
		p.sc.unknown = append(p.sc.unknown, p.text(key, val, r.num))
	default:
		p.extension(r, string(key), string(val))
	}
}

// clip quotes at most 80 bytes of a value in a message, so a hostile
// 16 KB line costs no more than a normal one to report. Up to 80 bytes it
// returns a view of b, not a copy: every caller puts it into a
// concatenation with a literal, which copies it, so a message costs one
// allocation and never shares memory with the input.
func clip(b []byte) string {
	const max = 80
	if len(b) <= max {
		return bytesString(b)
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return string(b[:cut]) + "…"
}

func isTokenByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_'
}

func (p *parser) userAgent(r *rawLine, val []byte) {
	f := p.f
	if p.cur < 0 || p.sepSeen {
		n := uint32(len(f.uas))
		r := uint32(len(p.rules))
		f.groups = append(f.groups, group{uaLo: n, uaHi: n, ruleLo: r, ruleHi: r})
		p.cur = len(f.groups) - 1
		p.sepSeen = false
	}
	// The value as written goes to the arena, the token right after it.
	u := uaLine{off: uint32(len(p.arena)), line: int32(r.num), group: int32(p.cur), textLen: uint16(len(val))}
	p.arena = append(p.arena, val...)
	f.groups[p.cur].uaHi++
	// Google: "*" followed by nothing or by a blank is the star group.
	if len(val) >= 1 && val[0] == '*' && (len(val) == 1 || isSpace(val[1])) {
		u.tokLen = starTok
		f.uas = append(f.uas, u)
		return
	}
	n := 0
	for n < len(val) && isTokenByte(val[n]) {
		n++
	}
	if n < len(val) {
		msg := "user-agent '" + clip(val) + "' is not a product token: Google reads it as '" + clip(val[:n]) + "'"
		if n == 0 {
			msg = "user-agent '" + clip(val) + "' is not a product token: Google reads it as an empty name that no crawler has"
		}
		p.diag(r, r.valOff-r.off+n+1, Warning, "invalid-agent", msg,
			"a product token has only letters, '-' and '_' (RFC 9309 §2.2.1), e.g. 'User-agent: Googlebot'")
	}
	for _, c := range val[:n] {
		p.arena = append(p.arena, lower(c))
	}
	u.tokLen = uint16(n)
	f.uas = append(f.uas, u)
}

func (p *parser) rule(r *rawLine, val []byte) {
	allow := r.key == KeyAllow
	if p.cur < 0 {
		p.diag(r, r.keyOff-r.off+1, Warning, "rule-outside-group",
			"rule before any user-agent line; crawlers ignore it (RFC 9309 §2.2.2)",
			"put a 'User-agent: *' line (or the crawler's name) above it")
		return
	}
	plain, star := plainPattern(val)
	p.addRule(uint32(r.num), val, allow, plain, star)
}

// addRule records a rule of the current group: val is its value as written,
// plain and star what plainPattern says of it.
func (p *parser) addRule(num uint32, val []byte, allow, plain bool, star int) {
	p.sepSeen = true
	off := len(p.arena)
	// pat is the pattern as compared: for a plain pattern, val itself.
	pat := val
	switch {
	case p.f.profile == RFC9309:
		p.arena = normalizeRFC(p.arena, bytesString(val), true)
		plain = false
	case plain:
		p.arena = append(p.arena, val...)
	default:
		p.arena = escapePattern(p.arena, val)
	}
	if !plain {
		pat = p.arena[off:]
		star = bytes.IndexByte(pat, '*')
	}
	id := p.add(uint32(off), pat, num, allow, star)
	if !plain && !equalBytes(pat, val) {
		if p.f.raw == nil {
			p.f.raw = make(map[uint32]string)
		}
		p.f.raw[uint32(off)] = string(val)
		p.rules[id].lf |= fRaw
	}
	// Google: "Allow: /x/index.htm(l)" also allows "/x/", as the pattern
	// "/x/$" on the same line.
	if allow && p.f.profile == Google {
		if s := strings.LastIndexByte(bytesString(pat), '/'); s >= 0 && strings.HasPrefix(bytesString(pat[s:]), "/index.htm") {
			off2 := len(p.arena)
			p.arena = append(p.arena, p.arena[off:off+s+1]...)
			p.arena = append(p.arena, '$')
			id2 := p.add(uint32(off2), p.arena[off2:], num, true, bytes.IndexByte(p.arena[off2:], '*'))
			p.rules[id2].lf |= fIndex
			// Decisions show the rule as written: the index.html line.
			if p.f.raw == nil {
				p.f.raw = make(map[uint32]string)
			}
			p.f.raw[uint32(off2)] = string(val)
		}
	}
}

// cloneOrNil copies s at its length; nil when it is empty.
func cloneOrNil[S ~[]E, E any](s S) S {
	if len(s) == 0 {
		return nil
	}
	return slices.Clone(s)
}

func equalBytes(a, b []byte) bool { return string(a) == string(b) }

// add records a rule whose compared pattern pat is at arena[off:] and whose
// first '*' is at star (-1 for none).
func (p *parser) add(off uint32, pat []byte, line uint32, allow bool, star int) uint32 {
	n := uint32(len(pat))
	ru := rule{off: off, n: uint16(n), lf: line << flagBits, head: uint16(n)}
	if allow {
		ru.lf |= fAllow
	}
	if n > 0 && pat[n-1] == '$' {
		ru.lf |= fAnchor
		ru.head = uint16(n - 1)
	}
	if star >= 0 && star < int(ru.head) {
		ru.lf |= fWild
		ru.head = uint16(star)
	}
	if ru.flags()&(fWild|fAnchor) != 0 {
		tail := bytesString(pat[ru.head:])
		if ru.flags()&fAnchor != 0 {
			tail = tail[:len(tail)-1]
		}
		for i := 0; i < len(tail); i++ {
			if tail[i] != '*' {
				ru.need |= 1 << (tail[i] & 31)
			}
		}
	}
	p.rules = append(p.rules, ru)
	p.f.groups[p.cur].ruleHi++
	return uint32(len(p.rules) - 1)
}

func (p *parser) finish(data []byte, res scanResult) {
	f := p.f
	f.parsedLen = res.parsedLen
	f.limited = res.limited
	if res.limited {
		// The input was cut at a line end, so the last line scanned is the
		// empty one after it: its number is the first line not read.
		ln := res.lines
		p.sc.diags = append(p.sc.diags, Diagnostic{Line: ln, Column: 1, Severity: Error, Code: "size-limit",
			Message: "file is " + itoa(len(data)) + " bytes; only the first " + itoa(res.parsedLen) + " (up to the last line end within the limit) are read",
			Hint:    "keep robots.txt under 500 KiB: crawlers ignore everything after the limit (RFC 9309 §2.5)"})
	}
	if !utf8.Valid(data[res.bomLen:res.parsedLen]) {
		ln, col := firstInvalidUTF8(data[:res.parsedLen], res.bomLen)
		p.sc.diags = append(p.sc.diags, Diagnostic{Line: ln, Column: col, Severity: Warning, Code: "invalid-utf8",
			Message: "bytes that are not UTF-8; robots.txt must be UTF-8 (RFC 9309 §2.3) and such rules may never match",
			Hint:    "save the file as UTF-8"})
	}
	p.own()
	arena := f.arena

	// Merge groups per token (RFC 9309 §2.2.1): sort the user-agent lines by
	// token, "*" first, and build one entry per distinct token.
	order := slices.Grow(p.sc.order[:0], len(f.uas))[:len(f.uas)]
	for k := range order {
		order[k] = int32(k)
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		return strings.Compare(f.uas[a].tok(arena), f.uas[b].tok(arena)) // "*" sorts before letters, '-' and '_'
	})
	var cache []*lazyIndex
	// One backing array for every entry's lines and groups: each entry's
	// lines, then its groups. It holds two ints per user-agent line, so it
	// never moves while lazy indexes take slices of it.
	ints := make([]int, 0, 2*len(order))
	nAgents := 0
	for i := 0; i < len(order); {
		tok := f.uas[order[i]].tok(arena)
		j := i + 1
		for j < len(order) && f.uas[order[j]].tok(arena) == tok {
			j++
		}
		if i > 0 || f.uas[order[0]].tokLen != starTok {
			nAgents++
		}
		i = j
	}
	f.agents = make([]agentEntry, 0, nAgents)
	// At most one lazy index per token: one array holds them all, made
	// to size so that the pointers into it stay valid.
	p.lazies = make([]lazyIndex, 0, nAgents+1)
	for i := 0; i < len(order); {
		tok := f.uas[order[i]].tok(arena)
		j := i + 1
		for j < len(order) && f.uas[order[j]].tok(arena) == tok {
			j++
		}
		l0 := len(ints)
		for _, k := range order[i:j] {
			ints = append(ints, int(f.uas[k].line))
		}
		g0 := len(ints)
		for _, k := range order[i:j] {
			ints = append(ints, int(f.uas[k].group))
		}
		slices.Sort(ints[l0:g0])
		slices.Sort(ints[g0:])
		ints = ints[:g0+len(slices.Compact(ints[g0:]))]
		e := agentEntry{token: tok, linesLo: uint32(l0), groupsLo: uint32(g0), groupsHi: uint32(len(ints))}
		e.idx, cache = p.indexFor(ints[g0:len(ints):len(ints)], cache)
		if f.uas[order[i]].tokLen == starTok {
			f.star, f.hasStar = e, true
		} else {
			f.agents = append(f.agents, e)
		}
		i = j
	}
	f.entInts = ints
	p.sc.order = order
}

// indexFor returns the (lazy) index of the rules of the given groups, nil
// when they have no rules. Files often list many agents above one set of
// rules; they share it.
func (p *parser) indexFor(groups []int, cache []*lazyIndex) (*lazyIndex, []*lazyIndex) {
	if len(groups) == 1 {
		// Most tokens are named in one group: look those up directly.
		if p.f.byGroup == nil {
			p.f.byGroup = make([]*lazyIndex, len(p.f.groups))
		}
		if l := p.f.byGroup[groups[0]]; l != nil {
			return l, cache
		}
	} else {
		for _, c := range cache {
			if slices.Equal(c.groups, groups) {
				return c, cache
			}
		}
	}
	f := p.f
	n := 0
	for _, g := range groups {
		n += int(f.groups[g].ruleHi - f.groups[g].ruleLo)
	}
	if n == 0 {
		return nil, cache
	}
	var l *lazyIndex
	if len(p.lazies) < cap(p.lazies) {
		p.lazies = append(p.lazies, lazyIndex{groups: groups})
		l = &p.lazies[len(p.lazies)-1]
	} else {
		l = &lazyIndex{groups: groups} // never moves an index already handed out
	}
	if len(groups) == 1 {
		p.f.byGroup[groups[0]] = l
		return l, cache
	}
	return l, append(cache, l)
}
