package sarif

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestURI(t *testing.T) {
	for in, want := range map[string]string{
		"robots.txt":                          "robots.txt",
		`dir\robots.txt`:                      "dir/robots.txt",
		"a file#1.txt":                        "a%20file%231.txt",
		"https://example.com/robots.txt":      "https://example.com/robots.txt",
		"<standard input>":                    "%3Cstandard%20input%3E",
		"https://example.com/a b/robots.txt":  "https://example.com/a%20b/robots.txt",
		"http://127.0.0.1:8080/robots.txt?x=": "http://127.0.0.1:8080/robots.txt?x=",
	} {
		if got := URI(in); got != want {
			t.Errorf("URI(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestWrite: a run with no results still has the arrays SARIF requires,
// and a location without a line has no region.
func TestWrite(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, Run{Tool: Tool{Driver: Driver{Name: "t"}}}); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	run := m["runs"].([]any)[0].(map[string]any)
	if m["version"] != "2.1.0" || run["results"] == nil || run["tool"].(map[string]any)["driver"].(map[string]any)["rules"] == nil {
		t.Errorf("log %s", b.String())
	}
	if At("f", 0).PhysicalLocation.Region != nil || At("f", 3).PhysicalLocation.Region.StartLine != 3 {
		t.Error("At: region")
	}
}
