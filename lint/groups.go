package lint

import (
	"strconv"
	"strings"

	"github.com/rep-toolkit/rep/robotstxt"
)

// entry is one set of merged groups: the rules some crawlers obey.
type entry struct {
	agent  *robotstxt.Matcher
	tokens []string
	star   bool
	rules  []robotstxt.Rule
	first  int // first user-agent line
	cost   int // checkCost of rules
}

// entries returns the distinct rule sets of the file: one per set of
// merged groups, with the tokens that select it.
func (l *linter) entries() []entry {
	var out []entry
	byKey := map[string]int{}
	groupOf := map[int]int{} // user-agent line → group
	for i, g := range l.f.Groups() {
		for _, n := range g.AgentLines {
			groupOf[n] = i
		}
	}
	add := func(a *robotstxt.Matcher, tok string, star bool) {
		m := a.Group()
		if m.Via == robotstxt.ViaNone {
			return
		}
		// Crawlers named in the same groups obey the same rules.
		var k strings.Builder
		if star {
			k.WriteString("*")
		}
		last := -1
		for _, n := range m.Lines {
			if g := groupOf[n]; g != last {
				k.WriteString(strconv.Itoa(g))
				k.WriteByte(',')
				last = g
			}
		}
		if i, ok := byKey[k.String()]; ok {
			out[i].tokens = append(out[i].tokens, tok)
			// Tokens come in name order, not file order: the group starts
			// at the earliest user-agent line of any of them.
			if len(m.Lines) > 0 && m.Lines[0] < out[i].first {
				out[i].first = m.Lines[0]
			}
			return
		}
		byKey[k.String()] = len(out)
		first := 0
		if len(m.Lines) > 0 {
			first = m.Lines[0]
		}
		rules := a.Rules()
		out = append(out, entry{agent: a, tokens: []string{tok}, star: star, rules: rules, first: first, cost: checkCost(rules)})
	}
	if s := l.f.Star(); s.Group().Via == robotstxt.ViaStar {
		add(s, "*", true)
	}
	written := map[string]string{}
	for _, g := range l.f.Groups() {
		for i, t := range g.Tokens {
			// A value cut at '/' is "name/version": the crawler is still
			// the name. Any other cut names a crawler that does not exist
			// (invalid-agent says so); keep the first clean spelling.
			v := g.Agents[i]
			if strings.EqualFold(v, t) || len(v) > len(t) && v[len(t)] == '/' {
				if _, ok := written[t]; !ok {
					written[t] = v[:len(t)]
				}
			}
		}
	}
	for _, t := range l.f.Agents() {
		w, ok := written[t]
		if !ok || t == "" {
			continue // only cut values name it: no crawler has this token
		}
		add(l.f.MatcherExplicit(t), w, false)
	}
	return out
}

// groupChecks looks at the rules each crawler obeys: groups naming the
// same crawler merged (RFC 9309 §2.2.1).
func (l *linter) groupChecks() {
	ents := l.entries()
	pairs := map[[2]int]bool{}
	type shadowState struct {
		in, shadowed int
		by           robotstxt.Rule
	}
	shadow := map[int]*shadowState{}
	for _, e := range ents {
		l.duplicates(e, pairs)
		// Candidates by head; of rules repeated word for word only the
		// first can shadow (it beats its copies), so files with thousands
		// of copies stay linear.
		byHead := map[string][]robotstxt.Rule{}
		seen := map[robotstxt.Rule]bool{}
		for _, r := range e.rules {
			if k := (robotstxt.Rule{Allow: r.Allow, Pattern: r.Pattern}); l.plainPattern(r.Pattern) && !seen[k] {
				seen[k] = true
				h := head(r.Pattern)
				byHead[h] = append(byHead[h], r)
			}
		}
		for _, r := range e.rules {
			st := shadow[r.Line]
			if st == nil {
				st = &shadowState{}
				shadow[r.Line] = st
			}
			st.in++
			if s, ok := l.shadowedBy(e, r, byHead); ok {
				if st.shadowed == 0 {
					st.by = s
				}
				st.shadowed++
			}
		}
	}
	for _, g := range l.f.Groups() {
		for _, r := range g.Rules {
			st := shadow[r.Line]
			if st == nil || st.shadowed == 0 || st.shadowed != st.in {
				continue
			}
			delete(shadow, r.Line) // a rule is in one group; report it once
			s := st.by
			why := "it is longer"
			switch {
			case len(s.Pattern) > len(r.Pattern):
			case s.Allow != r.Allow:
				why = "it is as long and Allow wins a tie"
			default:
				why = "it is as long, of the same kind and comes first"
			}
			hint := "delete line " + strconv.Itoa(r.Line) + ": it changes nothing"
			sev, tail := Info, "; harmless: both are "+map[bool]string{true: "Allow", false: "Disallow"}[r.Allow]+" rules, so every URL gets the verdict meant"
			if s.Allow != r.Allow {
				sev, tail = Warning, ""
				hint = "line " + strconv.Itoa(s.Line) + " overrides it everywhere; make this rule longer (more specific) than line " + strconv.Itoa(s.Line) + " if it should win"
			}
			l.add(r.Line, l.valueCol(r.Line), sev, "shadowed-rule",
				"'"+r.String()+"' never decides: '"+s.String()+"' (line "+strconv.Itoa(s.Line)+") matches every URL it matches and wins ("+why+")"+tail, hint)
		}
	}
	l.starOverridden(ents)
	l.bingCrawlDelay()
}

