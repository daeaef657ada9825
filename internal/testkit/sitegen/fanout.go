package sitegen

import (
	"bufio"
	"fmt"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// FanOut is a site whose sitemaps fan out, for testing that a crawl bounds
// them: robots.txt names /index/0.xml, and every /index/N.xml is a sitemap
// index listing PerIndex more indexes, none listed twice; every other path
// is a small HTML page. It records the size of each sitemap served and the
// greatest heap in use (runtime.MemStats.HeapAlloc) seen when one was
// asked for. It is safe for concurrent use.
type FanOut struct {
	PerIndex int

	mu      sync.Mutex
	sizes   []int64
	maxHeap uint64
}

// Sizes returns the bytes of each sitemap served, in order.
func (f *FanOut) Sizes() []int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]int64(nil), f.sizes...)
}

// MaxHeap returns the greatest HeapAlloc seen when a sitemap was asked for.
func (f *FanOut) MaxHeap() uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.maxHeap
}

func (f *FanOut) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	origin := "http://" + r.Host
	if r.URL.Path == "/robots.txt" {
		fmt.Fprintf(w, "User-agent: *\nAllow: /\n\nSitemap: %s/index/0.xml\n", origin)
		return
	}
	name, ok := strings.CutPrefix(r.URL.Path, "/index/")
	n, err := strconv.Atoi(strings.TrimSuffix(name, ".xml"))
	if !ok || err != nil {
		fmt.Fprint(w, "<!doctype html><title>page</title>")
		return
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	w.Header().Set("Content-Type", "application/xml")
	cw := &countingWriter{w: w}
	b := bufio.NewWriterSize(cw, 64<<10)
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i := 1; i <= f.PerIndex; i++ {
		fmt.Fprintf(b, "<sitemap><loc>%s/index/%d.xml</loc></sitemap>\n", origin, n*f.PerIndex+i)
	}
	b.WriteString("</sitemapindex>\n")
	b.Flush()
	f.mu.Lock()
	f.sizes = append(f.sizes, cw.n)
	f.maxHeap = max(f.maxHeap, ms.HeapAlloc)
	f.mu.Unlock()
}

type countingWriter struct {
	w http.ResponseWriter
	n int64
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}
