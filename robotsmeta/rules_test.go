package robotsmeta

import (
	"slices"
	"testing"
)

// TestRuleGrammar checks the X-Robots-Tag / meta content grammar: which
// rules come out (as Rule.String) and which diagnostics.
func TestRuleGrammar(t *testing.T) {
	tests := []struct {
		header bool
		in     string
		rules  []string
		diags  []string
	}{
		{true, "noindex", []string{"noindex"}, nil},
		{true, "NOINDEX , NoFollow", []string{"noindex", "nofollow"}, nil},
		{true, "googlebot: noindex", []string{"googlebot: noindex"}, nil},
		{true, "googlebot: noindex, otherbot: nofollow", []string{"googlebot: noindex", "otherbot: nofollow"}, nil},
		{true, "GoogleBot:noindex,nofollow", []string{"googlebot: noindex", "googlebot: nofollow"}, nil},
		{true, "max-snippet: 10", []string{"max-snippet:10"}, nil},
		{true, "googlebot: max-snippet:10, max-image-preview:LARGE", []string{"googlebot: max-snippet:10", "googlebot: max-image-preview:large"}, nil},
		{true, "noindex, unavailable_after: 25 Jun 2010 15:00:00 PST", []string{"noindex", "unavailable_after: 2010-06-25T23:00:00Z"}, []string{"date-past"}},
		{true, "unavailable_after: Friday, 25-Jun-10 15:00:00 PST, nofollow", []string{"unavailable_after: 2010-06-25T23:00:00Z", "nofollow"}, []string{"date-two-digit-year", "date-past"}},
		{true, "unavailable_after: Fri, 25 Jun 2099 15:00:00 GMT", []string{"unavailable_after: 2099-06-25T15:00:00Z"}, nil},
		{true, "unavailable_after: 1 Jan 00", []string{"unavailable_after: 2000-01-01T00:00:00Z"}, []string{"date-two-digit-year", "date-past"}},
		{true, "unavailable_after: 2-Jun-30 12:00:00 CET", []string{"unavailable_after: 2030-06-02T11:00:00Z"}, []string{"date-zone", "date-two-digit-year"}},
		{true, "unavailable_after: 2 Jun 2030 12:00:00 A", []string{"unavailable_after: 2030-06-02T12:00:00Z"}, []string{"date-zone"}},
		{true, "unavailable_after: 2030-06-02T12:00", []string{"unavailable_after: 2030-06-02T12:00:00Z"}, []string{"date-no-zone"}},
		{true, "unavailable_after: 2030-06-02", []string{"unavailable_after: 2030-06-02T00:00:00Z"}, nil},
		{true, "unavailable_after: 1 Jun 2030", []string{"unavailable_after: 2030-06-01T00:00:00Z"}, nil},
		{true, "unavailable_after: 01 Jun 2030", []string{"unavailable_after: 2030-06-01T00:00:00Z"}, nil},
		{true, "unavailable_after: 1 Jun 2030 12:00", []string{"unavailable_after: 2030-06-01T12:00:00Z"}, []string{"date-no-zone"}},
		{true, "unavailable_after: Jun 1 12:00:00 2030", []string{"unavailable_after: 2030-06-01T12:00:00Z"}, []string{"date-no-zone"}},
		{true, "unavailable_after: tomorrow, noindex", []string{"noindex"}, []string{"invalid-date"}},
		{true, "max-snippet:ten, nosnippet", []string{"nosnippet"}, []string{"invalid-value"}},
		{true, "max-snippet:-2", nil, []string{"invalid-value"}},
		{true, "max-image-preview:huge", nil, []string{"invalid-value"}},
		{true, "max-snippet", nil, []string{"missing-value"}},
		{true, "noindex; nofollow", nil, []string{"semicolon-separator"}},
		{true, "noindex nofollow", []string{"noindex", "nofollow"}, []string{"space-separator"}}, // Lenient (Bing only)
		{true, "noindex, , nofollow", []string{"noindex", "nofollow"}, []string{"empty-item"}},
		{true, "googlebot:", nil, []string{"empty-scope"}},
		{true, "googlebot: otherbot: noindex", []string{"otherbot: noindex"}, []string{"empty-scope"}},
		{true, "noindex: yes", nil, []string{"invalid-item"}},
		{true, "noindex, frobnicate", []string{"noindex"}, []string{"unknown-directive"}},
		{true, "noodp", []string{"noodp"}, []string{"retired-directive"}},
		{true, "%%%", nil, []string{"invalid-item"}},
		{true, "noai, noimageai", []string{"noai", "noimageai"}, nil},
		// Identifiers are [A-Za-z0-9_.*-]; each end of each range.
		{true, "az.AZ_09-*: noindex", []string{"az.az_09-*: noindex"}, nil},
		{true, "a: noindex, z: noindex, A: noindex, Z: noindex, 0: noindex, 9: noindex", []string{"a: noindex", "z: noindex", "a: noindex", "z: noindex", "0: noindex", "9: noindex"}, nil},
		{true, "`x: noindex", nil, []string{"invalid-item"}},
		{true, "{x: noindex", nil, []string{"invalid-item"}},
		{true, "@x: noindex", nil, []string{"invalid-item"}},
		{true, "[x: noindex", nil, []string{"invalid-item"}},
		{true, "/x: noindex", nil, []string{"invalid-item"}},
		// White space is SP, HTAB, LF, CR and FF, around items and between
		// the words of a space-separated list.
		{true, "\tnoindex\t,\nnofollow\n,\rnoarchive\r,\fnosnippet\f", []string{"noindex", "nofollow", "noarchive", "nosnippet"}, nil},
		{true, "noindex\tnofollow", []string{"noindex", "nofollow"}, []string{"space-separator"}},
		{true, "noindex\nnofollow", []string{"noindex", "nofollow"}, []string{"space-separator"}},
		{true, "noindex\rnofollow", []string{"noindex", "nofollow"}, []string{"space-separator"}},
		{true, "noindex\fnofollow", []string{"noindex", "nofollow"}, []string{"space-separator"}},
		{true, "noindex\vnofollow", nil, []string{"invalid-item"}},
		// One known name and something that is no separator: not a list.
		{true, "noindex\v", nil, []string{"invalid-item"}},
		{true, "noindex\u00a0", nil, []string{"invalid-item"}},
		{true, "max-snippet:-1", []string{"max-snippet:-1"}, nil},
		{true, "max-video-preview:-1, max-video-preview:0", []string{"max-video-preview:-1", "max-video-preview:0"}, nil},
		{true, "max-video-preview:-2", nil, []string{"invalid-value"}},
		{true, "max-image-preview:none, max-image-preview:standard", []string{"max-image-preview:none", "max-image-preview:standard"}, nil},
		// A weekday alone at the end takes no next segment.
		{true, "unavailable_after: Friday", nil, []string{"invalid-date"}},
		{true, "unavailable_after: Friday,", nil, []string{"invalid-date"}},
		{true, "noydir, nopreview, nositelinkssearchbox", []string{"noydir", "nopreview", "nositelinkssearchbox"}, []string{"retired-directive", "retired-directive", "retired-directive"}},
		{true, "noarchive, nocache", []string{"noarchive", "nocache"}, nil},
		// No space after a comma: the next item starts right after it.
		{true, "max-snippet:5,noindex", []string{"max-snippet:5", "noindex"}, nil},
		{true, "noindex:yes,nofollow", []string{"nofollow"}, []string{"invalid-item"}},
		{false, "frob:x,noindex", []string{"noindex"}, []string{"unknown-directive"}},
		{true, "%%,noindex", []string{"noindex"}, []string{"invalid-item"}},
		{true, "noindex nofollow,noarchive nosnippet", []string{"noindex", "nofollow", "noarchive", "nosnippet"}, []string{"space-separator", "space-separator"}},
		{true, "max-snippet:,noindex", []string{"noindex"}, []string{"invalid-value"}},
		{true, "unavailable_after: Friday,,noindex", []string{"noindex"}, []string{"invalid-date"}},
		// Words that are not all boolean rule names are no list.
		{true, "noindex frobnicate", nil, []string{"invalid-item"}},
		{true, "noindex max-snippet", nil, []string{"invalid-item"}},
		// In meta content "x: y" is not a scope: the item is unknown.
		{false, "googlebot: noindex", nil, []string{"unknown-directive"}},
		{false, "noindex&nofollow", nil, []string{"invalid-item"}},
		{false, "  noindex ,\t  nofollow  ", []string{"noindex", "nofollow"}, nil},
		{false, "", nil, nil},
	}
	for _, tt := range tests {
		p := &Page{}
		p.Sources = append(p.Sources, Source{})
		p.parseRuleList(tt.in, listCtx{header: tt.header, line: 1, lint: true, now: mustTime(t, "2026-06-01T00:00:00Z")})
		var rules, diags []string
		for _, r := range p.Rules {
			rules = append(rules, r.String())
		}
		for _, d := range p.Diagnostics {
			diags = append(diags, d.Code)
		}
		if !slices.Equal(rules, tt.rules) || !slices.Equal(diags, tt.diags) {
			t.Errorf("header=%v %q:\n rules %q, want %q\n diags %q, want %q\n %v", tt.header, tt.in, rules, tt.rules, diags, tt.diags, p.Diagnostics)
		}
		lenient := slices.Contains(tt.diags, "space-separator")
		for _, r := range p.Rules {
			if r.Lenient != lenient {
				t.Errorf("%q: rule %v Lenient=%v, want %v", tt.in, r, r.Lenient, lenient)
			}
		}
	}
}

