package main

import (
	"compress/gzip"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestFetchScript runs testdata/fetch/*.txtar: the scripts of rep fetch
// and of rep check without -robots, which need web sites. Setup starts
// them on loopback for each script and names them in the environment:
//
//	$SITE   a robots.txt with two groups, a Crawl-delay and a sitemap
//	$GONE   404
//	$DOWN   503
//	$MOVED  redirects twice, across hosts, to $SITE's file
//	$LOOP   redirects six times
//	$HTML   an HTML login page served with 200
//	$GZIP   a gzip-encoded robots.txt
//	$GUIDE  the Google guide's msnbot and slurp groups, each a Crawl-delay
//
// They live apart from testdata/script, whose runner starts no servers.
func TestFetchScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/fetch",
		UpdateScripts: *update,
		Cmds:          map[string]func(ts *testscript.TestScript, neg bool, args []string){"status": cmdStatus},
		Setup: func(e *testscript.Env) error {
			e.Setenv("NO_COLOR", "1")
			serve := func(name string, h http.HandlerFunc) string {
				s := httptest.NewServer(h)
				e.Defer(s.Close)
				e.Setenv(name, s.URL)
				return s.URL
			}
			site := serve("SITE", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/plain")
				w.Header().Set("Cache-Control", "max-age=3600")
				fmt.Fprint(w, "User-agent: *\nDisallow: /private\nCrawl-delay: 5\n\nUser-agent: ExampleBot\nDisallow: /no-example\n\nSitemap: https://www.example.com/sitemap.xml\n")
			})
			serve("GONE", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
			serve("DOWN", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(503) })
			hop := serve("HOP", func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, site+"/robots.txt", http.StatusFound)
			})
			serve("MOVED", func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, hop+"/robots.txt", http.StatusMovedPermanently)
			})
			serve("LOOP", func(w http.ResponseWriter, r *http.Request) {
				var n int
				fmt.Sscan(r.URL.Query().Get("n"), &n)
				http.Redirect(w, r, fmt.Sprintf("/robots.txt?n=%d", n+1), http.StatusFound)
			})
			serve("HTML", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprint(w, "<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body><form>Password: <input type=password></form></body></html>\n")
			})
			serve("GUIDE", func(w http.ResponseWriter, r *http.Request) {
				fmt.Fprint(w, "User-agent: msnbot\nCrawl-delay: 5\n\nUser-agent: slurp\nCrawl-delay: 12\n")
			})
			serve("GZIP", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Encoding", "gzip")
				gz := gzip.NewWriter(w)
				fmt.Fprint(gz, "User-agent: *\nDisallow: /zipped\n")
				gz.Close()
			})
			return nil
		},
	})
}
