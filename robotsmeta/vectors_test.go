package robotsmeta

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

// Vector is one entry of ../shared/conformance/page-level.json, read in place
// (the shared material sits beside the checkout, in CI too) so that new
// vectors are picked up without a copy to refresh.
type Vector struct {
	Name    string          `json:"name"`
	Profile string          `json:"profile"`
	Agent   string          `json:"agent"`
	Now     string          `json:"now"`
	Headers []string        `json:"headers"`
	HTML    string          `json:"html"`
	Expect  json.RawMessage `json:"expect"`
	Basis   string          `json:"basis"`
	Source  string          `json:"source"`
	Note    string          `json:"note"`
}

// vectorsDisputed lists vectors we believe are wrong, with the reason. The
// test reports them and checks that they still disagree, so a fix on
// either side is noticed. Empty: every vector is implemented as written.
var vectorsDisputed = map[string]string{}

func loadVectors(t testing.TB) []Vector {
	t.Helper()
	data, err := os.ReadFile("../../shared/conformance/page-level.json")
	if err != nil {
		t.Fatalf("page-level vectors are missing (../shared must sit beside the checkout): %v", err)
	}
	var vs []Vector
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) == 0 {
		t.Fatal("no vectors")
	}
	return vs
}

// TestVectors runs every page-level conformance vector through the package.
func TestVectors(t *testing.T) {
	for _, v := range loadVectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			prof, ok := ParseProfile(v.Profile)
			if !ok {
				t.Fatalf("profile %q", v.Profile)
			}
			now, err := time.Parse(time.RFC3339, v.Now)
			if err != nil {
				t.Fatal(err)
			}
			pol, err := EvaluateLines(v.Headers, strings.NewReader(v.HTML), v.Agent, prof, now, Options{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(pol.Summary())
			if err != nil {
				t.Fatal(err)
			}
			var g, w map[string]any
			if err := json.Unmarshal(got, &g); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(v.Expect, &w); err != nil {
				t.Fatal(err)
			}
			same := reflect.DeepEqual(g, w)
			if why, disputed := vectorsDisputed[v.Name]; disputed {
				if same {
					t.Errorf("disputed vector now passes; remove it from vectorsDisputed (%s)", why)
				}
				t.Logf("disputed: %s", why)
				return
			}
			if !same {
				for k, wv := range w {
					if !reflect.DeepEqual(g[k], wv) {
						t.Errorf("%s = %v, want %v", k, g[k], wv)
					}
				}
				for k := range g {
					if _, ok := w[k]; !ok {
						t.Errorf("extra key %s", k)
					}
				}
				t.Logf("headers %q\nhtml %s\ndiagnostics %v", v.Headers, v.HTML, pol.Page().Diagnostics)
			}
		})
	}
}
