package robotsfetch

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"sync"
	"testing"
)

func TestStats(t *testing.T) {
	ok, gone, down := newSite(t, text(robotsBody)), newSite(t, status(http.StatusNotFound)), newSite(t, status(http.StatusServiceUnavailable))
	store := &MemoryStore{}
	f := newFetcher(t, Options{Store: store})
	for range 2 {
		for _, s := range []*site{ok, gone, down} {
			get(t, f, s.URL+"/x")
		}
	}
	s := f.Stats()
	want := map[Case]int64{Success: 1, Unavailable: 1, Unreachable: 1}
	for c := Success; c <= RefusedAddress; c++ {
		if s.Fetches[c] != want[c] {
			t.Errorf("Fetches[%s] = %d, want %d", c, s.Fetches[c], want[c])
		}
	}
	if len(s.Fetches) != int(RefusedAddress) || s.Requests != 3 || s.CacheHits != 3 || s.CacheMisses != 3 || s.StoreHits != 0 || s.StoreErrors != 0 || s.LeaseWaits != 0 {
		t.Errorf("first fetcher: %+v", s)
	}
	// Another Fetcher of the fleet reads the store.
	g := newFetcher(t, Options{Store: store})
	get(t, g, ok.URL)
	if s := g.Stats(); s.Requests != 0 || s.StoreHits != 1 || s.CacheMisses != 1 || s.Fetches[Success] != 0 {
		t.Errorf("second fetcher: %+v", s)
	}
	// A broken store: the get fails, the put is not tried.
	b := newFetcher(t, Options{Store: brokenStore{}})
	get(t, b, ok.URL)
	if s := b.Stats(); s.StoreErrors != 1 || s.Requests != 1 {
		t.Errorf("broken store: %+v", s)
	}
}

// logRecords decodes a JSON log.
func logRecords(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	var recs []map[string]any
	for line := range bytes.Lines(b) {
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		recs = append(recs, m)
	}
	return recs
}

// TestLoggerAndHook: a fetch from the network is logged at Info and
// reported once; an answer from memory is neither; one from the store is
// logged at Debug and reported; a store failure is logged at Warn.
func TestLoggerAndHook(t *testing.T) {
	var buf bytes.Buffer
	var mu sync.Mutex
	logger := slog.New(slog.NewJSONHandler(&syncWriter{w: &buf, mu: &mu}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	var hooked []Outcome
	hook := func(o Outcome) {
		mu.Lock()
		hooked = append(hooked, o)
		mu.Unlock()
	}
	s := newSite(t, text(robotsBody))
	store := &MemoryStore{}
	f := newFetcher(t, Options{Store: store, Logger: logger, OnFetch: hook})
	get(t, f, s.URL)
	get(t, f, s.URL) // memory
	g := newFetcher(t, Options{Store: store, Logger: logger, OnFetch: hook})
	get(t, g, s.URL) // store
	b := newFetcher(t, Options{Store: brokenStore{}, Logger: logger, OnFetch: hook})
	get(t, b, s.URL) // network, the store failing

	mu.Lock()
	defer mu.Unlock()
	if len(hooked) != 3 || hooked[0].Source != FromNetwork || hooked[0].Cached || hooked[1].Source != FromStore || !hooked[1].Cached ||
		hooked[2].Source != FromNetwork || !hooked[2].Has(WarnStoreFailed) {
		t.Errorf("hook calls: %v", hooked)
	}
	recs := logRecords(t, buf.Bytes())
	type want struct{ level, msg, source string }
	wants := []want{
		{"INFO", "robots.txt fetched", "network"},
		{"DEBUG", "robots.txt from the store", "store"},
		{"WARN", "robots.txt store failed", ""},
		{"INFO", "robots.txt fetched", "network"},
	}
	if len(recs) != len(wants) {
		t.Fatalf("%d records, want %d:\n%s", len(recs), len(wants), buf.String())
	}
	for i, w := range wants {
		r := recs[i]
		if r["level"] != w.level || r["msg"] != w.msg || r["origin"] != s.URL || (w.source != "" && r["source"] != w.source) {
			t.Errorf("record %d: %v, want %+v", i, r, w)
		}
	}
	if r := recs[0]; r["case"] != "success" || r["status"] != float64(200) || r["duration"] == nil || r["bytes"] != float64(len(robotsBody)) {
		t.Errorf("fetch record: %v", r)
	}
	if r := recs[2]; r["op"] != "get" || r["error"] != "store down" {
		t.Errorf("store failure record: %v", r)
	}
	if r := recs[3]; r["store_error"] != "store down" {
		t.Errorf("fetch with a failed store: %v", r)
	}
}

type syncWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
