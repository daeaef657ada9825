package robotsmeta

import (
	"strings"
	"testing"
)

func mustParse(t *testing.T, lines []string, html string) *Page {
	t.Helper()
	p, err := ParseLines(lines, strings.NewReader(html), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestMergeDiagnostics: a diagnostic of the rendered observation keeps
// pointing at its own source after the merge, and one without a source
// stays at -1.
func TestMergeDiagnostics(t *testing.T) {
	raw := mustParse(t, []string{"X-Robots-Tag: noindex"}, `<meta name="robots" content="nofollow">`)
	rendered := mustParse(t, nil, `<meta http-equiv="X-Robots-Tag" content="noindex"><meta name="robots" content="frobnicate">`)
	m := Merge(raw, rendered)
	var unknown, equiv int
	for _, d := range m.Diagnostics {
		switch d.Code {
		case "unknown-directive":
			unknown++
			if d.Source < 0 || d.Source >= len(m.Sources) || m.Sources[d.Source].Value != "frobnicate" {
				t.Errorf("unknown-directive points at source %d of %+v", d.Source, m.Sources)
			}
		case "http-equiv":
			equiv++
			if d.Source != -1 {
				t.Errorf("http-equiv diagnostic has source %d, want -1", d.Source)
			}
		}
	}
	if unknown != 1 || equiv != 1 {
		t.Errorf("diagnostics %v: want one unknown-directive and one http-equiv", m.Diagnostics)
	}
}

// TestMergeTDMHeader: a tdm-reservation header seen only in the rendered
// observation applies, with its own source, unless the raw HTML has a
// TDMRep meta (which supersedes headers).
func TestMergeTDMHeader(t *testing.T) {
	for _, tc := range []struct {
		name       string
		raw        string
		want       TDM
		wantSource string
	}{
		{"raw without TDMRep", `<meta name="robots" content="nofollow">`, TDMReserved, "1"},
		{"raw with a TDMRep meta", `<meta name="tdm-reservation" content="0">`, TDMAllowed, "0"},
	} {
		raw := mustParse(t, []string{"X-Robots-Tag: noindex"}, tc.raw)
		rendered := mustParse(t, []string{"tdm-reservation: 1"}, `<p>x</p>`)
		pol := Merge(raw, rendered).Policy("googlebot", Google, mustTime(t, "2026-06-01T00:00:00Z"))
		if pol.TDMReservation != tc.want {
			t.Errorf("%s: TDMReservation = %v, want %v", tc.name, pol.TDMReservation, tc.want)
		}
		why, ok := pol.Why(FieldTDMReservation)
		if !ok || why.Source.Name != "tdm-reservation" || why.Source.Value != tc.wantSource {
			t.Errorf("%s: TDM provenance %+v, %v; want a tdm-reservation source of %q", tc.name, why, ok, tc.wantSource)
		}
	}
}

// TestMergeContentUsage: the raw response's Content-Usage wins; the
// rendered one applies, with its own source, only when the raw has none.
func TestMergeContentUsage(t *testing.T) {
	for _, tc := range []struct {
		name          string
		raw, rendered []string
		want          Pref
		wantValue     string
	}{
		{"raw only", []string{"Content-Usage: train-ai=n"}, nil, PrefNo, "train-ai=n"},
		{"rendered only", []string{"X-Robots-Tag: noindex"}, []string{"Content-Usage: train-ai=y"}, PrefYes, "train-ai=y"},
		{"both", []string{"Content-Usage: train-ai=n"}, []string{"Content-Usage: train-ai=y"}, PrefNo, "train-ai=n"},
		{"neither", nil, nil, PrefUnknown, ""},
	} {
		raw := mustParse(t, tc.raw, `<meta name="robots" content="nofollow">`)
		rendered := mustParse(t, tc.rendered, `<p>x</p>`)
		pol := Merge(raw, rendered).Policy("googlebot", Google, mustTime(t, "2026-06-01T00:00:00Z"))
		if pol.AITrain != tc.want {
			t.Errorf("%s: AITrain = %v, want %v", tc.name, pol.AITrain, tc.want)
		}
		why, ok := pol.Why(FieldAITrain)
		if ok != (tc.wantValue != "") || why.Source.Value != tc.wantValue {
			t.Errorf("%s: AITrain provenance %+v, %v; want source value %q", tc.name, why, ok, tc.wantValue)
		}
	}
}

// TestMergeKeepsRawTDMHeader: the raw response's tdm-reservation header
// stands when the rendered observation has no TDMRep signal of its own.
func TestMergeKeepsRawTDMHeader(t *testing.T) {
	raw := mustParse(t, []string{"tdm-reservation: 1"}, `<p>x</p>`)
	rendered := mustParse(t, nil, `<p>x</p>`)
	pol := Merge(raw, rendered).Policy("googlebot", Google, mustTime(t, "2026-06-01T00:00:00Z"))
	if pol.TDMReservation != TDMReserved {
		t.Errorf("TDMReservation = %v, want %v", pol.TDMReservation, TDMReserved)
	}
}
