package rep_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/internal/netguard"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotsmeta"
)

// site is a loopback site that records what it was asked.
type site struct {
	*httptest.Server
	mu    sync.Mutex
	paths []string
	uas   map[string]bool
}

func newSite(t testing.TB, robots string, h http.HandlerFunc) *site {
	s := &site{uas: map[string]bool{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.paths = append(s.paths, r.URL.Path)
		s.uas[r.UserAgent()] = true
		s.mu.Unlock()
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, robots)
			return
		}
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *site) asked() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.paths...)
}

func get(ctx context.Context, client *http.Client, u string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	return client.Do(req)
}

// fast paces nothing, so that tests of other things take no time.
var fast = rep.WithPoliteness(rep.Politeness{MinDelay: -1, CrawlDelay: rep.HonourNever})

func TestClientRefusesRedirectHop(t *testing.T) {
	s := newSite(t, "User-agent: *\nDisallow: /private\n", func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/moved":
			http.Redirect(w, r, "/private/report", http.StatusFound)
		case "/fine":
			http.Redirect(w, r, "/public", http.StatusFound)
		default:
			fmt.Fprint(w, "ok")
		}
	})
	c, _ := rep.New("ExampleBot/1.0", fast)
	client := c.Client()
	ctx := context.Background()

	resp, err := get(ctx, client, s.URL+"/moved")
	var de *rep.DisallowedError
	if !errors.As(err, &de) {
		t.Fatalf("redirect into /private: %v %v", resp, err)
	}
	if de.URL != s.URL+"/private/report" || de.Decision.Allowed || de.Decision.Rule.Line != 2 || de.Decision.URL != de.URL {
		t.Errorf("refusal %+v", de)
	}
	if !strings.Contains(err.Error(), "disallowed by line 2: Disallow: /private") {
		t.Errorf("error %q", err)
	}
	// Asked directly: refused before any request.
	if _, err := get(ctx, client, s.URL+"/private/x"); !errors.As(err, &de) || de.URL != s.URL+"/private/x" {
		t.Errorf("direct: %v", err)
	}
	// An allowed hop is followed.
	resp, err = get(ctx, client, s.URL+"/fine")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Request.URL.Path != "/public" || pageURL(resp) != s.URL+"/public" {
		t.Errorf("landed on %s, verdict for %s", resp.Request.URL, pageURL(resp))
	}
	want := []string{"/robots.txt", "/moved", "/fine", "/public"}
	if got := s.asked(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the site was asked %q, want %q", got, want)
	}
	if len(s.uas) != 1 || !s.uas["ExampleBot/1.0"] {
		t.Errorf("User-Agents %v", s.uas)
	}
}

// pageURL is the URL of the verdict the Transport read for resp.
func pageURL(resp *http.Response) string {
	if v := rep.PageVerdictOf(resp); v != nil {
		return v.URL
	}
	return "(no verdict)"
}

func TestClientKeepsBodyReadable(t *testing.T) {
	// A page of 3 MiB: its robots meta in the head, links before and
	// after the 1 MiB prefix.
	var page bytes.Buffer
	page.WriteString(`<html><head><meta name="robots" content="noindex"></head><body><a href="/a#x">a</a><a href="/a">a</a><a href="/b" rel="nofollow">b</a>`)
	for page.Len() < 3<<20 {
		page.WriteString("<p>filler text, on and on.</p>\n")
	}
	page.WriteString(`<a href="/late">late</a></body></html>`)
	s := newSite(t, "User-agent: *\nAllow: /\n", func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/page":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(page.Bytes())
		case "/data":
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("X-Robots-Tag", "examplebot: nofollow, noarchive")
			w.Write(page.Bytes()[:5000])
		}
	})
	c, _ := rep.New("ExampleBot/1.0", fast)
	client := c.Client()
	ctx := context.Background()

	resp, err := get(ctx, client, s.URL+"/page")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || !bytes.Equal(body, page.Bytes()) {
		t.Fatalf("body: %d bytes of %d, %v", len(body), page.Len(), err)
	}
	v := rep.PageVerdictOf(resp)
	if v == nil || v.Index || !v.Follow || !v.Crawl.Allowed || v.URL != s.URL+"/page" {
		t.Fatalf("verdict %+v", v)
	}
	if f := v.FollowedLinks(); fmt.Sprint(f) != fmt.Sprint([]string{s.URL + "/a"}) {
		t.Errorf("followed %q (the link after 1 MiB is not read)", f)
	}

	// Not HTML: the header's rules, the body untouched.
	resp, err = get(ctx, client, s.URL+"/data")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if v := rep.PageVerdictOf(resp); len(body) != 5000 || v == nil || !v.Index || v.Follow {
		t.Errorf("data: %d bytes, verdict %+v", len(body), v)
	}

	// A smaller prefix still hands the whole body over.
	small := &http.Client{Transport: &rep.Transport{Crawler: c, PagePrefix: 100}}
	resp, err = get(ctx, small, s.URL+"/page")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Equal(body, page.Bytes()) || rep.PageVerdictOf(resp).Index {
		t.Errorf("prefix 100: %d bytes", len(body))
	}
	if rep.PageVerdictOf(&http.Response{Request: resp.Request.WithContext(ctx)}) != nil {
		t.Error("a response the Transport did not read has a verdict")
	}
}