func TestSFDictionary(t *testing.T) {
	tests := []struct {
		in   string
		want map[string]string // nil: parse error
	}{
		{"train-ai=n", map[string]string{"train-ai": "n"}},
		{"train-ai=y, train-ai=n", map[string]string{"train-ai": "n"}},
		{"train-ai=n;p=1, search=y", map[string]string{"train-ai": "n", "search": "y"}},
		{"train-ai=\"n\"", map[string]string{"train-ai": ""}},
		{"train-ai, search=?0", map[string]string{"train-ai": "", "search": ""}},
		{"a=(x y);q=1, b=:aGk=:, c=-1.5, d=@17, e=%\"x\"", map[string]string{"a": "", "b": "", "c": "", "d": "", "e": ""}},
		{"", map[string]string{}},
		{"Train-AI=n", nil},
		{"train-ai=n,", nil},
		{"train-ai=n search=y", nil},
		{"train-ai=\"n", nil},
		{"a=1.2345", nil},
		{"a=(x", nil},
	}
	for _, tt := range tests {
		got, err := parseDictionary(tt.in)
		if tt.want == nil {
			if err == nil {
				t.Errorf("parseDictionary(%q) = %v, want error", tt.in, got)
			}
			continue
		}
		if err != nil || len(got) != len(tt.want) {
			t.Errorf("parseDictionary(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			continue
		}
		for k, v := range tt.want {
			if got[k] != v {
				t.Errorf("parseDictionary(%q)[%q] = %q, want %q", tt.in, k, got[k], v)
			}
		}
	}
}

// TestRuleDiagnosticPositions: a finding in a header value is placed at the
// item's 1-based byte column in the value; one in a meta at the element.
func TestRuleDiagnosticPositions(t *testing.T) {
	for _, tc := range []struct {
		header    bool
		in        string
		line, col int
	}{
		{true, "noindex, , nofollow", 7, 10},
		{true, ",noindex", 7, 1},
		{true, "noindex, frob", 7, 10},
		{false, "noindex, , nofollow", 3, 5},
	} {
		p := &Page{}
		p.Sources = append(p.Sources, Source{})
		p.parseRuleList(tc.in, listCtx{header: tc.header, line: tc.line, col: 5, lint: true, src: 0})
		if len(p.Diagnostics) != 1 {
			t.Fatalf("%q: findings %v, want one", tc.in, p.Diagnostics)
		}
		if d := p.Diagnostics[0]; d.Line != tc.line || d.Column != tc.col || d.Source != 0 {
			t.Errorf("header=%v %q: finding at %d:%d source %d; want %d:%d source 0", tc.header, tc.in, d.Line, d.Column, d.Source, tc.line, tc.col)
		}
	}
}
