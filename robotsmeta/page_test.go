package robotsmeta_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/robotsmeta"
)

// TestPageNames: the names the JSON output and messages use for the
// package's small enumerations, as their doc comments give them.
func TestPageNames(t *testing.T) {
	for _, tc := range []struct {
		got  any
		want string
	}{
		{robotsmeta.FromHeader, "header"},
		{robotsmeta.FromMeta, "meta"},
		{robotsmeta.StopEOF, "eof"},
		{robotsmeta.StopSettled, "settled"},
		{robotsmeta.StopMaxBytes, "max-bytes"},
		{robotsmeta.StopNotHTML, "not-html"},
		{robotsmeta.StopToken, "max-token"},
		{robotsmeta.PrefYes, "y"},
		{robotsmeta.PrefNo, "n"},
		{robotsmeta.PrefUnknown, ""},
	} {
		if s := tc.got.(interface{ String() string }).String(); s != tc.want {
			t.Errorf("%T(%v).String() = %q, want %q", tc.got, tc.got, s, tc.want)
		}
	}
	b, err := json.Marshal(robotsmeta.Source{Kind: robotsmeta.FromMeta, Name: "robots", Value: "noindex", Line: 3, Column: 5})
	if err != nil || !strings.Contains(string(b), `"kind":"meta"`) {
		t.Errorf("Source JSON %s, %v; want kind \"meta\"", b, err)
	}
}

// TestSourceAndRuleStrings: Source.String and Rule.String as their doc
// comments show them.
func TestSourceAndRuleStrings(t *testing.T) {
	for _, tc := range []struct {
		got  interface{ String() string }
		want string
	}{
		{robotsmeta.Source{Kind: robotsmeta.FromMeta, Name: "robots", Line: 3, Column: 5}, `<meta name="robots"> at 3:5`},
		{robotsmeta.Source{Kind: robotsmeta.FromMeta, Name: "robots", Line: 9, Column: 1, InBody: true}, `<meta name="robots"> in <body> at 9:1`},
		{robotsmeta.Source{Kind: robotsmeta.FromHeader, Name: "X-Robots-Tag", Line: 2}, `X-Robots-Tag header (line 2)`},
		{robotsmeta.Source{Kind: robotsmeta.FromHeader, Name: "Robots-Tag", Value: "ExampleBot;noindex", Line: 1, Column: 1}, `Robots-Tag header (line 1, member "ExampleBot;noindex")`},
		// The whole field, no member: no member to name.
		{robotsmeta.Source{Kind: robotsmeta.FromHeader, Name: "Robots-Tag", Value: "ExampleBot;noindex", Line: 1}, `Robots-Tag header (line 1)`},
		{robotsmeta.Rule{Directive: robotsmeta.MaxSnippet, N: 20}, "max-snippet:20"},
		{robotsmeta.Rule{Directive: robotsmeta.MaxVideoPreview, N: 30}, "max-video-preview:30"},
		{robotsmeta.Rule{Directive: robotsmeta.MaxImagePreview, Preview: robotsmeta.PreviewLarge}, "max-image-preview:large"},
		{robotsmeta.Rule{Directive: robotsmeta.NoIndex, Scope: "googlebot"}, "googlebot: noindex"},
	} {
		if s := tc.got.String(); s != tc.want {
			t.Errorf("%+v.String() = %q, want %q", tc.got, s, tc.want)
		}
	}
}

// TestTDMUnsetValue: a page without tdm-reservation leaves the policy at
// TDMUnset, -1 as documented (0 and 1 are TDMRep's values), and the
// summary at null.
func TestTDMUnsetValue(t *testing.T) {
	pol, err := robotsmeta.Evaluate(nil, strings.NewReader(`<meta name="robots" content="noindex">`), "googlebot", robotsmeta.Google, time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC), robotsmeta.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if pol.TDMReservation != -1 {
		t.Errorf("TDMReservation = %d, want -1", pol.TDMReservation)
	}
	if s := pol.Summary(); s.TDMReservation != nil {
		t.Errorf("summary tdm_reservation = %d, want null", *s.TDMReservation)
	}
}

