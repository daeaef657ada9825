package robotsfetch

import (
	"reflect"
	"sync"
	"testing"

	"github.com/rep-toolkit/rep/robotstxt"
)

// TestFileFor checks that one fetch serves every way of grouping the
// file: FileFor parses the stored body once per way, remembers it across
// the copies of the answer (the one a fetch hands out, the one kept in
// memory), and gives File itself for the Fetcher's own way.
func TestFileFor(t *testing.T) {
	s := newSite(t, text("User-agent: bingbot\nCrawl-delay: 5\nUser-agent: Googlebot\nDisallow: /g\n"))
	f := newFetcher(t, Options{})
	first := get(t, f, s.URL)
	bing := robotstxt.Options{Profile: robotstxt.Google, CrawlDelayEndsGroup: true}
	if got := first.FileFor(robotstxt.Options{Profile: robotstxt.Google}); got != first.File {
		t.Errorf("FileFor(the Fetcher's own options) = %p, want File %p", got, first.File)
	}
	var wg sync.WaitGroup
	files := make([]*robotstxt.File, 8)
	for i := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			files[i] = get(t, f, s.URL).FileFor(bing)
		}()
	}
	wg.Wait()
	for _, bf := range append(files, first.FileFor(bing)) {
		if bf != files[0] || bf == first.File || !bf.CrawlDelayEndsGroup() {
			t.Fatalf("FileFor(bing) = %p (ends groups: %v), want one parse apart from File %p", bf, bf.CrawlDelayEndsGroup(), first.File)
		}
	}
	if g := first.File.Matcher("bingbot").Check("/g"); g.Allowed {
		t.Errorf("Google's grouping: bingbot shares Googlebot's group, /g disallowed; got %+v", g)
	}
	if b := files[0].Matcher("bingbot").Check("/g"); !b.Allowed {
		t.Errorf("bing's grouping: Crawl-delay ends bingbot's group, /g allowed; got %+v", b)
	}
	if n := s.hits.Load(); n != 1 {
		t.Errorf("origin saw %d requests, want 1", n)
	}
	// A Robots built by hand has no body to parse again: File answers.
	hand := &Robots{File: first.File}
	if hand.FileFor(bing) != first.File {
		t.Error("a Robots without Body: FileFor must give File")
	}
}

// TestCheckAgreesWithDecide checks that Check, for every verdict of a
// fetch, is Decide with the names' group: the reason and the group's Via
// of a fetch that allows or disallows everything, and the stricter
// reading of an escaped unreserved character.
func TestCheckAgreesWithDecide(t *testing.T) {
	for _, tt := range []struct {
		name    string
		code    int // the robots.txt status; 0: a file with rules
		url     string
		allowed bool
		reason  robotstxt.Reason
		via     robotstxt.Via
	}{
		{"rules", 0, "/%70rivate", false, robotstxt.RuleMatched, robotstxt.ViaToken},
		{"unavailable", 404, "/private", true, robotstxt.Unavailable, robotstxt.ViaFetch},
		{"unreachable", 503, "/private", false, robotstxt.Unreachable, robotstxt.ViaFetch},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := text("User-agent: ExampleBot\nDisallow: /private\n")
			if tt.code != 0 {
				h = status(tt.code)
			}
			s := newSite(t, h)
			r := get(t, newFetcher(t, Options{}), s.URL)
			c := r.Check(s.URL+tt.url, "ExampleBot")
			d := r.Decide(r.Matcher("ExampleBot"), s.URL+tt.url)
			if !reflect.DeepEqual(c, d) {
				t.Errorf("Check = %+v, Decide = %+v", c, d)
			}
			if c.Allowed != tt.allowed || c.Reason != tt.reason || c.Group.Via != tt.via {
				t.Errorf("Check = allowed %v, %v, via %v; want %v, %v, %v", c.Allowed, c.Reason, c.Group.Via, tt.allowed, tt.reason, tt.via)
			}
		})
	}
}
