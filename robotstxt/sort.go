package robotstxt

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
		sortWords(items)
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
				// Equal heads: best first. Such runs are a handful of
				// rules (a pattern and its variants), so insertion.
				for k := 1; k < len(run); k++ {
					x := run[k]
					m := k
					for ; m > 0 && better(&rules[run[m-1].id], &rules[x.id]); m-- {
						run[m] = run[m-1]
					}
					run[m] = x
				}
				for k := 1; k < len(run); k++ {
					run[k].same = true
				}
			}
		}
		i = j
	}
}

// sortWords orders items by word (not stably: equal words are ordered
// afterwards by the caller). It is quicksort with the compare written in,
// for the short lists below radixMin where a sort through a compare
// function spends most of its time in the calls; lists of 12 items or
// fewer are insertion sorted. The larger side is looped on, so the stack stays
// logarithmic.
func sortWords(a []sortItem) {
	for len(a) > 12 {
		// Median of three as the pivot, moved to a[0].
		m, l := len(a)/2, len(a)-1
		if a[m].word < a[0].word {
			a[m], a[0] = a[0], a[m]
		}
		if a[l].word < a[0].word {
			a[l], a[0] = a[0], a[l]
		}
		if a[l].word < a[m].word {
			a[l], a[m] = a[m], a[l]
		}
		a[0], a[m] = a[m], a[0]
		pv := a[0].word
		// Hoare partition: a[:j+1] ≤ pv ≤ a[j+1:], both sides non-empty.
		i, j := 0, len(a)
		for {
			for i++; a[i].word < pv; i++ {
			}
			for j--; a[j].word > pv; j-- {
			}
			if i >= j {
				break
			}
			a[i], a[j] = a[j], a[i]
		}
		a[0], a[j] = a[j], a[0]
		if lo, hi := a[:j], a[j+1:]; len(lo) < len(hi) {
			sortWords(lo)
			a = hi
		} else {
			sortWords(hi)
			a = lo
		}
	}
	for k := 1; k < len(a); k++ {
		x := a[k]
		m := k
		for ; m > 0 && a[m-1].word > x.word; m-- {
			a[m] = a[m-1]
		}
		a[m] = x
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
