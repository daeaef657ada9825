package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/robotsfetch"
)

// site is a site with its own robots.txt, answered in memory (see web);
// it records what it was asked and when.
type site struct {
	URL     string
	handler http.HandlerFunc
	mu      sync.Mutex
	asked   []string
	at      []time.Duration // since the crawl started, on the bubble's clock
}

func newSite(url, robots string, robotsStatus int, pages map[string]func(w http.ResponseWriter, r *http.Request)) *site {
	s := &site{URL: url}
	start := time.Now()
	s.handler = func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.asked, s.at = append(s.asked, r.URL.Path), append(s.at, time.Since(start))
		s.mu.Unlock()
		if r.URL.Path == "/robots.txt" {
			w.WriteHeader(robotsStatus)
			fmt.Fprint(w, robots)
			return
		}
		if h, ok := pages[r.URL.Path]; ok {
			w.Header().Set("Content-Type", "text/html")
			h(w, r)
			return
		}
		http.NotFound(w, r)
	}
	return s
}

// web answers each request with the handler of the site its URL names,
// in memory: a synctest bubble's clock stands still while a goroutine
// waits on a socket, so the crawl runs without one.
type web map[string]*site

func (w web) RoundTrip(r *http.Request) (*http.Response, error) {
	s, ok := w[r.URL.Scheme+"://"+r.URL.Host]
	if !ok {
		return nil, fmt.Errorf("no site at %s", r.URL.Host)
	}
	rec := httptest.NewRecorder()
	s.handler(rec, r)
	resp := rec.Result()
	resp.Request = r
	return resp, nil
}

func html(body string) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, body) }
}

func header(name, value, body string) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set(name, value)
		fmt.Fprint(w, body)
	}
}

func redirect(to string) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, to, http.StatusMovedPermanently) }
}

// TestCrawl runs in a synctest bubble, whose clock moves only when every
// goroutine waits: the pacing is seen at the exact times the crawler's
// slots fall, whatever the load on the machine.
func TestCrawl(t *testing.T) {
	synctest.Test(t, testCrawl)
}

func testCrawl(t *testing.T) {
	a := newSite("http://127.0.0.1:8001", "User-agent: *\nDisallow: /private\nCrawl-delay: 0.2\n", 200, map[string]func(http.ResponseWriter, *http.Request){
		"/": html(`<a href="/news">News</a> <a href="/old">Old</a> <a href="/private/direct">Admin</a>
			<a href="/hdr-noindex">1</a> <a href="/hdr-nofollow">2</a> <a href="/meta-noindex#top">3</a> <a href="/news#again">News</a>`),
		"/news":              html(`<meta name="robots" content="nofollow"><a href="/hidden-meta">hidden</a>`),
		"/meta-noindex":      html(`<meta name="examplecrawler" content="noindex"><a href="/from-meta-noindex">x</a>`),
		"/from-meta-noindex": html(`ok`),
		"/hdr-noindex":       header("X-Robots-Tag", "noindex", `<a href="/from-hdr-noindex">x</a>`),
		"/from-hdr-noindex":  html(`ok`),
		"/hdr-nofollow":      header("X-Robots-Tag", "examplecrawler: nofollow", `<a href="/hidden-hdr">hidden</a>`),
		"/old":               redirect("/private/moved"),
	})
	b := newSite("http://127.0.0.2:8002", "", http.StatusServiceUnavailable, map[string]func(http.ResponseWriter, *http.Request){"/": html(`<a href="/x">x</a>`)})
	c := newSite("http://127.0.0.3:8003", "User-agent: ExampleCrawler\nDisallow: /secret\n\nUser-agent: *\nDisallow: /\n", 200, map[string]func(http.ResponseWriter, *http.Request){
		"/":     html(`<a href="/secret">s</a> <a href="/open">o</a> <a href="` + a.URL + `/elsewhere">a</a>`),
		"/open": html(`ok`),
	})

	sites := web{a.URL: a, b.URL: b, c.URL: c}
	crawler, err := rep.New("ExampleCrawler/1.0", rep.WithPoliteness(rep.Politeness{MinDelay: 10 * time.Millisecond}),
		rep.WithFetchOptions(robotsfetch.Options{Client: &http.Client{Transport: sites}}))
	if err != nil {
		t.Fatal(err)
	}
	got := Crawl(context.Background(), &http.Client{Transport: crawler.Transport(sites)}, []string{a.URL + "/", b.URL + "/", c.URL + "/"}, 100)
	slices.Sort(got)
	want := []string{
		"fetched A/ index=true",
		"fetched A/from-hdr-noindex index=true",
		"fetched A/from-meta-noindex index=true",
		"fetched A/hdr-nofollow index=true",
		"fetched A/hdr-noindex index=false",
		"fetched A/meta-noindex index=false",
		"fetched A/news index=true",
		"fetched C/ index=true",
		"fetched C/open index=true",
		"skipped A/old: A/private/moved line 2: Disallow: /private",
		"skipped A/private/direct: A/private/direct line 2: Disallow: /private",
		"skipped B/: B/ robots.txt 503: unreachable",
		"skipped C/secret: C/secret line 2: Disallow: /secret",
	}
	for i := range want {
		want[i] = strings.NewReplacer("A/", a.URL+"/", "B/", b.URL+"/", "C/", c.URL+"/").Replace(want[i])
	}
	slices.Sort(want)
	if len(got) != len(want) {
		t.Fatalf("report:\n%s", strings.Join(got, "\n"))
	}
	for i := range want {
		if got[i] != want[i] && !(strings.HasPrefix(want[i], "skipped "+b.URL) && strings.HasPrefix(got[i], want[i])) {
			t.Errorf("line %d: %q, want %q", i, got[i], want[i])
		}
	}

	// What each site was asked: robots.txt first and once; nothing it
	// disallows, nothing behind a nofollow; nothing at all of B but its
	// robots.txt.
	for _, tc := range []struct {
		s    *site
		want []string
	}{
		{a, []string{"/robots.txt", "/", "/news", "/old", "/hdr-noindex", "/hdr-nofollow", "/meta-noindex", "/from-hdr-noindex", "/from-meta-noindex"}},
		{b, []string{"/robots.txt"}},
		{c, []string{"/robots.txt", "/", "/open"}},
	} {
		if fmt.Sprint(tc.s.asked) != fmt.Sprint(tc.want) {
			t.Errorf("%s was asked %q, want %q", tc.s.URL, tc.s.asked, tc.want)
		}
	}
	// A's Crawl-delay (0.2 s, above the 10 ms minimum) kept between its 8
	// pages, C's 10 ms minimum between its 2. robots.txt is paced like any
	// request: it takes the first slot, before its Crawl-delay is known,
	// so the first page follows it by the 10 ms minimum.
	for _, tc := range []struct {
		s    *site
		want string
	}{
		{a, "[0s 10ms 210ms 410ms 610ms 810ms 1.01s 1.21s 1.41s]"},
		{c, "[0s 10ms 20ms]"},
	} {
		if got := fmt.Sprint(tc.s.at); got != tc.want {
			t.Errorf("%s asked at %s, want %s", tc.s.URL, got, tc.want)
		}
	}
}
