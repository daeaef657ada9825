package robotstxt

import (
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Matcher is the view of a File for one crawler: the group it obeys,
// resolved once. Create it with File.Matcher and keep it; Check is the hot
// path. (It matches a crawler's URLs against its group; the crawler itself
// is rep's Agent.)
type Matcher struct {
	// The index and the arena are copied here when the Matcher is made, so
	// a check reads the Matcher and the index's arrays and nothing else: fewer
	// cache lines when a crawler cycles through many sites.
	ix      index
	arena   string
	profile Profile
	f       *File
	e       *agentEntry // nil: no group applies
	group   GroupMatch
}

// Agent is the former name of Matcher.
//
// Deprecated: use Matcher. rep's Agent is the crawler; this is a file's
// view for it.
type Agent = Matcher

// Matcher resolves the group a crawler obeys. names is a fallback chain of
// product tokens, most specific first (e.g. "Googlebot-Image",
// "Googlebot"): the first one that a group names wins; when none does, the
// "*" group applies (RFC 9309 §2.2.1). A full User-Agent header may be given
// in place of a token; it is reduced with ProductToken. Tokens are compared
// case-insensitively and exactly, never by prefix or substring.
func (f *File) Matcher(names ...string) *Matcher { return f.matcher(names, true) }

// MatcherExplicit is Matcher without the "*" fallback, for crawlers
// documented to ignore the "*" group (Google's AdsBot, for example): when
// no group names the crawler, no rule applies to it.
func (f *File) MatcherExplicit(names ...string) *Matcher { return f.matcher(names, false) }

// Agent is Matcher.
//
// Deprecated: use File.Matcher.
func (f *File) Agent(names ...string) *Matcher { return f.Matcher(names...) }

// AgentExplicit is MatcherExplicit.
//
// Deprecated: use File.MatcherExplicit.
func (f *File) AgentExplicit(names ...string) *Matcher { return f.MatcherExplicit(names...) }

// Star is the view of the "*" groups, as obeyed by a crawler that no group
// names.
func (f *File) Star() *Matcher { return f.matcher(nil, true) }

func (f *File) matcher(names []string, star bool) *Matcher {
	m := Matcher{f: f}
	m.resolve(names, star)
	if nk, ne := len(m.ix.keys), len(m.ix.ents); nk > 0 && nk <= smallIndex && ne <= smallIndex {
		s := &smallMatcher{Matcher: m}
		s.ix.keys = s.keys[:copy(s.keys[:], m.ix.keys):nk]
		s.ix.ents = s.ents[:copy(s.ents[:], m.ix.ents):ne]
		s.ownText()
		return &s.Matcher
	}
	return &m
}

// smallMatcher is a Matcher that holds its index itself when the index is
// short, as most groups' are: the keys, the rules and, when they fit, the
// rules' text. A check then reads one object, where it otherwise reads the
// Matcher, then the keys, then the rules, then their text in the file's
// arena: each a cache miss of its own, one after the other, when a crawler
// cycles through more files than the caches hold.
type smallMatcher struct {
	Matcher
	keys [smallIndex]ikey
	ents [smallIndex]rule
	text [smallText]byte
}

const (
	smallIndex = 8   // the most keys and rules a smallMatcher holds
	smallText  = 192 // the most bytes of rule text it holds
)

// ownText copies the rules' patterns into s.text and points the rules and
// the arena at the copy, when they fit and nothing else reads the rules by
// their offset in the file's arena: a pattern kept as written in File.raw
// (keyed by that offset) or the shared wildcard matcher (built over the
// offsets of whichever Matcher asks first).
func (s *smallMatcher) ownText() {
	if s.ix.multi != nil {
		return
	}
	n := 0
	for i := range s.ix.ents {
		r := &s.ix.ents[i]
		if r.flags()&(fRaw|fIndex) != 0 {
			return
		}
		n += int(r.n)
	}
	if n > smallText {
		return
	}
	at := uint32(0)
	for i := range s.ix.ents {
		r := &s.ix.ents[i]
		copy(s.text[at:], s.arena[r.off:r.off+uint32(r.n)])
		r.off = at
		at += uint32(r.n)
	}
	// The array is never written again: the strings made from it (the
	// patterns a Decision carries) are as immutable as the arena's.
	s.arena = unsafe.String(&s.text[0], int(at))
}

// resolve sets the group and, when it has rules, the index.
func (m *Matcher) resolve(names []string, star bool) {
	f := m.f
	m.arena, m.profile = f.arena, f.profile
	for i, n := range names {
		if e := f.find(ProductToken(n)); e != nil {
			m.e = e
			m.group = GroupMatch{Agent: e.token, Via: ViaToken, Lines: f.entLines(e)}
			if i > 0 {
				m.group.Via = ViaFallback
			}
			break
		}
	}
	if m.e == nil && star && f.hasStar {
		m.e = &f.star
		m.group = GroupMatch{Agent: "*", Via: ViaStar, Lines: f.entLines(&f.star)}
	}
	if m.e != nil && m.e.idx != nil {
		m.ix = *m.e.idx.get(f)
	}
}

// find returns the entry for a token, comparing case-insensitively.
func (f *File) find(tok string) *agentEntry {
	lo, hi := 0, len(f.agents)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if compareFold(f.agents[m].token, tok) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(f.agents) && compareFold(f.agents[lo].token, tok) == 0 {
		return &f.agents[lo]
	}
	return nil
}

// compareFold compares a lower-case token with s, folding s's ASCII case.
func compareFold(lowerTok, s string) int {
	n := min(len(lowerTok), len(s))
	for i := 0; i < n; i++ {
		a, b := lowerTok[i], lower(s[i])
		if a != b {
			if a < b {
				return -1
			}
			return 1
		}
	}
	return len(lowerTok) - len(s)
}

// ProductToken reduces a crawler name to the product token matched against
// user-agent lines. A plain name is returned unchanged (Google compares the
// caller's name as given). A full User-Agent header, recognised by a '/',
// ';' or '(' in it, is reduced to its crawler's token: the product after
// "compatible;" when there is one (Mozilla/5.0 (compatible;
// Googlebot/2.1; ...) → Googlebot), else the first product that is not
// "Mozilla" (Googlebot-Image/1.0 → Googlebot-Image).
func ProductToken(name string) string {
	if !strings.ContainsAny(name, "/;(") {
		return name
	}
	if i := indexFold(name, "compatible;"); i >= 0 {
		if t := productAt(name[i+len("compatible;"):]); t != "" {
			return t
		}
	}
	rest := name
	first := ""
	for rest != "" {
		t := productAt(rest)
		if t != "" {
			if first == "" {
				first = t
			}
			if !strings.EqualFold(t, "Mozilla") {
				return t
			}
		}
		// Skip this product and any comment after it.
		k := strings.IndexAny(rest, " (")
		if k < 0 {
			break
		}
		if rest[k] == '(' {
			c := strings.IndexByte(rest[k:], ')')
			if c < 0 {
				break
			}
			k += c
		}
		rest = rest[k+1:]
	}
	if first != "" {
		return first
	}
	return name
}

// productAt returns the product name at the start of s (after blanks): the
// text up to '/', ';', ')', '(' or a blank.
func productAt(s string) string {
	s = strings.TrimLeft(s, " \t")
	end := strings.IndexAny(s, "/;)( \t")
	if end < 0 {
		end = len(s)
	}
	return s[:end]
}

func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// Group returns the group this agent obeys and why it was chosen.
func (m *Matcher) Group() GroupMatch { return m.group }

// Rules returns the rules in force for this agent: the rules of every group
// merged into its group, in file order.
func (m *Matcher) Rules() []Rule {
	if m.e == nil {
		return nil
	}
	var rs []Rule
	for _, g := range m.f.entGroups(m.e) {
		rs = m.f.appendRules(rs, g)
	}
	return rs
}

// appendRules appends group g's rules as written, in file order, leaving
// out the synthetic index.html rules.
func (f *File) appendRules(rs []Rule, g int) []Rule {
	n := len(rs)
	for i := range f.sortedRules(g) {
		r := &f.rules[int(f.groups[g].ruleLo)+i]
		if r.flags()&fIndex != 0 {
			continue
		}
		rs = append(rs, Rule{Allow: r.flags()&fAllow != 0, Pattern: r.pattern(f.arena, f), Line: int(r.line())})
	}
	// A group's own index keeps its rules in index order.
	slices.SortFunc(rs[n:], func(a, b Rule) int { return a.Line - b.Line })
	return rs
}

// Check decides whether the agent may fetch rawurl: an absolute URL or a
// path ("/x?y"). The URL is matched as given apart from the profile's
// normalisation: Google's profile expects the caller to send it
// %-encoded, as a crawler requests it. Check does not allocate when the
// path is at most 2 KiB.
func (m *Matcher) Check(rawurl string) (d Decision) {
	// decide fills the result in place: a Decision is about 100 bytes, and
	// the hot path should not copy it from one frame to the next.
	if p, ok := pathFast(rawurl); ok && m.profile == Google {
		m.decide(&d, p)
		return d
	}
	m.checkSlow(&d, rawurl)
	return d
}

// checkSlow is Check for paths that must be rewritten; the buffer lives
// here so the common path does not pay for clearing it.
func (m *Matcher) checkSlow(d *Decision, rawurl string) {
	var buf [2 * pathBufSize]byte
	path := pathOf(rawurl, buf[:pathBufSize])
	if m.profile == RFC9309 && !isRobotsTxt(path) {
		path = bytesString(normalizeRFC(buf[pathBufSize:pathBufSize], path, false))
	}
	m.decide(d, path)
}

func isRobotsTxt(path string) bool {
	// Most paths fail on the second byte, before any string compare.
	return len(path) >= 11 && path[1] == 'r' &&
		(path == "/robots.txt" || strings.HasPrefix(path, "/robots.txt?"))
}

// Allowed is Check(rawurl).Allowed, for a crawler that needs only the
// verdict: it finds the same rule but builds no Decision (no pattern, no
// group), which makes it the cheaper of the two.
func (m *Matcher) Allowed(rawurl string) bool {
	if p, ok := pathFast(rawurl); ok && m.profile == Google {
		return m.allowed(p)
	}
	var d Decision
	m.checkSlow(&d, rawurl)
	return d.Allowed
}

// allowed is decide's verdict without the Decision.
func (m *Matcher) allowed(path string) bool { return isRobotsTxt(path) || allows(m.match(path)) }

// match returns the deciding rule for a path (already normalised for the
// profile), or nil.
func (m *Matcher) match(path string) *rule {
	if len(m.ix.keys) == 0 {
		return nil
	}
	return m.ix.lookup(m.arena, path)
}

// allows is the verdict of the deciding rule r: no rule, an empty rule (RFC
// 9309 §2.2.2: it matches everything and allows) or an allow rule (the
// index.html rule is one) let the path through.
func allows(r *rule) bool { return r == nil || r.n == 0 || r.flags()&fAllow != 0 }

// decide matches a path (already normalised for the profile) into d,
// which is the zero Decision.
func (m *Matcher) decide(d *Decision, path string) {
	d.Allowed, d.Group = true, m.group
	if isRobotsTxt(path) {
		d.Reason = RobotsTxt
		return
	}
	r := m.match(path)
	if r == nil {
		return
	}
	// The Matcher's copy of the arena: the File is read only for the rare
	// pattern written differently, one cache line less per check when a
	// crawler cycles through many files.
	d.Rule = Rule{Allow: r.flags()&fAllow != 0, Line: int(r.line()), Pattern: r.pattern(m.arena, m.f)}
	d.Allowed = allows(r)
	switch {
	case r.n == 0:
		d.Reason = EmptyRuleMatched
	case r.flags()&fIndex != 0:
		d.Reason = IndexHTML
	default:
		d.Reason = RuleMatched
	}
}

// pattern returns the rule's pattern as written: in arena (f's, or an
// Matcher's copy of it), or in f.raw when it was rewritten.
func (r *rule) pattern(arena string, f *File) string {
	if r.flags()&(fRaw|fIndex) != 0 {
		return f.raw[r.off]
	}
	return arena[r.off : r.off+uint32(r.n)]
}

// Check is f.Matcher(agent).Check(rawurl) without building a Matcher: it
// resolves the group on every call. Keep a Matcher for repeated checks.
func (f *File) Check(agent, rawurl string) Decision {
	m := Matcher{f: f}
	m.resolve([]string{agent}, true)
	return m.Check(rawurl)
}

func firstInvalidUTF8(data []byte, from int) (line, col int) {
	line, ls := 1, 0
	for i := 0; i < len(data); {
		c := data[i]
		if c == '\n' || (c == '\r' && (i+1 >= len(data) || data[i+1] != '\n')) {
			line++
			ls = i + 1
			i++
			continue
		}
		if i < from || c < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return line, i - ls + 1
		}
		i += n
	}
	return line, 1
}
