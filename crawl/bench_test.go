package crawl

import (
	"context"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/internal/testkit/sitegen"
)

// BenchmarkCrawlLarge crawls a generated site of $REP_CRAWL_PAGES pages
// (default 10,000) on loopback, with no delay and 8 requests in flight,
// and reports pages/s and the process's peak RSS (server included; Linux
// only). BENCHMARKS.md: REP_CRAWL_PAGES=100000 go test -run '^$'
// -bench CrawlLarge -benchtime 1x ./crawl
func BenchmarkCrawlLarge(b *testing.B) {
	n := 10000
	if s := os.Getenv("REP_CRAWL_PAGES"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			b.Fatal(err)
		}
	}
	srv := httptest.NewServer(sitegen.Large(n))
	defer srv.Close()
	for b.Loop() {
		pages := 0
		r, err := Run(context.Background(), Config{Start: srv.URL, AllowPrivate: true, MaxPages: n + 1, Concurrency: 8,
			OnPage: func(*Page) { pages++ }})
		if err != nil {
			b.Fatal(err)
		}
		if r.Crawled != n || len(r.Findings) != 0 {
			b.Fatalf("crawled %d of %d, %d findings", r.Crawled, n, len(r.Findings))
		}
		b.ReportMetric(float64(pages)/r.Duration, "pages/s")
	}
	if kb := peakRSSKiB(); kb > 0 {
		b.ReportMetric(float64(kb)/1024, "peak-RSS-MiB")
	}
}

// peakRSSKiB reads VmHWM from /proc/self/status; 0 when unknown.
func peakRSSKiB() int {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for l := range strings.SplitSeq(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return kb
		}
	}
	return 0
}