func TestClientRobotsTxt(t *testing.T) {
	// Everything disallowed, the robots.txt itself still fetched.
	s := newSite(t, "User-agent: *\nDisallow: /\n", func(w http.ResponseWriter, r *http.Request) {})
	c, _ := rep.New("ExampleBot/1.0", fast)
	resp, err := get(context.Background(), c.Client(), s.URL+"/robots.txt")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || rep.PageVerdictOf(resp) != nil {
		t.Errorf("robots.txt: %d", resp.StatusCode)
	}
	if _, err := get(context.Background(), c.Client(), s.URL+"/"); !errors.As(err, new(*rep.DisallowedError)) {
		t.Errorf("/: %v", err)
	}

	// robots.txt unreachable: everything refused, the Decision says why.
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer down.Close()
	var de *rep.DisallowedError
	if _, err := get(context.Background(), c.Client(), down.URL+"/page"); !errors.As(err, &de) || !de.Decision.FromFetch() || de.Decision.Fetch.Status != 503 {
		t.Errorf("503: %v", err)
	}
}

// TestClientWaitsCrawlDelay: a crawler the registry does not know waits
// out the site's Crawl-delay by default, on every request. It runs in
// virtual time (a synctest bubble, the site answered in memory): the
// requests arrive at their slots exactly.
func TestClientWaitsCrawlDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		var at []string
		rt := handlerTransport{http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				fmt.Fprint(w, "User-agent: *\nCrawl-delay: 1.5\n")
				return
			}
			at = append(at, fmt.Sprintf("%s@%v", r.URL.Path, time.Since(start)))
			fmt.Fprint(w, "ok")
		})}
		c, _ := rep.New("MyCrawler/1.0", rep.WithFetchOptions(robotsfetch.Options{Client: &http.Client{Transport: rt}}))
		const site = "http://www.example.com"
		if d, src, err := c.Delay(context.Background(), site+"/"); d != 1500*time.Millisecond || src != "crawl-delay (line 2)" {
			t.Fatalf("Delay = %v %q %v", d, src, err)
		}
		client := &http.Client{Transport: c.Transport(rt)}
		for _, p := range []string{"/one", "/two"} {
			resp, err := get(context.Background(), client, site+p)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
		}
		// robots.txt is paced like any request: it took the origin's
		// first slot at 0 s, before its Crawl-delay was known, so /one
		// waits the 1 s default after it; /two comes 1.5 s (the
		// Crawl-delay, above the default) after /one.
		if want := "[/one@1s /two@2.5s]"; fmt.Sprint(at) != want {
			t.Errorf("requests %v, want %s", at, want)
		}
		// A context that ends first ends the wait (the next slot is at 4 s).
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		if _, err := get(ctx, client, site+"/three"); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("cancelled wait: %v", err)
		}
	})
}

