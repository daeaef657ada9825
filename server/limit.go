package server

import (
	"math"
	"net/http"
	"sync"
	"time"
)

// maxClients bounds the buckets held at once.
const maxClients = 1 << 16

// limiter is a token bucket per client. Buckets idle long enough to be
// full again are dropped, so memory follows the active clients.
type limiter struct {
	rate  float64 // tokens per second
	burst float64
	now   func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
	swept   time.Time
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newLimiter(rate float64, burst int, now func() time.Time) *limiter {
	return &limiter{rate: rate, burst: float64(burst), now: now, buckets: map[string]*bucket{}, swept: now()}
}

// allow takes a token for client, or says how long until one is free.
func (l *limiter) allow(client string) (bool, time.Duration) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	full := time.Duration(l.burst / l.rate * float64(time.Second))
	if now.Sub(l.swept) > full && len(l.buckets) > 0 {
		for k, b := range l.buckets {
			if now.Sub(b.last) > full {
				delete(l.buckets, k)
			}
		}
		l.swept = now
	}
	b, ok := l.buckets[client]
	if !ok {
		if len(l.buckets) >= maxClients {
			// Too many distinct clients at once (an address-spraying
			// flood): new ones wait for the sweep rather than grow memory.
			return false, full
		}
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[client] = b
	}
	if el := now.Sub(b.last).Seconds(); el > 0 {
		b.tokens = math.Min(l.burst, b.tokens+el*l.rate)
	}
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
}

// limited rate-limits a fetching endpoint per client.
func (s *Server) limited(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.take(w, r) {
			h(w, r)
		}
	}
}
