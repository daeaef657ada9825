package usage

import (
	"errors"
	"reflect"
	"testing"

	"github.com/rep-toolkit/rep/aipref"
	"github.com/rep-toolkit/rep/robotstxt"
)

// TestForwarding checks that code written against package usage gets
// aipref's answers under the old names.
func TestForwarding(t *testing.T) {
	f := robotstxt.Parse([]byte("User-agent: *\nAllow: /\nContent-Usage: /docs/ train-ai=n\n"))
	g := f.Matcher("ExampleBot")
	url := "https://example.com/docs/a.html"
	tdm, err := ParseTDMRep([]byte(`[{"location": "/docs/*", "tdm-reservation": 1}]`))
	if err != nil {
		t.Fatal(err)
	}
	var v Verdict = Combine(Robots(f, g, url, true), TDMRep(tdm, url), Reservation(TDMRepHeader, true, 1, "header", "1"))
	want := aipref.Combine(aipref.Robots(f, g, url, true), aipref.TDMRep(tdm, url), aipref.Reservation(aipref.TDMRepHeader, true, 1, "header", "1"))
	if !reflect.DeepEqual(v, want) || v.TrainAI != Disallowed || v.Get(AIUse) != Disallowed || v.Search != Unknown {
		t.Errorf("Combine = %v, want %v", v, want)
	}
	if len(Categories()) != 3 || Categories()[0] != TrainAI {
		t.Errorf("Categories() = %v", Categories())
	}
	var p Pref
	var pe *PrefError
	if err := p.UnmarshalText([]byte("maybe")); !errors.As(err, &pe) || pe.Text != "maybe" {
		t.Errorf("UnmarshalText(maybe) = %v", err)
	}
}
