package robotsmeta

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// RobotsTagLimit is the parsing limit for the Robots-Tag field value, in
// bytes: draft-illyes-repext-03 section 3.1.1 says a parser SHOULD impose
// one and that it MUST be at least 8 kibibytes. The package takes exactly
// that floor, so a member it drops for length is one that some conforming
// crawler may never see.
const RobotsTagLimit = 8 << 10

// ReadsRobotsTag reports whether profile p applies the rules of the
// Robots-Tag response header (draft-illyes-repext-03). Only rfc9309 does:
// the draft extends RFC 9309, and that profile follows the standards to
// the letter. No search engine documents reading Robots-Tag: Google's
// robots meta documentation (rev. 2026-03-24) documents X-Robots-Tag and
// not Robots-Tag, though the draft's author works at Google, and the Bing
// and Yandex pages this package follows do not mention it. Under their
// profiles Robots-Tag rules are parsed and reported with their sources but
// reach no crawler.
func ReadsRobotsTag(p Profile) bool { return p == RFC9309 }

// IsRobotsTag reports whether s is a member of a Robots-Tag field.
func (s Source) IsRobotsTag() bool {
	return s.Kind == FromHeader && strings.EqualFold(s.Name, "Robots-Tag")
}

// NotRead says why profile p applies none of the rules read from s, or ""
// when p reads the source: a Robots-Tag member under a profile that does
// not read Robots-Tag (ReadsRobotsTag). Rules of a source p reads may
// still miss a crawler for their scope; Page.Applies decides that.
func (s Source) NotRead(p Profile) string {
	if s.IsRobotsTag() && !ReadsRobotsTag(p) {
		return "not read under " + p.String() + " rules: no search engine documents Robots-Tag (draft-illyes-repext-03); the rfc9309 profile reads it"
	}
	return ""
}

// fieldLine is one response header line of a field read as a whole.
type fieldLine struct {
	n           int // 1-based line number
	name, value string
}

// readRobotsTag reads the Robots-Tag field (draft-illyes-repext-03 section
// 3.1.1): an RFC 9651 List whose members are product tokens, as Tokens or
// Strings, "*" for every crawler, with the rules as Parameters:
//
//	Robots-Tag: *;nosnippet, ExampleBot;noindex
//
// Its field lines are joined with ", " into one value (RFC 9651 section
// 4.2, RFC 9110 section 5.3). Each member becomes one Source (Name
// "Robots-Tag", Value the member as written) and one Rule per rule
// parameter, scoped to the product token (lower-cased; "*" gives the
// unscoped scope ""), so the rules enter the one merge of Page.Policy.
func (p *Page) readRobotsTag(lines []fieldLine, o *Options) {
	var b strings.Builder
	var starts []int // offset of each used line's value in the joined value
	var used []fieldLine
	for _, l := range lines {
		if l.value == "" {
			src := p.addSource(Source{Kind: FromHeader, Name: l.name, Line: l.n})
			p.diag(Warning, "empty-value", l.n, 1, src, "Robots-Tag header has no value")
			continue
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		starts, used = append(starts, b.Len()), append(used, l)
		b.WriteString(l.value)
	}
	if len(used) == 0 {
		return
	}
	s := b.String()
	// where maps an offset in the joined value to its line and 1-based
	// column in that line's value.
	where := func(off int) (int, int) {
		k := 0
		for k+1 < len(starts) && starts[k+1] <= off {
			k++
		}
		return k, off - starts[k] + 1
	}
	// ignore keeps each field line as a source without rules and reports
	// why at offset off of the joined value.
	ignore := func(off int, format string, args ...any) {
		k, col := where(off)
		first := len(p.Sources)
		for _, l := range used {
			p.addSource(Source{Kind: FromHeader, Name: l.name, Value: l.value, Line: l.n})
		}
		p.diag(Error, "robots-tag-invalid", used[k].n, col, first+k, format, args...)
	}

	in := s
	over := len(s) > RobotsTagLimit
	if over {
		in = s[:RobotsTagLimit]
	}
	members, err := parseList(in)
	if err != nil {
		var se *SyntaxError
		if !errors.As(err, &se) {
			panic(err) // parseList fails only with a *SyntaxError
		}
		if !over || se.Offset < len(in) {
			// RFC 9651 section 4.2: a field that fails to parse is
			// ignored whole. Only a cut at the limit is treated apart.
			ignore(se.Offset, "Robots-Tag is not a valid Structured Field List (%s): the whole field is ignored (RFC 9651 section 4.2)", se.Msg)
			return
		}
	} else if over {
		// The last member reaches the limit: it may be cut short. (A
		// value over the limit that parses has at least one member.)
		members = members[:len(members)-1]
	}
	if over {
		kept := 0
		if len(members) > 0 {
			kept = members[len(members)-1].End
		}
		k, col := where(RobotsTagLimit)
		p.diag(Warning, "robots-tag-limit", used[k].n, col, -1,
			"Robots-Tag is %d bytes, over the %d-byte parsing limit: the %d complete members before the limit are read; the member cut at the limit and all after it, %d bytes, are ignored (draft-illyes-repext-03 section 3.1.1)",
			len(s), RobotsTagLimit, len(members), len(s)-kept)
	}
	// Each member must be an Item naming a product token (draft section
	// 3.1.1: "a specific string as defined in Section 2.2.1 of [RFC 9309]
	// or the global identifier *"). RFC 9651 section 2: violating a
	// field's constraints should have the effect of a parse failure.
	for _, m := range members {
		if what := notProductToken(m); what != "" {
			ignore(m.Start, "Robots-Tag member %q is %s: each member must name a product token or * (draft-illyes-repext-03 section 3.1.1); the whole field is ignored (RFC 9651 section 2)", s[m.Start:m.End], what)
			return
		}
	}
	for _, m := range members {
		k, col := where(m.Start)
		l := used[k]
		src := p.addSource(Source{Kind: FromHeader, Name: l.name, Value: s[m.Start:m.End], Line: l.n, Column: col})
		p.robotsTagMember(m, src, l.n, col-m.Start, o)
	}
}

// notProductToken says what member m is when it is not an Item naming "*"
// or a product token, or returns "".
func notProductToken(m sfMember) string {
	switch {
	case m.Inner:
		return "an Inner List"
	case m.Item.Kind != sfToken && m.Item.Kind != sfString:
		return m.Item.Kind.article()
	case m.Item.Text != "*" && !isProductToken(m.Item.Text):
		return fmt.Sprintf("%q, not a product token (RFC 9309 section 2.2.1: letters, '-' and '_')", m.Item.Text)
	}
	return ""
}

// isProductToken reports whether s is an RFC 9309 product token:
// 1*(ALPHA / "-" / "_").
func isProductToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isAlpha(c) && c != '-' && c != '_' {
			return false
		}
	}
	return true
}

