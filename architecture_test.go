package rep_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestLayering checks the dependency rules of ARCHITECTURE.md against
// `go list -deps`: the packages that need only a verdict do not import the
// crawler SDK, and the verdict path reads no HTML.
func TestLayering(t *testing.T) {
	const mod = "github.com/rep-toolkit/rep"
	rules := []struct {
		pkg       string
		forbidden []string
	}{
		{"lint", []string{mod, mod + "/robotsmeta", "golang.org/x/net/html"}},
		{"audit", []string{mod}},
		{"policy", []string{mod}},
		{"gate", []string{mod}},
		{"robotsdiff", []string{mod}},
		{"verdict", []string{mod, mod + "/robotsmeta", "golang.org/x/net/html"}},
		{"aipref", []string{mod + "/robotsmeta", "golang.org/x/net/html"}},
	}
	for _, r := range rules {
		out, err := exec.Command("go", "list", "-deps", mod+"/"+r.pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", r.pkg, err)
		}
		deps := strings.Fields(string(out))
		if !slices.Contains(deps, mod+"/"+r.pkg) {
			t.Fatalf("go list -deps %s does not list the package itself: %q", r.pkg, out)
		}
		for _, f := range r.forbidden {
			if slices.Contains(deps, f) {
				t.Errorf("%s imports %s (directly or not): ARCHITECTURE.md's layering forbids it", r.pkg, f)
			}
		}
	}
}
