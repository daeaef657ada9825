package crawl

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/internal/testkit/sitegen"
)

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
			site := &sitegen.FanOut{PerIndex: perIndex}
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
					sum += site.Sizes()[want]
				}
			}
			if len(r.Sitemaps) != want || len(site.Sizes()) != want {
				t.Errorf("read %d sitemaps, %d served; want %d", len(r.Sitemaps), len(site.Sizes()), want)
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
			if h := site.MaxHeap(); h > 64<<20 {
				t.Errorf("heap reached %d MiB while reading sitemaps", h>>20)
			}
		})
	}
}
