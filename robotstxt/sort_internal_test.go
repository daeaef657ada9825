package robotstxt

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestSortRules checks the chunked sort against a plain comparison of
// whole heads, on heads built to share long prefixes, to be prefixes of
// each other, and to repeat.
func TestSortRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := "/ab*$"
	for round := range 300 {
		var text strings.Builder
		text.WriteString("User-agent: *\n")
		stem := "/" + strings.Repeat("x", rng.IntN(30))
		n := 1 + rng.IntN(60)
		if round%10 == 0 {
			n = radixMin + rng.IntN(2*radixMin) // through radixSort
		}
		for range n {
			var p strings.Builder
			if rng.IntN(4) > 0 {
				p.WriteString(stem[:rng.IntN(len(stem)+1)])
			}
			for range rng.IntN(20) {
				p.WriteByte(alphabet[rng.IntN(len(alphabet))])
			}
			if rng.IntN(2) == 0 {
				text.WriteString("Allow: ")
			} else {
				text.WriteString("Disallow: ")
			}
			text.WriteString(p.String() + "\n")
		}
		f := Parse([]byte(text.String()))
		ids := make([]uint32, len(f.rules))
		items := make([]sortItem, len(f.rules))
		for i := range f.rules {
			ids[i] = uint32(i)
			items[i] = sortItem{word: prefixWord(f.rules[i].headIn(f.arena)), id: uint32(i)}
		}
		want := slices.Clone(ids)
		slices.SortFunc(want, func(a, b uint32) int {
			ra, rb := &f.rules[a], &f.rules[b]
			if c := strings.Compare(ra.headIn(f.arena), rb.headIn(f.arena)); c != 0 {
				return c
			}
			switch {
			case ra.n != rb.n:
				return int(rb.n) - int(ra.n)
			case ra.flags()&fAllow != rb.flags()&fAllow:
				return int(rb.flags()&fAllow) - int(ra.flags()&fAllow)
			}
			return int(ra.line()) - int(rb.line())
		})
		sortRules(items, make([]sortItem, len(items)), f.rules, f.arena, 0)
		for i := range items {
			same := i > 0 && f.rules[want[i]].headIn(f.arena) == f.rules[want[i-1]].headIn(f.arena)
			if items[i].same != same {
				t.Fatalf("round %d: position %d: same %v, want %v", round, i, items[i].same, same)
			}
			if items[i].id != want[i] {
				t.Fatalf("round %d: position %d: got rule %d (%q), want %d (%q)\n%s", round, i,
					items[i].id, f.rules[items[i].id].headIn(f.arena), want[i], f.rules[want[i]].headIn(f.arena), text.String())
			}
		}
	}
}
