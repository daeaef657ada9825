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
	"time"

	"github.com/rep-toolkit/rep"
)

// site is a loopback site with its own robots.txt; it records what it was
// asked and when.
type site struct {
	*httptest.Server
	mu    sync.Mutex
	asked []string
	at    []time.Time
}

func newSite(t *testing.T, robots string, robotsStatus int, pages map[string]func(w http.ResponseWriter, r *http.Request)) *site {
	s := &site{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.asked, s.at = append(s.asked, r.URL.Path), append(s.at, time.Now())
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
	}))
	t.Cleanup(s.Close)
	return s
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

func TestCrawl(t *testing.T) {
	a := newSite(t, "User-agent: *\nDisallow: /private\nCrawl-delay: 0.2\n", 200, map[string]func(http.ResponseWriter, *http.Request){
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
	b := newSite(t, "", http.StatusServiceUnavailable, map[string]func(http.ResponseWriter, *http.Request){"/": html(`<a href="/x">x</a>`)})
	c := newSite(t, "User-agent: ExampleCrawler\nDisallow: /secret\n\nUser-agent: *\nDisallow: /\n", 200, map[string]func(http.ResponseWriter, *http.Request){
		"/":     html(`<a href="/secret">s</a> <a href="/open">o</a> <a href="` + a.URL + `/elsewhere">a</a>`),
		"/open": html(`ok`),
	})

	crawler, err := rep.New("ExampleCrawler/1.0", rep.WithPoliteness(rep.Politeness{MinDelay: 10 * time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	got := Crawl(context.Background(), crawler, []string{a.URL + "/", b.URL + "/", c.URL + "/"}, 100)
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
	// pages (a request reaches the server a little after its slot, so
	// the span is measured, not each gap).
	if span := a.at[len(a.at)-1].Sub(a.at[1]); span < 7*200*time.Millisecond-20*time.Millisecond {
		t.Errorf("8 pages of A in %v, want 7 Crawl-delays of 0.2 s", span)
	}
}
