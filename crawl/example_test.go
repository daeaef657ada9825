package crawl_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/crawl"
)

// Crawl a small site as Googlebot sees it: the page it links to carries a
// noindex that Googlebot never reads, because robots.txt disallows it.
func ExampleRun() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: Googlebot\nDisallow: /hidden\n")
		case "/":
			fmt.Fprint(w, `<html><body><a href="/hidden">hidden</a></body></html>`)
		case "/hidden":
			fmt.Fprint(w, `<html><head><meta name="robots" content="noindex"></head></html>`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer site.Close()
	googlebot, _ := rep.NewAgent("Googlebot", rep.AgentOptions{})
	r, err := crawl.Run(context.Background(), crawl.Config{
		Start: site.URL + "/", Agents: []*rep.Agent{googlebot}, MaxPages: 10,
		AllowPrivate: true, // the example site is on loopback
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range r.Findings {
		if f.Code == "noindex-unseen" {
			fmt.Println(f.Code, f.Agent)
		}
	}
	// Output:
	// noindex-unseen Googlebot
}
