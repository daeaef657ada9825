package lint

import (
	"slices"
	"strconv"
	"strings"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/robotstxt"
)

// ruleChecks looks at each rule as written.
func (l *linter) ruleChecks() {
	l.caseMismatch()
	seenPrivate := map[string]bool{}
	for _, g := range l.f.Groups() {
		nonEmpty := 0
		for _, r := range g.Rules {
			if r.Pattern != "" {
				nonEmpty++
			}
		}
		for _, r := range g.Rules {
			col := l.valueCol(r.Line)
			p := r.Pattern
			if p == "" {
				if nonEmpty > 0 {
					msg := "empty Disallow blocks nothing, and it does not cancel the group's other rules: they still apply"
					sev := Warning
					if r.Allow {
						msg = "empty Allow does nothing"
					} else if !slices.ContainsFunc(g.Rules, func(o robotstxt.Rule) bool { return o.Pattern != "" && o.Line < r.Line }) {
						// Written before every rule it could be meant to
						// cancel: a leftover of "allow everything", and the
						// rules below it apply as their author wrote them.
						sev = Info
						msg += "; harmless here: it comes before them, so nothing suggests it was meant to cancel them"
					}
					l.add(r.Line, col, sev, "empty-rule", msg, "delete the line")
				}
				continue
			}
			if p[0] != '/' && p[0] != '*' {
				msg := "pattern '" + p + "' does not start with '/' or '*': it matches no URL, since paths start with '/'"
				hint := "write '" + withPattern(r, "/"+p) + "'"
				if u := strings.Index(p, "://"); u >= 0 {
					msg = "pattern '" + p + "' is a full URL: rules match the path only, so it matches no URL"
					path := "/"
					if s := strings.IndexByte(p[u+3:], '/'); s >= 0 {
						path = p[u+3+s:]
					}
					hint = "write the path: '" + withPattern(r, path) + "'"
				}
				l.add(r.Line, col, Warning, "pattern-start", msg, hint)
			}
			if i := strings.IndexByte(p, '$'); i >= 0 && i < len(p)-1 {
				l.add(r.Line, col+i, Info, "dollar-not-at-end",
					"'$' anchors a pattern only at its end; here it matches a literal '$' in the URL",
					"if your URLs contain '$' here, keep it; if you meant to anchor the pattern, end it with '$'")
			}
			if t := strings.TrimRight(p, "*"); len(t) < len(p) && t != "" && !strings.HasSuffix(t, "$") && l.trimSafe(r, t) {
				l.add(r.Line, col+len(t), Info, "redundant-wildcard",
					"trailing '*' is redundant: '"+r.String()+"' matches exactly what '"+withPattern(r, t)+"' matches",
					"write '"+withPattern(r, t)+"' (the '*' only makes the rule "+plural(len(p)-len(t), "character")+" longer, which raises its priority)")
			}
			if !r.Allow && !seenPrivate[p] {
				if w := privateWord(p); w != "" {
					seenPrivate[p] = true
					l.add(r.Line, col, Info, "private-path",
						"'"+r.String()+"' tells everyone where '"+w+"' is: robots.txt is public and does not stop anyone from fetching it",
						"protect private areas with authentication (and noindex), not robots.txt")
				}
			}
		}
	}
	l.disallowAll()
}

// withPattern renders r with another pattern.
func withPattern(r robotstxt.Rule, p string) string {
	r.Pattern = p
	if r.Line == 0 {
		r.Line = 1
	}
	return r.String()
}

func (l *linter) valueCol(line int) int {
	if c := l.cols[line]; c > 0 {
		return c
	}
	return 1
}

var privateWords = []string{"admin", "administrator", "private", "secret", "secrets", "backup", "backups",
	"passwd", "password", "passwords", ".git", ".env", ".svn", ".htpasswd", "confidential", "internal", "staging"}

// privateWord returns the private-looking word a pattern's path names, or "".
func privateWord(p string) string {
	if q := strings.IndexByte(p, '?'); q >= 0 {
		p = p[:q]
	}
	for _, seg := range strings.Split(p, "/") {
		seg = strings.ToLower(strings.Trim(seg, "*$"))
		if seg == "" {
			continue
		}
		base := seg
		if d := strings.IndexByte(seg[1:], '.'); d >= 0 {
			base = seg[:d+1]
		}
		for _, w := range privateWords {
			if base == w || strings.HasPrefix(base, w+"-") || strings.HasPrefix(base, w+"_") ||
				strings.HasSuffix(base, "-"+w) || strings.HasSuffix(base, "_"+w) {
				return w
			}
		}
	}
	return ""
}

