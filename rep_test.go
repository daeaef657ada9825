package rep_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotsmeta"
)

func serve(t testing.TB, robots string, code int) (*httptest.Server, *atomic.Int64) {
	var hits atomic.Int64
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			hits.Add(1)
			w.WriteHeader(code)
			fmt.Fprint(w, robots)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(s.Close)
	return s, &hits
}

const robots = `User-agent: *
Disallow: /private

User-agent: ExampleBot
Disallow: /no-example
Crawl-delay: 5
`

func TestAllowed(t *testing.T) {
	s, hits := serve(t, robots, 200)
	ctx := context.Background()
	tests := []struct {
		ua     string
		opts   []rep.Option
		path   string
		allow  bool
		line   int
		reason string
	}{
		{"ExampleBot/1.0 (+https://example.com/bot)", nil, "/no-example/x", false, 5, "disallowed by line 5: Disallow: /no-example"},
		{"Mozilla/5.0 (compatible; ExampleBot/2.1)", nil, "/private", true, 0, "allowed: no rule matched"},
		{"OtherBot/3", nil, "/private/x", false, 2, "disallowed by line 2: Disallow: /private"},
		{"ExampleBot-News/1.0", []rep.Option{rep.WithAgents("ExampleBot-News", "ExampleBot")}, "/no-example", false, 5, ""},
		{"OtherBot/3", nil, "/robots.txt", true, 0, "/robots.txt is always allowed"},
	}
	for _, tt := range tests {
		c, err := rep.New(tt.ua, tt.opts...)
		if err != nil {
			t.Fatal(err)
		}
		d, err := c.Check(ctx, s.URL+tt.path)
		if err != nil {
			t.Fatal(err)
		}
		if d.Allowed != tt.allow || d.Rule.Line != tt.line || d.Fetch == nil || d.Fetch.Status != 200 || d.URL != s.URL+tt.path {
			t.Errorf("%s %s: %+v", tt.ua, tt.path, d)
		}
		if !strings.Contains(d.String(), tt.reason) || !strings.Contains(d.String(), "/robots.txt: 200, success") {
			t.Errorf("%s %s: String() = %q, want it to contain %q", tt.ua, tt.path, d.String(), tt.reason)
		}
	}
	if hits.Load() != int64(len(tests)) { // one Crawler each, one fetch each
		t.Errorf("%d robots.txt requests", hits.Load())
	}
}

func TestAllowedFailClosed(t *testing.T) {
	s, _ := serve(t, "", 503)
	c, _ := rep.New("ExampleBot/1.0")
	d, err := c.Check(context.Background(), s.URL+"/anything")
	if err != nil || d.Allowed || d.Fetch.Verdict != robotsfetch.DisallowAll {
		t.Fatalf("%v %v", d, err)
	}
	if !strings.Contains(d.String(), "unreachable") {
		t.Errorf("String() = %q", d.String())
	}
	s404, _ := serve(t, "", 404)
	if d, _ := c.Check(context.Background(), s404.URL+"/anything"); !d.Allowed {
		t.Errorf("404: %v", d)
	}
}

func TestAllowedErrors(t *testing.T) {
	c, _ := rep.New("ExampleBot/1.0")
	if d, err := c.Check(context.Background(), "/relative"); err == nil || d.Allowed {
		t.Errorf("relative URL: %v %v", d, err)
	}
	s, _ := serve(t, robots, 200)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if d, err := c.Check(ctx, s.URL+"/"); !errors.Is(err, context.Canceled) || d.Allowed {
		t.Errorf("cancelled: %v %v", d, err)
	}
	for _, ua := range []string{"", "  "} {
		if _, err := rep.New(ua); err == nil {
			t.Errorf("New(%q) succeeded", ua)
		}
	}
}

