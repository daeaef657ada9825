package sitemap

import (
	"encoding/json"
	"testing"
)

// TestTextForms checks that Kind and Source read back what they write, as
// JSON does, and refuse a name they do not have.
func TestTextForms(t *testing.T) {
	for k := Unknown; k <= Atom; k++ {
		b, _ := k.MarshalText()
		var back Kind
		if err := back.UnmarshalText(b); err != nil || back != k {
			t.Errorf("kind %v: read back %v, %v", k, back, err)
		}
	}
	in := []Location{{URL: "https://example.com/a.xml", Source: FromRobots}, {URL: "https://example.com/sitemap.xml", Source: FromDefault}, {URL: "https://example.com/b.xml", Source: FromIndex}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out []Location
	if err := json.Unmarshal(b, &out); err != nil || len(out) != len(in) {
		t.Fatalf("unmarshal %s: %v, %v", b, out, err)
	}
	for i := range in {
		if out[i] != in[i] {
			t.Errorf("location %d: %+v, want %+v", i, out[i], in[i])
		}
	}
	var k Kind
	if err := k.UnmarshalText([]byte("sitemap")); err == nil {
		t.Error(`Kind.UnmarshalText("sitemap") succeeded`)
	}
	if Kind(9).String() != "kind(9)" || Source(9).String() != "source(9)" {
		t.Errorf("out of range: %q, %q", Kind(9), Source(9))
	}
}
