package conformance

import "testing"

// TestPageVectors checks that the vectors are found and well formed: every
// one has a name, a profile, an agent and expectations.
func TestPageVectors(t *testing.T) {
	vs := PageVectors(t)
	seen := map[string]bool{}
	for _, v := range vs {
		if v.Name == "" || v.Profile == "" || v.Agent == "" || len(v.Expect) == 0 {
			t.Errorf("incomplete vector: %+v", v)
		}
		if seen[v.Name] {
			t.Errorf("vector name %q used twice", v.Name)
		}
		seen[v.Name] = true
	}
}
