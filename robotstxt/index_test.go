package robotstxt_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/rep-toolkit/rep/robotstxt"
)

// TestLargeIndexAgainstReference checks files with many keys against the
// slow reference model: hundreds of heads, heads of up to 8 bytes
// (compared in their word alone) and longer ones sharing 8-byte prefixes,
// prefixes of each other, wildcards and anchors. Stems of 15 to 17 bytes
// put heads on both sides of 16 bytes, where the second 8-byte chunk of a
// head stops deciding alone.
func TestLargeIndexAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	stems := []string{"/", "/a", "/ab", "/abcdefg", "/abcdefgh", "/abcdefghi", "/abcdefgh/x", "/b", "/shop/item", "/shop/items/",
		"/abcdefghijklmn", "/abcdefghijklmno", "/abcdefghijklmnop", "/abcdefgh/xbgh/"}
	piece := func() string {
		const alpha = "abgh/xi.?=*"
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteByte(alpha[rng.IntN(len(alpha))])
		}
		return b.String()
	}
	for round := range 30 {
		var body strings.Builder
		body.WriteString("User-agent: *\n")
		for range 40 + rng.IntN(400) {
			p := stems[rng.IntN(len(stems))] + piece()
			if rng.IntN(8) == 0 {
				p += "$"
			}
			if rng.IntN(2) == 0 {
				body.WriteString("Allow: " + p + "\n")
			} else {
				body.WriteString("Disallow: " + p + "\n")
			}
		}
		data := []byte(body.String())
		a := robotstxt.Parse(data).Matcher("x")
		for range 200 {
			path := stems[rng.IntN(len(stems))] + piece() + piece()
			path = strings.ReplaceAll(path, "*", "")
			// "//x" is a URL with host x to Check (as robots.cc reads it);
			// the reference takes paths only.
			for strings.HasPrefix(path, "//") {
				path = path[1:]
			}
			wantAllowed, wantLine := refDecide(data, "x", path)
			d := a.Check(path)
			if d.Allowed != wantAllowed || d.Rule.Line != wantLine {
				t.Fatalf("round %d, %q: allowed %v line %d, reference %v line %d", round, path, d.Allowed, d.Rule.Line, wantAllowed, wantLine)
			}
		}
	}
}

// TestConcurrentSharedMatcher races the first long-path checks of a group
// with many wildcard rules, which build the shared matcher once (run with
// -race), and compares every answer with the plain per-rule matcher.
func TestConcurrentSharedMatcher(t *testing.T) {
	var body strings.Builder
	body.WriteString("User-agent: *\n")
	for i := range 200 {
		fmt.Fprintf(&body, "Disallow: /*q%d*z\n", i)
	}
	data := []byte(body.String())
	long := "/" + strings.Repeat("q1", 400) + "z" // 801 bytes: 200 rules × 801 > 65,536
	want := robotstxt.Parse(data).Matcher("x")
	wantD := want.Check("/q7z") // short: never the shared matcher
	for range 20 {
		f := robotstxt.Parse(data)
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				a := f.Matcher("x")
				if d := a.Check(long); d.Allowed || d.Rule.Line != 3 {
					t.Errorf("long path: allowed %v line %d, want disallowed by line 3 (/*q1*z)", d.Allowed, d.Rule.Line)
				}
				if d := a.Check("/q7z"); d.Allowed != wantD.Allowed || d.Rule.Line != wantD.Rule.Line {
					t.Errorf("/q7z: %v line %d, want %v line %d", d.Allowed, d.Rule.Line, wantD.Allowed, wantD.Rule.Line)
				}
			}()
		}
		wg.Wait()
	}
}

// TestKeySearchEdges covers the two steps of the key search: the search
// over 8-byte words alone, and the search over bytes among keys that share
// the path's first 8 — with the shared run at the start, the middle and
// the end of the keys, paths before, inside and after it, shorter than 8
// bytes, and holding a NUL.
func TestKeySearchEdges(t *testing.T) {
	var body strings.Builder
	body.WriteString("User-agent: *\n")
	// A run of keys sharing "/shared/" (8 bytes), between other keys.
	for _, p := range []string{"/a", "/b", "/shared/", "/shared/m", "/z", "/zz/zz/zz"} {
		body.WriteString("Disallow: " + p + "\n")
	}
	for i := range 300 {
		fmt.Fprintf(&body, "Allow: /shared/%03d\n", i*3)
	}
	data := []byte(body.String())
	a := robotstxt.Parse(data).Matcher("x")
	paths := []string{
		"/", "/a", "/a\x00", "/b", "/c", "/shared", "/shared/", "/shared/0", "/shared/000",
		"/shared/001", "/shared/003x", "/shared/299", "/shared/300", "/shared/897", "/shared/898",
		"/shared/899", "/shared/m", "/shared/mm", "/shared/zzz", "/shareD/000", "/t", "/z", "/zz",
		"/zz/zz/zz", "/zz/zz/zz/zz", "/zz/zz/z", "/\x00\x00\x00\x00\x00\x00\x00\x00",
	}
	for _, p := range paths {
		wantAllowed, wantLine := refDecide(data, "x", p)
		if d := a.Check(p); d.Allowed != wantAllowed || d.Rule.Line != wantLine {
			t.Errorf("%q: allowed %v line %d, reference %v line %d", p, d.Allowed, d.Rule.Line, wantAllowed, wantLine)
		}
	}
	// One key only, before, equal to and after the path.
	for _, rule := range []string{"/m", "/mmmmmmmmm", "/mmmmmmmm"} {
		data := []byte("User-agent: *\nDisallow: " + rule + "\n")
		a := robotstxt.Parse(data).Matcher("x")
		for _, p := range []string{"/", "/a", "/m", "/mmmmmmmm", "/mmmmmmmmm", "/mmmmmmmmmm", "/z"} {
			wantAllowed, wantLine := refDecide(data, "x", p)
			if d := a.Check(p); d.Allowed != wantAllowed || d.Rule.Line != wantLine {
				t.Errorf("rule %s, %q: allowed %v line %d, reference %v line %d", rule, p, d.Allowed, d.Rule.Line, wantAllowed, wantLine)
			}
		}
	}
}
