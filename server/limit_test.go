package server

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/robotsfetch"
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

// limitStep is one call on a limiter: after moving the clock by advance,
// allow(key) (or refund(key) when refund is set) and what it must answer.
type limitStep struct {
	advance time.Duration
	key     string
	refund  bool
	times   int           // allow calls that must all say ok (0: one call, checked against ok and wait)
	ok      bool          // for a single call
	wait    time.Duration // for a single refused call, to the millisecond
}

// TestLimiterBucket: the token bucket behind -rate/-burst and
// -origin-rate/-origin-burst, with the documented defaults (5/s with a
// burst of 20 per client, 1/s with a burst of 5 per site), on a clock moved
// by hand: the burst, the refill at the rate (at the instant a token is
// whole, not before), the cap at the burst, the wait it announces, the
// refund, and keys kept apart.
func TestLimiterBucket(t *testing.T) {
	tests := []struct {
		name  string
		rate  float64
		burst int
		steps []limitStep
	}{
		{"client burst of 20", 5, 20, []limitStep{
			{key: "a", times: 20},
			{key: "a", wait: 200 * time.Millisecond},
			{key: "b", times: 20}, // another client has its own bucket
			{key: "b", wait: 200 * time.Millisecond},
		}},
		{"refill at 5/s", 5, 20, []limitStep{
			{key: "a", times: 20},
			{advance: 100 * time.Millisecond, key: "a", wait: 100 * time.Millisecond}, // half a token
			{advance: 99 * time.Millisecond, key: "a", wait: time.Millisecond},
			{advance: time.Millisecond, key: "a", ok: true}, // a whole token at 200 ms
			{key: "a", wait: 200 * time.Millisecond},
			{advance: 400 * time.Millisecond, key: "a", times: 2},
			{key: "a", wait: 200 * time.Millisecond},
		}},
		{"refill stops at the burst", 5, 20, []limitStep{
			{key: "a", times: 20},
			{advance: time.Hour, key: "a", times: 20},
			{key: "a", wait: 200 * time.Millisecond},
		}},
		{"site burst of 5 at 1/s", 1, 5, []limitStep{
			{key: "https://example.com", times: 5},
			{key: "https://example.com", wait: time.Second},
			{advance: 250 * time.Millisecond, key: "https://example.com", wait: 750 * time.Millisecond},
			{advance: 750 * time.Millisecond, key: "https://example.com", ok: true},
			{key: "https://example.com", wait: time.Second},
		}},
		{"a refund gives one token back", 5, 20, []limitStep{
			{key: "a", times: 20},
			{key: "a", refund: true},
			{key: "a", ok: true},
			{key: "a", wait: 200 * time.Millisecond},
		}},
		{"a refund never exceeds the burst", 1, 5, []limitStep{
			{key: "a", times: 1},
			{key: "a", refund: true},
			{key: "a", refund: true},
			{key: "a", times: 5},
			{key: "a", wait: time.Second},
		}},
		{"a refund for another key gives nothing", 1, 5, []limitStep{
			{key: "a", times: 5},
			{key: "b", refund: true},
			{key: "a", wait: time.Second},
			{key: "b", times: 5},
			{key: "b", wait: time.Second},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newClock()
			l := newLimiter(tt.rate, tt.burst, clock.Now)
			for i, s := range tt.steps {
				clock.Add(s.advance)
				switch {
				case s.refund:
					l.refund(s.key)
				case s.times > 0:
					for n := range s.times {
						if ok, wait := l.allow(s.key); !ok {
							t.Fatalf("step %d: call %d of %d for %s refused (wait %v)", i, n+1, s.times, s.key, wait)
						}
					}
				default:
					ok, wait := l.allow(s.key)
					if ok != s.ok || wait.Round(time.Millisecond) != s.wait {
						t.Fatalf("step %d: allow(%s) = %v, %v; want %v, %v", i, s.key, ok, wait, s.ok, s.wait)
					}
				}
			}
		})
	}
}

