package robotsmeta_test

import (
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/robotsmeta"
)

// TestMetaNamesLinted: a meta named for robots or for a crawler the package
// knows is a source whose problems are reported, even when it gives no
// rule; a meta named for a crawler it does not know is linted only when
// that crawler is the agent the page is read for.
func TestMetaNamesLinted(t *testing.T) {
	type row struct {
		name, agent string
		linted      bool
	}
	var rows []row
	for _, name := range []string{"robots", "robot", "google",
		"googlebot", "googlebot-news", "googlebot-image", "googlebot-video",
		"adsbot-google", "adsbot-google-mobile", "mediapartners-google",
		"bingbot", "msnbot", "yandex", "yandexbot", "baiduspider",
		"applebot", "seznambot", "duckduckbot", "slurp", "naverbot",
		"yeti", "gptbot", "ccbot", "claudebot", "perplexitybot",
		"GPTBot", " ccbot "} {
		rows = append(rows, row{name, "", true})
	}
	rows = append(rows, row{"examplebot", "", false}, row{"examplebot", "ExampleBot/1.0", true}, row{"examplebot", "OtherBot", false})
	for _, r := range rows {
		name, agent, linted := r.name, r.agent, r.linted
		doc := `<meta name="` + name + `" content="frobnicate">`
		p, err := robotsmeta.ParseLines(nil, strings.NewReader(doc), robotsmeta.Options{Agent: agent})
		if err != nil {
			t.Fatal(err)
		}
		var codes []string
		for _, d := range p.Diagnostics {
			codes = append(codes, d.Code)
		}
		found := strings.Contains(strings.Join(codes, " "), "unknown-directive")
		if found != linted || (len(p.Sources) == 1) != linted {
			t.Errorf("meta name=%q (agent %q): %d sources, findings %v; want linted %v", name, agent, len(p.Sources), codes, linted)
		}
	}
}

// TestMetaNamesNotRobots: metas that are never robots rules (description,
// viewport, ...) give no source and no rule whatever their content.
func TestMetaNamesNotRobots(t *testing.T) {
	for _, name := range []string{"description", "keywords", "viewport", "author", "generator",
		"theme-color", "referrer", "format-detection", "application-name", "color-scheme", "Description"} {
		doc := `<meta name="` + name + `" content="noindex, nofollow">`
		p, err := robotsmeta.ParseLines(nil, strings.NewReader(doc), robotsmeta.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Sources) != 0 || len(p.Rules) != 0 || len(p.Diagnostics) != 0 {
			t.Errorf("meta name=%q: sources %v, rules %v, findings %v; want none", name, p.Sources, p.Rules, p.Diagnostics)
		}
	}
}

// TestMetaNameUnknownAfterRules: a meta with an unknown name and no rule is
// not kept as a source, also after metas that gave rules.
func TestMetaNameUnknownAfterRules(t *testing.T) {
	doc := `<meta name="robots" content="noindex"><meta name="examplebot" content="frobnicate"><meta name="otherbot" content="nofollow">`
	p, err := robotsmeta.ParseLines(nil, strings.NewReader(doc), robotsmeta.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range p.Sources {
		names = append(names, s.Name)
	}
	if strings.Join(names, " ") != "robots otherbot" || len(p.Rules) != 2 || len(p.Diagnostics) != 0 {
		t.Errorf("sources %q, rules %v, findings %v; want robots and otherbot, 2 rules, no finding", names, p.Rules, p.Diagnostics)
	}
}

// TestMetaNameGoogle: Google reads name="google" only for notranslate and
// nositelinkssearchbox; any other rule there is reported once per meta.
func TestMetaNameGoogle(t *testing.T) {
	for _, tc := range []struct {
		content string
		want    int
	}{
		{"notranslate", 0},
		{"nositelinkssearchbox", 0},
		{"notranslate, nositelinkssearchbox", 0},
		{"noindex", 1},
		{"notranslate, noindex, nofollow", 1},
	} {
		doc := `<meta name="google" content="` + tc.content + `">`
		p, err := robotsmeta.ParseLines(nil, strings.NewReader(doc), robotsmeta.Options{})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, d := range p.Diagnostics {
			if d.Code == "meta-name-google" {
				n++
			}
		}
		if n != tc.want {
			t.Errorf("name=google content=%q: %d meta-name-google findings, want %d (%v)", tc.content, n, tc.want, p.Diagnostics)
		}
	}
}

// TestMetaTDMEvidence: tdm-reservation's evidence is the meta that gave
// the value, also when a tdm-policy meta follows it.
func TestMetaTDMEvidence(t *testing.T) {
	for _, doc := range []string{
		`<meta name="tdm-reservation" content="1"><meta name="tdm-policy" content="https://example.com/policy.json">`,
		`<meta name="tdm-policy" content="https://example.com/policy.json"><meta name="tdm-reservation" content="1">`,
	} {
		pol, err := robotsmeta.Evaluate(nil, strings.NewReader(doc), "googlebot", robotsmeta.Google, time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC), robotsmeta.Options{})
		if err != nil {
			t.Fatal(err)
		}
		why, ok := pol.Why(robotsmeta.FieldTDMReservation)
		if pol.TDMReservation != robotsmeta.TDMReserved || !ok || why.Source.Name != "tdm-reservation" || pol.TDMPolicy != "https://example.com/policy.json" {
			t.Errorf("%s: tdm %d from %v (%v), policy %q; want 1 from the tdm-reservation meta", doc, pol.TDMReservation, why.Source, ok, pol.TDMPolicy)
		}
	}
}

// TestMetaNotRead: http-equiv and property="robots" metas are reported as
// read by no engine; the finding is about the element, not a source.
func TestMetaNotRead(t *testing.T) {
	for _, tc := range []struct{ doc, code string }{
		{`<meta http-equiv="X-Robots-Tag" content="noindex">`, "http-equiv"},
		{`<meta http-equiv=" robots " content="noindex">`, "http-equiv"},
		{`<meta property="robots" content="noindex">`, "property-robots"},
	} {
		p, err := robotsmeta.ParseLines(nil, strings.NewReader(tc.doc), robotsmeta.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Diagnostics) != 1 || len(p.Sources) != 0 || len(p.Rules) != 0 {
			t.Fatalf("%s: findings %v, sources %v; want one %s and no source", tc.doc, p.Diagnostics, p.Sources, tc.code)
		}
		if d := p.Diagnostics[0]; d.Code != tc.code || d.Severity != robotsmeta.Warning || d.Source != -1 || d.Line != 1 || d.Column != 1 {
			t.Errorf("%s: %+v; want a %s warning at 1:1 with source -1", tc.doc, d, tc.code)
		}
	}
}