func TestEngines(t *testing.T) {
	c, _ := rep.New("ExampleBot/1.0", rep.WithEngine(engine.RFC9309))
	if c.Fetcher().Options().AfterOutage != robotsfetch.OutageAllowAll {
		t.Error("RFC9309 profile does not treat a long outage as unavailable")
	}
	c, _ = rep.New("ExampleBot/1.0", rep.WithEngine(engine.RFC9309), rep.WithFetchOptions(robotsfetch.Options{AfterOutage: robotsfetch.OutageDisallow}))
	if c.Fetcher().Options().AfterOutage != robotsfetch.OutageDisallow {
		t.Error("explicit AfterOutage overridden by the profile")
	}
	// The RFC profile decodes %-escapes of unreserved characters; Google's does not.
	s, _ := serve(t, "User-agent: *\nDisallow: /%62az\n", 200)
	for p, want := range map[engine.Engine]bool{engine.Google: true, engine.RFC9309: false} {
		c, _ := rep.New("ExampleBot/1.0", rep.WithEngine(p))
		if d, _ := c.Check(context.Background(), s.URL+"/baz"); d.Allowed != want {
			t.Errorf("%s: /baz allowed %v", p, d.Allowed)
		}
	}
}

// TestWait runs in a synctest bubble: time is virtual, so the delays are
// exact and the test takes no time. The robots.txt comes from a store
// filled beforehand, so no network is involved.
func TestWait(t *testing.T) {
	always := rep.WithPoliteness(rep.Politeness{CrawlDelay: rep.HonourAlways})
	asEngine := rep.WithPoliteness(rep.Politeness{CrawlDelay: rep.HonourAsEngine})
	never := rep.WithPoliteness(rep.Politeness{CrawlDelay: rep.HonourNever})
	tests := []struct {
		name    string
		profile engine.Engine
		ua      string
		robots  string
		want    time.Duration
		source  string
		opts    []rep.Option
	}{
		{"unknown crawler honours crawl-delay", engine.Google, "ExampleBot", "User-agent: *\nCrawl-delay: 5\n", 5 * time.Second, "crawl-delay (line 2)", nil},
		{"unknown crawler honours request-rate", engine.Auto, "ExampleBot", "User-agent: *\nRequest-rate: 1/10s\nCrawl-delay: 2\n", 10 * time.Second, "request-rate (line 2)", nil},
		{"googlebot ignores crawl-delay", engine.Auto, "Googlebot", "User-agent: *\nCrawl-delay: 5\n", rep.DefaultDelay, "default", nil},
		{"yandexbot ignores crawl-delay", engine.Auto, "YandexBot", "User-agent: *\nCrawl-delay: 5\n", rep.DefaultDelay, "default", nil},
		{"claudebot honours crawl-delay", engine.Auto, "ClaudeBot", "User-agent: *\nCrawl-delay: 5\n", 5 * time.Second, "crawl-delay (line 2)", nil},
		{"googlebot told to honour", engine.Auto, "Googlebot", "User-agent: *\nCrawl-delay: 5\n", 5 * time.Second, "crawl-delay (line 2)", []rep.Option{always}},
		{"as engine: google ignores crawl-delay", engine.Google, "ExampleBot", "User-agent: *\nCrawl-delay: 5\n", rep.DefaultDelay, "default", []rep.Option{asEngine}},
		{"never", engine.Bing, "bingbot", "User-agent: *\nCrawl-delay: 5\n", rep.DefaultDelay, "default", []rep.Option{never}},
		{"below the minimum", engine.Auto, "ExampleBot", "User-agent: *\nCrawl-delay: 0.5\n", rep.DefaultDelay, "crawl-delay (line 2), raised to the minimum", nil},
		{"own minimum", engine.Auto, "ExampleBot", "User-agent: *\nCrawl-delay: 0.5\n", 500 * time.Millisecond, "crawl-delay (line 2)", []rep.Option{rep.WithPoliteness(rep.Politeness{MinDelay: 100 * time.Millisecond})}},
		{"own cap", engine.Auto, "ExampleBot", "User-agent: *\nCrawl-delay: 60\n", 30 * time.Second, "crawl-delay (line 2), capped", []rep.Option{rep.WithPoliteness(rep.Politeness{MaxDelay: 30 * time.Second})}},
		{"bing crawl-delay", engine.Bing, "ExampleBot", "User-agent: *\nCrawl-delay: 5\n", 5 * time.Second, "crawl-delay (line 2)", nil},
		{"bing inherits *", engine.Bing, "bingbot", "User-agent: *\nDisallow: /tmp\nCrawl-delay: 3\n\nUser-agent: bingbot\nDisallow: /x\n", 3 * time.Second, "crawl-delay (line 3, * group)", nil},
		{"bing own group", engine.Bing, "bingbot", "User-agent: *\nDisallow: /tmp\nCrawl-delay: 3\n\nUser-agent: bingbot\nCrawl-delay: 7\n", 7 * time.Second, "crawl-delay (line 6)", nil},
		{"yandex request-rate", engine.Yandex, "ExampleBot", "User-agent: *\nRequest-rate: 1/10s\nCrawl-delay: 2\n", 10 * time.Second, "request-rate (line 2)", nil},
		{"yandex crawl-delay wins", engine.Yandex, "ExampleBot", "User-agent: *\nRequest-rate: 10/1s\nCrawl-delay: 2\n", 2 * time.Second, "crawl-delay (line 3)", nil},
		{"cap", engine.Bing, "ExampleBot", "User-agent: *\nCrawl-delay: 3600\n", rep.DefaultMaxDelay, "crawl-delay (line 2), capped", nil},
		{"no rules", engine.Bing, "ExampleBot", "", rep.DefaultDelay, "default", nil},
		// The Google guide's example: under bing and yandex a Crawl-delay
		// line ends its group, so slurp keeps its own 12 seconds; Google's
		// groups join the two User-agent lines, and the first delay holds.
		{"bing: crawl-delay ends a group", engine.Bing, "slurp", guideDelays, 12 * time.Second, "crawl-delay (line 5)", nil},
		{"yandex: crawl-delay ends a group", engine.Yandex, "slurp", guideDelays, 12 * time.Second, "crawl-delay (line 5)", nil},
		{"bing: msnbot's own delay", engine.Bing, "msnbot", guideDelays, 5 * time.Second, "crawl-delay (line 2)", nil},
		{"google: one group", engine.Google, "slurp", guideDelays, 5 * time.Second, "crawl-delay (line 2)", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				const site, other = "https://www.example.com", "https://other.example.com"
				store := &robotsfetch.MemoryStore{}
				storeRobots(store, tt.ua+"/1.0", site, tt.robots)
				storeRobots(store, tt.ua+"/1.0", other, "")
				c, err := rep.New(tt.ua+"/1.0", append([]rep.Option{rep.WithEngine(tt.profile), rep.WithStore(store)}, tt.opts...)...)
				if err != nil {
					t.Fatal(err)
				}
				ctx := context.Background()
				d, src, err := c.Delay(ctx, site+"/a")
				if err != nil || d != tt.want || src != tt.source {
					t.Fatalf("Delay = %v %q %v, want %v %q", d, src, err, tt.want, tt.source)
				}
				start := time.Now()
				for i := range 3 {
					if err := c.Wait(ctx, site+fmt.Sprintf("/page%d", i)); err != nil {
						t.Fatal(err)
					}
					if got := time.Since(start); got != time.Duration(i)*tt.want {
						t.Fatalf("request %d at %v, want %v", i, got, time.Duration(i)*tt.want)
					}
				}
				// Another origin is not held back.
				otherStart := time.Now()
				if err := c.Wait(ctx, other+"/"); err != nil || time.Since(otherStart) != 0 {
					t.Fatalf("other origin waited %v (%v)", time.Since(otherStart), err)
				}
				// A cancelled wait returns the context's error.
				cctx, cancel := context.WithTimeout(ctx, tt.want/2)
				defer cancel()
				if tt.want > 0 {
					if err := c.Wait(cctx, site+"/late"); !errors.Is(err, context.DeadlineExceeded) {
						t.Fatalf("cancelled wait: %v", err)
					}
				}
			})
		})
	}
}