// TestClientPerHost: at most PerHost requests in flight to one origin,
// from sending to closing the body. It runs in a synctest bubble with the
// site in memory: each request holds the handler until the test lets one
// go, and synctest.Wait shows the state once every goroutine is blocked,
// so the count in flight is exact at each step.
func TestClientPerHost(t *testing.T) {
	for _, perHost := range []int{1, 3} {
		synctest.Test(t, func(t *testing.T) {
			const n = 8
			var entered, closed atomic.Int64
			next := make(chan struct{})
			rt := handlerTransport{http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/robots.txt" {
					return
				}
				entered.Add(1)
				<-next
				fmt.Fprint(w, "ok")
			})}
			c, _ := rep.New("ExampleBot/1.0", rep.WithPoliteness(rep.Politeness{MinDelay: -1, PerHost: perHost}),
				rep.WithFetchOptions(robotsfetch.Options{Client: &http.Client{Transport: rt}}))
			client := &http.Client{Transport: c.Transport(rt)}
			for i := range n {
				go func() {
					resp, err := get(context.Background(), client, fmt.Sprintf("http://www.example.com/%d", i))
					if err != nil {
						t.Error(err)
						return
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					closed.Add(1)
				}()
			}
			for left := n; left > 0; left-- {
				synctest.Wait()
				if got, want := entered.Load()-closed.Load(), min(perHost, left); got != int64(want) {
					t.Errorf("PerHost %d: %d requests in flight with %d not done, want %d", perHost, got, left, want)
					break
				}
				next <- struct{}{}
			}
			close(next) // lets every request end, also after a failure
			synctest.Wait()
			if closed.Load() != n {
				t.Errorf("PerHost %d: %d of %d requests done", perHost, closed.Load(), n)
			}
		})
	}
}

// handlerTransport answers in memory, so that a synctest bubble (whose
// clock stands still while a goroutine waits on the network) can run a
// site.
type handlerTransport struct{ h http.Handler }

func (rt handlerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	rt.h.ServeHTTP(rec, r)
	resp := rec.Result()
	resp.Request = r
	return resp, nil
}

// TestClientPacesEveryHop runs in virtual time: the Crawl-delay is kept
// exactly, between requests and between a redirect and its hop.
func TestClientPacesEveryHop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		var at []string
		rt := handlerTransport{http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			at = append(at, fmt.Sprintf("%s@%v", r.URL.Path, time.Since(start)))
			switch r.URL.Path {
			case "/robots.txt":
				fmt.Fprint(w, "User-agent: *\nCrawl-delay: 5\n")
			case "/a":
				http.Redirect(w, r, "/b", http.StatusMovedPermanently)
			default:
				fmt.Fprint(w, "ok")
			}
		})}
		c, err := rep.New("MyCrawler/1.0", rep.WithFetchOptions(robotsfetch.Options{Client: &http.Client{Transport: rt}}))
		if err != nil {
			t.Fatal(err)
		}
		client := &http.Client{Transport: c.Transport(rt)}
		for _, p := range []string{"/a", "/c"} {
			resp, err := get(context.Background(), client, "http://www.example.com"+p)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
		}
		// The robots.txt request takes the origin's first slot, so /a
		// waits the minimum after it (the Crawl-delay is not known
		// before the file is read), then every request waits 5 s.
		want := "[/robots.txt@0s /a@1s /b@6s /c@11s]"
		if fmt.Sprint(at) != want {
			t.Errorf("requests %v, want %s", at, want)
		}
	})
}

// BenchmarkClient compares one GET of a small HTML page through the
// crawler's client with the same GET through a bare http.Client, to one
// loopback server, robots.txt cached: the client's cost is the robots.txt
// check, the pacing bookkeeping and the page verdict (the headers-only
// run leaves the body unread).
func BenchmarkClient(b *testing.B) {
	page, handler := benchPage()
	// Not newSite: a site that records every request grows with the
	// runs, and the later runs would pay for the earlier ones' records.
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
			return
		}
		handler(w, r)
	}))
	b.Cleanup(s.Close)
	benchClient(b, s.URL+"/article/1", page, nil)
}

// BenchmarkClientInMemory is BenchmarkClient with the site answering in
// memory: no network, so what remains is the client's own cost.
func BenchmarkClientInMemory(b *testing.B) {
	page, handler := benchPage()
	rt := handlerTransport{http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
			return
		}
		handler(w, r)
	})}
	benchClient(b, "http://www.example.com/article/1", page, rt)
}

// benchPage is a 2.6 KB article with 20 links.
func benchPage() (string, http.HandlerFunc) {
	var page strings.Builder
	page.WriteString(`<!doctype html><html><head><title>Page</title><meta name="robots" content="max-snippet:50"></head><body>`)
	for i := range 20 {
		fmt.Fprintf(&page, `<p>Paragraph %d with a <a href="/article/%d#top">link</a> and some text around it.</p>`, i, i)
	}
	page.WriteString(`</body></html>`)
	return page.String(), func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, page.String())
	}
}