// caseMismatch reports rules with capitals in their path when the rest of
// the file's paths are in lower case. It is a warning when another rule
// spells the same first path segment in lower case (the site's URLs likely
// do too), else info.
func (l *linter) caseMismatch() {
	var upper []robotstxt.Rule
	lowerPats := map[string]bool{}
	lowerSegs := map[string]bool{}
	nLower := 0
	for _, g := range l.f.Groups() {
		for _, r := range g.Rules {
			path := r.Pattern
			if q := strings.IndexByte(path, '?'); q >= 0 {
				path = path[:q]
			}
			if strings.ToLower(path) == strings.ToUpper(path) {
				continue // no letters
			}
			if strings.ToLower(path) == path {
				nLower++
				lowerPats[r.Pattern] = true
				lowerSegs[firstSegment(path)] = true
			} else {
				upper = append(upper, r)
			}
		}
	}
	if nLower < 3 || len(upper)*4 > nLower {
		return
	}
	seen := map[string]bool{}
	for _, r := range upper {
		low := strings.ToLower(r.Pattern)
		if lowerPats[low] || seen[r.Pattern] {
			continue
		}
		seen[r.Pattern] = true
		path := r.Pattern
		if q := strings.IndexByte(path, '?'); q >= 0 {
			path = path[:q]
		}
		seg := firstSegment(path)
		sev, also := Info, ""
		if lseg := strings.ToLower(seg); lseg != seg && lowerSegs[lseg] {
			sev, also = Warning, "; other rules spell '"+lseg+"' in lower case"
		}
		l.add(r.Line, l.valueCol(r.Line), sev, "case-mismatch",
			"'"+r.String()+"' has capitals while the file's other "+strconv.Itoa(nLower)+" rules are in lower case"+also+": paths are case-sensitive, so it does not match '"+low+"'",
			"spell the path as your URLs do; add '"+withPattern(r, low)+"' if both spellings exist")
	}
}

// firstSegment returns the first segment of a path pattern, "/a" of "/a/b".
func firstSegment(p string) string {
	if len(p) > 1 {
		if i := strings.IndexAny(p[1:], "/*$"); i >= 0 {
			return p[:i+1]
		}
	}
	return p
}

// disallowAll reports a * group that blocks the whole site.
func (l *linter) disallowAll() {
	star := l.f.Star()
	if star.Group().Via != robotstxt.ViaStar {
		return
	}
	rules := star.Rules()
	for _, r := range rules {
		if r.Allow || strings.HasSuffix(r.Pattern, "$") || (strings.Trim(r.Pattern, "*") != "/" && strings.Trim(r.Pattern, "*") != "") || r.Pattern == "" {
			continue
		}
		// The rule must really decide an arbitrary URL: a longer Allow, or
		// an earlier equivalent rule, may take over.
		if star.Check("/rep-lint-probe").Allowed {
			continue
		}
		var allows []string
		for _, a := range rules {
			if a.Allow && a.Pattern != "" {
				allows = append(allows, strconv.Itoa(a.Line))
			}
		}
		// Groups naming crawlers that may fetch the site make the * group
		// the "everyone else" of an allow-list, written on purpose.
		var let []string
		for _, e := range l.entries() {
			if !e.star && e.agent.Check("/rep-lint-probe").Allowed {
				let = append(let, e.tokens...)
			}
		}
		switch {
		case len(let) > 0:
			l.add(r.Line, l.valueCol(r.Line), Info, "disallow-all",
				"'"+r.String()+"' in the * group blocks the whole site for every crawler that has no group of its own; "+tokenList(let)+map[bool]string{true: " has a group that lets it in", false: " have groups that let them in"}[len(let) == 1]+": an allow-list, evidently meant",
				"nothing to change if only the crawlers named are welcome")
		case len(allows) == 0:
			l.add(r.Line, l.valueCol(r.Line), Error, "disallow-all",
				"'"+r.String()+"' in the * group blocks the whole site for every crawler that has no group of its own",
				"if this is not a site that must stay out of search, remove it or list only the paths to block")
		default:
			l.add(r.Line, l.valueCol(r.Line), Warning, "disallow-all",
				"'"+r.String()+"' in the * group blocks the whole site, except what the Allow rules on "+lineList(allows)+" open, for every crawler that has no group of its own",
				"check that the Allow rules open everything that should be crawled")
		}
		return
	}
}

