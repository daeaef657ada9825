package robotsmeta

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/internal/testkit/conformance"
)

// Vector is one page-level vector (internal/testkit/conformance reads them).
type Vector = conformance.PageVector

// vectorsDisputed lists vectors we believe are wrong, with the reason. The
// test reports them and checks that they still disagree, so a fix on
// either side is noticed. Empty: every vector is implemented as written.
var vectorsDisputed = map[string]string{}

func loadVectors(t testing.TB) []Vector { return conformance.PageVectors(t) }

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
