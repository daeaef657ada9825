package server

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// TestHostAndCrossSite: a foreign Host header is refused (DNS rebinding
// onto a local rep serve), IP literals, localhost and the configured
// names are served; a cross-site browser request may not make the server
// fetch; a path that names no valid file is a 404, not a 500.
func TestHostAndCrossSite(t *testing.T) {
	s, err := New(Config{Hosts: []string{"rep.example.org"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		host, path string
		header     map[string]string
		want       int
	}{
		{"127.0.0.1:8080", "/api/info", nil, 200},
		{"[::1]:8080", "/api/info", nil, 200},
		{"localhost:8080", "/api/info", nil, 200},
		{"LOCALHOST.", "/api/info", nil, 200},
		{"rep.example.org", "/api/info", nil, 200},
		{"attacker.example:8080", "/api/info", nil, 421},
		{"attacker.example", "/", nil, 421},
		{"127.0.0.1:8080", "/api/allowed?agent=Googlebot&url=https://example.com/", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{"127.0.0.1:8080", "/api/crawlers", map[string]string{"Sec-Fetch-Site": "cross-site"}, 200},
		{"127.0.0.1:8080", "/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd", nil, 404},
		{"127.0.0.1:8080", "/%00", nil, 404},
	} {
		req := httptest.NewRequest("GET", "http://x"+tt.path, nil)
		req.Host = tt.host
		for k, v := range tt.header {
			req.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != tt.want {
			t.Errorf("Host %s, GET %s %v: %d, want %d: %s", tt.host, tt.path, tt.header, rec.Code, tt.want, strings.TrimSpace(rec.Body.String()))
		}
	}
}
