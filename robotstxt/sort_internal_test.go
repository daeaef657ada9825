package robotstxt

import (
	"cmp"
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

// TestSortWords checks the closure-free quicksort on the orders that
// break naive quicksorts (sorted, reversed, all equal, organ pipe, few
// distinct words) at every length up to past radixMin.
func TestSortWords(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	shapes := map[string]func(i, n int) uint64{
		"sorted":     func(i, n int) uint64 { return uint64(i) },
		"reversed":   func(i, n int) uint64 { return uint64(n - i) },
		"equal":      func(i, n int) uint64 { return 7 },
		"organ pipe": func(i, n int) uint64 { return uint64(min(i, n-i)) },
		"few":        func(i, n int) uint64 { return rng.Uint64N(3) << 60 },
		"random":     func(i, n int) uint64 { return rng.Uint64() },
	}
	for name, word := range shapes {
		for n := 0; n <= radixMin+20; n++ {
			items := make([]sortItem, n)
			for i := range items {
				items[i] = sortItem{word: word(i, n), id: uint32(i)}
			}
			want := slices.Clone(items)
			slices.SortStableFunc(want, func(a, b sortItem) int { return cmp.Compare(a.word, b.word) })
			sortWords(items)
			seen := make([]bool, n)
			for i := range items {
				if items[i].word != want[i].word {
					t.Fatalf("%s, %d items: position %d has word %x, want %x", name, n, i, items[i].word, want[i].word)
				}
				if seen[items[i].id] {
					t.Fatalf("%s, %d items: item %d twice", name, n, items[i].id)
				}
				seen[items[i].id] = true
			}
		}
	}
}

// TestRadixSortLowBit: radixSort skips only the byte positions where every
// item has the same byte; a position whose bytes differ in their lowest
// bit alone (here the second byte, 0 or 1) must still be sorted.
func TestRadixSortLowBit(t *testing.T) {
	items := make([]sortItem, 300)
	for i := range items {
		items[i] = sortItem{word: uint64(299 - i), id: uint32(i)}
	}
	radixSort(items, make([]sortItem, len(items)))
	for i := range items {
		if items[i].word != uint64(i) {
			t.Fatalf("position %d: word %d, want %d", i, items[i].word, i)
		}
	}
}
