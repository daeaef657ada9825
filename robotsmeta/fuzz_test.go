package robotsmeta

import (
	"strings"
	"testing"
	"time"
)

// FuzzRuleList fuzzes the X-Robots-Tag / meta content grammar: no panic,
// and every rule it produces renders (Rule.String) to a header value that
// parses back to the same rule.
func FuzzRuleList(f *testing.F) {
	for _, s := range []string{
		"noindex", "googlebot: noindex, otherbot: nofollow", "max-snippet: 10",
		"noindex, unavailable_after: 25 Jun 2010 15:00:00 PST",
		"unavailable_after: Friday, 25-Jun-10 15:00:00 PST, nofollow",
		"noindex; nofollow", "noindex nofollow", ",,", "a:b:c:", "max-image-preview:LARGE",
		"unavailable_after: 2030-01-01T10:00:00.123+02:00", "googlebot:", "%%%",
	} {
		f.Add(s, true)
		f.Add(s, false)
	}
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string, header bool) {
		p := &Page{Sources: []Source{{}}}
		p.parseRuleList(s, listCtx{header: header, line: 1, lint: true, now: now})
		for _, d := range p.Diagnostics {
			if header && (d.Column < 1 || d.Column > len(s)+1) {
				t.Errorf("diagnostic column %d out of range for %q", d.Column, s)
			}
		}
		for _, r := range p.Rules {
			if r.Directive == Invalid || r.Directive >= numDirectives {
				t.Fatalf("invalid directive in %+v", r)
			}
			if r.Lenient {
				continue
			}
			q := &Page{Sources: []Source{{}}}
			q.parseRuleList(r.String(), listCtx{header: true, line: 1})
			if len(q.Rules) != 1 {
				t.Fatalf("%q: rule %q re-parses to %d rules", s, r.String(), len(q.Rules))
			}
			g := q.Rules[0]
			if g.Directive != r.Directive || g.Scope != r.Scope || g.N != r.N || g.Preview != r.Preview || !g.Time.Equal(r.Time) {
				t.Fatalf("%q: round trip %+v -> %q -> %+v", s, r, r.String(), g)
			}
		}
	})
}

// FuzzParseDate: no panic; an accepted date is UTC and round-trips through
// RFC 3339.
func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"25 Jun 2010 15:00:00 PST", "Friday, 25-Jun-10 15:00:00 EST", "2026-01-01T00:00:00Z",
		"2030-01-01T10:00:00.5+02:00", "Sun Nov  6 08:49:37 1994", "99-Jan-99", "2030-02-29"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tm, ok := ParseDate(s)
		if !ok {
			return
		}
		if tm.Location() != time.UTC {
			t.Fatalf("%q: location %v", s, tm.Location())
		}
		back, ok := ParseDate(tm.Format(time.RFC3339Nano))
		if !ok || !back.Equal(tm) {
			t.Fatalf("%q -> %v -> %v %v", s, tm, back, ok)
		}
	})
}

