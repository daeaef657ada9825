package robotsfetch

import (
	"testing"
)

func TestOrigin(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://example.com/a/b?c#d", "https://example.com"},
		{"https://example.com", "https://example.com"},
		{"http://example.com:8080/x", "http://example.com:8080"},
		{"HTTPS://Example.COM/x", "https://example.com"},
		{"https://example.com:443/x", "https://example.com"},
		{"http://example.com:80", "http://example.com"},
		{"http://example.com:443/", "http://example.com:443"},
		{"https://user:pw@example.com/x", "https://example.com"},
		{"https://bücher.example/x", "https://xn--bcher-kva.example"},
		{"https://xn--bcher-kva.example/", "https://xn--bcher-kva.example"},
		{"http://[::1]:8080/x", "http://[::1]:8080"},
		{"http://[2001:DB8::1]/", "http://[2001:db8::1]"},
		{"http://127.0.0.1:1234?q", "http://127.0.0.1:1234"},
		{"https://example.com?q=1", "https://example.com"},
		{"https://example.com#frag", "https://example.com"},
	}
	for _, tt := range tests {
		got, err := Origin(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("Origin(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "/path", "example.com/x", "ftp://example.com/", "https:///x", "http://exa mple.com/", "https://%41/"} {
		if got, err := Origin(bad); err == nil {
			t.Errorf("Origin(%q) = %q, want an error", bad, got)
		}
	}
}

func TestOriginNoAlloc(t *testing.T) {
	n := testing.AllocsPerRun(100, func() { Origin("https://www.example.com:8443/a/b?c=d") })
	if n != 0 {
		t.Errorf("%v allocations for a canonical URL", n)
	}
}

// FuzzOrigin: never panics, and an origin is its own origin.
func FuzzOrigin(f *testing.F) {
	for _, s := range []string{"https://example.com/x", "HTTP://A:80", "http://[::1]:1/", "https://bücher.example", "http://a@b:c@d/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := Origin(s)
		if err != nil {
			return
		}
		o2, err := Origin(o)
		if err != nil || o2 != o {
			t.Fatalf("Origin(%q) = %q, but Origin(%q) = %q, %v", s, o, o, o2, err)
		}
		if o3, _ := Origin(o + "/robots.txt"); o3 != o {
			t.Fatalf("Origin(%q/robots.txt) = %q", o, o3)
		}
	})
}

func FuzzFreshness(f *testing.F) {
	f.Add("max-age=60, no-cache", "Sun, 01 Mar 2026 10:00:00 GMT", "5")
	f.Fuzz(func(t *testing.T, cc, expires, age string) {
		h := map[string][]string{"Cache-Control": {cc}, "Expires": {expires}, "Age": {age}}
		ttl, _ := freshness(h, newClock().Now(), DefaultMaxAge, DefaultMaxAge)
		if ttl < 0 || ttl > DefaultMaxAge {
			t.Fatalf("ttl %v out of bounds", ttl)
		}
	})
}
