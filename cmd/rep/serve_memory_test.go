package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"regexp"
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
	bin := repBinary(t)
	cmd := exec.Command(bin, "serve", "-addr", "127.0.0.1:0", "-allow-private", "-trust", "127.0.0.0/8")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	addr := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`url=(http://127\.0\.0\.1:\d+)/`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	var base string
	select {
	case base = <-addr:
	case <-time.After(20 * time.Second):
		t.Fatal("rep serve did not say where it listens")
	}
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
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	kb := func(field string) int {
		m := regexp.MustCompile(field + `:\s+(\d+) kB`).FindSubmatch(status)
		if m == nil {
			t.Fatalf("no %s in /proc/PID/status", field)
		}
		n, _ := strconv.Atoi(string(m[1]))
		return n
	}
	peak, now := kb("VmHWM")/1024, kb("VmRSS")/1024
	t.Logf("%d origins × %d KiB: peak RSS %d MB, now %d MB", origins, len(body)>>10, peak, now)
	if peak >= limitMB {
		t.Errorf("peak RSS %d MB for %d origins of 500 KiB: the bound is %d MB", peak, origins, limitMB)
	}
}
