package robotsmeta

import (
	"strings"
	"testing"
)

func TestMerge(t *testing.T) {
	raw, err := ParseLines([]string{"X-Robots-Tag: nosnippet", "tdm-reservation: 1"},
		strings.NewReader(`<meta name="robots" content="index"><a href="/raw">r</a>`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rendered, err := ParseLines(nil, strings.NewReader(
		`<meta name="robots" content="noindex"><meta name="tdm-reservation" content="0"><a href="/js" rel="ugc">j</a>`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := Merge(raw, rendered)
	pol := m.Policy("googlebot", Google, mustTime(t, "2026-06-01T00:00:00Z"))
	if pol.Index || pol.Snippet || pol.TDMReservation != TDMAllowed {
		t.Errorf("merged: index=%v snippet=%v tdm=%v; want false false 0", pol.Index, pol.Snippet, pol.TDMReservation)
	}
	if why, ok := pol.Why(FieldIndex); !ok || why.Source.Value != "noindex" {
		t.Errorf("index provenance %+v", why)
	}
	if why, ok := pol.Why(FieldTDMReservation); !ok || why.Source.Name != "tdm-reservation" || why.Source.Kind != FromMeta {
		t.Errorf("tdm provenance %+v", why)
	}
	if len(m.Links) != 1 || m.Links[0].Href != "/js" {
		t.Errorf("links %+v, want the rendered ones", m.Links)
	}
	// The inputs are not modified.
	if len(raw.Rules) != 2 || raw.Rules[0].Source != 0 || len(rendered.Rules) != 1 || rendered.Rules[0].Source != 0 {
		t.Errorf("inputs changed: %+v %+v", raw.Rules, rendered.Rules)
	}
}
