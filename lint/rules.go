package lint

import (
	"slices"
	"strconv"
	"strings"

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
