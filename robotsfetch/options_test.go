package robotsfetch

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/internal/netguard"
)

// TestDefaults: the zero Options mean the documented defaults. The values
// are written out here, not read from the constants: RFC 9309 §2.4 and
// Google's documentation cap caching at 24 hours; §2.3.1.4's example and
// Google's rule put the outage limit at 30 days; §2.3.1.2 and Google follow
// five redirects; §2.5 parses at least 500 KiB (512,000 bytes); the others
// are the values the constants document.
func TestDefaults(t *testing.T) {
	o := newFetcher(t, Options{}).Options()
	durations := []struct {
		name      string
		got, want time.Duration
	}{
		{"MaxAge", o.MaxAge, 24 * time.Hour},
		{"MinAge", o.MinAge, time.Minute},
		{"RetryInterval", o.RetryInterval, 10 * time.Minute},
		{"OutageLimit", o.OutageLimit, 720 * time.Hour},
		{"ConnectTimeout", o.ConnectTimeout, 10 * time.Second},
		{"HeaderTimeout", o.HeaderTimeout, 10 * time.Second},
		{"BodyTimeout", o.BodyTimeout, 20 * time.Second},
		{"Timeout", o.Timeout, 60 * time.Second},
		{"StoreTimeout", o.StoreTimeout, 2 * time.Second},
		{"LeaseTTL", o.LeaseTTL, 15 * time.Second},
		{"LeaseWait", o.LeaseWait, 20 * time.Second},
	}
	for _, d := range durations {
		if d.got != d.want {
			t.Errorf("%s = %v, want %v", d.name, d.got, d.want)
		}
	}
	counts := []struct {
		name      string
		got, want int
	}{
		{"MaxBytes", o.MaxBytes, 512000},
		{"MaxRedirects", o.MaxRedirects, 5},
		{"MaxOrigins", o.MaxOrigins, 10000},
	}
	for _, c := range counts {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
}

// TestSmallLimits: the smallest values a caller may set are kept, not
// mistaken for "use the default".
func TestSmallLimits(t *testing.T) {
	t.Run("MaxBytes 1", func(t *testing.T) {
		s := newSite(t, text("User-agent: *\nDisallow: /\n"))
		r := get(t, newFetcher(t, Options{MaxBytes: 1}), s.URL)
		if o := r.Outcome; o.Bytes != 2 || !o.Has(WarnTruncated) {
			t.Errorf("%s: %d bytes read, warnings %v; want 2, truncated", o.String(), o.Bytes, o.Warnings)
		}
	})
	t.Run("MaxRedirects 1", func(t *testing.T) {
		for _, tt := range []struct {
			hops int
			want Case
		}{{1, Success}, {2, TooManyRedirects}} {
			first, _ := redirector(t, tt.hops)
			r := get(t, newFetcher(t, Options{MaxRedirects: 1}), first.URL)
			if r.Outcome.Case != tt.want {
				t.Errorf("%d hops: %s, want %s", tt.hops, r.Outcome.String(), tt.want)
			}
		}
	})
	t.Run("MaxOrigins 1", func(t *testing.T) {
		f := newFetcher(t, Options{MaxOrigins: 1})
		get(t, f, newSite(t, text(robotsBody)).URL)
		get(t, f, newSite(t, text(robotsBody)).URL)
		if n := f.Len(); n != 1 {
			t.Errorf("%d origins in memory, want 1", n)
		}
	})
	t.Run("MinAge negative", func(t *testing.T) {
		// "negative: not at all": a max-age=0 answer is asked again at
		// the same instant.
		clk := newClock()
		s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "max-age=0")
			fmt.Fprint(w, robotsBody)
		})
		f := newFetcher(t, Options{MinAge: -1, Now: clk.Now})
		get(t, f, s.URL)
		get(t, f, s.URL)
		if n := s.hits.Load(); n != 2 {
			t.Errorf("%d requests, want 2: a result with no lifetime was reused", n)
		}
	})
}

// manyHosts returns a client that sends every request, whatever its host,
// to one loopback server answering with body, so that a test can use many
// origins (http://site0.test, http://site1.test, ...).
func manyHosts(t *testing.T, body []byte) *http.Client {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write(body)
	}))
	t.Cleanup(s.Close)
	addr := s.Listener.Addr().String()
	var d net.Dialer
	return &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return d.DialContext(ctx, network, addr)
	}}}
}

// TestCacheBytes: by default the origins held in memory take at most
// 32 MiB (33,554,432 bytes, "about 20 files at the 500 KiB limit"), and
// the cache fills up to that bound; MaxCacheBytes sets another bound, and
// a negative one none.
func TestCacheBytes(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /x\n" + strings.Repeat("#", 512000-28) + "\n")
	if len(body) != 512000 {
		t.Fatalf("body of %d bytes", len(body))
	}
	const origins = 30
	tests := []struct {
		name     string
		max      int64
		maxBytes int64 // 0: every origin kept
	}{
		{"default", 0, 33554432},
		{"one byte", 1, 1},
		{"no bound", -1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFetcher(t, Options{Client: manyHosts(t, body), MaxCacheBytes: tt.max})
			for i := range origins {
				get(t, f, fmt.Sprintf("http://site%d.test/", i))
			}
			n, held := f.Len(), f.CacheBytes()
			if tt.maxBytes == 0 {
				if n != origins {
					t.Errorf("%d origins held, want all %d", n, origins)
				}
				return
			}
			if n < 1 || held > max(tt.maxBytes, held/int64(n)) {
				t.Errorf("%d origins hold %d bytes, bound %d", n, held, tt.maxBytes)
			}
			if n == origins || held+held/int64(n) <= tt.maxBytes {
				t.Errorf("%d origins hold %d bytes: room for another under %d", n, held, tt.maxBytes)
			}
		})
	}
}

// TestDefaultTransport: the default client is the one guarded client of
// internal/netguard (whose tests cover HTTP/2 and the idle bound), and
// Guard turns its address policy on.
func TestDefaultTransport(t *testing.T) {
	for _, guard := range []bool{false, true} {
		f := newFetcher(t, Options{Guard: guard})
		if _, ok := f.client.Transport.(*netguard.Transport); !ok {
			t.Fatalf("Guard %v: transport %T, want *netguard.Transport", guard, f.client.Transport)
		}
	}
}
