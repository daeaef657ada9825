package robotsfetch

import (
	"bytes"
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
		{"http://Example.com/100%", "http://example.com"},
		{"HTTPS://example.com/a%zz?q=%", "https://example.com"},
		{"http://[::1]:8080/100%/x", "http://[::1]:8080"},
	}
	for _, tt := range tests {
		got, err := Origin(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("Origin(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "/path", "example.com/x", "ftp://example.com/", "https:///x", "http://exa mple.com/", "https://%41/", "http://exa mple.com/100%", "http://example.com:abc/100%", "http://127.0.0.1:99999/", "http://EXAMPLE.com:99999/", "http://example.com:0/", "http://example.com:65536/", "https://[::1]:70000/"} {
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

// FuzzDecode: a stored value from anywhere (another release, a damaged
// file, a hostile Redis) never panics the reader, and what decodes
// re-encodes to the same entry.
func FuzzDecode(f *testing.F) {
	e := &Entry{Origin: "https://example.com", Last: Outcome{Case: Success, Warnings: []Warning{WarnHTML}},
		Good: &Copy{Case: Success, Status: 200, Body: []byte("User-agent: *\nDisallow: /\n")}}
	b, _ := Encode(e)
	f.Add(b)
	f.Add([]byte(`{"v":2,"last":{"case":"unreachable","verdict":"disallow-all"}}`))
	f.Add([]byte(`{"v":3}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := Decode(data)
		if err != nil {
			return
		}
		b, err := Encode(e)
		if err != nil {
			t.Fatalf("re-encoding %q: %v", data, err)
		}
		e2, err := Decode(b)
		if err != nil {
			t.Fatalf("decoding the re-encoded %q: %v", b, err)
		}
		b2, _ := Encode(e2)
		if !bytes.Equal(b, b2) {
			t.Fatalf("unstable: %s vs %s", b, b2)
		}
	})
}

// FuzzDecodeBody: any bytes under any Content-Encoding yield at most
// limit+1 decoded bytes or an error, never a panic.
func FuzzDecodeBody(f *testing.F) {
	f.Add("gzip", []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"))
	f.Add("deflate", []byte("x\x9c\x03\x00\x00\x00\x00\x01"))
	f.Add("deflate", []byte("\x01\x00\x00\xff\xff"))
	f.Add("", []byte("User-agent: *"))
	f.Fuzz(func(t *testing.T, enc string, data []byte) {
		r, err := decodeBody(enc, bytes.NewReader(data))
		if err != nil {
			return
		}
		b, _ := readLimited(r, 1024)
		if len(b) > 1025 {
			t.Fatalf("%d bytes read past the limit", len(b))
		}
	})
}
