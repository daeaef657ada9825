package robotstxt_test

import (
	"sync"
	"testing"

	"github.com/rep-toolkit/rep/robotstxt"
)

// TestConcurrentUse shares one File between goroutines from its first use:
// the indexes are built lazily, once, and every goroutine must see the same
// answers (run with -race).
func TestConcurrentUse(t *testing.T) {
	f := robotstxt.Parse([]byte("User-agent: a\nUser-agent: b\nDisallow: /x\n\nUser-agent: *\nDisallow: /*.pdf$\nAllow: /p/\n"))
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				agent := []string{"a", "b", "zz"}[(g+i)%3]
				// a and b: Disallow /x; the rest: * forbids PDFs.
				if d := f.Check(agent, "https://h/x.html"); d.Allowed != (agent == "zz") {
					t.Errorf("%s: /x.html allowed=%v", agent, d.Allowed)
					return
				}
				if a := f.Matcher(agent); a.Check("/p/a.pdf").Allowed != (agent != "zz") {
					t.Errorf("%s: /p/a.pdf wrong", agent)
					return
				}
				_ = f.Groups()
			}
		}()
	}
	wg.Wait()
}

// TestConcurrentFirstUse races every reader of a group's rules against the
// first build of its index, which reorders them in place: Groups and Rules
// (file order), a token named alone (in-place index) and a token whose
// groups merge (copied index over the same rules). Each goroutine gets a
// fresh File so that every round races the first use (run with -race).
func TestConcurrentFirstUse(t *testing.T) {
	body := []byte("User-agent: a\nUser-agent: b\nDisallow: /z\nDisallow: /x\nAllow: /x/y\nDisallow: /*.pdf$\n\n" +
		"User-agent: a\nDisallow: /m\n\nUser-agent: *\nDisallow: /q\nAllow: /\n")
	wantLines := []int{3, 4, 5, 6}
	for range 50 {
		f := robotstxt.Parse(body)
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				switch g {
				case 0:
					rules := f.Groups()[0].Rules
					for i, r := range rules {
						if r.Line != wantLines[i] {
							t.Errorf("Groups()[0].Rules[%d] on line %d, want %d", i, r.Line, wantLines[i])
						}
					}
				case 1:
					if d := f.Check("b", "/x/a"); d.Allowed || d.Rule.Line != 4 {
						t.Errorf("b /x/a: %v line %d", d.Allowed, d.Rule.Line)
					}
				case 2:
					if d := f.Check("a", "/m"); d.Allowed || d.Rule.Line != 9 {
						t.Errorf("a /m: %v line %d", d.Allowed, d.Rule.Line)
					}
					if d := f.Check("a", "/x/y/z.pdf"); d.Allowed || d.Rule.Line != 6 {
						t.Errorf("a /x/y/z.pdf: %v line %d", d.Allowed, d.Rule.Line)
					}
				case 3:
					rules := f.Matcher("a").Rules()
					if len(rules) != 5 || rules[0].Line != 3 || rules[4].Line != 9 {
						t.Errorf("a's rules: %v", rules)
					}
				}
			}()
		}
		wg.Wait()
	}
}
