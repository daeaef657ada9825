// Command crawler is a polite site crawler on rep's client (robots.txt on each
// request and redirect hop, Crawl-delay per host): go run . https://example.com/
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"

	"github.com/rep-toolkit/rep"
)

func main() {
	c, _ := rep.New("ExampleCrawler/1.0 (+https://example.com/bot)")
	fmt.Println(strings.Join(Crawl(context.Background(), c.Client(), os.Args[1:], 100), "\n"))
}

// Crawl visits the pages under each seed through client (a rep Crawler's
// Client: robots.txt checked and Crawl-delay kept on each request and
// redirect hop), one goroutine per seed, up to limit URLs each, and reports
// each URL: fetched (index=true or false) or skipped.
func Crawl(ctx context.Context, client *http.Client, seeds []string, limit int) (report []string) {
	mu, wg := sync.Mutex{}, sync.WaitGroup{}
	for _, seed := range seeds {
		wg.Go(func() {
			queue, seen := []string{seed}, map[string]bool{seed: true}
			for ; len(queue) > 0; queue = queue[1:] {
				line, links := fetch(ctx, client, queue[0])
				mu.Lock()
				report = append(report, line)
				mu.Unlock()
				for _, l := range links { // the links the page lets us follow
					if strings.HasPrefix(l, seed) && !seen[l] && len(seen) < limit {
						seen[l], queue = true, append(queue, l)
					}
				}
			}
		})
	}
	wg.Wait()
	return report
}

func fetch(ctx context.Context, client *http.Client, u string) (line string, links []string) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	resp, err := client.Do(req)
	if no := (*rep.DisallowedError)(nil); errors.As(err, &no) {
		return "skipped " + u + ": " + no.URL + " " + no.Decision.Why(), nil
	} else if err != nil {
		return "skipped " + u + ": " + err.Error(), nil
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body) // a real crawler keeps the page here
	page := rep.PageVerdictOf(resp)
	return fmt.Sprintf("fetched %s index=%v", u, page.Index), page.FollowedLinks()
}
