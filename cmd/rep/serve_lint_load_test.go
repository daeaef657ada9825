package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestServeLintLoad: 32 clients post a 1 MB robots.txt of 50,000 misspelt
// lines to /api/lint at once. rep serve, run as its own process with
// default flags, stays under 300 MB of resident memory at its peak, every
// answer is a capped findings list or a 503 asking to retry (never a
// failure), and /healthz answers within 100 ms meanwhile.
func TestServeLintLoad(t *testing.T) {
	const clients, limitMB = 32, 300
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 0; b.Len() < 1<<20-64; i++ {
		fmt.Fprintf(&b, "Dissalow: /p%d\n", i)
	}
	body, _ := json.Marshal(map[string]string{"robots": b.String()})
	base, pid := startServe(t)
	client := &http.Client{Timeout: 60 * time.Second}
	var wg sync.WaitGroup
	codes := make(chan int, clients)
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := client.Post(base+"/api/lint", "application/json", bytes.NewReader(body))
			if err != nil {
				t.Error(err)
				return
			}
			var j struct {
				Findings []json.RawMessage `json:"findings"`
				Total    int               `json:"findings_total"`
			}
			if resp.StatusCode == 200 {
				json.NewDecoder(resp.Body).Decode(&j)
				if len(j.Findings) != 5000 || j.Total <= 5000 {
					t.Errorf("200 with %d findings of %d: want the first 5000 of all", len(j.Findings), j.Total)
				}
			} else if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" {
				t.Errorf("status %d, Retry-After %q: want 200, or 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			codes <- resp.StatusCode
		}()
	}
	// /healthz while the lint requests are in flight.
	time.Sleep(200 * time.Millisecond)
	var slowest time.Duration
	for range 10 {
		start := time.Now()
		resp, err := client.Get(base + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		slowest = max(slowest, time.Since(start))
		time.Sleep(50 * time.Millisecond)
	}
	wg.Wait()
	close(codes)
	n200 := 0
	for c := range codes {
		if c == 200 {
			n200++
		}
	}
	peak := peakRSS(t, pid)
	t.Logf("%d clients: %d answered, the rest 503; peak RSS %d MB; slowest /healthz %v", clients, n200, peak, slowest)
	if peak >= limitMB {
		t.Errorf("peak RSS %d MB: the bound is %d MB", peak, limitMB)
	}
	if slowest >= 100*time.Millisecond {
		t.Errorf("/healthz took %v under load: the bound is 100 ms", slowest)
	}
	if n200 == 0 {
		t.Error("no lint request was answered")
	}
}
