// Command bareserve is the baseline of the rep serve throughput benchmark
// (serve.sh): a bare net/http handler answering GET /api/allowed with a
// JSON answer of the same shape and content as rep serve's, computed once
// at start, so each request costs only HTTP and JSON encoding. With
// -origin it is instead the loopback site both servers ask: it serves a
// robots.txt.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/robotsfetch"
)

const robots = "User-agent: *\nDisallow: /private\nAllow: /private/ok\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: https://example.com/sitemap.xml\n"

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	origin := flag.Bool("origin", false, "serve a robots.txt (the site) instead of the bare answer")
	site := flag.String("site", "", "the site's URL, whose robots.txt the bare answer is computed from")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ln.Addr().String())
	os.Stdout.Sync()
	if *origin {
		log.Fatal(http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/robots.txt" {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/plain")
			w.Write([]byte(robots))
		})))
	}
	// The answer rep serve gives for the site's /private/p1, computed once.
	a, err := rep.NewAgent("Googlebot", rep.AgentOptions{})
	if err != nil {
		log.Fatal(err)
	}
	f, err := rep.NewFetchers(robotsfetch.Options{UserAgent: "bareserve"}).For(a)
	if err != nil {
		log.Fatal(err)
	}
	d, err := rep.Check(context.Background(), f, a, *site+"/private/p1")
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/allowed", func(w http.ResponseWriter, r *http.Request) {
		_ = r.URL.Query().Get("url")
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		json.NewEncoder(w).Encode(d)
	})
	log.Fatal(http.Serve(ln, mux))
}