// TestLimiterNil: a limit turned off (-rate 0) is a nil limiter, which
// allows everything and takes refunds without effect.
func TestLimiterNil(t *testing.T) {
	var l *limiter
	l.refund("a")
	for range 100 {
		if ok, wait := l.allow("a"); !ok || wait != 0 {
			t.Fatalf("nil limiter: %v, %v", ok, wait)
		}
	}
}

// TestLimiterSweep: buckets idle long enough to be full again (burst/rate:
// 4 s at the client defaults) are dropped, and only those: a client that
// spent its tokens a moment ago keeps its debt across a sweep.
func TestLimiterSweep(t *testing.T) {
	clock := newClock()
	l := newLimiter(5, 20, clock.Now)
	clock.Add(3 * time.Second)
	for range 20 {
		l.allow("a")
	}
	clock.Add(2 * time.Second) // 5 s since the limiter began: "b" sweeps
	if ok, _ := l.allow("b"); !ok {
		t.Fatal("b refused")
	}
	// a's bucket, 2 s old, refilled 10 tokens: not 20.
	for n := range 10 {
		if ok, wait := l.allow("a"); !ok {
			t.Fatalf("a's call %d of 10 refused (wait %v)", n+1, wait)
		}
	}
	if ok, wait := l.allow("a"); ok || wait.Round(time.Millisecond) != 200*time.Millisecond {
		t.Fatalf("a's 11th call: %v, %v; want refused for 200ms (the sweep forgot a's debt)", ok, wait)
	}
}

// TestLimiterClientBound: at most 65,536 clients hold a bucket at once (an
// address-spraying flood cannot grow memory); a new client beyond them is
// refused and told to wait burst/rate (4 s at the client defaults), until a
// sweep drops the buckets idle for more than that. A sweep runs on a call
// more than 4 s after the previous one (or after the start) that finds at
// least one bucket, and drops a bucket idle for more than 4 s, not one idle
// for exactly 4 s.
func TestLimiterClientBound(t *testing.T) {
	const clients = 65536 // maxClients, written out
	type step struct {
		advance time.Duration
		fill    int    // new clients that must all be let through
		key     string // else one call for this client ("new" if empty)
		ok      bool
		wait    time.Duration
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"full, then swept", []step{
			{advance: time.Second, fill: clients},
			{wait: 4 * time.Second},
			// 5 s after the start a sweep runs, but every bucket is
			// exactly 4 s idle: none is dropped.
			{advance: 4 * time.Second, wait: 4 * time.Second},
			// 4 s after that sweep, exactly: no sweep yet.
			{advance: 4 * time.Second, wait: 4 * time.Second},
			{advance: time.Nanosecond, ok: true},
		}},
		{"one bucket short", []step{
			{advance: time.Second, fill: clients - 1},
			{ok: true},
			{key: "another", wait: 4 * time.Second},
		}},
		// An empty limiter does not sweep: the first bucket's sweep clock
		// starts at the limiter's start, and the sweep 6 s in sets it.
		{"no sweep while empty", []step{
			{advance: 5 * time.Second, fill: 1},
			{advance: time.Second, fill: clients - 1},
			// 4 s + 1 ns after the first bucket, 3 s + 1 ns after the
			// sweep: that bucket is not dropped yet.
			{advance: 3*time.Second + time.Nanosecond, wait: 4 * time.Second},
		}},
		// One bucket is enough to sweep: at 5 s it is exactly 4 s idle and
		// kept, and the next sweep is due at 9 s.
		{"a sweep with one bucket", []step{
			{advance: time.Second, fill: 1},
			{advance: 4 * time.Second, fill: 1},
			{advance: time.Second, fill: clients - 2},
			{wait: 4 * time.Second},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newClock()
			l := newLimiter(5, 20, clock.Now)
			next := 0
			for i, s := range tt.steps {
				clock.Add(s.advance)
				if s.fill > 0 {
					for range s.fill {
						if ok, _ := l.allow(strconv.Itoa(next)); !ok {
							t.Fatalf("step %d: client %d refused", i, next)
						}
						next++
					}
					continue
				}
				key := cmp.Or(s.key, "new")
				ok, wait := l.allow(key)
				if ok != s.ok || wait != s.wait {
					t.Fatalf("step %d: client %s: %v, %v; want %v, %v", i, key, ok, wait, s.ok, s.wait)
				}
			}
		})
	}
}

