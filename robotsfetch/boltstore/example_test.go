package boltstore_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotsfetch/boltstore"
)

// A crawler that keeps its robots.txt files in a bolt file finds them
// there after a restart: no second request to the site.
func Example() {
	requests := 0
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests++
		fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
	}))
	defer site.Close()
	dir, err := os.MkdirTemp("", "robots")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	for run := 1; run <= 2; run++ { // two runs of the crawler
		st, err := boltstore.Open(filepath.Join(dir, "robots.db"))
		if err != nil {
			log.Fatal(err)
		}
		f, err := robotsfetch.New(robotsfetch.Options{UserAgent: "ExampleBot/1.0", Store: st})
		if err != nil {
			log.Fatal(err)
		}
		r, err := f.Get(context.Background(), site.URL+"/private/x")
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("run %d: %s from %s, /private/x allowed %v\n", run, r.Outcome.Case, r.Outcome.Source,
			r.Check(site.URL+"/private/x", "ExampleBot").Allowed)
		st.Close()
	}
	fmt.Println("requests to the site:", requests)
	// Output:
	// run 1: success from network, /private/x allowed false
	// run 2: success from store, /private/x allowed false
	// requests to the site: 1
}
