package audit

import (
	"slices"
	"testing"
)

// TestTopKEviction: a full list evicts the least-counted key, the
// lexically greatest of those tied (so the same log always gives the
// same list), and the newcomer inherits its count as the error bound.
func TestTopKEviction(t *testing.T) {
	for _, tt := range []struct {
		name string
		k    int
		keys []string
		want []PathCount
	}{
		{"under the bound, exact", 3, []string{"/b", "/a", "/b", "/c"},
			[]PathCount{{Path: "/b", Count: 2}, {Path: "/a", Count: 1}, {Path: "/c", Count: 1}}},
		{"at the bound, exact", 2, []string{"/b", "/a", "/b"},
			[]PathCount{{Path: "/b", Count: 2}, {Path: "/a", Count: 1}}},
		// /a has the fewest requests though it sorts first.
		{"the least counted goes", 2, []string{"/a", "/b", "/b", "/b", "/c"},
			[]PathCount{{Path: "/b", Count: 3}, {Path: "/c", Count: 2, Error: 1, Estimated: true}}},
		{"of a tie, the greatest key goes", 2, []string{"/b", "/a", "/c"},
			[]PathCount{{Path: "/c", Count: 2, Error: 1, Estimated: true}, {Path: "/a", Count: 1}}},
		{"of a tie, the greatest key goes, either order", 2, []string{"/a", "/b", "/c"},
			[]PathCount{{Path: "/c", Count: 2, Error: 1, Estimated: true}, {Path: "/a", Count: 1}}},
		// After the first eviction /c (2, error 1) and /a (1): /d evicts
		// /a, then /a evicts /d (2), the greater key of the tie with /c.
		{"evictions in a row", 2, []string{"/a", "/b", "/c", "/d", "/a"},
			[]PathCount{{Path: "/a", Count: 3, Error: 2, Estimated: true}, {Path: "/c", Count: 2, Error: 1, Estimated: true}}},
	} {
		tk := newTopK(tt.k)
		for _, k := range tt.keys {
			tk.add([]byte(k), 1)
		}
		if got := tk.list(); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// TestMergePathsBound: merging two lists adds the counts and error bounds
// of shared keys, marks as estimated every count with an error bound
// (even of 1), and keeps the k most counted.
func TestMergePathsBound(t *testing.T) {
	a := []PathCount{{Path: "/a", Count: 5}, {Path: "/b", Count: 4, Error: 1, Estimated: true}}
	b := []PathCount{{Path: "/c", Count: 6}, {Path: "/b", Count: 3}, {Path: "/d", Count: 1}, {Path: "/e", Count: 1}}
	for _, tt := range []struct {
		k    int
		want []PathCount
	}{
		{10, []PathCount{{Path: "/b", Count: 7, Error: 1, Estimated: true}, {Path: "/c", Count: 6}, {Path: "/a", Count: 5}, {Path: "/d", Count: 1}, {Path: "/e", Count: 1}}},
		{2, []PathCount{{Path: "/b", Count: 7, Error: 1, Estimated: true}, {Path: "/c", Count: 6}}},
	} {
		if got := mergePaths(a, b, tt.k); !slices.Equal(got, tt.want) {
			t.Errorf("k %d: %+v, want %+v", tt.k, got, tt.want)
		}
	}
}
