package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/server"
)

// pageDoorVerdict is what the library, rep page and /api/page must agree
// on for one URL and one crawler.
type pageDoorVerdict struct {
	Blocked bool
	Crawl   bool // robots.txt allows the URL (the final one after redirects)
	Line    int  // robots.txt's deciding line
	Index   bool
	Follow  bool
	Action  string
}

// TestPageDoorsAgree fetches each loopback URL through the library
// (Crawler.FetchPage), rep page -json and the server's /api/page, and
// asserts one page verdict: blocked or not, the robots.txt verdict, index,
// follow, and the words saying what the crawler does.
func TestPageDoorsAgree(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
		case "/noindex":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<html><head><meta name="robots" content="noindex"></head><body><a href="/a">a</a></body></html>`)
		case "/nofollow":
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("X-Robots-Tag", "nofollow")
			fmt.Fprint(w, `<p>x</p>`)
		case "/moved":
			http.Redirect(w, r, "/private/x", http.StatusFound)
		default:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<p>plain</p>`)
		}
	}))
	defer site.Close()
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer down.Close()
	srv, err := server.New(server.Config{AllowPrivate: true, RatePerSecond: -1, OriginRate: -1})
	if err != nil {
		t.Fatal(err)
	}
	api := httptest.NewServer(srv)
	defer api.Close()

	for _, tt := range []struct {
		name, url string
		want      pageDoorVerdict
	}{
		{"plain", site.URL + "/plain", pageDoorVerdict{false, true, 0, true, true, "fetches it; may index it; may follow its links"}},
		{"noindex", site.URL + "/noindex", pageDoorVerdict{false, true, 0, false, true, "fetches it; does not index it; may follow its links"}},
		{"nofollow header", site.URL + "/nofollow", pageDoorVerdict{false, true, 0, true, false, "fetches it; may index it; does not follow its links"}},
		{"disallowed", site.URL + "/private/p", pageDoorVerdict{true, false, 2, false, false, "does not fetch it: robots.txt disallows it (line 2: Disallow: /private); its robots meta tags and X-Robots-Tag headers are never seen"}},
		{"redirect into disallowed", site.URL + "/moved", pageDoorVerdict{true, false, 2, false, false, "does not fetch it: robots.txt disallows it (line 2: Disallow: /private); its robots meta tags and X-Robots-Tag headers are never seen"}},
		{"robots.txt unreachable", down.URL + "/x", pageDoorVerdict{true, false, 0, false, false, "does not fetch it: its robots.txt could not be read, so every URL of the site is disallowed (robots.txt 503: unreachable (429, 5xx or network error): everything disallowed); its robots meta tags and X-Robots-Tag headers are never seen"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// The library.
			c, err := rep.New("rep-test/1.0", rep.WithAgents("Googlebot"), rep.WithPoliteness(rep.Politeness{MinDelay: -1}))
			if err != nil {
				t.Fatal(err)
			}
			pf, err := c.FetchPage(context.Background(), tt.url, rep.PageOptions{})
			if err != nil {
				t.Fatal(err)
			}
			v := pf.Verdict
			lib := pageDoorVerdict{v.Blocked, v.Crawl.Allowed, v.Crawl.Rule.Line, v.Index, v.Follow, v.Action()}
			if lib != tt.want {
				t.Errorf("library:  %+v\nwant      %+v", lib, tt.want)
			}
			// rep page -json.
			var stdout, stderr bytes.Buffer
			run(context.Background(), []string{"page", "-allow-private", "-json", "-agent", "Googlebot", tt.url}, nil, &stdout, &stderr)
			var pj struct {
				Index, Follow, Blocked bool
				Action                 string
				Robots                 struct {
					Allowed bool
					Line    int
				}
			}
			if err := json.Unmarshal(stdout.Bytes(), &pj); err != nil {
				t.Fatalf("rep page: %v\n%s%s", err, stdout.String(), stderr.String())
			}
			cli := pageDoorVerdict{pj.Blocked, pj.Robots.Allowed, pj.Robots.Line, pj.Index, pj.Follow, pj.Action}
			if cli != tt.want {
				t.Errorf("rep page: %+v\nwant      %+v", cli, tt.want)
			}
			// /api/page.
			body, _ := json.Marshal(map[string]any{"url": tt.url, "agents": []string{"Googlebot"}})
			resp, err := http.Post(api.URL+"/api/page", "application/json", bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var aj struct {
				Crawlers []struct {
					Blocked bool
					Action  string
					Robots  struct {
						Allowed bool
						Line    int
					}
					Values []struct {
						Field string
						Value any
					}
				}
			}
			if err := json.NewDecoder(resp.Body).Decode(&aj); err != nil || len(aj.Crawlers) != 1 {
				t.Fatalf("/api/page: %d %v %+v", resp.StatusCode, err, aj)
			}
			cr := aj.Crawlers[0]
			apiV := pageDoorVerdict{Blocked: cr.Blocked, Crawl: cr.Robots.Allowed, Line: cr.Robots.Line, Action: cr.Action}
			for _, val := range cr.Values {
				switch val.Field {
				case "index":
					apiV.Index = val.Value == true
				case "follow":
					apiV.Follow = val.Value == true
				}
			}
			if apiV != tt.want {
				t.Errorf("/api/page: %+v\nwant      %+v", apiV, tt.want)
			}
			if cr.Blocked && len(cr.Values) != 0 {
				t.Errorf("/api/page shows values for a page nobody fetched: %+v", cr.Values)
			}
			if strings.Contains(stdout.String(), `"sources": [{`) && tt.want.Blocked {
				t.Errorf("rep page shows sources of a page it never fetched")
			}
		})
	}
}
