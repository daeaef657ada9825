package robotstxt

import (
	"slices"
)

// sortItem is one rule while an index is built: the 8 bytes of its head
// being compared, and its number. The sort sets same when the rule has the
// same head as the item before it, so the caller finds the distinct heads
// without comparing strings again.
type sortItem struct {
	word uint64
	id   uint32
	same bool
}

// sortRules puts items (words at depth 0) in index order: by head, then
// best first (longer pattern, allow, earlier line). It compares heads 8
// bytes at a time as integers, going one chunk deeper only inside a run of
// equal chunks, so heads that share long prefixes (docs sites list
// thousands of rules under "/html/E1…") cost integer compares, not string
// compares that reach into the arena each time. Patterns hold no NUL byte,
// so zero padding orders a head before its extensions.
func sortRules(items, buf []sortItem, rules []rule, arena string, depth int) {
	if len(items) >= radixMin {
		radixSort(items, buf[:len(items)])
	} else {
		slices.SortFunc(items, func(a, b sortItem) int {
			switch {
			case a.word < b.word:
				return -1
			case a.word > b.word:
				return 1
			}
			return 0
		})
	}
	next := 8 * (depth + 1)
	for i := 0; i < len(items); {
		j := i + 1
		for j < len(items) && items[j].word == items[i].word {
			j++
		}
		if run := items[i:j]; len(run) > 1 {
			deeper := false
			for k := range run {
				if int(rules[run[k].id].head) > next {
					deeper = true
					break
				}
			}
			if deeper {
				for k := range run {
					run[k].word = rules[run[k].id].chunk(arena, uint32(next))
				}
				sortRules(run, buf[i:j], rules, arena, depth+1)
			} else {
				// Equal heads: best first.
				slices.SortFunc(run, func(a, b sortItem) int {
					ra, rb := &rules[a.id], &rules[b.id]
					switch {
					case ra.n != rb.n:
						return int(rb.n) - int(ra.n)
					case ra.flags()&fAllow != rb.flags()&fAllow:
						return int(rb.flags()&fAllow) - int(ra.flags()&fAllow)
					}
					return int(ra.line()) - int(rb.line())
				})
				for k := 1; k < len(run); k++ {
					run[k].same = true
				}
			}
		}
		i = j
	}
}

// radixMin is the run length from which radixSort beats a comparison sort.
const radixMin = 256

// radixSort orders items by word, least significant byte first, using buf
// (as long as items) as scratch. One pass counts every byte position at
// once, so each position that sorts costs a single scatter pass; positions
// where all items share the byte (the leading '/' of every head, a common
// directory) are neither counted again nor passed over: the same pass ORs
// the differences that find them.
func radixSort(items, buf []sortItem) {
	var diff uint64
	w0 := items[0].word
	var c [8][256]uint32
	for i := range items {
		w := items[i].word
		diff |= w ^ w0
		c[0][byte(w)]++
		c[1][byte(w>>8)]++
		c[2][byte(w>>16)]++
		c[3][byte(w>>24)]++
		c[4][byte(w>>32)]++
		c[5][byte(w>>40)]++
		c[6][byte(w>>48)]++
		c[7][byte(w>>56)]++
	}
	src, dst := items, buf
	for d := range 8 {
		shift := uint(8 * d)
		if byte(diff>>shift) == 0 {
			continue
		}
		cd := &c[d]
		var sum uint32
		for b := range cd {
			cd[b], sum = sum, sum+cd[b]
		}
		for i := range src {
			b := byte(src[i].word >> shift)
			dst[cd[b]] = src[i]
			cd[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &items[0] {
		copy(items, src)
	}
}
