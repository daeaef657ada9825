package server

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotsfetch/redisstore"
)

// BenchmarkAllowedLoad is the load benchmark of GET /api/allowed: a local
// origin, a warm cache, and a load generator in the same process sending
// requests from 32 concurrent clients over keep-alive connections. It
// reports requests per second and the p50 and p99 latency seen by the
// clients, with the memory and the Redis store:
//
//	go test ./server -run '^$' -bench AllowedLoad -benchtime 20000x
func BenchmarkAllowedLoad(b *testing.B) {
	stores := []struct {
		name  string
		store func(b *testing.B) robotsfetch.Store
	}{
		{"memory", func(*testing.B) robotsfetch.Store { return &robotsfetch.MemoryStore{} }},
		{"redis", func(b *testing.B) robotsfetch.Store { return redisstore.New(startRedis(b)) }},
	}
	for _, st := range stores {
		b.Run(st.name, func(b *testing.B) {
			o := newOrigin(b, site)
			l := &loopbackOnly{}
			s, err := newServer(Config{RatePerSecond: -1, Store: st.store(b)}, l.check)
			if err != nil {
				b.Fatal(err)
			}
			ts := httptest.NewServer(s)
			defer ts.Close()
			const clients = 32
			tr := &http.Transport{MaxIdleConns: clients, MaxIdleConnsPerHost: clients}
			defer tr.CloseIdleConnections()
			client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
			get := func(i int) error {
				res, err := client.Get(fmt.Sprintf("%s/api/allowed?agent=Googlebot&url=%s/private/p%d", ts.URL, o.URL, i%100))
				if err != nil {
					return err
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != 200 {
					return fmt.Errorf("status %d", res.StatusCode)
				}
				return nil
			}
			if err := get(0); err != nil { // warm the cache
				b.Fatal(err)
			}
			lat := make([]time.Duration, b.N)
			var next atomic.Int64
			var wg sync.WaitGroup
			var failed atomic.Value
			b.ResetTimer()
			start := time.Now()
			for range clients {
				wg.Go(func() {
					for {
						i := int(next.Add(1)) - 1
						if i >= b.N {
							return
						}
						t0 := time.Now()
						if err := get(i); err != nil {
							failed.Store(err)
							return
						}
						lat[i] = time.Since(t0)
					}
				})
			}
			wg.Wait()
			el := time.Since(start)
			b.StopTimer()
			if err, _ := failed.Load().(error); err != nil {
				b.Fatal(err)
			}
			if n := o.hits.Load(); n != 1 {
				b.Fatalf("origin fetched %d times: the cache was not warm", n)
			}
			slices.Sort(lat)
			b.ReportMetric(float64(b.N)/el.Seconds(), "req/s")
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
		})
	}
}

// BenchmarkCheck is one POST /api/check of 10 URLs, in process.
func BenchmarkCheck(b *testing.B) {
	s, err := New(Config{})
	if err != nil {
		b.Fatal(err)
	}
	body := `{"robots":"User-agent: *\nDisallow: /private\nAllow: /private/press\n\nUser-agent: Googlebot\nDisallow: /search\n","agent":"Googlebot-Image","urls":["/","/private/x","/private/press/y","/search?q=1","/a/b/c","https://example.com/private","/x","/y","/z","/search"]}`
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "http://127.0.0.1/api/check", strings.NewReader(body)))
		if w.Code != 200 {
			b.Fatal(w.Code, w.Body)
		}
	}
}

// BenchmarkAllowed is one GET /api/allowed with a warm cache, in process:
// the server's share of the load benchmark above.
func BenchmarkAllowed(b *testing.B) {
	o := newOrigin(b, site)
	l := &loopbackOnly{}
	s, err := newServer(Config{RatePerSecond: -1}, l.check)
	if err != nil {
		b.Fatal(err)
	}
	target := "/api/allowed?agent=Googlebot&url=" + o.URL + "/private/x"
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "http://127.0.0.1"+target, nil))
		if w.Code != 200 {
			b.Fatal(w.Code, w.Body)
		}
	}
	if n := o.hits.Load(); n != 1 {
		b.Fatalf("origin fetched %d times", n)
	}
}
