// Package sitegen serves generated web sites for the tests of rep crawl:
// Planted, a small site with every finding code of package crawl planted
// beside clean pages, with the list of findings a crawl must report;
// Large, a site of any number of linked pages for measuring a crawl; and
// FanOut, sitemap indexes that list ever more indexes, for its bounds.
package sitegen

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// Want is one finding a crawl of Planted must report.
type Want struct {
	Code  string
	Agent string // "" for findings that hold for every crawler
	URL   string
}

func (w Want) String() string { return w.Code + " " + w.Agent + " " + w.URL }

const robots = `User-agent: *
Disallow: /private/
Disallow: /assets/js/blocked/
Disallow: /blocked/

User-agent: bingbot
Disallow: /private/
Disallow: /assets/js/blocked/
Disallow: /blocked/
Disallow: /bing-only/

User-agent: rep-crawl
Disallow: /no-rep/

Sitemap: {{H}}/sitemap_index.xml
`

func page(title, head, body string) string {
	return "<!DOCTYPE html>\n<html><head><title>" + title + "</title>\n" + head + "\n<link rel=\"stylesheet\" href=\"/assets/site.css\">\n</head>\n<body>\n" + body + "\n</body></html>\n"
}

var pages = map[string]string{
	"/": page("Home", "", `<a href="/a">A</a> <a href="/b">B</a> <a href="/linker">Linker</a>
<a href="/resources">Resources</a> <a href="/nofollow">Nofollow</a> <a href="/conflict">Conflict</a>
<a href="/expired">Expired</a> <a href="/report.pdf">Report</a> <a href="/no-rep/x">Not for rep</a>
<a href="https://elsewhere.example/">Elsewhere</a>`),
	"/a":               page("A", "", `<a href="/">Home</a> <img src="/assets/logo.png" alt="">`),
	"/b":               page("B", `<meta name="robots" content="max-snippet:50">`, `<a href="/a#top">A</a>`),
	"/linker":          page("Linker", "", `<a href="/private/secret">Secret</a>`),
	"/private/secret":  page("Secret", `<meta name="robots" content="noindex">`, `Keep out.`),
	"/resources":       page("Resources", "", "<script src=\"/assets/js/app.js\"></script>\n<script src=\"/assets/js/blocked/app.js\"></script>\n<img src=\"/assets/logo.png\" alt=\"\">"),
	"/nofollow":        page("Nofollow", "", `<a href="/a" rel="nofollow">A</a> <a href="https://elsewhere.example/" rel="sponsored">ad</a>`),
	"/conflict":        page("Conflict", `<meta name="robots" content="index, follow">`, `Header says noindex.`),
	"/expired":         page("Expired", `<meta name="robots" content="unavailable_after: 2020-01-01">`, `Old news.`),
	"/googlebot-noidx": page("Google noindex", `<meta name="googlebot" content="noindex">`, `For bingbot only.`),
	"/blocked/page":    page("Blocked", "", `Listed but blocked.`),
	"/bing-only/page":  page("Bing only", "", `Blocked for bingbot.`),
	"/sitemaps/story":  page("Story", "", `News.`),
	"/no-rep/x":        page("No rep", `<meta name="robots" content="noindex">`, `rep-crawl is kept out.`),
}

func gz(s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.Bytes()
}

func urlset(entries ...string) string {
	return `<?xml version="1.0" encoding="UTF-8"?>` + "\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n" + strings.Join(entries, "\n") + "\n</urlset>\n"
}

func entry(loc, lastmod string) string {
	if lastmod == "" {
		return "<url><loc>" + loc + "</loc></url>"
	}
	return "<url><loc>" + loc + "</loc><lastmod>" + lastmod + "</lastmod></url>"
}

