package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/crawl"
	"github.com/rep-toolkit/rep/internal/testkit"
	"github.com/rep-toolkit/rep/internal/testkit/sitegen"
)

// crawlLine is any event of POST /api/crawl, the fields of every type
// together.
type crawlLine struct {
	Type     string         `json:"type"`
	Site     string         `json:"site"`
	Agents   []string       `json:"agents"`
	MaxPages int            `json:"max_pages"`
	Page     *crawlPageJSON `json:"page"`
	Crawled  int            `json:"crawled"`
	Fetched  int            `json:"fetched"`
	Queued   int            `json:"queued"`
	// Findings is a count in a progress event and a list in the report.
	Findings json.RawMessage `json:"findings"`
	TimedOut bool            `json:"timed_out"`
	Error    string          `json:"error"`
}

// crawlPageJSON is a crawl.Page as the JSON carries it (rep.Decision is
// written, not read).
type crawlPageJSON struct {
	URL      string `json:"url"`
	Status   int    `json:"status"`
	Verdicts []struct {
		Agent  string           `json:"agent"`
		Robots rep.DecisionJSON `json:"robots"`
		State  string           `json:"state"`
	} `json:"verdicts"`
}

// findingJSON is a crawl.Finding as the JSON carries it.
type findingJSON struct {
	Code, Severity, Agent, URL, Message, Evidence string
}

