package robotstxt

import (
	"fmt"
	"strings"
	"testing"
)

// FuzzByteMask checks the 8-bytes-a-round mask against the byte loop.
func FuzzByteMask(f *testing.F) {
	for _, s := range []string{"", "/", "/abcdefg", "/abcdefgh", "/abcdefghi?x=1&y=_", "\xff\x00\x1f\x20\x3f\x5f\x7f\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want uint32
		for i := 0; i < len(s); i++ {
			want |= 1 << (s[i] & 31)
		}
		if got := byteMask(s); got != want {
			t.Fatalf("byteMask(%q) = %#x, want %#x", s, got, want)
		}
	})
}

// TestSharedMatcherUsed pins the cost bound of many wildcard rules: a long
// path checked against a group of more wildcard rules than multiThreshold
// goes through the shared matcher (one pass over the path, see lazyMulti),
// scans the path once however many wildcard rules it visits, and so, like
// every check of a path of at most 2 KiB, allocates nothing once warm
// (not counted under the race detector, whose sync.Pool drops items).
func TestSharedMatcherUsed(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := range 70 {
		fmt.Fprintf(&b, "Disallow: /*zq%d\n", i)
	}
	a := Parse([]byte(b.String())).Matcher("x")
	// Visits /*zq77 (needs z, q, 7) then /*zq7, which decides.
	path := "/" + strings.Repeat("b", 2000) + "zq7"
	if d := a.Check(path); d.Allowed || d.Rule.Line != 9 {
		t.Fatalf("check: allowed %v line %d, want disallowed by line 9 (/*zq7)", d.Allowed, d.Rule.Line)
	}
	if a.ix.multi == nil || a.ix.multi.m == nil {
		t.Fatalf("70 wildcard rules and a %d-byte path: the shared matcher was not used", len(path))
	}
	if raceEnabled {
		return
	}
	if n := testing.AllocsPerRun(100, func() { a.Check(path) }); n != 0 {
		t.Errorf("a check through the shared matcher allocates %v times", n)
	}
}
