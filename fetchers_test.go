package rep_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/robotsfetch"
)

// TestFetchersOneFetchPerOrigin checks that the agents of three engines
// asking about one origin through rep.Fetchers cost one robots.txt fetch,
// each answered as its engine groups the file: Google's parser ignores
// Crawl-delay, so Disallow: /g closes one group of three user-agent lines;
// bing and yandex end the group at the Googlebot line.
func TestFetchersOneFetchPerOrigin(t *testing.T) {
	var hits atomic.Int64
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, "User-agent: bingbot\nUser-agent: YandexBot\nCrawl-delay: 5\nUser-agent: Googlebot\nDisallow: /g\n")
	}))
	defer site.Close()
	fs := rep.NewFetchers(robotsfetch.Options{UserAgent: "ExampleBot/1.0"})
	want := map[string]bool{"Googlebot": false, "bingbot": true, "YandexBot": true}
	var wg sync.WaitGroup
	for name, allowed := range want {
		a, err := rep.NewAgent(name, rep.AgentOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for range 4 { // concurrent askers share the fetch and the parses
			wg.Add(1)
			go func() {
				defer wg.Done()
				f, err := fs.For(a)
				if err != nil {
					t.Error(err)
					return
				}
				d, err := rep.Check(context.Background(), f, a, site.URL+"/g")
				if err != nil || d.Allowed != allowed {
					t.Errorf("%s /g: %v, %v; want allowed=%v", name, d, err, allowed)
				}
				if dl, _, ok := a.SiteDelay(mustGet(t, f, site.URL)); ok != (name != "Googlebot") || (ok && dl.Seconds() != 5) {
					t.Errorf("%s: site delay %v %v", name, dl, ok)
				}
			}()
		}
	}
	wg.Wait()
	if n := hits.Load(); n != 1 {
		t.Errorf("origin saw %d requests for three engines, want 1", n)
	}
}

func mustGet(t *testing.T, f *robotsfetch.Fetcher, u string) *robotsfetch.Robots {
	r, err := f.Get(context.Background(), u)
	if err != nil {
		t.Error(err)
		return &robotsfetch.Robots{}
	}
	return r
}