// TestOptionDefaults: each zero Options limit takes the default its doc
// comment gives (MaxToken 4 MiB, MaxRegionText 64 KiB), and a limit of 1
// is kept as 1, not replaced by the default.
func TestOptionDefaults(t *testing.T) {
	parse := func(t *testing.T, doc string, o robotsmeta.Options) *robotsmeta.Page {
		t.Helper()
		p, err := robotsmeta.ParseLines(nil, strings.NewReader(doc), o)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Run("MaxToken", func(t *testing.T) {
		// A text run of 4 MiB exceeds a 4 MiB token buffer with the
		// bytes around it; 1 KiB less is read through.
		for _, tc := range []struct {
			n    int
			stop robotsmeta.Stop
		}{{4<<20 - 1<<10, robotsmeta.StopEOF}, {4 << 20, robotsmeta.StopToken}} {
			doc := `<p>` + strings.Repeat("x", tc.n) + `<meta name="robots" content="noindex">`
			if p := parse(t, doc, robotsmeta.Options{}); p.Stop != tc.stop {
				t.Errorf("text of %d bytes: stop %s, want %s", tc.n, p.Stop, tc.stop)
			}
		}
	})
	t.Run("MaxRegionText", func(t *testing.T) {
		for _, tc := range []struct {
			n         int
			truncated bool
		}{{64<<10 - 1<<9, false}, {64<<10 + 1<<9, true}} {
			doc := `<body><div data-nosnippet>` + strings.Repeat("x", tc.n) + `</div>`
			p := parse(t, doc, robotsmeta.Options{})
			if len(p.NoSnippet) != 1 {
				t.Fatalf("%d regions", len(p.NoSnippet))
			}
			r := p.NoSnippet[0]
			if r.Truncated != tc.truncated || len(r.Text) > 64<<10 || !tc.truncated && len(r.Text) != tc.n {
				t.Errorf("region of %d bytes: truncated %v, %d bytes kept; want truncated %v within 65536", tc.n, r.Truncated, len(r.Text), tc.truncated)
			}
		}
	})
	t.Run("limits of 1", func(t *testing.T) {
		doc := `<meta name="robots" content="noindex"><meta name="robots" content="nofollow">` +
			`<body><a href="/a">a</a><a href="/b">b</a>` +
			`<span data-nosnippet>one two</span><span data-nosnippet>three</span>`
		p := parse(t, doc, robotsmeta.Options{MaxLinks: 1, MaxSources: 1, MaxRegions: 1, MaxRegionText: 4})
		if rp := parse(t, doc, robotsmeta.Options{MaxRegionText: 1}); len(rp.NoSnippet) != 2 || !rp.NoSnippet[0].Truncated || len(rp.NoSnippet[0].Text) > 1 {
			t.Errorf("MaxRegionText 1: regions %+v; want each cut to 1 byte at most", rp.NoSnippet)
		}
		if tp := parse(t, doc, robotsmeta.Options{MaxToken: 1}); tp.Stop != robotsmeta.StopToken || len(tp.Rules) != 0 {
			t.Errorf("MaxToken 1: stop %s with %d rules; want max-token before the first tag", tp.Stop, len(tp.Rules))
		}
		if len(p.Links) != 1 || len(p.Sources) != 1 || len(p.NoSnippet) != 1 {
			t.Fatalf("kept %d links, %d sources, %d regions; want 1 each", len(p.Links), len(p.Sources), len(p.NoSnippet))
		}
		if r := p.NoSnippet[0]; r.Text != "one" || !r.Truncated {
			t.Errorf("region %q truncated %v; want \"one\" cut at 4 bytes", r.Text, r.Truncated)
		}
		var codes []string
		for _, d := range p.Diagnostics {
			codes = append(codes, d.Code)
		}
		for _, c := range []string{"limit-links", "limit-sources", "limit-regions"} {
			if !strings.Contains(strings.Join(codes, " "), c) {
				t.Errorf("no %s among %v", c, codes)
			}
		}
	})
}

// TestDiagnosticCap: a page keeps its first 10,000 diagnostics and drops
// the rest, so a hostile header cannot grow the list without bound.
func TestDiagnosticCap(t *testing.T) {
	for _, tc := range []struct{ empty, want int }{{9999, 9999}, {10000, 10000}, {10001, 10000}, {10002, 10000}} {
		// Each comma with no rule before it is one empty-item finding.
		line := "X-Robots-Tag: " + strings.Repeat(",", tc.empty) + "noindex"
		p, err := robotsmeta.ParseLines([]string{line}, nil, robotsmeta.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := len(p.Diagnostics); got != tc.want {
			t.Errorf("%d empty items: %d diagnostics, want %d", tc.empty, got, tc.want)
		}
		if d := p.Diagnostics[len(p.Diagnostics)-1]; d.Code != "empty-item" {
			t.Errorf("%d empty items: last finding %v", tc.empty, d)
		}
	}
}

// TestDiagnosticJSON: a diagnostic's severity is written as its name, as
// rep page -json and the crawl's findings show it.
func TestDiagnosticJSON(t *testing.T) {
	for sev, want := range map[robotsmeta.Severity]string{
		robotsmeta.Info:    `{"severity":"info","code":"c","message":"m","line":2,"column":3}`,
		robotsmeta.Warning: `{"severity":"warning","code":"c","message":"m","line":2,"column":3}`,
		robotsmeta.Error:   `{"severity":"error","code":"c","message":"m","line":2,"column":3}`,
	} {
		b, err := json.Marshal(robotsmeta.Diagnostic{Severity: sev, Code: "c", Message: "m", Line: 2, Column: 3, Source: 1})
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != want {
			t.Errorf("%v: %s, want %s", sev, b, want)
		}
	}
}
