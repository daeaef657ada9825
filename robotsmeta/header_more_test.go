package robotsmeta

import (
	"strings"
	"testing"
)

// TestHeaderLineDiagnostics: a header line is malformed when it has no
// colon or nothing before it; a one-letter name is a name. An empty
// X-Robots-Tag is reported at column 1 of its line, with its source.
func TestHeaderLineDiagnostics(t *testing.T) {
	type diag struct {
		code         string
		line, col    int
		sourceIsLine bool // the diagnostic's source is the header on its line
	}
	for _, tc := range []struct {
		lines []string
		want  []diag
	}{
		{[]string{"no colon here"}, []diag{{"header-malformed", 1, 1, false}}},
		{[]string{": noindex"}, []diag{{"header-malformed", 1, 1, false}}},
		{[]string{"A: noindex"}, nil},
		{[]string{"AB: noindex"}, nil},
		{[]string{"Server: x", "X-Robots-Tag:"}, []diag{{"empty-value", 2, 1, true}}},
		{[]string{"X-Robots-Tag:  \t"}, []diag{{"empty-value", 1, 1, true}}},
	} {
		p, err := ParseLines(tc.lines, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Diagnostics) != len(tc.want) {
			t.Errorf("%q: diagnostics %v, want %d", tc.lines, p.Diagnostics, len(tc.want))
			continue
		}
		for i, w := range tc.want {
			d := p.Diagnostics[i]
			if d.Code != w.code || d.Line != w.line || d.Column != w.col {
				t.Errorf("%q: diagnostic %v, want %s at %d:%d", tc.lines, d, w.code, w.line, w.col)
			}
			if w.sourceIsLine {
				if d.Source < 0 || p.Sources[d.Source].Line != w.line {
					t.Errorf("%q: %s has source %d, want the header on line %d", tc.lines, d.Code, d.Source, w.line)
				}
			} else if d.Source != -1 {
				t.Errorf("%q: %s has source %d, want -1", tc.lines, d.Code, d.Source)
			}
		}
	}
}

// TestTDMPolicyHeader: the tdm-policy header gives the TDMRep policy URL;
// a tdm-policy meta in the HTML supersedes it.
func TestTDMPolicyHeader(t *testing.T) {
	for _, tc := range []struct {
		html, want string
	}{
		{`<p>x</p>`, "https://example.com/tdm.json"},
		{`<meta name="tdm-policy" content="https://example.com/meta.json">`, "https://example.com/meta.json"},
	} {
		pol, err := EvaluateLines([]string{"tdm-policy: https://example.com/tdm.json"}, strings.NewReader(tc.html),
			"googlebot", Google, mustTime(t, "2026-06-01T00:00:00Z"), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if pol.TDMPolicy != tc.want {
			t.Errorf("%s: TDMPolicy = %q, want %q", tc.html, pol.TDMPolicy, tc.want)
		}
	}
}

// TestContentUsageFirstSource: several Content-Usage lines combine into one
// value, and its provenance is the first of them.
func TestContentUsageFirstSource(t *testing.T) {
	for _, tc := range []struct {
		lines    []string
		want     Pref
		wantLine int
	}{
		{[]string{"Content-Usage: train-ai=n", "Content-Usage: search=y"}, PrefNo, 1},
		{[]string{"Server: x", "Content-Usage: search=y", "Content-Usage: train-ai=y"}, PrefYes, 2},
	} {
		pol, err := EvaluateLines(tc.lines, nil, "googlebot", Google, mustTime(t, "2026-06-01T00:00:00Z"), Options{})
		if err != nil {
			t.Fatal(err)
		}
		why, ok := pol.Why(FieldAITrain)
		if pol.AITrain != tc.want || !ok || why.Source.Line != tc.wantLine {
			t.Errorf("%q: AITrain %v from %+v, %v; want %v from line %d", tc.lines, pol.AITrain, why, ok, tc.want, tc.wantLine)
		}
	}
}
