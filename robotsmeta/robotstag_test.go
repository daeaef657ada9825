package robotsmeta

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/internal/testkit/table"
)

// robotsTagNow is the instant the Robots-Tag tables are evaluated at.
var robotsTagNow = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)

// summaryValues renders a policy's Summary as key -> value text: true,
// false, null, numbers and strings as written.
func summaryValues(t *testing.T, pol *Policy) map[string]string {
	t.Helper()
	raw, err := json.Marshal(pol.Summary())
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for k, v := range m {
		if v == nil {
			out[k] = "null"
		} else {
			out[k] = fmt.Sprint(v)
		}
	}
	return out
}

func diagCodes(p *Page) string {
	var c []string
	for _, d := range p.Diagnostics {
		c = append(c, d.Code)
	}
	if len(c) == 0 {
		return "-"
	}
	return strings.Join(c, ",")
}

// TestRobotsTagFields runs testdata/robotstag/fields.tsv: the draft's
// example, wildcard and specific tokens, parameters with values, malformed
// fields (ignored whole), Robots-Tag beside a conflicting X-Robots-Tag
// (most restrictive wins) and the engines that do not read it.
func TestRobotsTagFields(t *testing.T) {
	for _, row := range table.Read(t, filepath.Join("testdata", "robotstag", "fields.tsv"), 6) {
		why, profName, agent, headers, want, diags := row[0], row[1], row[2], row[3], row[4], row[5]
		prof, ok := ParseProfile(profName)
		if !ok {
			t.Fatalf("%s: profile %q", why, profName)
		}
		lines := strings.Split(headers, " ¶ ")
		pol, err := EvaluateLines(lines, nil, agent, prof, robotsTagNow, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := summaryValues(t, &pol)
		for _, kv := range strings.Fields(want) {
			k, v, _ := strings.Cut(kv, "=")
			g, ok := got[k]
			if !ok {
				t.Fatalf("%s: no key %q in the summary", why, k)
			}
			if g != v {
				t.Errorf("%s\n  %s, %s, %q: %s = %s, want %s", why, profName, agent, lines, k, g, v)
			}
		}
		if g := diagCodes(pol.Page()); g != diags {
			t.Errorf("%s\n  %q: diagnostics %s, want %s\n  %v", why, lines, g, diags, pol.Page().Diagnostics)
		}
	}
}

// TestRobotsTagEvidence: each rule read from Robots-Tag keeps its source,
// one per List member: the field name, the member as written, its line
// and column; Why returns it and Source.String names the member.
func TestRobotsTagEvidence(t *testing.T) {
	lines := []string{
		"X-Robots-Tag: max-snippet:50",
		"Robots-Tag: *;nosnippet",
		"robots-tag:  ExampleBot;noindex, \"OtherBot\";nofollow",
	}
	pg, err := ParseLines(lines, nil, Options{Now: robotsTagNow})
	if err != nil {
		t.Fatal(err)
	}
	type src struct {
		name, value  string
		line, column int
		rules        []string
	}
	want := []src{
		{"X-Robots-Tag", "max-snippet:50", 1, 0, []string{"max-snippet:50"}},
		{"Robots-Tag", "*;nosnippet", 2, 1, []string{"nosnippet"}},
		{"robots-tag", "ExampleBot;noindex", 3, 1, []string{"examplebot: noindex"}},
		{"robots-tag", `"OtherBot";nofollow`, 3, 21, []string{"otherbot: nofollow"}},
	}
	if len(pg.Sources) != len(want) {
		t.Fatalf("sources %+v, want %d", pg.Sources, len(want))
	}
	for i, w := range want {
		s := pg.Sources[i]
		var rules []string
		for _, r := range pg.Rules {
			if r.Source == i {
				rules = append(rules, r.String())
			}
		}
		if s.Name != w.name || s.Value != w.value || s.Line != w.line || s.Column != w.column || s.Kind != FromHeader ||
			strings.Join(rules, "|") != strings.Join(w.rules, "|") {
			t.Errorf("source %d: %+v with rules %q, want %+v", i, s, rules, w)
		}
		if s.IsRobotsTag() != (i > 0) {
			t.Errorf("source %d: IsRobotsTag %v", i, s.IsRobotsTag())
		}
	}
	pol := pg.Policy("ExampleBot", RFC9309, robotsTagNow)
	for _, c := range []struct {
		f     Field
		rule  string
		where string
	}{
		{FieldIndex, "examplebot: noindex", `robots-tag header (line 3, member "ExampleBot;noindex")`},
		{FieldSnippet, "nosnippet", `Robots-Tag header (line 2, member "*;nosnippet")`},
		{FieldMaxSnippet, "nosnippet", `Robots-Tag header (line 2, member "*;nosnippet")`},
	} {
		r, ok := pol.Why(c.f)
		if !ok || !r.HasRule || r.Rule.String() != c.rule || r.Source.String() != c.where {
			t.Errorf("Why(%s) = %v %q %q, want %q %q", c.f, ok, r.Rule.String(), r.Source.String(), c.rule, c.where)
		}
	}
	// Under google the same rules are read and reported, but reach no one.
	g := pg.Policy("ExampleBot", Google, robotsTagNow)
	if !g.Index || g.MaxSnippet != (Limit{50, true}) {
		t.Errorf("google: Index %v MaxSnippet %+v, want true and 50 (X-Robots-Tag only)", g.Index, g.MaxSnippet)
	}
	for i := range pg.Rules {
		r := &pg.Rules[i]
		if pg.Sources[r.Source].IsRobotsTag() && pg.Applies(r, "ExampleBot", Google) {
			t.Errorf("google applies Robots-Tag rule %s", r)
		}
	}
}

// TestReadsRobotsTag: only rfc9309 reads Robots-Tag.
func TestReadsRobotsTag(t *testing.T) {
	for _, c := range []struct {
		p    Profile
		want bool
	}{{Google, false}, {Bing, false}, {Yandex, false}, {RFC9309, true}, {Profile(0), false}} {
		if got := ReadsRobotsTag(c.p); got != c.want {
			t.Errorf("ReadsRobotsTag(%s) = %v, want %v", c.p, got, c.want)
		}
	}
}

// robotsTagPad returns n >= 12 bytes of valid List members that state
// nothing for ExampleBot ("pad;nofollow, "), ending with ", ".
func robotsTagPad(n int) string {
	const m, short = "pad;nofollow, ", len("p;nofollow, ")
	var b strings.Builder
	for n-b.Len()-len(m) >= short {
		b.WriteString(m)
	}
	b.WriteString("p" + strings.Repeat("a", n-b.Len()-short) + ";nofollow, ")
	return b.String()
}

// TestRobotsTagLimit: draft-illyes-repext-03 section 3.1.1 — the parsing
// limit is at least 8 KiB; past it, complete members before the limit are
// honoured and the member cut at the limit and everything after it are
// ignored. A field within the limit is read whole.
func TestRobotsTagLimit(t *testing.T) {
	// The draft's floor, written out: a smaller RobotsTagLimit fails the
	// first case, a larger one the second.
	const kib8 = 8192
	const last = "ExampleBot;noindex"
	exact := robotsTagPad(kib8-len(last)) + last
	if len(exact) != kib8 {
		t.Fatalf("exact field is %d bytes", len(exact))
	}
	for _, c := range []struct {
		name   string
		lines  []string
		index  bool
		diags  string
		honour int // members read as sources
	}{
		{"8 KiB exactly: read whole", []string{"Robots-Tag: " + exact}, false, "-", -1},
		{"one byte over: the last member reaches the limit and is ignored",
			[]string{"Robots-Tag: " + exact + "x"}, true, "robots-tag-limit", -1},
		{"over the limit: a member complete before it is honoured",
			[]string{"Robots-Tag: " + last + ", " + robotsTagPad(kib8) + "p;nofollow"}, false, "robots-tag-limit", -1},
		{"over the limit: the member just before the cut one is honoured",
			[]string{"Robots-Tag: " + robotsTagPad(kib8-25) + last + ", " + strings.Repeat("z", 30) + ";nofollow"}, false, "robots-tag-limit", -1},
		{"over the limit, the cut inside a String: members before it stand",
			[]string{"Robots-Tag: " + last + ", \"" + strings.Repeat("a", kib8) + "\";nofollow"}, false, "robots-tag-limit", 1},
		{"over the limit across field lines: joined, then cut",
			[]string{"Robots-Tag: " + robotsTagPad(kib8 - 10)[:kib8-12], "Robots-Tag: " + last}, true, "robots-tag-limit", -1},
		{"over the limit with a syntax error before it: ignored whole",
			[]string{"Robots-Tag: " + last + ", a;;b, " + robotsTagPad(kib8) + "p;nofollow"}, true, "robots-tag-invalid", 0},
		{"within the limit, the same error: ignored whole",
			[]string{"Robots-Tag: " + last + ", a;;b"}, true, "robots-tag-invalid", 0},
	} {
		pg, err := ParseLines(c.lines, nil, Options{Now: robotsTagNow})
		if err != nil {
			t.Fatal(err)
		}
		pol := pg.Policy("ExampleBot", RFC9309, robotsTagNow)
		if pol.Index != c.index {
			t.Errorf("%s: Index %v, want %v", c.name, pol.Index, c.index)
		}
		if g := diagCodes(pg); g != c.diags {
			t.Errorf("%s: diagnostics %s, want %s (%v)", c.name, g, c.diags, pg.Diagnostics)
		}
		if c.honour >= 0 {
			n := 0
			for _, s := range pg.Sources {
				if s.Column > 0 {
					n++
				}
			}
			if n != c.honour {
				t.Errorf("%s: %d members read, want %d", c.name, n, c.honour)
			}
		}
		for _, s := range pg.Sources {
			if s.Column > 0 && len(s.Value) > RobotsTagLimit {
				t.Errorf("%s: member of %d bytes read past the limit", c.name, len(s.Value))
			}
		}
	}
}

// TestSourceNotRead: only a Robots-Tag member is unread, and only under the
// profiles that do not read Robots-Tag.
func TestSourceNotRead(t *testing.T) {
	rt := Source{Kind: FromHeader, Name: "robots-tag", Line: 1, Column: 1, Value: "*;noindex"}
	xrt := Source{Kind: FromHeader, Name: "X-Robots-Tag", Line: 1}
	meta := Source{Kind: FromMeta, Name: "Robots-Tag", Line: 1, Column: 1}
	for _, tt := range []struct {
		s    Source
		p    Profile
		want string
	}{
		{rt, Google, "not read under google rules: no search engine documents Robots-Tag (draft-illyes-repext-03); the rfc9309 profile reads it"},
		{rt, Bing, "not read under bing rules: no search engine documents Robots-Tag (draft-illyes-repext-03); the rfc9309 profile reads it"},
		{rt, Yandex, "not read under yandex rules: no search engine documents Robots-Tag (draft-illyes-repext-03); the rfc9309 profile reads it"},
		{rt, RFC9309, ""},
		{xrt, Google, ""},
		{meta, Google, ""},
	} {
		if got := tt.s.NotRead(tt.p); got != tt.want {
			t.Errorf("%v under %v: %q, want %q", tt.s, tt.p, got, tt.want)
		}
	}
}
