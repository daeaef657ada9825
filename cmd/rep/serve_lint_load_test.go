package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
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
	serialOnly(t)
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
	// /healthz while the lint requests are in flight: 20 probes; the
	// bound holds for 18 of them, so that one spike of the test machine's
	// own load (go test runs packages side by side) is not taken for the
	// server's.
	time.Sleep(200 * time.Millisecond)
	var took []time.Duration
	for range 20 {
		start := time.Now()
		resp, err := client.Get(base + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		took = append(took, time.Since(start))
		time.Sleep(50 * time.Millisecond)
	}
	slices.Sort(took)
	p90, slowest := took[17], took[19]
	wg.Wait()
	close(codes)
	n200 := 0
	for c := range codes {
		if c == 200 {
			n200++
		}
	}
	peak := peakRSS(t, pid)
	t.Logf("%d clients: %d answered, the rest 503; peak RSS %d MB; /healthz 18th of 20 %v, slowest %v", clients, n200, peak, p90, slowest)
	if peak >= limitMB {
		t.Errorf("peak RSS %d MB: the bound is %d MB", peak, limitMB)
	}
	if p90 >= 100*time.Millisecond {
		t.Errorf("/healthz took %v or more in 3 of 20 probes under load: the bound is 100 ms", p90)
	}
	if n200 == 0 {
		t.Error("no lint request was answered")
	}
}