// postCrawl starts a crawl and returns the answer, its body unread.
func postCrawl(t *testing.T, ctx context.Context, base string, body any) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/api/crawl", strings.NewReader(jsonBody(t, body)))
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestCrawlEndpoint crawls the planted site through the server: a start
// event, live progress, a page event per page, and a report with the same
// findings crawl.Run gives, which are the planted ones.
func TestCrawlEndpoint(t *testing.T) {
	site := httptest.NewServer(sitegen.Planted())
	defer site.Close()
	s, err := New(Config{AllowPrivate: true, RatePerSecond: -1, OriginRate: -1})
	if err != nil {
		t.Fatal(err)
	}
	// The planted 50 MB sitemap must be read to its end to be found too
	// large: a loaded machine running -race can take over 30 s.
	s.crawlFetchTimeout = 5 * time.Minute
	ts := httptest.NewServer(s)
	defer ts.Close()

	res := postCrawl(t, context.Background(), ts.URL, map[string]any{"url": site.URL, "max_pages": MaxCrawlPages})
	defer res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("status %d, Content-Type %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	var events []crawlLine
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var e crawlLine
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("line %d is not JSON: %v\n%s", len(events)+1, err, sc.Bytes())
		}
		events = append(events, e)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(events) < 3 {
		t.Fatalf("%d events", len(events))
	}
	if e := events[0]; e.Type != "start" || e.Site != site.URL || strings.Join(e.Agents, ",") != "Googlebot,bingbot" || e.MaxPages != MaxCrawlPages {
		t.Errorf("start event %+v", e)
	}
	last := events[len(events)-1]
	if last.Type != "report" {
		t.Fatalf("last event %+v", last)
	}
	pages, crawled := 0, 0
	for _, e := range events[1 : len(events)-1] {
		switch e.Type {
		case "page":
			pages++
			if e.Page == nil || e.Page.URL == "" || len(e.Page.Verdicts) != 2 {
				t.Errorf("page event %+v", e.Page)
			}
		case "progress":
			if e.Crawled != crawled+1 || e.Fetched > e.Crawled {
				t.Errorf("progress %+v after %d crawled", e, crawled)
			}
			crawled = e.Crawled
		default:
			t.Errorf("event %q in the middle", e.Type)
		}
	}
	if pages != 17 || crawled != 17 || last.Crawled != 17 {
		t.Errorf("%d page events, progress to %d, report crawled %d: want 17", pages, crawled, last.Crawled)
	}

	var got []findingJSON
	if err := json.Unmarshal(last.Findings, &got); err != nil {
		t.Fatal(err)
	}
	want, err := crawl.Run(context.Background(), crawl.Config{Start: site.URL, AllowPrivate: true, Timeout: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	var w []string
	for _, f := range want.Findings {
		w = append(w, fmt.Sprintf("%s %s %s %s | %s | %s", f.Severity, f.Code, f.Agent, f.URL, f.Message, f.Evidence))
	}
	var g []string
	for _, f := range got {
		g = append(g, fmt.Sprintf("%s %s %s %s | %s | %s", f.Severity, f.Code, f.Agent, f.URL, f.Message, f.Evidence))
	}
	sort.Strings(w)
	sort.Strings(g)
	if strings.Join(g, "\n") != strings.Join(w, "\n") {
		t.Errorf("findings through the server:\n%s\nwant, from crawl.Run:\n%s", strings.Join(g, "\n"), strings.Join(w, "\n"))
	}
	planted := map[string]bool{}
	for _, p := range sitegen.PlantedWant(site.URL) {
		planted[p.String()] = true
	}
	for _, f := range got {
		if !planted[f.Code+" "+f.Agent+" "+f.URL] {
			t.Errorf("not planted: %s %s %s", f.Code, f.Agent, f.URL)
		}
	}
	if len(got) != len(planted) {
		t.Errorf("%d findings, %d planted", len(got), len(planted))
	}
}

func TestCrawlRefused(t *testing.T) {
	var hits atomic.Int64
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		sitegen.Large(10).ServeHTTP(w, r)
	}))
	defer site.Close()
	guarded := newTestServer(t, Config{RatePerSecond: -1})
	open := newTestServer(t, Config{AllowPrivate: true, RatePerSecond: -1, OriginRate: -1})
	port := site.URL[strings.LastIndex(site.URL, ":"):]
	for _, tt := range []struct {
		name   string
		base   string
		body   map[string]any
		status int
		msg    string
	}{
		{"loopback address", guarded.URL, map[string]any{"url": site.URL}, 403, "-allow-private"},
		{"name of a loopback address", guarded.URL, map[string]any{"url": "http://localhost" + port + "/"}, 403, "-allow-private"},
		{"too many pages", open.URL, map[string]any{"url": site.URL, "max_pages": MaxCrawlPages + 1}, 400, "max_pages 201"},
		{"negative pages", open.URL, map[string]any{"url": site.URL, "max_pages": -1}, 400, "max_pages -1"},
		{"empty crawler name", open.URL, map[string]any{"url": site.URL, "agents": []string{""}}, 400, "names no crawler"},
		{"not a URL", open.URL, map[string]any{"url": "example.com"}, 400, "not absolute"},
		{"unknown field", open.URL, map[string]any{"url": site.URL, "pages": 3}, 400, "unknown field"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, m := call(t, "POST", tt.base+"/api/crawl", jsonBody(t, tt.body))
			if msg, _ := m["error"].(string); status != tt.status || !strings.Contains(msg, tt.msg) {
				t.Errorf("%d %q, want %d and %q", status, msg, tt.status, tt.msg)
			}
		})
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the site was fetched %d times", n)
	}
}

// TestCrawlCancel: a crawl stops when its client goes, and the client may
// run one crawl at a time.
func TestCrawlCancel(t *testing.T) {
	var hits atomic.Int64
	large := sitegen.Large(1000)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		time.Sleep(10 * time.Millisecond)
		large.ServeHTTP(w, r)
	}))
	defer site.Close()
	s, err := New(Config{AllowPrivate: true, RatePerSecond: -1, OriginRate: -1})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res := postCrawl(t, ctx, ts.URL, map[string]any{"url": site.URL, "max_pages": MaxCrawlPages})
	sc := bufio.NewScanner(res.Body)
	progress := 0
	for progress < 3 && sc.Scan() {
		if strings.Contains(sc.Text(), `"type":"progress"`) {
			progress++
		}
	}
	if progress < 3 {
		t.Fatalf("no progress: %v", sc.Err())
	}
	// One crawl per client: a second is refused while the first runs.
	res2 := postCrawl(t, context.Background(), ts.URL, map[string]any{"url": site.URL + "/p/1"})
	res2.Body.Close()
	if res2.StatusCode != http.StatusTooManyRequests || res2.Header.Get("Retry-After") == "" {
		t.Errorf("second crawl: %d, Retry-After %q", res2.StatusCode, res2.Header.Get("Retry-After"))
	}

	cancel()
	res.Body.Close()
	testkit.Eventually(t, time.Minute, func() bool { return runningCrawls(s) == 0 }, "the crawl still runs after its client left")
	// The crawl has ended: what reaches the site now is what it had in
	// flight (crawlConcurrency requests at most), nothing sent later.
	n := hits.Load()
	site.Close() // waits for the requests in flight
	if m := hits.Load(); m > n+crawlConcurrency || m >= MaxCrawlPages {
		t.Errorf("the site got %d requests, then %d after the client left", n, m)
	}
}

