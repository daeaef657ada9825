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
				if a := f.Agent(agent); a.Check("/p/a.pdf").Allowed != (agent != "zz") {
					t.Errorf("%s: /p/a.pdf wrong", agent)
					return
				}
				_ = f.Groups()
			}
		}()
	}
	wg.Wait()
}