// guideDelays is the Crawl-delay example of Google's guide to the Robots
// Exclusion Protocol (../shared/seeds): two groups, each only a delay.
const guideDelays = "User-agent: msnbot\nCrawl-delay: 5\n\nUser-agent: slurp\nCrawl-delay: 12\n"

// storeRobots puts a fresh robots.txt for origin in the store, as another
// crawler of the fleet, sending userAgent, would have.
func storeRobots(store robotsfetch.Store, userAgent, origin, body string) {
	now := time.Now()
	e := &robotsfetch.Entry{Origin: origin, UserAgent: userAgent,
		Last: robotsfetch.Outcome{Origin: origin, URL: origin + "/robots.txt", Status: 200, Case: robotsfetch.Success,
			Verdict: robotsfetch.UseRules, FetchedAt: now, ExpiresAt: now.Add(24 * time.Hour)},
		Good: &robotsfetch.Copy{Case: robotsfetch.Success, Status: 200, Body: []byte(body), FetchedAt: now}}
	store.Put(context.Background(), robotsfetch.StoreKey(origin, userAgent), e, time.Hour)
}

func TestWaitConcurrent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// The robots.txt comes from a store filled beforehand: an unknown
		// crawler reads Crawl-delay, and no test reaches the network.
		store := &robotsfetch.MemoryStore{}
		storeRobots(store, "ExampleBot/1.0", "https://example.com", "")
		c, _ := rep.New("ExampleBot/1.0", rep.WithDelay(2*time.Second, time.Minute), rep.WithStore(store))
		// Five waits at once: one is let through at each 2 s slot. The
		// test counts the waits that returned at each virtual instant
		// (synctest.Wait: every goroutine blocked), just before and at
		// each slot.
		var done atomic.Int64
		for range 5 {
			go func() {
				c.Wait(context.Background(), "https://example.com/")
				done.Add(1)
			}()
		}
		synctest.Wait()
		for i := int64(1); i <= 5; i++ {
			if got := done.Load(); got != i {
				t.Fatalf("slot %d (%v): %d waits returned, want %d", i, time.Duration(i-1)*2*time.Second, got, i)
			}
			if i == 5 {
				break
			}
			time.Sleep(2*time.Second - time.Nanosecond)
			synctest.Wait()
			if got := done.Load(); got != i {
				t.Fatalf("just before slot %d: %d waits returned, want %d", i+1, got, i)
			}
			time.Sleep(time.Nanosecond)
			synctest.Wait()
		}
	})
}

