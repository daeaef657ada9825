package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestAcceptedMutantsExist: every mutant docs/mutation.md accepts as
// equivalent is one this command makes of today's code, by its ID (file,
// line, column, operator). A file moved or edited above an accepted mutant
// changes its ID: the list must follow, or the next run reports the
// mutant as lived and a stale entry hides nothing.
func TestAcceptedMutantsExist(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	accepted := readEquivalent("docs/mutation.md")
	if len(accepted) < 100 {
		t.Fatalf("docs/mutation.md: %d accepted mutants read; the list has hundreds", len(accepted))
	}
	ids := map[string]map[string]bool{} // file -> IDs of its mutants
	var stale []string
	for id := range accepted {
		file, _, ok := strings.Cut(id, ":")
		if !ok {
			t.Errorf("accepted mutant %q: no file:line:col", id)
			continue
		}
		if ids[file] == nil {
			ids[file] = map[string]bool{}
			if _, err := os.Stat(file); err != nil {
				stale = append(stale, id+" (no such file)")
				continue
			}
			ms, err := mutants(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range ms {
				ids[file][m.id()] = true
			}
		}
		if !ids[file][id] {
			stale = append(stale, id)
		}
	}
	sort.Strings(stale)
	for _, id := range stale {
		t.Errorf("docs/mutation.md accepts %s, which is no mutant of today's code: re-key it (go run ./internal/mutate -rekey)", id)
	}
}

// TestSplitArg: dir@testdir names the package mutated and the one whose
// tests run; without @ a package runs its own tests.
func TestSplitArg(t *testing.T) {
	for _, tc := range []struct{ arg, dir, file, testDir string }{
		{"robotsmeta", "robotsmeta", "", "robotsmeta"},
		{"robotsmeta/policy.go", "robotsmeta", "robotsmeta/policy.go", "robotsmeta"},
		{"robotsmeta/internal/htmlscan@robotsmeta", "robotsmeta/internal/htmlscan", "", "robotsmeta"},
		{"robotsmeta/internal/htmlscan/scan.go@robotsmeta/", "robotsmeta/internal/htmlscan", "robotsmeta/internal/htmlscan/scan.go", "robotsmeta"},
		{"./server/", "server", "", "server"},
	} {
		dir, file, testDir := splitArg(tc.arg)
		if dir != tc.dir || file != tc.file || testDir != tc.testDir {
			t.Errorf("splitArg(%q) = %q, %q, %q; want %q, %q, %q", tc.arg, dir, file, testDir, tc.dir, tc.file, tc.testDir)
		}
	}
}