// TestAdmitFetch: a fetch spends a token of its client (unless the client
// is in a -trust network) and one of the site; when the site's limit
// refuses, the client's token is given back, and each refusal is counted
// under the limit that made it.
func TestAdmitFetch(t *testing.T) {
	client := netip.MustParseAddr("192.0.2.7")
	const a, b, c = "https://a.example", "https://b.example", "https://c.example"
	type step struct {
		origin string
		// refused: "" let through, "client" or "origin" the limit that refused
		refused string
	}
	tests := []struct {
		name  string
		cfg   Config
		steps []step
	}{
		{"client limit", Config{RatePerSecond: 1, Burst: 2, OriginRate: -1}, []step{
			{a, ""}, {b, ""}, {c, "client"}, {a, "client"},
		}},
		{"site limit", Config{RatePerSecond: -1, OriginRate: 1, OriginBurst: 2}, []step{
			{a, ""}, {a, ""}, {a, "origin"}, {b, ""},
		}},
		// a's second fetch is refused by the site's limit: the client's
		// token comes back, so b and c still fit in its burst of 3.
		{"refund", Config{RatePerSecond: 1, Burst: 3, OriginRate: 1, OriginBurst: 1}, []step{
			{a, ""}, {a, "origin"}, {a, "origin"}, {b, ""}, {c, ""}, {"https://d.example", "client"},
		}},
		{"trusted client", Config{RatePerSecond: 1, Burst: 1, OriginRate: 1, OriginBurst: 1, Trust: []netip.Prefix{netip.MustParsePrefix("198.51.100.0/24"), netip.MustParsePrefix("192.0.2.0/28")}}, []step{
			{a, ""}, {b, ""}, {c, ""}, {a, "origin"},
		}},
		{"untrusted client", Config{RatePerSecond: 1, Burst: 1, OriginRate: 1, OriginBurst: 1, Trust: []netip.Prefix{netip.MustParsePrefix("192.0.2.8/29")}}, []step{
			{a, ""}, {b, "client"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.Now = newClock().Now
			s, err := newServer(tt.cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			var want [2]int64
			for i, st := range tt.steps {
				err := s.admitFetch(client, st.origin)
				var le *limitedError
				switch {
				case st.refused == "" && err != nil:
					t.Fatalf("step %d (%s): %v", i, st.origin, err)
				case st.refused == "":
					continue
				case !errors.As(err, &le):
					t.Fatalf("step %d (%s): %v, want refused by the %s limit", i, st.origin, err, st.refused)
				}
				perOrigin := st.refused == "origin"
				if le.PerOrigin != perOrigin || le.Origin != st.origin || le.Wait != time.Second {
					t.Errorf("step %d: %+v, want the %s limit for %s, 1s", i, *le, st.refused, st.origin)
				}
				if perOrigin {
					want[1]++
				} else {
					want[0]++
				}
			}
			if got := [2]int64{s.metrics.limits[0].Load(), s.metrics.limits[1].Load()}; got != want {
				t.Errorf("refusals counted (client, origin) %v, want %v", got, want)
			}
		})
	}
}

// TestAdmit: only a fetch is limited: a URL with no origin to fetch, or
// one whose robots.txt is fresh in the cache, spends nothing; either limit
// alone still limits.
func TestAdmit(t *testing.T) {
	client := netip.MustParseAddr("192.0.2.7")
	ctx := t.Context()
	tests := []struct {
		name string
		cfg  Config
		urls []string
		want []bool // let through
	}{
		{"client limit alone", Config{RatePerSecond: 1, Burst: 1, OriginRate: -1},
			[]string{"https://a.example/x", "https://b.example/x"}, []bool{true, false}},
		{"site limit alone", Config{RatePerSecond: -1, OriginRate: 1, OriginBurst: 1},
			[]string{"https://a.example/x", "https://a.example/y"}, []bool{true, false}},
		{"no limits", Config{RatePerSecond: -1, OriginRate: -1},
			[]string{"https://a.example/x", "https://a.example/y"}, []bool{true, true}},
		{"no origin: nothing to fetch", Config{RatePerSecond: 1, Burst: 1, OriginRate: -1},
			[]string{"ftp://a.example/x", "/relative", "https://a.example/x", "https://b.example/x"}, []bool{true, true, true, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.Now = newClock().Now
			s, err := newServer(tt.cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i, u := range tt.urls {
				if err := s.admit(ctx, client, u); (err == nil) != tt.want[i] {
					t.Errorf("%s: %v, want let through %v", u, err, tt.want[i])
				}
			}
		})
	}
}

func TestClientAddr(t *testing.T) {
	for _, tt := range []struct{ remote, want string }{
		{"192.0.2.1:1234", "192.0.2.1"},
		{"[2001:db8::1]:80", "2001:db8::1"},
		{"[::ffff:192.0.2.1]:80", "192.0.2.1"},
		{"192.0.2.1", "invalid IP"},
		{"", "invalid IP"},
	} {
		r := &http.Request{RemoteAddr: tt.remote}
		if got := clientAddr(r).String(); got != tt.want {
			t.Errorf("clientAddr(%q) = %s, want %s", tt.remote, got, tt.want)
		}
	}
}

// warmStore is a robotsfetch.Store that answers Get from a map and counts
// the calls.
type warmStore struct {
	entries map[string]*robotsfetch.Entry
	err     error
	gets    int
}

func (s *warmStore) Get(_ context.Context, key string) (*robotsfetch.Entry, error) {
	s.gets++
	return s.entries[key], s.err
}

func (s *warmStore) Put(context.Context, string, *robotsfetch.Entry, time.Duration) error {
	return nil
}

// TestWarmFresh: an origin is fresh (answered without a fetch, so without
// a token) while now is before its expiry, not at it: from the index
// first, else from the Store, whose answer the index then keeps. A Store
// that fails, or has nothing, does not make an origin fresh.
func TestWarmFresh(t *testing.T) {
	const o = "https://a.example"
	clock := newClock()
	now := clock.Now()
	entry := func(expires time.Time) *robotsfetch.Entry {
		return &robotsfetch.Entry{Origin: o, Last: robotsfetch.Outcome{FetchedAt: now.Add(-time.Hour), ExpiresAt: expires}}
	}
	tests := []struct {
		name   string
		index  time.Time // the index's expiry for o; zero: not in the index
		store  *warmStore
		fresh  bool
		gets   int  // Store lookups, for the first call
		second bool // a second call then answers from the index alone
	}{
		{"index, a moment before expiry", now.Add(time.Nanosecond), nil, true, 0, true},
		{"index, at expiry", now, nil, false, 0, false},
		{"index expired, Store fresh", now, &warmStore{entries: map[string]*robotsfetch.Entry{o: entry(now.Add(time.Minute))}}, true, 1, true},
		{"neither", time.Time{}, nil, false, 0, false},
		{"Store, a moment before expiry", time.Time{}, &warmStore{entries: map[string]*robotsfetch.Entry{o: entry(now.Add(time.Nanosecond))}}, true, 1, true},
		{"Store, at expiry", time.Time{}, &warmStore{entries: map[string]*robotsfetch.Entry{o: entry(now)}}, false, 1, false},
		{"Store without the origin", time.Time{}, &warmStore{}, false, 1, false},
		{"Store failing", time.Time{}, &warmStore{entries: map[string]*robotsfetch.Entry{o: entry(now.Add(time.Minute))}, err: errors.New("store down")}, false, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &warmIndex{now: clock.Now, origins: map[string]warmEntry{}}
			if tt.store != nil {
				w.store = tt.store
			}
			if !tt.index.IsZero() {
				w.origins[o] = warmEntry{expires: tt.index, fetched: now.Add(-time.Hour)}
			}
			if got := w.fresh(t.Context(), o); got != tt.fresh {
				t.Fatalf("fresh = %v, want %v", got, tt.fresh)
			}
			if tt.store != nil && tt.store.gets != tt.gets {
				t.Errorf("%d Store lookups, want %d", tt.store.gets, tt.gets)
			}
			if tt.second {
				w.store = nil
				if !w.fresh(t.Context(), o) {
					t.Error("the second call is not answered from the index")
				}
			}
		})
	}
}

// TestWarmSeen: an answer's outcome counts as a fetch the first time it is
// seen and only if it was not from the cache; the same fetch seen again
// (shared by callers waiting on it, or with a new expiry) is not counted,
// a new fetch of the same origin is.
func TestWarmSeen(t *testing.T) {
	const o = "https://a.example"
	t0 := newClock().Now()
	out := func(fetched, expires time.Duration, cached bool) *robotsfetch.Outcome {
		return &robotsfetch.Outcome{Origin: o, FetchedAt: t0.Add(fetched), ExpiresAt: t0.Add(expires), Cached: cached}
	}
	tests := []struct {
		name string
		seq  []*robotsfetch.Outcome
		want []bool
	}{
		{"a fetch, then shared", []*robotsfetch.Outcome{out(0, time.Hour, false), out(0, time.Hour, false)}, []bool{true, false}},
		{"from the cache", []*robotsfetch.Outcome{out(0, time.Hour, true), out(0, time.Hour, true)}, []bool{false, false}},
		{"a refetch", []*robotsfetch.Outcome{out(0, time.Hour, false), out(time.Hour, 2*time.Hour, false)}, []bool{true, true}},
		{"a refetch with the same expiry", []*robotsfetch.Outcome{out(0, time.Hour, false), out(time.Minute, time.Hour, false)}, []bool{true, true}},
		{"the same fetch with a new expiry", []*robotsfetch.Outcome{out(0, time.Hour, false), out(0, 2*time.Hour, false)}, []bool{true, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &warmIndex{now: newClock().Now, origins: map[string]warmEntry{}}
			for i, oc := range tt.seq {
				if got := w.seen(o, oc); got != tt.want[i] {
					t.Errorf("outcome %d: seen = %v, want %v", i, got, tt.want[i])
				}
			}
		})
	}
}

// TestWarmBound: the index holds at most 10,000 origins (robotsfetch's
// MaxOrigins, docs/fetch.md). At the bound, a new origin first drops the
// expired ones; when fewer than half remain every fresh one is kept, else
// an arbitrary lot goes, down to half. An origin dropped is still answered
// by the Store, so the bound costs lookups, not tokens; but with a Store
// that fails, a kept origin is one not charged.
func TestWarmBound(t *testing.T) {
	const bound = 10000
	clock := newClock()
	now := clock.Now()
	tests := []struct {
		name          string
		fresh, stale  int
		want          int // origins held after one more
		keepsAllFresh bool
	}{
		{"one below the bound", bound - 1, 0, bound, true},
		{"at the bound, all fresh", bound, 0, bound / 2, false},
		{"at the bound, more than half expired", 4000, 6000, 4001, true},
		{"at the bound, half expired", 5000, 5000, bound / 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &warmIndex{now: clock.Now, origins: map[string]warmEntry{}}
			for i := range tt.fresh {
				w.origins[fmt.Sprintf("https://f%d.example", i)] = warmEntry{expires: now.Add(time.Nanosecond), fetched: now.Add(-time.Hour)}
			}
			for i := range tt.stale {
				w.origins[fmt.Sprintf("https://s%d.example", i)] = warmEntry{expires: now, fetched: now.Add(-time.Hour)}
			}
			const o = "https://new.example"
			if !w.put(o, warmEntry{expires: now.Add(time.Hour), fetched: now}) {
				t.Error("put of a new origin is not news")
			}
			if n := len(w.origins); n != tt.want {
				t.Errorf("%d origins held, want %d", n, tt.want)
			}
			if !w.fresh(t.Context(), o) {
				t.Error("the new origin is not held")
			}
			if tt.keepsAllFresh {
				for i := range tt.fresh {
					if !w.fresh(t.Context(), fmt.Sprintf("https://f%d.example", i)) {
						t.Fatalf("fresh origin %d dropped", i)
					}
				}
			}
		})
	}
}
