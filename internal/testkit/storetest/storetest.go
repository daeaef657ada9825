// Package storetest holds the checks every robots.txt Store passes when
// crawlers share it through rep.New: each crawler gets the file served to
// its own User-Agent, and a cold origin is fetched once however many
// Fetchers ask for it at once.
package storetest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/robotsfetch"
)

// Origin is a loopback site that counts its robots.txt requests by
// User-Agent header.
type Origin struct {
	*httptest.Server
	mu   sync.Mutex
	hits map[string]int
}

// Hits returns how many robots.txt requests the site answered, for every
// User-Agent together.
func (o *Origin) Hits() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	n := 0
	for _, h := range o.hits {
		n += h
	}
	return n
}

// HitsBy returns how many robots.txt requests came with userAgent.
func (o *Origin) HitsBy(userAgent string) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.hits[userAgent]
}

// NewOrigin starts a site whose robots.txt is robots(userAgent), after
// delay; it is stopped when t ends.
func NewOrigin(t testing.TB, delay time.Duration, robots func(userAgent string) string) *Origin {
	o := &Origin{hits: make(map[string]int)}
	o.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		ua := r.Header.Get("User-Agent")
		o.mu.Lock()
		o.hits[ua]++
		o.mu.Unlock()
		time.Sleep(delay)
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, robots(ua))
	}))
	t.Cleanup(o.Close)
	return o
}

// Cloaking checks that crawlers sharing st get the file served to their
// own User-Agent. The site sends "Disallow: /" to any header naming
// OtherBot, and nothing to others, as a cloaking server would. MyBot and
// OtherBot share st (through rep.New and WithStore): OtherBot must be
// disallowed although MyBot fetched first; a second crawler of each
// identity reads its own entry from st without a request.
func Cloaking(t *testing.T, st robotsfetch.Store) {
	t.Helper()
	const my, other = "MyBot/1.0 (+https://my.example/bot)", "Mozilla/5.0 (compatible; OtherBot/2.1)"
	site := NewOrigin(t, 0, func(ua string) string {
		if strings.Contains(ua, "OtherBot") {
			return "User-agent: *\nDisallow: /\n"
		}
		return "User-agent: *\nAllow: /\n"
	})
	ctx := context.Background()
	ask := func(ua string, wantAllowed bool, wantSource robotsfetch.Source) {
		t.Helper()
		c, err := rep.New(ua, rep.WithStore(st))
		if err != nil {
			t.Fatal(err)
		}
		d, err := c.Check(ctx, site.URL+"/page")
		if err != nil {
			t.Fatal(err)
		}
		if d.Allowed != wantAllowed || d.Fetch.Source != wantSource {
			t.Errorf("%s: allowed %v from %s, want %v from %s (%v)", ua, d.Allowed, d.Fetch.Source, wantAllowed, wantSource, d)
		}
	}
	ask(my, true, robotsfetch.FromNetwork)
	ask(other, false, robotsfetch.FromNetwork)
	ask(my, true, robotsfetch.FromStore)
	ask(other, false, robotsfetch.FromStore)
	if site.HitsBy(my) != 1 || site.HitsBy(other) != 1 {
		t.Errorf("requests: %d as MyBot, %d as OtherBot; want 1 each", site.HitsBy(my), site.HitsBy(other))
	}
}

// ColdFleet starts hosts loopback sites, each answering robots.txt after
// delay, and has fetchers cold Fetchers sharing st ask for every site at
// once. It returns the robots.txt requests the sites answered, in all.
func ColdFleet(t *testing.T, st robotsfetch.Store, fetchers, hosts int, delay time.Duration) int {
	t.Helper()
	sites := make([]*Origin, hosts)
	for i := range sites {
		sites[i] = NewOrigin(t, delay, func(string) string { return "User-agent: *\nDisallow: /private\n" })
	}
	var fs []*robotsfetch.Fetcher
	for range fetchers {
		// Each Fetchers is one process's: its own cache, the Store shared.
		f, err := rep.NewFetchers(robotsfetch.Options{UserAgent: "ExampleBot/1.0", Store: st}).For(nil)
		if err != nil {
			t.Fatal(err)
		}
		fs = append(fs, f)
	}
	var wg sync.WaitGroup
	var wrong atomic.Int64
	for _, f := range fs {
		for _, s := range sites {
			wg.Go(func() {
				r, err := f.Get(context.Background(), s.URL)
				if err != nil || r.Check(s.URL+"/private/x", "ExampleBot").Allowed {
					wrong.Add(1)
				}
			})
		}
	}
	wg.Wait()
	if n := wrong.Load(); n != 0 {
		t.Errorf("%d answers failed or allowed /private", n)
	}
	n := 0
	for _, s := range sites {
		n += s.Hits()
	}
	return n
}