// Planted serves the planted site. It uses the request's Host for its
// absolute URLs, so it works behind any httptest.Server.
func Planted() http.Handler {
	many := func(h string) []byte {
		var b strings.Builder
		b.WriteString("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n")
		for range 50001 {
			b.WriteString("<url><loc>" + h + "/a</loc></url>\n")
		}
		b.WriteString("</urlset>\n")
		return gz(b.String())
	}
	// A text sitemap over 50 MB: the same URL on lines padded with
	// spaces, which the reader trims (cheap to read, even with -race). It
	// is one small gzip member of 64 lines repeated: a reader reads the
	// members as one stream (RFC 1952 §2.2), and the site answers at once
	// instead of compressing 50 MB first, which took a loaded machine
	// running -race longer than a crawler waits for response headers.
	large := func(h string) []byte {
		line := strings.Repeat(" ", 30000) + h + "/b\n"
		lines := (50<<20)/len(line) + 2
		return bytes.Repeat(gz(strings.Repeat(line, 64)), lines/64+1)
	}
	var (
		mu    sync.Mutex
		cache = map[string][]byte{}
	)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := "http://" + r.Host
		switch p := r.URL.Path; p {
		case "/robots.txt":
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, strings.ReplaceAll(robots, "{{H}}", h))
		case "/sitemap_index.xml":
			w.Header().Set("Content-Type", "application/xml")
			fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>%[1]s/sitemap-pages.xml.gz</loc><lastmod>2025-01-01</lastmod></sitemap>
<sitemap><loc>%[1]s/sitemaps/news.txt</loc></sitemap>
<sitemap><loc>%[1]s/sitemap-missing.xml</loc></sitemap>
<sitemap><loc>%[1]s/sitemap-broken.xml</loc></sitemap>
<sitemap><loc>%[1]s/sitemap-many.xml.gz</loc></sitemap>
<sitemap><loc>%[1]s/sitemap-large.txt.gz</loc></sitemap>
</sitemapindex>
`, h)
		case "/sitemap-pages.xml.gz":
			w.Header().Set("Content-Type", "application/gzip")
			w.Write(gz(urlset(entry(h+"/", "2025-01-01"), entry(h+"/a", "2025-01-02T10:00:00+00:00"), entry(h+"/b", "yesterday"),
				entry(h+"/report.pdf", ""), entry(h+"/googlebot-noidx", ""), entry(h+"/blocked/page", ""), entry(h+"/bing-only/page", ""),
				entry(h+"/gone", ""), entry(h+"/moved", ""), entry("https://other.example/x", ""), entry("/relative", ""))))
		case "/sitemaps/news.txt":
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprintf(w, "%[1]s/sitemaps/story\n%[1]s/c\n", h)
		case "/sitemap-broken.xml":
			w.Header().Set("Content-Type", "application/xml")
			fmt.Fprintf(w, "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>%s/a</loc></url>\n<url><loc>", h)
		case "/sitemap-many.xml.gz", "/sitemap-large.txt.gz":
			// The headers first: making the file takes seconds under
			// -race, which a client's header timeout must not count.
			w.Header().Set("Content-Type", "application/gzip")
			w.WriteHeader(http.StatusOK)
			if f, ok := w.(http.Flusher); ok {
				f.Flush()
			}
			key := p + h
			mu.Lock()
			if cache[key] == nil {
				if p == "/sitemap-many.xml.gz" {
					cache[key] = many(h)
				} else {
					cache[key] = large(h)
				}
			}
			data := cache[key]
			mu.Unlock()
			w.Write(data)
		case "/report.pdf":
			w.Header().Set("Content-Type", "application/pdf")
			w.Header().Set("X-Robots-Tag", "noindex")
			w.Write([]byte("%PDF-1.4\n%%EOF\n"))
		case "/conflict":
			w.Header().Set("X-Robots-Tag", "noindex")
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, pages[p])
		case "/moved":
			http.Redirect(w, r, "/a", http.StatusMovedPermanently)
		case "/assets/site.css":
			w.Header().Set("Content-Type", "text/css")
			fmt.Fprint(w, "body{}")
		default:
			body, ok := pages[p]
			if !ok {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, body)
		}
	})
}

// PlantedWant returns the findings a crawl of Planted at base (its
// http://host:port) must report for Googlebot and bingbot, sorted.
func PlantedWant(base string) []Want {
	both := func(code, path string) []Want {
		return []Want{{code, "Googlebot", base + path}, {code, "bingbot", base + path}}
	}
	var w []Want
	w = append(w, both("disallowed-linked", "/private/secret")...)
	w = append(w, both("noindex-unseen", "/private/secret")...)
	w = append(w, both("blocked-resource", "/assets/js/blocked/app.js")...)
	w = append(w, both("internal-nofollow", "/nofollow")...)
	w = append(w, both("meta-header-conflict", "/conflict")...)
	// Bing does not read unavailable_after.
	w = append(w, Want{"unavailable-after-passed", "Googlebot", base + "/expired"})
	w = append(w, both("sitemap-noindex", "/report.pdf")...)
	w = append(w, Want{"sitemap-noindex", "Googlebot", base + "/googlebot-noidx"})
	w = append(w, both("sitemap-disallowed", "/blocked/page")...)
	w = append(w, Want{"sitemap-disallowed", "bingbot", base + "/bing-only/page"})
	w = append(w,
		Want{"sitemap-not-ok", "", base + "/gone"},
		Want{"sitemap-not-ok", "", base + "/moved"},
		Want{"sitemap-other-host", "", "https://other.example/x"},
		Want{"sitemap-bad-lastmod", "", base + "/b"},
		Want{"sitemap-bad-url", "", base + "/sitemap-pages.xml.gz"},
		Want{"sitemap-outside-path", "", base + "/c"},
		Want{"sitemap-unreachable", "", base + "/sitemap-missing.xml"},
		Want{"sitemap-invalid", "", base + "/sitemap-broken.xml"},
		Want{"sitemap-too-many-urls", "", base + "/sitemap-many.xml.gz"},
		Want{"sitemap-too-large", "", base + "/sitemap-large.txt.gz"},
	)
	return w
}

// Large serves a site of n pages, /p/0 to /p/n-1, each linking to ten
// others (page i to 10i+1 ... 10i+10), so a crawl from / reaches every
// one; robots.txt disallows /p/*/private, which no page links to.
func Large(n int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if p == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow: /p/*/private\n")
			return
		}
		i := 0
		if p != "/" {
			s, ok := strings.CutPrefix(p, "/p/")
			var err error
			if i, err = strconv.Atoi(s); !ok || err != nil || i < 0 || i >= n {
				http.NotFound(w, r)
				return
			}
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		var b strings.Builder
		fmt.Fprintf(&b, "<!DOCTYPE html><html><head><title>Page %d</title><meta name=\"robots\" content=\"max-snippet:100\"><link rel=\"stylesheet\" href=\"/s.css\"></head><body><h1>Page %d</h1>\n", i, i)
		for j := 10*i + 1; j <= 10*i+10 && j < n; j++ {
			fmt.Fprintf(&b, "<a href=\"/p/%d\">page %d</a>\n", j, j)
		}
		b.WriteString(strings.Repeat("<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>\n", 20))
		b.WriteString("</body></html>\n")
		w.Write([]byte(b.String()))
	})
}