// benchClient runs the side-by-side GETs of u through base (nil: a new
// http.Transport for each client).
func benchClient(b *testing.B, u, page string, base http.RoundTripper) {
	transport := func() http.RoundTripper {
		if base != nil {
			return base
		}
		return &http.Transport{}
	}
	ctx := context.Background()
	run := func(b *testing.B, client *http.Client) {
		b.ReportAllocs()
		cpu := startCPU() // the server's share included: it runs in this process
		user, sys := userSys()
		for b.Loop() {
			resp, err := get(ctx, client, u)
			if err != nil {
				b.Fatal(err)
			}
			if n, _ := io.Copy(io.Discard, resp.Body); n != int64(len(page)) {
				b.Fatalf("%d bytes", n)
			}
			resp.Body.Close()
		}
		cpu.report(b)
		// The CPU time split: in user space (the client's, the server's
		// and the runtime's code) and in the kernel (loopback TCP: a
		// write runs the receiving side's stack and wake-up too).
		if u, s := userSys(); b.N > 0 {
			b.ReportMetric(float64(u-user)/float64(b.N), "user-ns/op")
			b.ReportMetric(float64(s-sys)/float64(b.N), "sys-ns/op")
		}
	}
	b.Run("bare", func(b *testing.B) {
		run(b, &http.Client{Transport: transport()})
	})
	if base == nil {
		// The bare client over the guarded transport the crawler's own
		// client uses (the address check at connect time, the timeouts,
		// the User-Agent, a capped body): a second baseline.
		b.Run("netguard", func(b *testing.B) {
			run(b, &http.Client{Transport: netguard.NewTransport(netguard.Options{AllowPrivate: true, UserAgent: "ExampleBot/1.0"})})
		})
	}
	c, _ := rep.New("ExampleBot/1.0", rep.WithPoliteness(rep.Politeness{MinDelay: -1}),
		rep.WithFetchOptions(robotsfetch.Options{Client: &http.Client{Transport: transport()}}))
	if _, err := c.Check(ctx, u); err != nil { // warm robots.txt cache
		b.Fatal(err)
	}
	b.Run("rep", func(b *testing.B) {
		run(b, &http.Client{Transport: c.Transport(transport())})
	})
	b.Run("rep-headers-only", func(b *testing.B) {
		run(b, &http.Client{Transport: &rep.Transport{Crawler: c, Base: transport(), PagePrefix: -1}})
	})
	if base == nil {
		// rep-headers-only over the crawler's own (netguard) transport.
		b.Run("rep-headers-only-netguard", func(b *testing.B) {
			run(b, &http.Client{Transport: &rep.Transport{Crawler: c, PagePrefix: -1}})
		})
	}
}

// TestCheckPageHeaders: the page verdict reads the headers as
// robotsmeta.Evaluate does, whichever headers a response carries (the
// client passes robotsmeta only the Content-Type when every other header
// is a plain one), with and without a body.
func TestCheckPageHeaders(t *testing.T) {
	rt := handlerTransport{http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nAllow: /\n")
	})}
	now := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	c, err := rep.New("ExampleBot/1.0", fast, rep.WithFetchOptions(robotsfetch.Options{
		Client: &http.Client{Transport: rt}, Now: func() time.Time { return now }}))
	if err != nil {
		t.Fatal(err)
	}
	const page = `<html><head><meta name="robots" content="nofollow"></head><body><a href="/a">a</a></body></html>`
	plain := http.Header{"Date": {"Sat, 28 Nov 2026 10:00:00 GMT"}, "Content-Length": {"97"}, "Server": {"x"}}
	for _, tt := range []struct {
		name string
		h    http.Header
	}{
		{"none", http.Header{}},
		{"plain", plain},
		{"plain+html", with(plain, "Content-Type", "text/html")},
		{"plain+text", with(plain, "Content-Type", "text/plain")},
		{"lower-case content-type", with(plain, "content-type", "text/plain")},
		{"x-robots-tag", with(plain, "X-Robots-Tag", "noindex")},
		{"x-robots-tag lower case", with(plain, "x-robots-tag", "noindex, nosnippet")},
		{"robots-tag", with(plain, "Robots-Tag", "noindex")},
		{"tdm", with(with(plain, "Tdm-Reservation", "1"), "Tdm-Policy", "https://example.com/p")},
		{"content-usage", with(plain, "Content-Usage", "train-ai=n")},
		{"unknown header", with(plain, "X-Other", "noindex")},
	} {
		for _, body := range []bool{false, true} {
			var r io.Reader
			var want io.Reader
			if body {
				r, want = strings.NewReader(page), strings.NewReader(page)
			}
			v, err := c.CheckPage(context.Background(), "http://www.example.com/p", tt.h, r)
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			pol, err := robotsmeta.Evaluate(tt.h, want, strings.ToLower(c.Agent().Token()), c.Agent().MetaProfile(), now, robotsmeta.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(v.Policy, pol) {
				t.Errorf("%s (body %v): policy\n%+v\nwant\n%+v", tt.name, body, v.Policy, pol)
			}
		}
	}
}