// duplicates reports rules repeated, or repeated with the opposite kind,
// in one merged rule set.
func (l *linter) duplicates(e entry, pairs map[[2]int]bool) {
	type seen struct{ allow, disallow int }
	first := map[string]*seen{}
	for _, r := range e.rules {
		s := first[r.Pattern]
		if s == nil {
			s = &seen{}
			first[r.Pattern] = s
		}
		same, other := &s.disallow, s.allow
		if r.Allow {
			same, other = &s.allow, s.disallow
		}
		switch {
		case *same != 0:
			if !pairs[[2]int{*same, r.Line}] {
				pairs[[2]int{*same, r.Line}] = true
				l.add(r.Line, l.valueCol(r.Line), Info, "duplicate-rule",
					"'"+r.String()+"' repeats line "+strconv.Itoa(*same)+" for "+tokenList(e.tokens),
					"delete one of the two lines")
			}
		case other != 0 && r.Pattern != "":
			if !pairs[[2]int{other, r.Line}] {
				pairs[[2]int{other, r.Line}] = true
				d := robotstxt.Rule{Allow: !r.Allow, Pattern: r.Pattern, Line: other}
				al, dis := r, d
				if !r.Allow {
					al, dis = d, r
				}
				l.add(r.Line, l.valueCol(r.Line), Warning, "allow-disallow-conflict",
					"'"+al.String()+"' (line "+strconv.Itoa(al.Line)+") and '"+dis.String()+"' (line "+strconv.Itoa(dis.Line)+") have the same pattern: Allow wins (equally long rules: the least restrictive one is used, RFC 9309 §2.2.2), so line "+strconv.Itoa(dis.Line)+" never blocks anything",
					"delete the rule you did not mean")
			}
		}
		if *same == 0 {
			*same = r.Line
		}
	}
}

func tokenList(toks []string) string {
	if len(toks) == 1 {
		if toks[0] == "*" {
			return "the * group"
		}
		return "'" + toks[0] + "'"
	}
	if len(toks) > 4 {
		return "'" + strings.Join(toks[:3], "', '") + "' and " + strconv.Itoa(len(toks)-3) + " more"
	}
	return "'" + strings.Join(toks, "', '") + "'"
}

// plainPattern reports whether the parser compares p exactly as written, so
// its length is its priority and its text is what is matched.
func (l *linter) plainPattern(p string) bool {
	if p == "" || (p[0] != '/' && p[0] != '*') || len(p) > 2048 {
		return false
	}
	q := -1
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c < 0x20 || c >= 0x7F || c == '%' {
			return false
		}
		if l.f.Profile() == robotstxt.RFC9309 {
			switch {
			case c == '$' && i != len(p)-1:
				return false
			case c == '?' && q < 0:
				q = i
			case q >= 0 && strings.IndexByte(":/?@[]", c) >= 0:
				return false
			}
		}
	}
	return true
}

// head is the literal start of a pattern: up to the first '*', without a
// final '$'.
func head(p string) string {
	if i := strings.IndexByte(p, '*'); i >= 0 {
		return p[:i]
	}
	return strings.TrimSuffix(p, "$")
}