const page = `<!doctype html>
<html><head>
<base href="/docs/">
<meta name="robots" content="max-snippet:50, max-image-preview:standard">
<meta name="examplebot" content="nofollow">
</head><body>
<p>Intro <span data-nosnippet>secret price</span></p>
<a href="guide">Guide</a>
<a href="https://other.example/x#frag" rel="ugc">Comment link</a>
<a href="mailto:someone@example.com">Mail</a>
<a href="/private/admin">Admin</a>
</body></html>`

func TestCheckResponse(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
		case "/old":
			http.Redirect(w, r, "/page", http.StatusMovedPermanently)
		case "/page":
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("X-Robots-Tag", "otherbot: noindex")
			fmt.Fprint(w, page)
		case "/noindex":
			w.Header().Set("X-Robots-Tag", "noindex")
			fmt.Fprint(w, `<a href="/a">a</a>`)
		}
	}))
	defer s.Close()
	ctx := context.Background()
	c, _ := rep.New("ExampleBot/1.0")
	resp, err := http.Get(s.URL + "/old")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	v, err := c.CheckResponse(ctx, resp)
	if err != nil {
		t.Fatal(err)
	}
	if v.URL != s.URL+"/page" || !v.Crawl.Allowed || !v.Index || v.Follow || !v.Snippet {
		t.Errorf("verdict %+v", v)
	}
	if !v.MaxSnippet.Set || v.MaxSnippet.N != 50 || v.MaxImagePreview != robotsmeta.PreviewStandard || v.MaxVideoPreview.Set {
		t.Errorf("snippet limits %+v %v %+v", v.MaxSnippet, v.MaxImagePreview, v.MaxVideoPreview)
	}
	if len(v.NoSnippet) != 1 || v.NoSnippet[0] != "secret price" {
		t.Errorf("nosnippet %q", v.NoSnippet)
	}
	wantLinks := []string{s.URL + "/docs/guide", "https://other.example/x", s.URL + "/private/admin"}
	if len(v.Links) != len(wantLinks) {
		t.Fatalf("links %+v", v.Links)
	}
	for i, l := range v.Links {
		if l.URL != wantLinks[i] || l.Follow {
			t.Errorf("link %d: %+v, want %s unfollowed (page is nofollow for examplebot)", i, l, wantLinks[i])
		}
	}
	if v.Links[1].Rel != robotsmeta.RelUGC {
		t.Errorf("rel %v", v.Links[1].Rel)
	}
	if len(v.FollowedLinks()) != 0 {
		t.Errorf("followed %v", v.FollowedLinks())
	}

	// Another crawler sees noindex from the header and follows the links.
	o, _ := rep.New("OtherBot/2.0")
	v, err = o.CheckPage(ctx, s.URL+"/page", http.Header{"X-Robots-Tag": {"otherbot: noindex"}}, strings.NewReader(page))
	if err != nil || v.Index || !v.Follow || len(v.FollowedLinks()) != 2 {
		t.Errorf("otherbot: %+v %v; followed %v", v, err, v.FollowedLinks())
	}
	// robots.txt disallows the page: reported, the page still read.
	v, _ = c.CheckPage(ctx, s.URL+"/private/x", http.Header{"X-Robots-Tag": {"noindex"}}, nil)
	if v.Crawl.Allowed || v.Crawl.Rule.Line != 2 || v.Index {
		t.Errorf("private: %+v", v)
	}
	if _, err := c.CheckResponse(ctx, &http.Response{}); err == nil {
		t.Error("response without a request accepted")
	}
}

