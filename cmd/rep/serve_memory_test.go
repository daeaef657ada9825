package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestServeMemoryBound: 150 distinct loopback origins, each serving a
// robots.txt at the 500 KiB limit, leave a rep serve process with default
// flags under 200 MB of resident memory at its peak (VmHWM): the caches are
// bounded by bytes, not by origins. The server runs as its own process
// (a plain build, without the race detector) so that its memory alone is
// measured.
func TestServeMemoryBound(t *testing.T) {
	serialOnly(t)
	const limitMB = 200
	origins := 150
	if n, err := strconv.Atoi(os.Getenv("REP_MEMORY_ORIGINS")); err == nil && n > 0 {
		origins = n // for the RSS-against-origins figure in BENCHMARKS.md
	}
	body := "User-agent: *\n" + strings.Repeat("Disallow: /archive/2026/11/25/some-long-path-segment/\n", (500<<10)/55)
	var sites []*httptest.Server
	for range origins {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, body)
		}))
		defer s.Close()
		sites = append(sites, s)
	}
	base, pid := startServe(t, "-allow-private", "-trust", "127.0.0.0/8")
	client := &http.Client{Timeout: 30 * time.Second}
	for round := range 2 {
		for i, s := range sites {
			q := url.Values{"agent": {"Googlebot"}, "url": {s.URL + "/archive/2026/11/25/some-long-path-segment/x"}}
			resp, err := client.Get(base + "/api/allowed?" + q.Encode())
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !strings.Contains(string(b), `"allowed":false`) {
				t.Fatalf("round %d, origin %d: %d %s", round, i, resp.StatusCode, b)
			}
		}
	}
	peak := peakRSS(t, pid)
	t.Logf("%d origins × %d KiB: peak RSS %d MB", origins, len(body)>>10, peak)
	if peak >= limitMB {
		t.Errorf("peak RSS %d MB for %d origins of 500 KiB: the bound is %d MB", peak, origins, limitMB)
	}
}