// runningCrawls counts the crawls s runs.
func runningCrawls(s *Server) int {
	s.crawls.mu.Lock()
	defer s.crawls.mu.Unlock()
	return len(s.crawls.sites)
}

// TestCrawlPaced: a crawl's requests spend the site's per-origin tokens,
// waiting for them. The site's rate is one token in 1,000 s after a burst
// of 4: the start of the crawl spends one, and the crawl's first three
// requests the rest; then it waits, and nothing more reaches the site.
// (How the wait is kept is TestPacedTransport's, in virtual time.)
func TestCrawlPaced(t *testing.T) {
	var hits atomic.Int64
	large := sitegen.Large(8)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		large.ServeHTTP(w, r)
	}))
	defer site.Close()
	s, err := New(Config{AllowPrivate: true, RatePerSecond: -1, OriginRate: 0.001, OriginBurst: 4})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res := postCrawl(t, ctx, ts.URL, map[string]any{"url": site.URL, "max_pages": 5})
	testkit.Eventually(t, time.Minute, func() bool { return hits.Load() >= 4 }, "the site got %d requests, want the burst of 4", hits.Load())
	cancel()
	res.Body.Close()
	testkit.Eventually(t, time.Minute, func() bool { return runningCrawls(s) == 0 }, "the crawl still runs after its client left")
	site.Close()
	if n := hits.Load(); n != 4 {
		t.Errorf("the site got %d requests with 4 tokens", n)
	}
}

// TestPacedTransport: at 20 requests/s with a burst of 1, requests to one
// origin go 50 ms apart, sequential or concurrent, and another origin has
// its own tokens. It runs in virtual time (a synctest bubble, the sites in
// memory), so the times are exact.
func TestPacedTransport(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		var mu sync.Mutex
		at := map[string][]time.Duration{}
		rt := pacedTransport{testkit.Transport{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			at[r.Host] = append(at[r.Host], time.Since(start))
			mu.Unlock()
		})}, newLimiter(20, 1, time.Now)}
		client := &http.Client{Transport: rt}
		var wg sync.WaitGroup
		for i := range 4 {
			wg.Go(func() {
				resp, err := client.Get(fmt.Sprintf("http://127.0.0.1:8080/%d", i))
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
			})
		}
		wg.Wait()
		// A request whose context ends while it waits is not sent.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://127.0.0.1:8080/late", nil)
		if _, err := client.Do(req); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("cancelled wait: %v", err)
		}
		for range 2 {
			resp, err := client.Get("http://127.0.0.2:8080/")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
		}
		if got, want := fmt.Sprint(at), "map[127.0.0.1:8080:[0s 50ms 100ms 150ms] 127.0.0.2:8080:[160ms 210ms]]"; got != want {
			t.Errorf("requests at %s, want %s", got, want)
		}
	})
}

func TestCrawlCodes(t *testing.T) {
	ts := newTestServer(t, Config{})
	status, m := call(t, "GET", ts.URL+"/api/crawl/codes", "")
	codes, _ := m["codes"].([]any)
	if status != 200 || len(codes) != len(crawl.Codes()) {
		t.Fatalf("%d, %d codes", status, len(codes))
	}
	c := codes[0].(map[string]any)
	if c["code"] != crawl.Codes()[0].Code || c["doc"] == "" || c["severity"] == "" {
		t.Errorf("%v", c)
	}
}
