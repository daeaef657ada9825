package robotsfetch_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/rep-toolkit/rep/robotsfetch"
)

// A Fetcher fetches an origin's robots.txt once and answers from memory
// until the copy expires; Stats counts what it did.
func Example() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
	}))
	defer site.Close()

	f, err := robotsfetch.New(robotsfetch.Options{UserAgent: "ExampleBot/1.0 (+https://example.com/bot)"})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	for _, path := range []string{"/private/report", "/news"} {
		r, err := f.Get(ctx, site.URL+path)
		if err != nil {
			log.Fatal(err)
		}
		d := r.Check(site.URL+path, "ExampleBot")
		fmt.Printf("%s: allowed %v (%s, %s, cached %v)\n", path, d.Allowed, r.Outcome.Case, r.Outcome.Source, r.Outcome.Cached)
	}
	s := f.Stats()
	fmt.Printf("requests %d, fetched with success %d, memory hits %d\n", s.Requests, s.Fetches[robotsfetch.Success], s.CacheHits)
	// Output:
	// /private/report: allowed false (success, network, cached false)
	// /news: allowed true (success, network, cached true)
	// requests 1, fetched with success 1, memory hits 1
}

// Fetchers sharing a Store (here in memory; boltstore and redisstore keep
// it in a file or a Redis server) fetch each origin once between them,
// even when they ask for it at the same moment: the Store's lease lets one
// fetch while the others wait for its entry. OnFetch sees every fetch and
// every answer read from the Store.
func Example_sharedStore() {
	var requests int
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests++
		fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
	}))
	defer site.Close()

	store := &robotsfetch.MemoryStore{}
	hook := func(o robotsfetch.Outcome) { fmt.Println("fetch hook:", o.Case, "from", o.Source) }
	ctx := context.Background()
	for range 2 {
		f, err := robotsfetch.New(robotsfetch.Options{UserAgent: "ExampleBot/1.0", Store: store, OnFetch: hook})
		if err != nil {
			log.Fatal(err)
		}
		if _, err := f.Get(ctx, site.URL+"/news"); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println("requests to the site:", requests)
	// Output:
	// fetch hook: success from network
	// fetch hook: success from store
	// requests to the site: 1
}
