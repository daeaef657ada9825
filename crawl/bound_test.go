package crawl

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// fanOut is a site whose sitemaps fan out: robots.txt names /index/0.xml,
// and every /index/N.xml is a sitemap index listing perIndex more indexes,
// none listed twice. It counts the sitemaps served and the greatest heap
// in use seen when serving one.
type fanOut struct {
	perIndex int
	mu       sync.Mutex
	served   int
	maxHeap  uint64
	sizes    []int64 // the bytes of each sitemap served
}

func (f *fanOut) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	origin := "http://" + r.Host
	switch {
	case r.URL.Path == "/robots.txt":
		fmt.Fprintf(w, "User-agent: *\nAllow: /\n\nSitemap: %s/index/0.xml\n", origin)
	case strings.HasPrefix(r.URL.Path, "/index/"):
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/index/"), ".xml"))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		f.mu.Lock()
		f.served++
		f.maxHeap = max(f.maxHeap, ms.HeapAlloc)
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/xml")
		cw := &countWriter{w: w}
		b := bufio.NewWriter(cw)
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for i := 1; i <= f.perIndex; i++ {
			fmt.Fprintf(b, "<sitemap><loc>%s/index/%d.xml</loc></sitemap>\n", origin, n*f.perIndex+i)
		}
		b.WriteString("</sitemapindex>\n")
		b.Flush()
		f.mu.Lock()
		f.sizes = append(f.sizes, cw.n)
		f.mu.Unlock()
	default:
		fmt.Fprint(w, "<!doctype html><title>home</title>")
	}
}

type countWriter struct {
	w http.ResponseWriter
	n int64
}

func (c *countWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}

// TestSitemapFanOutBounded: a sitemap index fan-out (each index lists
// 2,000 more) stays bounded in total, by files and by bytes: the crawl
// reads exactly MaxSitemaps files, or stops at MaxSitemapBytes, says
// truncated, and reports a sitemaps-truncated finding counting what it
// left out. The heap is sampled each time a sitemap is served.
func TestSitemapFanOutBounded(t *testing.T) {
	const perIndex = 2000
	for _, tt := range []struct {
		name    string
		files   int
		bytes   int64
		wantMsg string // in a finding
	}{
		// The queue holds 20 (the first index and 19 of its entries):
		// 20 files list 40,000 entries, of which 40,000-19 are dropped.
		{"files", 20, 0, fmt.Sprintf("at most 20 sitemaps in all (Config.MaxSitemaps): %d more sitemap entries", 20*perIndex-19)},
		// An index is about 130 KB: 512 KiB is read from the first few,
		// the last cut.
		{"bytes", 1000, 512 << 10, "at most 524288 bytes of sitemaps in all, uncompressed (Config.MaxSitemapBytes): reading stopped"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			site := &fanOut{perIndex: perIndex}
			srv := httptest.NewServer(site)
			defer srv.Close()
			r, err := Run(context.Background(), Config{Start: srv.URL, AllowPrivate: true, MaxPages: 10,
				MaxSitemaps: tt.files, MaxSitemapBytes: tt.bytes})
			if err != nil {
				t.Fatal(err)
			}
			// Files read: exactly the bound, or as many as the bytes
			// bound reaches into.
			want := tt.files
			if tt.bytes > 0 {
				sum := int64(0)
				for want = 0; sum < tt.bytes; want++ {
					sum += site.sizes[want]
				}
			}
			if len(r.Sitemaps) != want || site.served != want {
				t.Errorf("read %d sitemaps, %d served; want %d", len(r.Sitemaps), site.served, want)
			}
			if !r.Truncated {
				t.Error("the report does not say truncated")
			}
			n := 0
			for _, f := range r.Findings {
				if f.Code == CodeSitemapsTruncated && strings.Contains(f.Message, tt.wantMsg) {
					n++
				}
			}
			if n != 1 {
				t.Errorf("findings %+v, want one sitemaps-truncated saying %q", r.Findings, tt.wantMsg)
			}
			// The target is a process under 256 MB RSS for a
			// fan-out of 50,000 indexes of 50,000; here the heap in use
			// while sitemaps are read must stay far below it, the queue
			// holding at most MaxSitemaps locations. Generous: 64 MiB.
			if site.maxHeap > 64<<20 {
				t.Errorf("heap reached %d MiB while reading sitemaps", site.maxHeap>>20)
			}
		})
	}
}
