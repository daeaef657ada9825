package crawlers

import (
	"slices"
	"strings"
)

// Suggest returns the registry's names and robots.txt tokens (crawlers'
// names and product tokens, and the tokens of [Groups]) that a misspelt
// name most likely meant, closest first: "Googlebto" gives [Googlebot].
// Case is ignored, and a name the registry knows (by [ByName] or as a
// group token) gives nil: only an unknown name has a suggestion. A name
// is suggested when it is at most one edit away from name for names of up
// to five bytes, at most two beyond (see [EditDistance]); at most three
// are returned, the nearest first, ties in the registry's order.
//
// An unknown name is not an error: robots.txt may name any crawler, and
// most crawlers are in no registry. Suggest is for telling a user who
// asked about one that the name may be a typo.
func Suggest(name string) []string {
	name = strings.TrimSpace(name)
	if name == "" || name == "*" || len(name) > maxSuggestBytes {
		return nil
	}
	if _, ok := ByName(name); ok {
		return nil
	}
	lower := strings.ToLower(name)
	for _, g := range reg.groups {
		if strings.ToLower(g.Token) == lower {
			return nil
		}
	}
	limit := 2
	if len(name) <= 5 {
		limit = 1
	}
	type cand struct {
		name string
		dist int
	}
	var found []cand
	seen := map[string]bool{}
	consider := func(s string) {
		k := strings.ToLower(s)
		if s == "" || seen[k] || abs(len(k)-len(lower)) > limit {
			return
		}
		seen[k] = true
		if d := EditDistance(lower, k); d <= limit {
			found = append(found, cand{s, d})
		}
	}
	for _, c := range reg.crawlers {
		consider(c.Name)
		for _, t := range c.Tokens {
			consider(t)
		}
	}
	for _, g := range reg.groups {
		consider(g.Token)
	}
	slices.SortStableFunc(found, func(a, b cand) int { return a.dist - b.dist })
	out := make([]string, 0, min(len(found), 3))
	for _, c := range found[:min(len(found), 3)] {
		out = append(out, c.name)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// maxSuggestBytes bounds the names Suggest compares: a product token is
// short, and a longer input (a User-Agent header) is not a misspelt one.
const maxSuggestBytes = 64

// EditDistance is the number of single-byte edits (insertions, deletions,
// substitutions, and transpositions of adjacent bytes, counted as one:
// the optimal string alignment distance) that turn a into b. It compares
// bytes as given; lower-case both for a case-insensitive distance. Strings
// over 64 bytes are not compared: the distance is then a large number
// (1<<30), so that no threshold accepts them.
//
// It is the one edit distance of rep's "did you mean" suggestions:
// crawler names here, configuration keys in packages policy and lint,
// lint codes.
func EditDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 1 << 30
	}
	var d [66][66]int
	for i := 0; i <= len(a); i++ {
		d[i][0] = i
	}
	for j := 0; j <= len(b); j++ {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
