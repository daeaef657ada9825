package robotsfetch

import "testing"

// TestOriginCanonical: a URL whose origin is already canonical (lower-case
// http or https, a lower-case ASCII host of letters, digits, '-' and '.',
// no user information, a port from 1 to 65535 other than the scheme's
// default) costs no allocation, as Origin's documentation says; the others
// get the same answer the slow way.
func TestOriginCanonical(t *testing.T) {
	tests := []struct {
		in, want string
		free     bool // canonical: no allocation
	}{
		{"http://a", "http://a", true},
		{"https://a-b.c9.example/x", "https://a-b.c9.example", true},
		{"http://0.example.com?q", "http://0.example.com", true},
		{"http://z.example#f", "http://z.example", true},
		{"https://example.com:1/", "https://example.com:1", true},
		{"https://example.com:9/", "https://example.com:9", true},
		{"https://example.com:8443/a", "https://example.com:8443", true},
		{"https://example.com:65535/", "https://example.com:65535", true},
		{"https://example.com:59999/", "https://example.com:59999", true},
		{"https://example.com:80/", "https://example.com:80", true},
		{"http://example.com:443/", "http://example.com:443", true},
		{"https://example.com:8080/", "https://example.com:8080", true},
		{"http://example.com:80/", "http://example.com", false},
		{"https://example.com:443/", "https://example.com", false},
		{"http://Example.com/", "http://example.com", false},
		{"http://example.com:/", "http://example.com", false},
		{"http://example.com:08080/", "http://example.com:8080", false},
		{"http://example.com:080/", "http://example.com", false},
		{"https://example.com:00443/x", "https://example.com", false},
		{"http://u@example.com/", "http://example.com", false},
		{"http://example.com:80:80/", "", false},
		{"http://:80/", "", false},
		{"https:///x", "", false},
		{"http://example.com:65536/", "", false},
		{"http://example.com:70000/", "", false},
		{"http://example.com:123456/", "", false},
		{"http://example.com:1a/", "", false},
		{"http://example.com:a1/", "", false},
		{"http://example.com:-1/", "", false},
		{"http://example_com/", "", false},
		{"http://xn--bcher-kva.example/", "http://xn--bcher-kva.example", false},
		{"http://www.xn--bcher-kva.example/", "http://www.xn--bcher-kva.example", false},
		{"http://xn--ab/", "", false},
		{"http://a.xn--ab/", "", false},
		{"http://:1:2/", "", false},
		{"http://:8080/", "", false},
		// The slow path checks the port the same way: 1 to 65535, the
		// scheme's default dropped (RFC 9309 §2.3: scheme, host, port).
		{"HTTPS://Example.com:1/", "https://example.com:1", false},
		{"HTTPS://Example.com:0/", "", false},
		{"HTTP://Example.com:65535/", "http://example.com:65535", false},
		{"HTTP://Example.com:65536/", "", false},
		{"HTTPS://Example.com:8443/x", "https://example.com:8443", false},
		{"HTTPS://Example.com:80/x", "https://example.com:80", false},
		{"HTTP://Example.com:443/", "http://example.com:443", false},
		{"HTTP://Example.com:80/", "http://example.com", false},
		{"HTTPS://Example.com:443/", "https://example.com", false},
	}
	for _, tt := range tests {
		got, err := Origin(tt.in)
		if got != tt.want || (err == nil) != (tt.want != "") {
			t.Errorf("Origin(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			continue
		}
		if n := testing.AllocsPerRun(10, func() { Origin(tt.in) }); tt.free && n != 0 {
			t.Errorf("Origin(%q): %v allocations for a canonical URL", tt.in, n)
		}
	}
}