// FuzzParse fuzzes the HTML extraction: no panic, limits hold, positions
// are sane, and stopping early for NeedIndexing never changes Index or
// Follow.
func FuzzParse(f *testing.F) {
	for _, d := range extractionDocs {
		f.Add(d, "X-Robots-Tag: googlebot: nofollow")
	}
	f.Add(`<meta name=robots content="noindex,nofollow"><a href=/x rel=ugc>x</a>`, "")
	f.Add(`<meta name=robots content="all"><meta name=yandex content="index, follow">`, "X-Robots-Tag: none")
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, doc, header string) {
		lines := strings.Split(header, "\n")
		o := Options{Now: now, MaxRegionText: 64, MaxLinks: 50, MaxSources: 50, MaxRegions: 50}
		p, err := ParseLines(lines, strings.NewReader(doc), o)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Links) > 50 || len(p.NoSnippet) > 50 || len(p.NoContent) > 50 {
			t.Fatalf("limits exceeded: %d links, %d regions", len(p.Links), len(p.NoSnippet))
		}
		for _, r := range p.NoSnippet {
			if len(r.Text) > 64 || r.Text != strings.Join(strings.Fields(r.Text), " ") {
				t.Fatalf("region text %q", r.Text)
			}
		}
		for _, r := range p.Rules {
			if r.Source < 0 || r.Source >= len(p.Sources) {
				t.Fatalf("rule %+v: bad source", r)
			}
		}
		for _, s := range p.Sources {
			if s.Kind == FromMeta && (s.Line < 1 || s.Column < 1) {
				t.Fatalf("source %+v: bad position", s)
			}
		}
		for _, agent := range []string{"googlebot", "bingbot", "yandex"} {
			for _, prof := range []Profile{Google, Bing, Yandex} {
				full := p.Policy(agent, prof, now)
				o := o
				o.Need, o.Agent, o.Profile = NeedIndexing, agent, prof
				q, err := ParseLines(lines, strings.NewReader(doc), o)
				if err != nil {
					t.Fatal(err)
				}
				early := q.Policy(agent, prof, now)
				if early.Index != full.Index || early.Follow != full.Follow {
					t.Fatalf("%s/%s: early stop (%s after %d bytes) gives index=%v follow=%v, full read %v %v",
						agent, prof, q.Stop, q.BytesRead, early.Index, early.Follow, full.Index, full.Follow)
				}
			}
		}
	})
}

// FuzzRobotsTag fuzzes the Robots-Tag reader (draft-illyes-repext-03 over
// RFC 9651 Lists): no panic; diagnostics point inside the field line; a
// field that does not parse as a List and is within the limit gives no
// rule (RFC 9651 section 4.2); every rule comes from a member source whose
// Value is a piece of the field, scoped to "" or a lower-case product
// token; and each member read again alone gives the same rules.
func FuzzRobotsTag(f *testing.F) {
	for _, s := range []string{
		"*;nosnippet, ExampleBot;noindex", "*;noindex;nosnippet, ExampleBot;", "\"ExampleBot\";noindex=?1",
		"*;max-snippet=50;max-image-preview=large;unavailable_after=@1908630000", "*;unavailable_after=\"25 Jun 2030 15:00:00 PST\"",
		"(a b);noindex", "5;noindex", "*;NoIndex", "*;noindex,", "a;x=1;x=?0", "noindex, nofollow", "*;max-snippet=-1.5",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		line := "Robots-Tag: " + v
		pg, err := ParseLines([]string{line}, nil, Options{Now: robotsTagNow})
		if err != nil {
			t.Fatal(err)
		}
		val := strings.Trim(v, " \t")
		for _, d := range pg.Diagnostics {
			if d.Line != 1 || d.Column < 1 || d.Column > len(val)+1 {
				t.Errorf("%q: diagnostic at %d:%d outside the value", v, d.Line, d.Column)
			}
		}
		if _, perr := parseList(val); perr != nil && len(val) <= RobotsTagLimit && len(pg.Rules) > 0 {
			t.Fatalf("%q does not parse (%v) but gave rules %v", v, perr, pg.Rules)
		}
		for _, r := range pg.Rules {
			s := pg.Sources[r.Source]
			if !s.IsRobotsTag() || s.Column < 1 || !strings.Contains(val, s.Value) || val[s.Column-1:s.Column-1+len(s.Value)] != s.Value {
				t.Fatalf("%q: rule %v from source %+v", v, r, s)
			}
			if r.Scope != "" && (!isProductToken(r.Scope) || r.Scope != strings.ToLower(r.Scope)) {
				t.Fatalf("%q: rule %v has scope %q", v, r, r.Scope)
			}
		}
		for i, s := range pg.Sources {
			if s.Column == 0 {
				continue
			}
			alone, err := ParseLines([]string{"Robots-Tag: " + s.Value}, nil, Options{Now: robotsTagNow})
			if err != nil {
				t.Fatal(err)
			}
			var want, got []string
			for _, r := range pg.Rules {
				if r.Source == i {
					want = append(want, r.String())
				}
			}
			for _, r := range alone.Rules {
				got = append(got, r.String())
			}
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Fatalf("%q: member %q gives %q in the field, %q alone", v, s.Value, want, got)
			}
		}
	})
}
