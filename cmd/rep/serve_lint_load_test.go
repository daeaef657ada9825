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
// failure), and /healthz keeps answering meanwhile.
//
// Both bounds are resource bounds, kept on purpose and generous: the
// memory one is the size the server is documented to fit in, and the
// health one is a liveness probe's (Kubernetes' defaults: a 1 s timeout,
// a restart after 3 failures in a row), so a server that fails it under
// load gets restarted in production. How fast /healthz answers is logged,
// not asserted.
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
	// /healthz, probe after probe, while the lint requests are in flight.
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	probe := &http.Client{Timeout: time.Second}
	var probes, failed, inRow, worstRow int
	var slowest time.Duration
	for loaded := true; loaded; {
		select {
		case <-done:
			loaded = false
		default:
		}
		start := time.Now()
		resp, err := probe.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
		}
		slowest = max(slowest, time.Since(start))
		probes++
		if err != nil || resp.StatusCode != 200 {
			failed++
			inRow++
			worstRow = max(worstRow, inRow)
		} else {
			inRow = 0
		}
	}
	close(codes)
	n200 := 0
	for c := range codes {
		if c == 200 {
			n200++
		}
	}
	peak := peakRSS(t, pid)
	t.Logf("%d clients: %d answered, the rest 503; peak RSS %d MB; %d /healthz probes, %d over 1 s or failed, slowest %v", clients, n200, peak, probes, failed, slowest)
	if peak >= limitMB {
		t.Errorf("peak RSS %d MB: the bound is %d MB", peak, limitMB)
	}
	if worstRow >= 3 {
		t.Errorf("/healthz failed or took over 1 s %d times in a row under load: a liveness probe would restart the server", worstRow)
	}
	if n200 == 0 {
		t.Error("no lint request was answered")
	}
}
