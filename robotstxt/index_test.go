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
// prefixes of each other, wildcards and anchors.
func TestLargeIndexAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	stems := []string{"/", "/a", "/ab", "/abcdefg", "/abcdefgh", "/abcdefghi", "/abcdefgh/x", "/b", "/shop/item", "/shop/items/"}
	piece := func() string {
		const alpha = "abgh/xi.?=*"
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteByte(alpha[rng.IntN(len(alpha))])
		}
		return b.String()
	}
	for round := range 10 {
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
		a := robotstxt.Parse(data).Agent("x")
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
	want := robotstxt.Parse(data).Agent("x")
	wantD := want.Check("/q7z") // short: never the shared matcher
	for range 20 {
		f := robotstxt.Parse(data)
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				a := f.Agent("x")
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
