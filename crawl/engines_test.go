package crawl

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/rep-toolkit/rep"
)

// TestEnginesOneRobotsFetch checks that a crawl for Googlebot, bingbot and
// YandexBot fetches the site's robots.txt once, and still judges each
// crawler as its engine groups the file: Google's parser ignores
// Crawl-delay, so the three user-agent lines make one group and /g is
// disallowed to all; bing and yandex end the group at the Googlebot line,
// so /g is open to them.
func TestEnginesOneRobotsFetch(t *testing.T) {
	var robots atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		robots.Add(1)
		io.WriteString(w, "User-agent: bingbot\nUser-agent: YandexBot\nCrawl-delay: 1\nUser-agent: Googlebot\nDisallow: /g\n")
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			io.WriteString(w, "<html><head><title>g</title></head><body>g</body></html>")
			return
		}
		io.WriteString(w, `<html><head><title>home</title></head><body><a href="/g">g</a></body></html>`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	agents, err := rep.AgentsFor([]string{"Googlebot", "bingbot", "YandexBot"}, rep.AgentOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var pages []*Page // OnPage is called from one goroutine at a time
	_, err = Run(context.Background(), Config{Start: srv.URL, AllowPrivate: true, Agents: agents, OnPage: func(p *Page) { pages = append(pages, p) }})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"Googlebot": false, "bingbot": true, "YandexBot": true}
	seen := 0
	for _, p := range pages {
		if p.URL != srv.URL+"/g" {
			continue
		}
		for _, v := range p.Verdicts {
			seen++
			if v.Robots.Allowed != want[v.Agent] {
				t.Errorf("%s on /g: allowed=%v, want %v (%s)", v.Agent, v.Robots.Allowed, want[v.Agent], v.Robots.Why())
			}
		}
	}
	if seen != 3 {
		t.Errorf("%d verdicts on /g, want 3: %+v", seen, pages)
	}
	if n := robots.Load(); n != 1 {
		t.Errorf("the crawl fetched robots.txt %d times for three engines, want 1", n)
	}
}
