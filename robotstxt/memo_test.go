package robotstxt_test

import (
	"sync"
	"testing"

	"github.com/rep-toolkit/rep/robotstxt"
)

// TestRemember: a value is kept per key, the first one kept wins, keys
// past MaxRemembered are not kept, and lookups do not allocate.
func TestRemember(t *testing.T) {
	f := robotstxt.Parse([]byte("User-agent: *\nDisallow: /x\n"))
	keys := make([]*int, robotstxt.MaxRemembered+5)
	for i := range keys {
		keys[i] = new(int)
	}
	if f.Recall(keys[0]) != nil {
		t.Fatal("recalled a value never remembered")
	}
	var wg sync.WaitGroup
	for i, k := range keys {
		wg.Add(2)
		for _, v := range []int{i, -i} {
			go func() {
				defer wg.Done()
				got := f.Remember(k, v)
				if g := got.(int); g != i && g != -i {
					t.Errorf("key %d: kept %d", i, g)
				}
			}()
		}
	}
	wg.Wait()
	kept := 0
	for i, k := range keys {
		v := f.Recall(k)
		if v == nil {
			continue // past the bound: another key took its place
		}
		kept++
		if v.(int) != i && v.(int) != -i {
			t.Errorf("key %d: recalled %v", i, v)
		}
		if again := f.Remember(k, 1000); again != v {
			t.Errorf("key %d: a second Remember replaced %v with %v", i, v, again)
		}
	}
	if kept != robotstxt.MaxRemembered {
		t.Errorf("%d keys kept, want %d", kept, robotstxt.MaxRemembered)
	}
	var extra int
	if f.Remember(&extra, 7) != 7 || f.Recall(&extra) != nil {
		t.Error("a key past the bound was kept")
	}
	if n := testing.AllocsPerRun(100, func() { f.Recall(keys[2]); f.Recall(keys[40]); f.Recall(&extra) }); n != 0 {
		t.Errorf("Recall: %v allocs", n)
	}
}
