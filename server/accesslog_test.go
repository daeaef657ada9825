package server

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestAccessLogSampling: the access log writes one request in
// AccessLogEvery (the first of each run of N), every request for 1, none
// for a negative value; the metrics count every request either way.
func TestAccessLogSampling(t *testing.T) {
	for _, tt := range []struct {
		every, requests, lines int
	}{
		{0, 250, 3}, // the default, 1 in 100: requests 1, 101, 201
		{10, 25, 3},
		{1, 7, 7},
		{-1, 7, 0},
	} {
		var buf bytes.Buffer
		s, err := New(Config{Logger: slog.New(slog.NewTextHandler(&buf, nil)), AccessLogEvery: tt.every})
		if err != nil {
			t.Fatal(err)
		}
		for range tt.requests {
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://127.0.0.1/healthz", nil))
			if rec.Code != http.StatusOK {
				t.Fatalf("healthz %d", rec.Code)
			}
		}
		if got := strings.Count(buf.String(), "msg=request"); got != tt.lines {
			t.Errorf("AccessLogEvery %d, %d requests: %d lines, want %d", tt.every, tt.requests, got, tt.lines)
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://127.0.0.1/metrics", nil))
		want := fmt.Sprintf(`rep_http_request_duration_seconds_count{route="/healthz"} %d`, tt.requests)
		if !strings.Contains(rec.Body.String(), want+"\n") {
			t.Errorf("AccessLogEvery %d: metrics lack %s", tt.every, want)
		}
	}
}
