package server

import (
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// testClock is a clock tests move by hand.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *testClock { return &testClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }

func (c *testClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *testClock) Add(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

// status sends a GET and returns its status and Retry-After.
func getStatus(t *testing.T, u string) (int, string) {
	t.Helper()
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, res.Header.Get("Retry-After")
}

func allowedURL(ts string, target string) string {
	return ts + "/api/allowed?agent=Googlebot&url=" + url.QueryEscape(target)
}

// TestFleetNotLimited: with the default limits, one client (a fleet behind
// one NAT) asks 2,000 questions answered from the warm cache and sends
// 600 inline checks: none is refused, and the site is fetched once.
func TestFleetNotLimited(t *testing.T) {
	o := newOrigin(t, site)
	ts, _ := newGuardedServer(t, Config{})
	if st, _ := getStatus(t, allowedURL(ts.URL, o.URL+"/")); st != 200 {
		t.Fatalf("warming: %d", st)
	}
	tr := &http.Transport{MaxIdleConnsPerHost: 16}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	var refused, failed atomic.Int64
	var next atomic.Int64
	var wg sync.WaitGroup
	body := `{"robots":"User-agent: *\nDisallow: /x\n","agent":"Googlebot","urls":["/x","/y"]}`
	for range 16 {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= 2600 {
					return
				}
				var res *http.Response
				var err error
				if i < 2000 {
					res, err = client.Get(allowedURL(ts.URL, fmt.Sprintf("%s/private/p%d", o.URL, i)))
				} else {
					res, err = client.Post(ts.URL+"/api/check", "application/json", strings.NewReader(body))
				}
				if err != nil {
					failed.Add(1)
					continue
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				switch res.StatusCode {
				case 200:
				case http.StatusTooManyRequests:
					refused.Add(1)
				default:
					failed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if refused.Load() != 0 || failed.Load() != 0 {
		t.Errorf("2,000 warm answers and 600 checks: %d refused with 429, %d failed", refused.Load(), failed.Load())
	}
	if n := o.hits.Load(); n != 1 {
		t.Errorf("the site saw %d requests, want 1", n)
	}
}

// TestClientLimit: fetches are limited per client, answers from the cache
// and pure computation are not; Retry-After says when to come back.
func TestClientLimit(t *testing.T) {
	clock := newClock()
	sites := []*origin{newOrigin(t, site), newOrigin(t, site), newOrigin(t, site)}
	ts, _ := newGuardedServer(t, Config{RatePerSecond: 1, Burst: 2, OriginRate: -1, Now: clock.Now})
	for i := range 2 {
		if st, _ := getStatus(t, allowedURL(ts.URL, sites[i].URL+"/")); st != 200 {
			t.Fatalf("site %d: %d", i, st)
		}
	}
	st, retry := getStatus(t, allowedURL(ts.URL, sites[2].URL+"/"))
	if st != http.StatusTooManyRequests || retry != "1" {
		t.Fatalf("third site: %d Retry-After %q, want 429 and 1", st, retry)
	}
	if n := sites[2].hits.Load(); n != 0 {
		t.Errorf("the refused site was fetched %d times", n)
	}
	// Warm answers, /api/fetch of a warm site, inline checks and pasted
	// pages are not limited.
	for range 50 {
		if st, _ := getStatus(t, allowedURL(ts.URL, sites[0].URL+"/private")); st != 200 {
			t.Fatalf("warm answer while limited: %d", st)
		}
	}
	if st, m := call(t, "POST", ts.URL+"/api/fetch", jsonBody(t, map[string]string{"url": sites[1].URL + "/"})); st != 200 {
		t.Errorf("fetch of a warm site while limited: %d %v", st, m)
	}
	if st, _ := call(t, "POST", ts.URL+"/api/check", `{"robots":"","agent":"x","urls":["/"]}`); st != 200 {
		t.Errorf("check while limited: %d", st)
	}
	if st, _ := call(t, "POST", ts.URL+"/api/page", `{"html":"<meta name=robots content=noindex>","robots":""}`); st != 200 {
		t.Errorf("pasted page while limited: %d", st)
	}
	if st, m := call(t, "POST", ts.URL+"/api/fetch", jsonBody(t, map[string]string{"url": sites[2].URL + "/"})); st != http.StatusTooManyRequests {
		t.Errorf("fetch of a cold site while limited: %d %v", st, m)
	}
	clock.Add(time.Second)
	if st, _ := getStatus(t, allowedURL(ts.URL, sites[2].URL+"/")); st != 200 {
		t.Errorf("after a second: %d", st)
	}
}

// TestOriginLimit: fetches to one site are limited whoever asks; a page
// fetch is always a fetch.
func TestOriginLimit(t *testing.T) {
	clock := newClock()
	o := newOrigin(t, site)
	ts, _ := newGuardedServer(t, Config{RatePerSecond: -1, OriginRate: 1, OriginBurst: 2, Now: clock.Now})
	page := jsonBody(t, map[string]any{"url": o.URL + "/article", "agents": []string{"Googlebot"}})
	if st, m := call(t, "POST", ts.URL+"/api/page", page); st != 200 {
		t.Fatalf("first page: %d %v", st, m) // the page and robots.txt: two tokens
	}
	res, err := http.Post(ts.URL+"/api/page", "application/json", strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") != "1" {
		t.Errorf("second page fetch: %d Retry-After %q", res.StatusCode, res.Header.Get("Retry-After"))
	}
	// robots.txt is cached: answers for the site still come.
	if st, _ := getStatus(t, allowedURL(ts.URL, o.URL+"/x")); st != 200 {
		t.Errorf("cached answer for a site at its limit: %d", st)
	}
	clock.Add(time.Second)
	if st, m := call(t, "POST", ts.URL+"/api/page", page); st != 200 {
		t.Errorf("after a second: %d %v", st, m)
	}
}

// TestTrustedNetwork: a trusted client is not limited per client.
func TestTrustedNetwork(t *testing.T) {
	sites := []*origin{newOrigin(t, site), newOrigin(t, site), newOrigin(t, site)}
	ts, _ := newGuardedServer(t, Config{RatePerSecond: 1, Burst: 1, Trust: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, Now: newClock().Now})
	for i, o := range sites {
		if st, _ := getStatus(t, allowedURL(ts.URL, o.URL+"/")); st != 200 {
			t.Errorf("site %d from a trusted network: %d", i, st)
		}
	}
}
