package rep_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/rep-toolkit/rep"
)

// tinySite serves a robots.txt and three linked pages: one disallowed, one
// with a nofollow link, one marked noindex.
func tinySite() *httptest.Server {
	pages := map[string]string{
		"/robots.txt": "User-agent: *\nDisallow: /private/\n",
		"/":           `<a href="/about">About</a> <a href="/private/admin">Admin</a> <a href="/ads" rel="sponsored">Ad</a>`,
		"/about":      `<meta name="robots" content="noindex"><a href="/">Home</a>`,
	}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if r.URL.Path != "/robots.txt" {
			w.Header().Set("Content-Type", "text/html")
		}
		fmt.Fprint(w, body)
	}))
}

// A complete polite crawler: its client asks robots.txt before each
// request and each redirect hop, paces each origin and reads each page's
// robots rules; the crawler follows the links it may follow.
func Example() {
	site := tinySite()
	defer site.Close()
	ctx := context.Background()
	c, _ := rep.New("ExampleBot/1.0 (+https://example.com/bot)", rep.WithDelay(10*time.Millisecond, time.Minute))
	client := c.Client()

	queue, seen := []string{site.URL + "/"}, map[string]bool{}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if seen[u] {
			continue
		}
		seen[u] = true
		path := strings.TrimPrefix(u, site.URL)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		resp, err := client.Do(req)
		var refused *rep.DisallowedError
		if errors.As(err, &refused) {
			fmt.Printf("%-15s skipped (%s): %s\n", path, refused.Kind, refused.Decision.Rule)
			continue
		} else if err != nil {
			continue
		}
		resp.Body.Close()
		page := rep.PageVerdictOf(resp)
		fmt.Printf("%-15s crawled, index=%v\n", path, page.Index)
		queue = append(queue, page.FollowedLinks()...)
	}
	// Output:
	// /               crawled, index=true
	// /about          crawled, index=false
	// /private/admin  skipped (rule): Disallow: /private/
}

// Allowed explains its answer: the deciding line and how robots.txt was
// fetched.
func ExampleCrawler_Check() {
	site := tinySite()
	defer site.Close()
	c, _ := rep.New("ExampleBot/1.0")
	d, _ := c.Check(context.Background(), site.URL+"/private/report.pdf")
	fmt.Println(d.Allowed, d.Rule.Line, d.Rule)
	fmt.Println(d.Fetch.Status, d.Fetch.Case, d.Fetch.Verdict)
	// Output:
	// false 2 Disallow: /private/
	// 200 success use-rules
}

// The robots-aware client: each request and each redirect hop is asked of
// robots.txt and paced per origin, a refusal is a *DisallowedError, and
// each response carries its page verdict while its body stays whole.
func ExampleCrawler_Client() {
	site := tinySite()
	defer site.Close()
	ctx := context.Background()
	c, _ := rep.New("ExampleBot/1.0 (+https://example.com/bot)", rep.WithDelay(10*time.Millisecond, time.Minute))
	client := c.Client()
	for _, path := range []string{"/", "/about", "/private/admin"} {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, site.URL+path, nil)
		resp, err := client.Do(req)
		var refused *rep.DisallowedError
		if errors.As(err, &refused) {
			fmt.Printf("%-15s refused: %s\n", path, refused.Decision.Rule)
			continue
		} else if err != nil {
			fmt.Println(err)
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		page := rep.PageVerdictOf(resp)
		fmt.Printf("%-15s %d bytes, index=%v, links to follow: %d\n", path, len(body), page.Index, len(page.FollowedLinks()))
	}
	// Output:
	// /               99 bytes, index=true, links to follow: 2
	// /about          58 bytes, index=false, links to follow: 1
	// /private/admin  refused: Disallow: /private/
}