// robotsTagMember turns one member's parameters into rules. shift turns a
// member offset in the joined value into a 1-based column of its line.
func (p *Page) robotsTagMember(m sfMember, src, line, shift int, o *Options) {
	scope := strings.ToLower(m.Item.Text)
	if scope == "*" {
		scope = "" // every crawler, as an unscoped X-Robots-Tag rule
	}
	warn := func(sev Severity, code string, at int, format string, args ...any) {
		p.diag(sev, code, line, at+shift, src, format, args...)
	}
	emit := func(r Rule) {
		r.Scope, r.Source = scope, src
		p.Rules = append(p.Rules, r)
	}
	// What valued() reads of the context: the crawler and instant its date
	// lint is about; positions and scope come from warn and emit.
	c := listCtx{now: o.Now, agent: o.Agent, prof: o.Profile}
	if len(m.Params) == 0 {
		if d := LookupDirective(m.Item.Text); d != Invalid {
			// "Robots-Tag: noindex" reads as a crawler named noindex.
			eg := d.String()
			if d.Valued() {
				eg += "=..."
			}
			warn(Warning, "robots-tag-no-rules", m.Start, "Robots-Tag member %q names a crawler %q with no rules: in Robots-Tag a rule is a parameter of a product token, e.g. \"*;%s\" (draft-illyes-repext-03 section 3.1.1)", m.Item.Text, m.Item.Text, eg)
		} else {
			warn(Info, "robots-tag-no-rules", m.Start, "Robots-Tag member %q has no rules: no instruction (draft-illyes-repext-03 section 3.1.1)", m.Item.Text)
		}
	}
	for _, pr := range m.Params {
		if pr.Dup {
			warn(Info, "robots-tag-duplicate", pr.At, "Robots-Tag member %q gives %s twice: the last value counts (RFC 9651 section 4.2.3.2)", m.Item.Text, pr.Key)
		}
		d := LookupDirective(pr.Key)
		v := pr.Val
		switch {
		case d == Invalid:
			// Section 3.1.3 allows other rules; one the package does not
			// know is no instruction (section 3.1.1).
			warn(Warning, "unknown-directive", pr.At, "unknown rule %q ignored", pr.Key)
		case d.Valued():
			var text string
			switch v.Kind {
			case sfBoolean:
				warn(Warning, "missing-value", pr.At, "%s needs a value (%s=...)", d, d)
				continue
			case sfDate:
				if d != UnavailableAfter {
					warn(Warning, "invalid-value", pr.At, "%s: a Date is not a value for it; rule ignored", d)
					continue
				}
				text = time.Unix(v.Int, 0).UTC().Format(time.RFC3339)
			case sfInteger, sfToken, sfString:
				text = v.Text
			default:
				warn(Warning, "invalid-value", pr.At, "%s: %s is not a value for it; rule ignored", d, v.Kind.article())
				continue
			}
			p.valued(d, text, pr.At, c, emit, warn)
		case v.Kind == sfBoolean && v.Bool:
			emit(Rule{Directive: d})
			p.lintDirective(d, pr.At, c, warn)
		case v.Kind == sfBoolean:
			warn(Info, "robots-tag-false", pr.At, "%s=?0 states no rule: only a true parameter restricts (draft-illyes-repext-03 section 3.1.1)", d)
		default:
			warn(Warning, "invalid-item", pr.At, "%s takes no value (write ;%s): rule ignored", d, d)
		}
	}
}
