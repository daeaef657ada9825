package lint

import (
	"slices"
	"strconv"
	"strings"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/robotstxt"
)

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

// heirs returns the live crawlers that obey the retired crawler c's group
// in this file: those that fall back to it and have no group of their own.
func (l *linter) heirs(c *crawlers.Crawler) []string {
	var out []string
	for _, o := range crawlers.All() {
		if o.Retired || !slices.ContainsFunc(o.RobotsFallback, func(t string) bool { return strings.EqualFold(t, c.Name) }) {
			continue
		}
		if l.f.MatcherExplicit(o.Tokens...).Group().Via == robotstxt.ViaNone {
			out = append(out, o.Name)
		}
	}
	return out
}
