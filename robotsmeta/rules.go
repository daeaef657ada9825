package robotsmeta

import (
	"strconv"
	"strings"
	"time"
)

// listCtx is where a rule list came from, for rules and diagnostics.
type listCtx struct {
	header    bool   // X-Robots-Tag value: "bot:" scopes the rules after it
	scope     string // scope of a meta (its name); header lists start unscoped
	src       int    // index in Page.Sources
	line, col int    // position of the source; header diagnostics add the offset
	lint      bool   // report problems (robots-like names only)
	now       time.Time
	// agent and prof are the crawler the page is read for, when known:
	// a finding about a rule that does not reach it says so.
	agent string
	prof  Profile
}

// scopeName names a rule's scope in messages.
func scopeName(scope string) string {
	if scope == "" {
		return "every crawler"
	}
	return scope
}

func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '.' || c == '*' || c == '-'
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

func nextComma(s string, i int) int {
	if j := strings.IndexByte(s[i:], ','); j >= 0 {
		return i + j
	}
	return len(s)
}

// parseRuleList reads one rule list with the grammar of the notes (section
// 3), which Google's examples and the vectors fix:
//
//	list  = item *( "," item )
//	item  = [ bot ":" ] rule          ; "bot:" only in X-Robots-Tag
//	rule  = name | valued ":" value   ; valued: max-snippet, max-image-preview,
//	                                  ;         max-video-preview, unavailable_after
//
// An identifier followed by ":" is a valued rule when its name is one;
// otherwise, in a header, it scopes what follows ("googlebot: noindex,
// otherbot: nofollow"), and in a meta it is an unknown "x: y" item. A value
// ends at the next comma, except that an unavailable_after value that is
// only a weekday ("Friday, 25-Jun-10 ...") takes the next segment too. A
// bare name must be followed by "," or the end: "noindex; nofollow" and
// "noindex nofollow" are single invalid items that void only themselves.
// Space-separated words are kept as Lenient rules for the Bing profile.
// It returns the number of rules appended.
func (p *Page) parseRuleList(s string, c listCtx) int {
	n0 := len(p.Rules)
	scope := c.scope
	scopeRules := -1 // rules since the last "bot:" in a header, -1 = no bot yet
	scopeAt := 0
	dpos := func(i int) (int, int) {
		if c.header {
			return c.line, i + 1
		}
		return c.line, c.col
	}
	warn := func(sev Severity, code string, i int, format string, args ...any) {
		if c.lint {
			l, col := dpos(i)
			p.diag(sev, code, l, col, c.src, format, args...)
		}
	}
	emit := func(r Rule) {
		r.Scope, r.Source = scope, c.src
		p.Rules = append(p.Rules, r)
		if scopeRules >= 0 {
			scopeRules++
		}
	}
	i := 0
	for {
		i = skipSpace(s, i)
		if i >= len(s) {
			break
		}
		if s[i] == ',' {
			warn(Warning, "empty-item", i, "empty rule between commas")
			i++
			continue
		}
		start := i
		j := i
		for j < len(s) && isIdentByte(s[j]) {
			j++
		}
		if j == i {
			end := nextComma(s, i)
			warn(Warning, "invalid-item", i, "%q is not a rule", strings.TrimSpace(s[i:end]))
			i = end + 1
			continue
		}
		ident := s[i:j]
		k := skipSpace(s, j)
		d := LookupDirective(ident)
		if k < len(s) && s[k] == ':' {
			switch {
			case d.Valued():
				vs := k + 1
				end := nextComma(s, vs)
				v := strings.TrimSpace(s[vs:end])
				if d == UnavailableAfter && isWeekday(v) && end < len(s) {
					end = nextComma(s, end+1)
					v = strings.TrimSpace(s[vs:end])
				}
				p.valued(d, v, start, c, emit, warn)
				i = end + 1
			case d != Invalid:
				end := nextComma(s, i)
				warn(Warning, "invalid-item", i, "%q: %s takes no value", strings.TrimSpace(s[i:end]), d)
				i = end + 1
			case c.header:
				if scopeRules == 0 {
					warn(Warning, "empty-scope", scopeAt, "%q: has no rules after it", scope)
				}
				scope = strings.ToLower(ident)
				scopeRules, scopeAt = 0, i
				i = k + 1
			default:
				end := nextComma(s, i)
				warn(Warning, "unknown-directive", i, "unknown rule %q ignored", strings.TrimSpace(s[i:end]))
				i = end + 1
			}
			continue
		}
		if k >= len(s) || s[k] == ',' {
			switch {
			case d == Invalid:
				warn(Warning, "unknown-directive", i, "unknown rule %q ignored", ident)
			case d.Valued():
				warn(Warning, "missing-value", i, "%s needs a value (%s:...)", d, d)
			default:
				emit(Rule{Directive: d})
				p.lintDirective(d, i, c, warn)
			}
			i = k + 1
			continue
		}
		// A name followed by something other than "," or ":".
		end := nextComma(s, i)
		item := strings.TrimSpace(s[start:end])
		words := strings.FieldsFunc(item, func(r rune) bool { return r == ';' || r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' })
		known := 0
		for _, w := range words {
			if d := LookupDirective(w); d != Invalid && !d.Valued() {
				known++
			}
		}
		switch {
		case strings.Contains(item, ";"):
			warn(Error, "semicolon-separator", start, "%q uses ';' between rules: no engine documents it and Google's strict reading ignores the whole item; separate rules with commas", item)
		case known == len(words) && known > 1:
			warn(Error, "space-separator", start, "%q separates rules with spaces: only Bing (2008) accepted that; Google and Yandex ignore the item; separate rules with commas", item)
			for _, w := range words {
				emit(Rule{Directive: LookupDirective(w), Lenient: true})
			}
		default:
			warn(Warning, "invalid-item", start, "%q is not a rule", item)
		}
		i = end + 1
	}
	if c.header && scopeRules == 0 {
		warn(Warning, "empty-scope", scopeAt, "%q: has no rules after it", scope)
	}
	return len(p.Rules) - n0
}

// valued parses the value of a valued rule; a bad value voids only this rule
// (Google documents that for max-snippet, max-video-preview and
// unavailable_after).
func (p *Page) valued(d Directive, v string, at int, c listCtx, emit func(Rule), warn func(Severity, string, int, string, ...any)) {
	switch d {
	case MaxSnippet, MaxVideoPreview:
		n, err := strconv.Atoi(v)
		if err != nil || n < -1 {
			warn(Warning, "invalid-value", at, "%s:%s ignored: the value must be an integer >= -1", d, v)
			return
		}
		emit(Rule{Directive: d, N: n})
	case MaxImagePreview:
		pv := lookupPreview(v)
		if pv == PreviewUnset {
			warn(Warning, "invalid-value", at, "max-image-preview:%s ignored: the value must be none, standard or large", v)
			return
		}
		emit(Rule{Directive: d, Preview: pv})
	case UnavailableAfter:
		t, note, ok := parseDate(v)
		if !ok {
			warn(Warning, "invalid-date", at, "unavailable_after: %q ignored: not an RFC 822, RFC 850 or ISO 8601 date", v)
			return
		}
		emit(Rule{Directive: d, Time: t})
		if note&dateNoZone != 0 && strings.Contains(v, ":") { // a time without a zone
			warn(Info, "date-no-zone", at, "unavailable_after: %q has no time zone: read as UTC", v)
		}
		if note&dateOtherZone != 0 {
			warn(Warning, "date-zone", at, "unavailable_after: %q uses a zone outside RFC 822; read as %s", v, t.Format(time.RFC3339))
		}
		if note&dateMilitary != 0 {
			warn(Warning, "date-zone", at, "unavailable_after: %q uses an RFC 822 military zone; RFC 5322 says to read it as UTC", v)
		}
		if note&dateTwoDigitYYY != 0 {
			warn(Info, "date-two-digit-year", at, "unavailable_after: %q has a two-digit year: read as %d", v, t.Year())
		}
		if !c.now.IsZero() && !c.now.Before(t) {
			r := &p.Rules[len(p.Rules)-1]
			if c.agent != "" && !p.applies(r, agentToken(c.agent), c.prof) {
				// A rule for another crawler: worth knowing, not a warning
				// about the crawler the page is read for.
				warn(Info, "date-past", at, "unavailable_after %s is already past for %s, which treats the page as noindex; it does not apply to %s", t.Format(time.RFC3339), scopeName(r.Scope), c.agent)
			} else {
				warn(Warning, "date-past", at, "unavailable_after %s is already past: the page is treated as noindex", t.Format(time.RFC3339))
			}
		}
	}
}

func (p *Page) lintDirective(d Directive, at int, c listCtx, warn func(Severity, string, int, string, ...any)) {
	switch d {
	case NoODP, NoYDir, NoPreview, NoSitelinksSearchBox:
		warn(Info, "retired-directive", at, "%s is retired: no engine uses it any more", d)
	}
}
