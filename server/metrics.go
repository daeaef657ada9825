package server

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rep-toolkit/rep/robotsfetch"
)

// metrics are the server's counters, exposed at GET /metrics in the
// Prometheus text format (version 0.0.4), written by hand: a few counters
// and one histogram do not need a client library.
type metrics struct {
	fetches   [16]atomic.Int64 // by robotsfetch.Case
	hits      atomic.Int64
	misses    atomic.Int64
	storeErrs [2]atomic.Int64 // get, put
	answers   [len(answerEndpoints)][3]atomic.Int64
	limits    [2]atomic.Int64 // client, origin
	latency   [len(routes)]histogram
}

// answerEndpoints are the endpoints whose verdicts are counted.
var answerEndpoints = [...]string{"allowed", "batch", "check", "page"}

const (
	answerAllowed = iota
	answerBatch
	answerCheck
	answerPage
)

// verdictNames label the answers: a verdict, or an error instead of one.
var verdictNames = [3]string{"allowed", "disallowed", "error"}

// routes label the latency histogram: the page, every endpoint, and
// "other" for anything else, so the label set stays bounded.
var routes = [...]string{"/", "/healthz", "/metrics", "/api/check", "/api/lint", "/api/page", "/api/fetch", "/api/allowed", "/api/crawl", "/api/crawl/codes", "/api/crawlers", "/api/info", "other"}

func routeIndex(path string) int {
	for i, r := range routes {
		if r == path {
			return i
		}
	}
	if !strings.HasPrefix(path, "/api/") {
		return 0 // the page and its static files
	}
	return len(routes) - 1
}

// latencyBuckets are the histogram's upper bounds in seconds: from a
// cached answer (well under a millisecond) to a fetch near its timeout.
var latencyBuckets = [...]float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30}

type histogram struct {
	counts [len(latencyBuckets) + 1]atomic.Int64 // the last is +Inf
	sumNS  atomic.Int64
}

func (h *histogram) observe(d time.Duration) {
	s := d.Seconds()
	i := 0
	for i < len(latencyBuckets) && s > latencyBuckets[i] {
		i++
	}
	h.counts[i].Add(1)
	h.sumNS.Add(int64(d))
}

// fetch counts one fetch of a robots.txt by how it was read.
func (m *metrics) fetch(c robotsfetch.Case) {
	if int(c) < len(m.fetches) {
		m.fetches[c].Add(1)
	}
}

// cache counts an answer from the cache, or one that waited for a fetch.
func (m *metrics) cache(hit bool) {
	if hit {
		m.hits.Add(1)
	} else {
		m.misses.Add(1)
	}
}

func (m *metrics) answer(endpoint int, allowed bool, err error) {
	v := 1
	switch {
	case err != nil:
		v = 2
	case allowed:
		v = 0
	}
	m.answers[endpoint][v].Add(1)
}

func (m *metrics) limited(perOrigin bool) {
	if perOrigin {
		m.limits[1].Add(1)
	} else {
		m.limits[0].Add(1)
	}
}

// handleMetrics writes the exposition.
func (s *Server) handleMetrics(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	bw := bufio.NewWriter(w)
	s.metrics.write(bw)
	bw.Flush()
}

func (m *metrics) write(w *bufio.Writer) {
	head := func(name, typ, help string) {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, typ)
	}
	head("rep_robots_fetches_total", "counter", "robots.txt fetches by outcome case (robotsfetch.Case).")
	for c := range robotsfetch.RefusedAddress + 1 {
		fmt.Fprintf(w, "rep_robots_fetches_total{case=%q} %d\n", c.String(), m.fetches[c].Load())
	}
	head("rep_robots_cache_hits_total", "counter", "Answers whose robots.txt came from the cache (memory or store).")
	fmt.Fprintf(w, "rep_robots_cache_hits_total %d\n", m.hits.Load())
	head("rep_robots_cache_misses_total", "counter", "Answers that waited for a robots.txt fetch.")
	fmt.Fprintf(w, "rep_robots_cache_misses_total %d\n", m.misses.Load())
	head("rep_store_errors_total", "counter", "Errors of the robots.txt store by operation.")
	for i, op := range [2]string{"get", "put"} {
		fmt.Fprintf(w, "rep_store_errors_total{op=%q} %d\n", op, m.storeErrs[i].Load())
	}
	head("rep_answers_total", "counter", "Verdicts answered by endpoint and verdict (error: no verdict).")
	for e, name := range answerEndpoints {
		for v, vn := range verdictNames {
			fmt.Fprintf(w, "rep_answers_total{endpoint=%q,verdict=%q} %d\n", name, vn, m.answers[e][v].Load())
		}
	}
	head("rep_rate_limited_total", "counter", "Outbound fetches refused with 429, by the limit that refused.")
	for i, l := range [2]string{"client", "origin"} {
		fmt.Fprintf(w, "rep_rate_limited_total{limit=%q} %d\n", l, m.limits[i].Load())
	}
	const h = "rep_http_request_duration_seconds"
	head(h, "histogram", "Time to answer a request, by route.")
	for i, route := range routes {
		hg := &m.latency[i]
		var cum int64
		for b, le := range latencyBuckets {
			cum += hg.counts[b].Load()
			fmt.Fprintf(w, "%s_bucket{route=%q,le=%q} %d\n", h, route, strconv.FormatFloat(le, 'g', -1, 64), cum)
		}
		cum += hg.counts[len(latencyBuckets)].Load()
		fmt.Fprintf(w, "%s_bucket{route=%q,le=\"+Inf\"} %d\n", h, route, cum)
		fmt.Fprintf(w, "%s_sum{route=%q} %s\n", h, route, strconv.FormatFloat(time.Duration(hg.sumNS.Load()).Seconds(), 'g', -1, 64))
		fmt.Fprintf(w, "%s_count{route=%q} %d\n", h, route, cum)
	}
}

// countingStore counts the errors of the Store it wraps.
type countingStore struct {
	robotsfetch.Store
	m *metrics
}

func (s countingStore) Get(ctx context.Context, origin string) (*robotsfetch.Entry, error) {
	e, err := s.Store.Get(ctx, origin)
	if err != nil {
		s.m.storeErrs[0].Add(1)
	}
	return e, err
}

func (s countingStore) Put(ctx context.Context, origin string, e *robotsfetch.Entry, ttl time.Duration) error {
	err := s.Store.Put(ctx, origin, e, ttl)
	if err != nil {
		s.m.storeErrs[1].Add(1)
	}
	return err
}

// countingLeaser is a countingStore over a Store that also leases cold
// origins (robotsfetch.Leaser): wrapping it must not hide the leases, or
// servers sharing a Redis would each fetch a cold origin.
type countingLeaser struct {
	countingStore
	robotsfetch.Leaser
}

// countStore wraps st to count its errors, keeping its Leaser.
func countStore(st robotsfetch.Store, m *metrics) robotsfetch.Store {
	c := countingStore{st, m}
	if l, ok := st.(robotsfetch.Leaser); ok {
		return countingLeaser{c, l}
	}
	return c
}