// BenchmarkAllowedCached is the crawler's hot path: the origin's robots.txt
// is in memory.
func BenchmarkAllowedCached(b *testing.B) {
	s, _ := serve(b, robots, 200)
	c, _ := rep.New("ExampleBot/1.0 (+https://example.com/bot)")
	ctx := context.Background()
	u := s.URL + "/no-example/page?id=42"
	if _, err := c.Check(ctx, u); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if d, _ := c.Check(ctx, u); d.Allowed {
			b.Fatal("allowed")
		}
	}
}

// BenchmarkAllowedCachedParallel: the hot path from every core at once,
// as a crawler's workers call it.
func BenchmarkAllowedCachedParallel(b *testing.B) {
	s, _ := serve(b, robots, 200)
	c, _ := rep.New("ExampleBot/1.0 (+https://example.com/bot)")
	ctx := context.Background()
	u := s.URL + "/no-example/page?id=42"
	if _, err := c.Check(ctx, u); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if d, _ := c.Check(ctx, u); d.Allowed {
				b.Error("allowed")
				return
			}
		}
	})
}

func TestRobots(t *testing.T) {
	s, _ := serve(t, robots+"Sitemap: https://www.example.com/sitemap.xml\n", 200)
	c, _ := rep.New("ExampleBot/1.0")
	r, err := c.Robots(context.Background(), s.URL+"/x")
	if err != nil || r.File == nil || len(r.File.Sitemaps()) != 1 || r.Outcome.Origin != s.URL {
		t.Fatalf("%+v %v", r, err)
	}
}

