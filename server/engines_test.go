package server

import (
	"net/http"
	"net/url"
	"testing"
)

// enginesRobots is grouped differently by the engines: Google's parser
// ignores Crawl-delay, so the three user-agent lines make one group and
// Disallow: /g applies to all; bing and yandex read Crawl-delay as a group
// member, so the Googlebot line starts a group of its own and /g is open
// to bingbot and YandexBot.
const enginesRobots = "User-agent: bingbot\nUser-agent: YandexBot\nCrawl-delay: 5\nUser-agent: Googlebot\nDisallow: /g\n"

// TestAllowedEnginesOneFetch checks that /api/allowed answers for
// Googlebot, bingbot and YandexBot, each as its engine reads the file,
// with one fetch of the origin's robots.txt.
func TestAllowedEnginesOneFetch(t *testing.T) {
	o := newOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte(enginesRobots))
	})
	ts, _ := newGuardedServer(t, Config{RatePerSecond: -1})
	for _, tt := range []struct {
		agent   string
		allowed bool
	}{
		{"Googlebot", false},
		{"bingbot", true},
		{"YandexBot", true},
		{"Googlebot", false},
	} {
		st, m := call(t, "GET", ts.URL+"/api/allowed?agent="+tt.agent+"&url="+url.QueryEscape(o.URL+"/g"), "")
		if st != 200 || m["allowed"] != tt.allowed {
			t.Errorf("%s /g: status %d %v, want allowed=%v", tt.agent, st, m, tt.allowed)
		}
	}
	if n := o.hits.Load(); n != 1 {
		t.Errorf("origin saw %d robots.txt requests for three engines, want 1", n)
	}
}