// fullForm turns a pattern into a glob that must match the whole path: a
// final '$' is dropped, otherwise a '*' is appended.
func fullForm(p string) string {
	if strings.HasSuffix(p, "$") {
		return p[:len(p)-1]
	}
	return p + "*"
}

// globCovers reports whether the whole-path glob s matches every path that
// the whole-path glob r matches ('*' is the only special character).
//
// It matches s against the text of r, where r's '*' is a character that
// only a '*' of s can absorb: if that succeeds, any text put in place of
// r's stars is absorbed the same way; if it fails, replacing each of r's
// stars by a byte s does not contain gives a path r matches and s does not.
func globCovers(s, r string) bool {
	i, j := 0, 0
	star, mark := -1, 0
	for i < len(r) {
		switch {
		case j < len(s) && s[j] == '*':
			star, mark = j, i
			j++
		case j < len(s) && s[j] == r[i] && r[i] != '*':
			i++
			j++
		case star >= 0:
			j = star + 1
			mark++
			i = mark
		default:
			return false
		}
	}
	for j < len(s) && s[j] == '*' {
		j++
	}
	return j == len(s)
}

// beats reports whether rule s wins over rule r when both match a URL, as
// the matcher decides: the longer pattern, then Allow, then the earlier
// line.
func beats(s, r robotstxt.Rule) bool {
	if len(s.Pattern) != len(r.Pattern) {
		return len(s.Pattern) > len(r.Pattern)
	}
	if s.Allow != r.Allow {
		return s.Allow
	}
	return s.Line < r.Line
}

// shadowedBy returns a rule of e that matches every URL r matches and
// beats it, when there is one. byHead indexes e's plain rules by head: a
// rule whose head is not a prefix of r's head cannot match r's shortest
// URL. Only plain patterns are compared; identical patterns are left to
// duplicate-rule and allow-disallow-conflict.
func (l *linter) shadowedBy(e entry, r robotstxt.Rule, byHead map[string][]robotstxt.Rule) (robotstxt.Rule, bool) {
	if !l.plainPattern(r.Pattern) {
		return robotstxt.Rule{}, false
	}
	// Google reads "Allow: /d/index.html" as also allowing "/d/": such a
	// rule may decide URLs its pattern does not match.
	if r.Allow && l.f.Profile() == robotstxt.Google {
		if s := strings.LastIndexByte(r.Pattern, '/'); s >= 0 && strings.HasPrefix(r.Pattern[s:], "/index.htm") {
			return robotstxt.Rule{}, false
		}
	}
	rf := fullForm(r.Pattern)
	rh := head(r.Pattern)
	for k := 0; k <= len(rh); k++ {
		for _, s := range byHead[rh[:k]] {
			// A glob comparison is linear without a '*' in s, and up to
			// len(s)·len(r) steps with one (greedy star matching
			// backtracks): count it so, in units of 256 steps, so that long
			// hostile patterns meet the budget as soon as their real cost
			// does.
			cost := 1 + len(r.Pattern)/256
			if strings.IndexByte(s.Pattern, '*') >= 0 {
				cost = 1 + len(s.Pattern)*len(r.Pattern)/256
			}
			if !l.spend(cost) {
				return robotstxt.Rule{}, false
			}
			if s.Line == r.Line || s.Pattern == r.Pattern || !beats(s, r) || !globCovers(fullForm(s.Pattern), rf) {
				continue
			}
			// Ask the matcher too: for the shortest URL the rule matches,
			// it must not be the deciding rule.
			if !l.spend(e.cost) {
				return robotstxt.Rule{}, false
			}
			if w, ok := witness(r.Pattern); !ok || e.agent.Check(w).Rule.Line == r.Line {
				continue
			}
			return s, true
		}
	}
	return robotstxt.Rule{}, false
}

// witness returns a path that pattern p matches: its stars removed (and a
// final '$'), escaped as the parser escapes patterns, so the matcher
// compares like with like.
func witness(p string) (string, bool) {
	p = strings.TrimSuffix(p, "$")
	if !strings.HasPrefix(p, "/") {
		if !strings.HasPrefix(p, "*") {
			return "", false
		}
		p = "/" + p
	}
	w := robotstxt.EscapePattern(strings.ReplaceAll(p, "*", ""))
	if w == "/robots.txt" || strings.HasPrefix(w, "/robots.txt?") {
		return "", false
	}
	return w, true
}
