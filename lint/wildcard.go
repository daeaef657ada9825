package lint

import (
	"slices"
	"strings"

	"github.com/rep-toolkit/rep/robotstxt"
)

// A trailing '*' matches nothing more, but it makes a rule longer, and the
// longer of an Allow and a Disallow that both match a URL decides (equal
// lengths: Allow wins, RFC 9309 §2.2.2; Google the same). Dropping the
// '*' is therefore safe only when no rule of the other kind, obeyed by the
// same crawlers, has a length that the shorter rule would lose to or tie
// with differently.

// tieKey buckets a rule set's rules by kind and matching length.
type tieKey struct {
	allow bool
	n     int
}

// tieIndex holds, for one rule set, the literal heads of its rules by kind
// and length, sorted, so that "a rule of this kind and length that may
// match a URL this rule matches" is a few lookups.
type tieIndex struct {
	lines map[int]bool
	heads map[tieKey][]string
}

func newTieIndex(rules []robotstxt.Rule) *tieIndex {
	x := &tieIndex{lines: map[int]bool{}, heads: map[tieKey][]string{}}
	for _, r := range rules {
		x.lines[r.Line] = true
		if r.Pattern == "" {
			continue // matches nothing
		}
		k := tieKey{r.Allow, matchLen(r.Pattern)}
		x.heads[k] = append(x.heads[k], head(r.Pattern))
	}
	for _, hs := range x.heads {
		slices.Sort(hs)
	}
	return x
}

// overlaps reports whether a rule of kind and length k may match a URL
// that a rule with head h matches. Patterns are anchored at the start of
// the path, so two rules can match a common URL only when one's literal
// head is a prefix of the other's; otherwise they are disjoint.
func (x *tieIndex) overlaps(k tieKey, h string) bool {
	hs := x.heads[k]
	if len(hs) == 0 {
		return false
	}
	// A head that h starts with: one of h's prefixes.
	for i := 0; i <= len(h); i++ {
		if _, ok := slices.BinarySearch(hs, h[:i]); ok {
			return true
		}
	}
	// A head that starts with h: the first head not below h.
	i, _ := slices.BinarySearch(hs, h)
	return i < len(hs) && strings.HasPrefix(hs[i], h)
}

// matchLen is a pattern's priority: its length once escaped as the
// matcher stores it.
func matchLen(p string) int { return len(robotstxt.EscapePattern(p)) }

// trimSafe reports whether writing r with the shorter pattern short (r's
// pattern without its trailing stars) leaves every verdict unchanged for
// every crawler that obeys r.
func (l *linter) trimSafe(r robotstxt.Rule, short string) bool {
	long, n := matchLen(r.Pattern), matchLen(short)
	h := head(short)
	if l.ties == nil {
		ents := l.entries()
		l.ties = make([]*tieIndex, len(ents))
		for i, e := range ents {
			l.ties[i] = newTieIndex(e.rules)
		}
	}
	for _, x := range l.ties {
		if !x.lines[r.Line] {
			continue
		}
		for m := n; m <= long; m++ {
			// r (a Disallow) shortened to the length of an Allow now ties
			// with it and loses; r (an Allow) still at the length of a
			// Disallow used to win the tie and now loses it.
			if m == n && r.Allow || m == long && !r.Allow {
				continue
			}
			if x.overlaps(tieKey{!r.Allow, m}, h) {
				return false
			}
		}
	}
	return true
}