// with returns a copy of h with name: value added.
func with(h http.Header, name, value string) http.Header {
	out := h.Clone()
	out[name] = append(out[name], value)
	return out
}

// userSys returns the process's user and system CPU time (getrusage).
func userSys() (user, sys time.Duration) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
}

// TestClientVerdictWithoutBody: where the Transport reads no body (a
// negative PagePrefix, HEAD, a redirect returned as it is) the verdict
// is the headers' own, the one CheckPage gives for the same headers, and
// every caller asking at once gets that one verdict.
func TestClientVerdictWithoutBody(t *testing.T) {
	const page = `<html><head><meta name="robots" content="noindex"></head><body>x</body></html>`
	rt := handlerTransport{http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nAllow: /\n")
		case "/moved":
			w.Header().Set("X-Robots-Tag", "noindex")
			http.Redirect(w, r, "/page", http.StatusMovedPermanently)
		case "/img":
			w.Header().Set("Content-Type", "image/png")
			w.Header().Set("X-Robots-Tag", "examplebot: nofollow, max-snippet:20")
			io.WriteString(w, page) // not HTML: its noindex is not read
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("X-Robots-Tag", "examplebot: nofollow, max-snippet:20")
			io.WriteString(w, page)
		}
	})}
	c, err := rep.New("ExampleBot/1.0", fast, rep.WithFetchOptions(robotsfetch.Options{Client: &http.Client{Transport: rt}}))
	if err != nil {
		t.Fatal(err)
	}
	noRedirect := func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	for _, tt := range []struct {
		name, method, path string
		prefix             int64
		index              bool // the body's noindex is not read
	}{
		{"headers only", http.MethodGet, "/page", -1, true},
		{"HEAD", http.MethodHead, "/page", 0, true},
		{"redirect", http.MethodGet, "/moved", 0, false},
		{"body read", http.MethodGet, "/page", 0, false},
		{"not HTML", http.MethodGet, "/img", 0, true},
	} {
		client := &http.Client{Transport: &rep.Transport{Crawler: c, Base: rt, PagePrefix: tt.prefix}, CheckRedirect: noRedirect}
		req, _ := http.NewRequest(tt.method, "http://www.example.com"+tt.path, nil)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if tt.method == http.MethodGet && tt.path != "/moved" && string(body) != page {
			t.Errorf("%s: body %q", tt.name, body)
		}
		got := make([]*rep.PageVerdict, 8)
		var wg sync.WaitGroup
		for i := range got {
			wg.Go(func() { got[i] = rep.PageVerdictOf(resp) })
		}
		wg.Wait()
		v := got[0]
		for _, o := range got {
			if o != v {
				t.Fatalf("%s: %d verdicts for one response", tt.name, len(got))
			}
		}
		if v == nil || v.Index != tt.index || v.URL != req.URL.String() || !v.Crawl.Allowed {
			t.Fatalf("%s: verdict %+v", tt.name, v)
		}
		if tt.index {
			var read io.Reader // what CheckPage is given: the body, where it is not HTML
			if tt.path == "/img" {
				read = strings.NewReader(page)
			}
			want, err := c.CheckPage(context.Background(), req.URL.String(), resp.Header, read)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(v.Policy, want.Policy) || v.Follow || !v.MaxSnippet.Set {
				t.Errorf("%s: policy\n%+v\nwant (CheckPage)\n%+v", tt.name, v.Policy, want.Policy)
			}
			// The same rules, the same fetch (the first request's answer
			// was fresh, CheckPage's comes from the cache).
			if !reflect.DeepEqual(v.Crawl.Decision, want.Crawl.Decision) || v.Crawl.URL != want.Crawl.URL ||
				v.Crawl.Fetch == nil || !v.Crawl.Fetch.FetchedAt.Equal(want.Crawl.Fetch.FetchedAt) {
				t.Errorf("%s: decision %+v, want (CheckPage) %+v", tt.name, v.Crawl, want.Crawl)
			}
		}
	}
}

