package robotsfetch

import (
	"bytes"
	"log/slog"
	"net/http"
	"sync"
	"testing"
)

// TestLogAttributes: every logged answer names its origin, case, status,
// source and whether it was cached; a fetch from the network adds its
// duration and bytes, a failed one its error; an answer from the Store
// has no duration or bytes of its own.
func TestLogAttributes(t *testing.T) {
	var buf bytes.Buffer
	var mu sync.Mutex
	logger := slog.New(slog.NewJSONHandler(&syncWriter{w: &buf, mu: &mu}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	down := newSite(t, status(http.StatusServiceUnavailable))
	up := newSite(t, text(robotsBody))
	store := &MemoryStore{}
	get(t, newFetcher(t, Options{Logger: logger, Store: store}), down.URL)
	get(t, newFetcher(t, Options{Logger: logger, Store: store}), up.URL)
	get(t, newFetcher(t, Options{Logger: logger, Store: store}), up.URL) // from the store

	mu.Lock()
	defer mu.Unlock()
	recs := logRecords(t, buf.Bytes())
	if len(recs) != 3 {
		t.Fatalf("%d records:\n%s", len(recs), buf.String())
	}
	tests := []struct {
		origin, c, source, err string
		status                 float64
		cached, network        bool
	}{
		{down.URL, "unreachable", "network", "503 Service Unavailable", 503, false, true},
		{up.URL, "success", "network", "", 200, false, true},
		{up.URL, "success", "store", "", 200, true, false},
	}
	for i, tt := range tests {
		r := recs[i]
		if r["origin"] != tt.origin || r["case"] != tt.c || r["source"] != tt.source || r["status"] != tt.status || r["cached"] != tt.cached {
			t.Errorf("record %d: %v, want %+v", i, r, tt)
		}
		if e, ok := r["error"]; ok != (tt.err != "") || (ok && e != tt.err) {
			t.Errorf("record %d: error %v, want %q", i, e, tt.err)
		}
		_, hasDuration := r["duration"]
		_, hasBytes := r["bytes"]
		if hasDuration != tt.network || hasBytes != tt.network {
			t.Errorf("record %d: duration %v, bytes %v; want both %v", i, hasDuration, hasBytes, tt.network)
		}
	}
}