// TestPoliteness: pacing is apart from the engine. A crawler the registry
// does not know honours Crawl-delay whatever engine matches its rules; a
// registry crawler keeps what its operator documents.
func TestPoliteness(t *testing.T) {
	for _, tt := range []struct {
		ua   string
		opts []rep.Option
		want rep.Politeness
	}{
		{"MyCrawler/1.0", nil, rep.Politeness{MinDelay: rep.DefaultDelay, MaxDelay: rep.DefaultMaxDelay, PerHost: 1, CrawlDelay: rep.HonourAlways}},
		{"MyCrawler/1.0", []rep.Option{rep.WithEngine(engine.RFC9309)}, rep.Politeness{MinDelay: rep.DefaultDelay, MaxDelay: rep.DefaultMaxDelay, PerHost: 1, CrawlDelay: rep.HonourAlways}},
		{"Googlebot/2.1", nil, rep.Politeness{MinDelay: rep.DefaultDelay, MaxDelay: rep.DefaultMaxDelay, PerHost: 1, CrawlDelay: rep.HonourNever}},
		{"bingbot/2.0", nil, rep.Politeness{MinDelay: rep.DefaultDelay, MaxDelay: rep.DefaultMaxDelay, PerHost: 1, CrawlDelay: rep.HonourAlways}},
		{"GPTBot/1.0", nil, rep.Politeness{MinDelay: rep.DefaultDelay, MaxDelay: rep.DefaultMaxDelay, PerHost: 1, CrawlDelay: rep.HonourAsEngine}},
		{"MyCrawler/1.0", []rep.Option{rep.WithPoliteness(rep.Politeness{MinDelay: -1, MaxDelay: 45 * time.Second, PerHost: 4, CrawlDelay: rep.HonourNever})},
			rep.Politeness{MinDelay: 0, MaxDelay: 45 * time.Second, PerHost: 4, CrawlDelay: rep.HonourNever}},
	} {
		c, err := rep.New(tt.ua, tt.opts...)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Politeness(); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.ua, got, tt.want)
		}
	}
	if rep.DefaultMaxDelay < 30*time.Second {
		t.Errorf("DefaultMaxDelay %v: a site may ask for at least 30 s", rep.DefaultMaxDelay)
	}
	if s := rep.HonourAsEngine.String(); s != "as-engine" {
		t.Errorf("String() = %q", s)
	}
}

// TestLinksDeduplicated: each URL once, fragments dropped, followed when
// any of its links may be.
func TestLinksDeduplicated(t *testing.T) {
	s, _ := serve(t, "", 404)
	c, _ := rep.New("ExampleBot/1.0")
	body := `<a href="/x#top">x</a> <a href="/x">x again</a> <a href="x#end">x thrice</a>
<a href="/y" rel="nofollow">y</a> <a href="/y#a">y followed</a>
<a href="/z" rel="sponsored">z</a> <a href="/z#b" rel="ugc nofollow">z again</a>`
	v, err := c.CheckPage(context.Background(), s.URL+"/", http.Header{"Content-Type": {"text/html"}}, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	want := []rep.Link{{URL: s.URL + "/x", Follow: true}, {URL: s.URL + "/y", Follow: true}, {URL: s.URL + "/z", Rel: robotsmeta.RelSponsored}}
	if len(v.Links) != len(want) {
		t.Fatalf("links %+v", v.Links)
	}
	for i, l := range v.Links {
		if l != want[i] {
			t.Errorf("link %d: %+v, want %+v", i, l, want[i])
		}
	}
	if f := v.FollowedLinks(); len(f) != 2 || f[0] != s.URL+"/x" || f[1] != s.URL+"/y" {
		t.Errorf("FollowedLinks() = %q", f)
	}
}