// TestClientAllocs: a site's Crawl-delay costs the request no allocation
// (its source line is written out only for Delay), and a request the
// crawler sends costs a bare one's allocations and five: the request
// copy with the crawler's User-Agent (two for the header map), the URL
// written out once and what the Transport keeps of the request.
func TestClientAllocs(t *testing.T) {
	allocs := func(robots string, crawler bool) float64 {
		rt := handlerTransport{http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				io.WriteString(w, robots)
			}
		})}
		c, err := rep.New("ExampleBot/1.0", rep.WithPoliteness(rep.Politeness{MinDelay: -1}),
			rep.WithFetchOptions(robotsfetch.Options{Client: &http.Client{Transport: rt}}))
		if err != nil {
			t.Fatal(err)
		}
		client := &http.Client{Transport: rt}
		if crawler {
			client.Transport = &rep.Transport{Crawler: c, Base: rt, PagePrefix: -1}
		}
		req, _ := http.NewRequest(http.MethodGet, "http://www.example.com/a", nil)
		do := func() {
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
		}
		do() // robots.txt read
		return testing.AllocsPerRun(200, do)
	}
	bare := allocs("User-agent: *\nAllow: /\n", false)
	plain := allocs("User-agent: *\nAllow: /\n", true)
	delay := allocs("User-agent: *\nCrawl-delay: 0\nAllow: /\n", true)
	if delay != plain {
		t.Errorf("a Crawl-delay line: %v allocations per request, %v without", delay, plain)
	}
	if plain != bare+5 {
		t.Errorf("%v allocations per request, a bare client %v", plain, bare)
	}
}

// peekTransport is a Base that asks PageVerdictOf about the response it
// is about to return (a logging middleware would), after waiting delay.
type peekTransport struct {
	h     http.Handler
	delay time.Duration
	peek  func(*http.Response)
}

func (rt peekTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Path != "/robots.txt" {
		time.Sleep(rt.delay)
	}
	resp, _ := handlerTransport{rt.h}.RoundTrip(r)
	if rt.peek != nil && r.URL.Path != "/robots.txt" {
		rt.peek(resp)
	}
	return resp, nil
}

// TestClientVerdictWhenAsked: a verdict asked for before RoundTrip has
// returned (by a Base) is nil and spoils nothing; the page is judged at
// the instant its response arrived, with or without a body read: an
// unavailable_after passing while the request was under way counts.
func TestClientVerdictWhenAsked(t *testing.T) {
	for _, prefix := range []int64{-1, 0} {
		synctest.Test(t, func(t *testing.T) {
			limit := time.Now().Add(5 * time.Second)
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/robots.txt" {
					io.WriteString(w, "User-agent: *\nAllow: /\n")
					return
				}
				w.Header().Set("Content-Type", "text/html")
				w.Header().Set("X-Robots-Tag", "unavailable_after: "+limit.UTC().Format(time.RFC1123))
				io.WriteString(w, "<html></html>")
			})
			var inner *rep.PageVerdict
			var panicked any
			base := peekTransport{h: h, delay: 10 * time.Second, peek: func(resp *http.Response) {
				defer func() { panicked = recover() }()
				inner = rep.PageVerdictOf(resp)
			}}
			c, err := rep.New("ExampleBot/1.0", fast, rep.WithFetchOptions(robotsfetch.Options{Client: &http.Client{Transport: base}}))
			if err != nil {
				t.Fatal(err)
			}
			client := &http.Client{Transport: &rep.Transport{Crawler: c, Base: base, PagePrefix: prefix}}
			resp, err := client.Get("http://www.example.com/page")
			if err != nil {
				t.Fatal(err)
			}
			io.ReadAll(resp.Body)
			resp.Body.Close()
			if inner != nil || panicked != nil {
				t.Errorf("PagePrefix %d: asked inside Base: %+v, panic %v", prefix, inner, panicked)
			}
			v := rep.PageVerdictOf(resp)
			if v == nil || v.Index || v.URL != "http://www.example.com/page" || !v.Crawl.Allowed {
				t.Errorf("PagePrefix %d: verdict %+v (unavailable_after passed before the response)", prefix, v)
			}
		})
	}
}
