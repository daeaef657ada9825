package robotstxt

import (
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Agent is the view of a File for one crawler: the group it obeys, resolved
// once. Create it with File.Agent and keep it; Check is the hot path.
type Agent struct {
	// The index and the arena are copied here when the Agent is made, so a
	// check reads the Agent and the index's arrays and nothing else: fewer
	// cache lines when a crawler cycles through many sites.
	ix      index
	arena   string
	profile Profile
	f       *File
	e       *agentEntry // nil: no group applies
	m       GroupMatch
}

// Agent resolves the group a crawler obeys. names is a fallback chain of
// product tokens, most specific first (e.g. "Googlebot-Image",
// "Googlebot"): the first one that a group names wins; when none does, the
// "*" group applies (RFC 9309 §2.2.1). A full User-Agent header may be given
// in place of a token; it is reduced with ProductToken. Tokens are compared
// case-insensitively and exactly, never by prefix or substring.
func (f *File) Agent(names ...string) *Agent { return f.agent(names, true) }

// AgentExplicit is Agent without the "*" fallback, for crawlers documented
// to ignore the "*" group (Google's AdsBot, for example): when no group
// names the crawler, no rule applies to it.
func (f *File) AgentExplicit(names ...string) *Agent { return f.agent(names, false) }

// Star is the view of the "*" groups, as obeyed by a crawler that no group
// names.
func (f *File) Star() *Agent { return f.agent(nil, true) }

func (f *File) agent(names []string, star bool) *Agent {
	a := Agent{f: f}
	a.resolve(names, star)
	if nk, ne := len(a.ix.keys), len(a.ix.ents); nk > 0 && nk <= smallIndex && ne <= smallIndex {
		s := &smallAgent{Agent: a}
		s.ix.keys = s.keys[:copy(s.keys[:], a.ix.keys):nk]
		s.ix.ents = s.ents[:copy(s.ents[:], a.ix.ents):ne]
		s.ownText()
		return &s.Agent
	}
	return &a
}

// smallAgent is an Agent that holds its index itself when the index is
// short, as most groups' are: the keys, the rules and, when they fit, the
// rules' text. A check then reads one object, where it otherwise reads the
// Agent, then the keys, then the rules, then their text in the file's
// arena: each a cache miss of its own, one after the other, when a crawler
// cycles through more files than the caches hold.
type smallAgent struct {
	Agent
	keys [smallIndex]ikey
	ents [smallIndex]rule
	text [smallText]byte
}

const (
	smallIndex = 8   // the most keys and rules a smallAgent holds
	smallText  = 192 // the most bytes of rule text it holds
)

// ownText copies the rules' patterns into s.text and points the rules and
// the arena at the copy, when they fit and nothing else reads the rules by
// their offset in the file's arena: a pattern kept as written in File.raw
// (keyed by that offset) or the shared wildcard matcher (built over the
// offsets of whichever Agent asks first).
func (s *smallAgent) ownText() {
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
func (a *Agent) resolve(names []string, star bool) {
	f := a.f
	a.arena, a.profile = f.arena, f.profile
	for i, n := range names {
		if e := f.find(ProductToken(n)); e != nil {
			a.e = e
			a.m = GroupMatch{Agent: e.token, Via: ViaToken, Lines: f.entLines(e)}
			if i > 0 {
				a.m.Via = ViaFallback
			}
			break
		}
	}
	if a.e == nil && star && f.hasStar {
		a.e = &f.star
		a.m = GroupMatch{Agent: "*", Via: ViaStar, Lines: f.entLines(&f.star)}
	}
	if a.e != nil && a.e.idx != nil {
		a.ix = *a.e.idx.get(f)
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
func (a *Agent) Group() GroupMatch { return a.m }

// Rules returns the rules in force for this agent: the rules of every group
// merged into its group, in file order.
func (a *Agent) Rules() []Rule {
	if a.e == nil {
		return nil
	}
	var rs []Rule
	for _, g := range a.f.entGroups(a.e) {
		rs = a.f.appendRules(rs, g)
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
func (a *Agent) Check(rawurl string) (d Decision) {
	// decide fills the result in place: a Decision is about 100 bytes, and
	// the hot path should not copy it from one frame to the next.
	if p, ok := pathFast(rawurl); ok && a.profile == Google {
		a.decide(&d, p)
		return d
	}
	a.checkSlow(&d, rawurl)
	return d
}

// checkSlow is Check for paths that must be rewritten; the buffer lives
// here so the common path does not pay for clearing it.
func (a *Agent) checkSlow(d *Decision, rawurl string) {
	var buf [2 * pathBufSize]byte
	path := pathOf(rawurl, buf[:pathBufSize])
	if a.profile == RFC9309 && !isRobotsTxt(path) {
		path = bytesString(normalizeRFC(buf[pathBufSize:pathBufSize], path, false))
	}
	a.decide(d, path)
}

func isRobotsTxt(path string) bool {
	// Most paths fail on the second byte, before any string compare.
	return len(path) >= 11 && path[1] == 'r' &&
		(path == "/robots.txt" || strings.HasPrefix(path, "/robots.txt?"))
}

// Allowed is Check(rawurl).Allowed, for a crawler that needs only the
// verdict: it finds the same rule but builds no Decision (no pattern, no
// group), which makes it the cheaper of the two.
func (a *Agent) Allowed(rawurl string) bool {
	if p, ok := pathFast(rawurl); ok && a.profile == Google {
		return a.allowed(p)
	}
	var d Decision
	a.checkSlow(&d, rawurl)
	return d.Allowed
}

// allowed is decide's verdict without the Decision.
func (a *Agent) allowed(path string) bool { return isRobotsTxt(path) || allows(a.match(path)) }

// match returns the deciding rule for a path (already normalised for the
// profile), or nil.
func (a *Agent) match(path string) *rule {
	if len(a.ix.keys) == 0 {
		return nil
	}
	return a.ix.lookup(a.arena, path)
}

// allows is the verdict of the deciding rule r: no rule, an empty rule (RFC
// 9309 §2.2.2: it matches everything and allows) or an allow rule (the
// index.html rule is one) let the path through.
func allows(r *rule) bool { return r == nil || r.n == 0 || r.flags()&fAllow != 0 }

// decide matches a path (already normalised for the profile) into d,
// which is the zero Decision.
func (a *Agent) decide(d *Decision, path string) {
	d.Allowed, d.Group = true, a.m
	if isRobotsTxt(path) {
		d.Reason = RobotsTxt
		return
	}
	r := a.match(path)
	if r == nil {
		return
	}
	// The Agent's copy of the arena: the File is read only for the rare
	// pattern written differently, one cache line less per check when a
	// crawler cycles through many files.
	d.Rule = Rule{Allow: r.flags()&fAllow != 0, Line: int(r.line()), Pattern: r.pattern(a.arena, a.f)}
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
// Agent's copy of it), or in f.raw when it was rewritten.
func (r *rule) pattern(arena string, f *File) string {
	if r.flags()&(fRaw|fIndex) != 0 {
		return f.raw[r.off]
	}
	return arena[r.off : r.off+uint32(r.n)]
}

// Check is f.Agent(agent).Check(rawurl) without building an Agent: it
// resolves the group on every call. Keep an Agent for repeated checks.
func (f *File) Check(agent, rawurl string) Decision {
	a := Agent{f: f}
	a.resolve([]string{agent}, true)
	return a.Check(rawurl)
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
