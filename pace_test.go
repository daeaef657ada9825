package rep_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/robotsfetch"
)

// TestPolitenessZeroNegative: WithDelay and WithPoliteness read zero and
// negative values one way (see Politeness), Politeness reports what is
// applied, and Wait paces by it against a site asking Crawl-delay: 5. The
// clock is synctest's: the intervals are exact.
func TestPolitenessZeroNegative(t *testing.T) {
	const s = time.Second
	for _, tt := range []struct {
		min, max time.Duration
		// applied MinDelay, MaxDelay; the interval kept under Crawl-delay: 5
		// and under no Crawl-delay.
		wantMin, wantMax, paced, bare time.Duration
	}{
		{0, 0, rep.DefaultDelay, rep.DefaultMaxDelay, 5 * s, rep.DefaultDelay},
		{-1, 0, 0, rep.DefaultMaxDelay, 5 * s, 0},
		{0, -1, rep.DefaultDelay, rep.DefaultMaxDelay, 5 * s, rep.DefaultDelay},
		{-1, -1, 0, rep.DefaultMaxDelay, 5 * s, 0},
		{2 * s, 0, 2 * s, rep.DefaultMaxDelay, 5 * s, 2 * s}, // the WithDelay(2s, 0)
		{2 * s, -1, 2 * s, rep.DefaultMaxDelay, 5 * s, 2 * s},
		{2 * s, 3 * s, 2 * s, 3 * s, 3 * s, 2 * s},
		{8 * s, 3 * s, 8 * s, 8 * s, 8 * s, 8 * s}, // max below min: raised to min
		{0, 500 * time.Millisecond, rep.DefaultDelay, rep.DefaultDelay, rep.DefaultDelay, rep.DefaultDelay},
		{-1, 3 * s, 0, 3 * s, 3 * s, 0},
	} {
		for _, opt := range []struct {
			name string
			o    rep.Option
		}{
			{"WithDelay", rep.WithDelay(tt.min, tt.max)},
			{"WithPoliteness", rep.WithPoliteness(rep.Politeness{MinDelay: tt.min, MaxDelay: tt.max})},
		} {
			t.Run(fmt.Sprintf("%s(%v,%v)", opt.name, tt.min, tt.max), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					const site, bare = "https://www.example.com", "https://bare.example.com"
					store := &robotsfetch.MemoryStore{}
					storeRobots(store, "ExampleBot/1.0", site, "User-agent: *\nCrawl-delay: 5\n")
					storeRobots(store, "ExampleBot/1.0", bare, "")
					c, err := rep.New("ExampleBot/1.0", opt.o, rep.WithStore(store))
					if err != nil {
						t.Fatal(err)
					}
					want := rep.Politeness{MinDelay: tt.wantMin, MaxDelay: tt.wantMax, PerHost: 1, CrawlDelay: rep.HonourAlways}
					if got := c.Politeness(); got != want {
						t.Errorf("Politeness() = %+v, want %+v", got, want)
					}
					for origin, interval := range map[string]time.Duration{site: tt.paced, bare: tt.bare} {
						start := time.Now()
						for i := range 3 {
							if err := c.Wait(context.Background(), origin+"/p"); err != nil {
								t.Fatal(err)
							}
							if got := time.Since(start); got != time.Duration(i)*interval {
								t.Errorf("%s: request %d at %v, want %v", origin, i, got, time.Duration(i)*interval)
							}
						}
					}
				})
			})
		}
	}
	// PerHost: zero and negative are one request in flight.
	for _, n := range []int{0, -3} {
		c, _ := rep.New("ExampleBot/1.0", rep.WithPoliteness(rep.Politeness{PerHost: n}))
		if got := c.Politeness().PerHost; got != 1 {
			t.Errorf("PerHost %d: applied %d, want 1", n, got)
		}
	}
}

// TestWaitGivesSlotBack: a request that gives up waiting for its slot
// gives it back, so the next request is not held for a slot nobody used.
func TestWaitGivesSlotBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := &robotsfetch.MemoryStore{}
		storeRobots(store, "ExampleBot/1.0", "https://example.com", "")
		c, _ := rep.New("ExampleBot/1.0", rep.WithDelay(3*time.Second, 0), rep.WithStore(store))
		ctx := context.Background()
		start := time.Now()
		if err := c.Wait(ctx, "https://example.com/a"); err != nil { // at 0 s
			t.Fatal(err)
		}
		// B would go at 3 s; it gives up at 1 s.
		bctx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		if err := c.Wait(bctx, "https://example.com/b"); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("B: %v", err)
		}
		// C takes B's slot: 3 s after A, not 6 s.
		if err := c.Wait(ctx, "https://example.com/c"); err != nil {
			t.Fatal(err)
		}
		if got := time.Since(start); got != 3*time.Second {
			t.Errorf("C went at %v, want 3s", got)
		}
		// Through the Transport: a request whose context ends while it
		// waits sends nothing and frees its slot.
		var sent []string
		rt := handlerTransport{http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			sent = append(sent, fmt.Sprintf("%s@%v", r.URL.Path, time.Since(start)))
		})}
		client := &http.Client{Transport: c.Transport(rt)}
		dctx, cancel2 := context.WithTimeout(ctx, time.Second)
		defer cancel2()
		if _, err := get(dctx, client, "https://example.com/d"); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("D: %v", err)
		}
		resp, err := get(ctx, client, "https://example.com/e")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if fmt.Sprint(sent) != "[/e@6s]" {
			t.Errorf("sent %v, want [/e@6s]", sent)
		}
	})
}