func lineList(ls []string) string {
	if len(ls) == 1 {
		return "line " + ls[0]
	}
	if len(ls) > 6 {
		return "lines " + strings.Join(ls[:5], ", ") + " and " + strconv.Itoa(len(ls)-5) + " more"
	}
	return "lines " + strings.Join(ls[:len(ls)-1], ", ") + " and " + ls[len(ls)-1]
}

// entry is one set of merged groups: the rules some crawlers obey.
type entry struct {
	agent  *robotstxt.Agent
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
	add := func(a *robotstxt.Agent, tok string, star bool) {
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
		add(l.f.AgentExplicit(t), w, false)
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

// starOverridden reports crawlers whose own group makes them ignore rules
// of the * group that would otherwise block them, naming those rules.
func (l *linter) starOverridden(ents []entry) {
	star := l.f.Star()
	if star.Group().Via != robotstxt.ViaStar {
		return
	}
	type probe struct {
		r robotstxt.Rule
		w string
	}
	var probes []probe
	rules := star.Rules()
	cost := checkCost(rules)
	for _, r := range rules {
		if r.Allow || r.Pattern == "" {
			continue
		}
		w, ok := witness(r.Pattern)
		if !ok {
			continue
		}
		if !l.spend(cost) {
			return
		}
		if d := star.Check(w); d.Allowed || d.Rule.Line != r.Line {
			continue // the rule does not block its own witness for *
		}
		probes = append(probes, probe{r, w})
	}
	if len(probes) == 0 {
		return
	}
	// A * group that keeps everyone out makes the groups naming crawlers
	// an allow-list: they are meant to get their own rules.
	allowList := !star.Check("/").Allowed && !star.Check("/rep-lint-probe").Allowed
	for _, e := range ents {
		if e.star {
			continue
		}
		// Crawlers documented to ignore the * group (AdsBot-Google,
		// Mediapartners-Google) never obeyed its rules: their own group
		// takes nothing away, and repeating the * rules there would block
		// what the site allowed them.
		toks, tokens := e.tokens[:0:0], e.tokens[:0:0]
		for _, t := range e.tokens {
			if c, ok := crawlers.ByName(t); ok && c.IgnoresStar {
				continue
			}
			toks = append(toks, t)
		}
		if len(toks) == 0 {
			continue
		}
		// Control tokens never fetch: the * rules they no longer see
		// govern what the crawlers reading them fetch, not the use the
		// token decides.
		// A retired crawler's group matters only to the live crawlers
		// that fall back to it (bingbot to msnbot) and have no group of
		// their own.
		var controls, retired, notes []string
		for _, t := range toks {
			c, ok := crawlers.ByName(t)
			switch {
			case ok && c.TokenOnly():
				controls = append(controls, t)
			case ok && c.Retired:
				if heirs := l.heirs(c); len(heirs) > 0 {
					tokens = append(tokens, t)
					notes = append(notes, t+" is retired, but "+strings.Join(heirs, " and ")+" obey"+sIfOne(len(heirs))+" its group, having none of "+map[bool]string{true: "its", false: "their"}[len(heirs) == 1]+" own")
				} else {
					retired = append(retired, t)
				}
			default:
				tokens = append(tokens, t)
			}
		}
		var lost []string
		n := 0
		for _, p := range probes {
			if !l.spend(e.cost) {
				return
			}
			if e.agent.Check(p.w).Allowed {
				n++
				if len(lost) < 5 {
					lost = append(lost, "'"+p.r.String()+"' (line "+strconv.Itoa(p.r.Line)+")")
				}
			}
		}
		if n == 0 {
			continue
		}
		list := strings.Join(lost, ", ")
		if n > len(lost) {
			list += " and " + strconv.Itoa(n-len(lost)) + " more"
		}
		line := strconv.Itoa(e.first)
		if len(controls) > 0 {
			l.add(e.first, l.valueCol(e.first), Info, "star-overridden",
				controlList(controls)+" obey"+sIfOne(len(controls))+" only the group on line "+line+" and ignore"+sIfOne(len(controls))+" the * group's "+list+"; harmless: a control token never fetches, and what the crawlers that read it may fetch is decided by their own groups",
				"nothing to change, unless the * rules were meant to restrict the use the token controls too")
		}
		if len(retired) > 0 {
			l.add(e.first, l.valueCol(e.first), Info, "star-overridden",
				"retired crawler"+map[bool]string{true: "s", false: ""}[len(retired) > 1]+" "+tokenList(retired)+" obey"+sIfOne(len(retired))+" only the group on line "+line+" and ignore"+sIfOne(len(retired))+" the * group's "+list+"; harmless: no live crawler obeys that group in its place",
				"the group can go")
		}
		if len(tokens) == 0 {
			continue
		}
		sev, tail, hint := Warning, "", "repeat in this group the * rules that should apply to it too"
		if len(notes) > 0 {
			tail = " (" + strings.Join(notes, "; ") + ")"
		}
		switch {
		case allowList:
			sev, tail = Info, tail+"; the * group keeps every other crawler out of the whole site, so the groups naming crawlers are an allow-list, evidently meant"
			hint = "nothing to change if the group gives the crawler the rules meant for it"
		case allowsAll(e.rules):
			// "User-agent: Googlebot" + "Disallow:" under a * group that
			// blocks: the classic allow-list, written on purpose.
			sev, tail = Info, tail+"; its group allows everything in so many words, which is evidently meant"
			hint = "nothing to change if the group is meant to let it crawl everything"
		}
		who := "crawler " + tokenList(tokens) + " obeys only the group on line " + line + " and ignores the * group, so it is"
		if len(tokens) > 1 {
			who = "crawlers " + tokenList(tokens) + " obey only the group on line " + line + " and ignore the * group, so they are"
		}
		l.add(e.first, l.valueCol(e.first), sev, "star-overridden",
			who+" no longer blocked by "+list+tail, hint)
	}
}

// allowsAll reports whether rules say "allow everything" and nothing else:
// empty Disallow lines and Allow lines for "/" or "/*".
func allowsAll(rules []robotstxt.Rule) bool {
	for _, r := range rules {
		switch {
		case !r.Allow && r.Pattern == "":
		case r.Allow && (r.Pattern == "/" || r.Pattern == "/*" || r.Pattern == "*"):
		default:
			return false
		}
	}
	return len(rules) > 0
}

// controlList names control tokens: "control token 'Google-Extended'".
func controlList(toks []string) string {
	if len(toks) == 1 {
		return "control token " + tokenList(toks)
	}
	return "control tokens " + tokenList(toks)
}

// sIfOne is the verb ending for a subject of n: "obeys" or "obey".
func sIfOne(n int) string {
	if n == 1 {
		return "s"
	}
	return ""
}

// bingCrawlDelay reports Bing's exception: a bingbot group without a
// Crawl-delay of its own keeps the * group's.
func (l *linter) bingCrawlDelay() {
	_, starLine, ok := l.f.Star().CrawlDelay()
	if !ok {
		return
	}
	for _, tok := range []string{"bingbot", "msnbot"} {
		b := l.f.AgentExplicit(tok)
		if b.Group().Via == robotstxt.ViaNone {
			continue
		}
		if _, _, own := b.CrawlDelay(); own {
			continue
		}
		first := b.Group().Lines[0]
		l.add(first, l.valueCol(first), Info, "bing-crawl-delay",
			"Bing applies the * group's Crawl-delay (line "+strconv.Itoa(starLine)+") to "+tok+" although it has its own group; other crawlers with their own group ignore it",
			"write the Crawl-delay for "+tok+" in its own group to make it explicit")
	}
}

// heirs returns the live crawlers that obey the retired crawler c's group
// in this file: those that fall back to it and have no group of their own.
func (l *linter) heirs(c *crawlers.Crawler) []string {
	var out []string
	for _, o := range crawlers.All() {
		if o.Retired || !slices.ContainsFunc(o.RobotsFallback, func(t string) bool { return strings.EqualFold(t, c.Name) }) {
			continue
		}
		if l.f.AgentExplicit(o.Tokens...).Group().Via == robotstxt.ViaNone {
			out = append(out, o.Name)
		}
	}
	return out
}
