package server

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/crawl"
)

// TestPageDidYouMean: /api/page says of each crawler the registry does
// not know whose name is close to one it does "did you mean", in the
// field /api/check uses, and its kind; a known crawler has neither.
func TestPageDidYouMean(t *testing.T) {
	ts := newTestServer(t, Config{RatePerSecond: -1})
	var page struct {
		Crawlers []struct {
			Agent      string   `json:"agent"`
			Kind       string   `json:"kind"`
			Notes      []string `json:"notes"`
			DidYouMean []string `json:"did_you_mean"`
		}
	}
	post(t, ts.URL+"/api/page", map[string]any{"html": "<p>x", "agents": []string{"Googlebto", "GPTBot", "ExampleBot", "bingbott"}}, &page)
	want := map[string]struct {
		kind string
		dym  []string
	}{
		"Googlebto":  {"unknown", []string{"Googlebot"}},
		"GPTBot":     {"ai-training", nil},
		"ExampleBot": {"unknown", nil},
		"bingbott":   {"unknown", []string{"bingbot"}},
	}
	for _, c := range page.Crawlers {
		w := want[c.Agent]
		if c.Kind != w.kind || !slices.Equal(c.DidYouMean, w.dym) {
			t.Errorf("%s: kind %q did_you_mean %q, want %q %q", c.Agent, c.Kind, c.DidYouMean, w.kind, w.dym)
		}
		if len(w.dym) > 0 && !slices.ContainsFunc(c.Notes, func(n string) bool { return strings.Contains(n, "did you mean "+w.dym[0]) }) {
			t.Errorf("%s: notes %q", c.Agent, c.Notes)
		}
	}
	// The same concept, the same shape: /api/check's did_you_mean.
	var check struct {
		DidYouMean []string `json:"did_you_mean"`
	}
	post(t, ts.URL+"/api/check", map[string]any{"robots": "", "agent": "Googlebto", "urls": []string{"/"}}, &check)
	if !slices.Equal(check.DidYouMean, want["Googlebto"].dym) {
		t.Errorf("/api/check did_you_mean %q", check.DidYouMean)
	}
}

// crawlEvents runs a crawl through the server and returns its events.
func crawlEvents(t *testing.T, base string, body map[string]any) (int, []map[string]any) {
	t.Helper()
	res := postCrawl(t, context.Background(), base, body)
	defer res.Body.Close()
	var out []map[string]any
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var e map[string]any
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("%v: %s", err, sc.Bytes())
		}
		out = append(out, e)
	}
	return res.StatusCode, out
}

// TestCrawlUnreachableSite: a crawl of a site where nothing answers ends
// with an error event naming the cause (connection refused), after a
// start event; no report says the site disallows anything. The start
// event says "did you mean" of a misspelt crawler, in /api/check's field.
func TestCrawlUnreachableSite(t *testing.T) {
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()
	ts, _ := newGuardedServer(t, Config{RatePerSecond: -1, OriginRate: -1})
	status, events := crawlEvents(t, ts.URL, map[string]any{"url": deadURL + "/", "agents": []string{"Googlebto", "GPTBot"}})
	if status != 200 || len(events) != 2 {
		t.Fatalf("%d, events %v", status, events)
	}
	start, end := events[0], events[1]
	crawlers, _ := start["crawlers"].([]any)
	if start["type"] != "start" || len(crawlers) != 2 {
		t.Fatalf("start %v", start)
	}
	first, second := crawlers[0].(map[string]any), crawlers[1].(map[string]any)
	if first["agent"] != "Googlebto" || first["kind"] != "unknown" || !slices.Equal(first["did_you_mean"].([]any), []any{"Googlebot"}) {
		t.Errorf("start crawler %v", first)
	}
	if second["agent"] != "GPTBot" || second["kind"] != "ai-training" || second["did_you_mean"] != nil {
		t.Errorf("start crawler %v", second)
	}
	u, _ := end["unreachable"].(map[string]any)
	if end["type"] != "error" || u == nil || u["cause"] != "connection-refused" || u["url"] != deadURL+"/robots.txt" {
		t.Fatalf("end %v: want an error event with the cause", end)
	}
	if msg := end["error"].(string); !strings.Contains(msg, "could not be read") || !strings.Contains(msg, "connection refused") {
		t.Errorf("error %q", msg)
	}
}

// TestServerSiteError: the hints of an unreachable site name what a user
// of the web tester can change, not rep crawl's flags.
func TestServerSiteError(t *testing.T) {
	for cause, want := range map[string]string{
		"refused-address":    "start rep serve with -allow-private",
		"timeout":            "the web tester waits 30s for each answer",
		"connection-refused": "check that the server is running",
	} {
		e := serverSiteError(&crawl.SiteError{Cause: cause, Hint: "check that the server is running"})
		if !strings.Contains(e.Hint, want) || strings.Contains(e.Hint, "-timeout") {
			t.Errorf("%s: hint %q, want %q", cause, e.Hint, want)
		}
	}
}

// TestCrawlRobotsTimeout: a robots.txt that does not answer in time ends
// the crawl with an error naming the timeout, not a report cut short by
// the time bound ("Stopped at the time limit: 0 URLs crawled").
func TestCrawlRobotsTimeout(t *testing.T) {
	var answered atomic.Bool
	o := newOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		// The server's own check of robots.txt is answered; the crawl's
		// fetch of it gets no answer until it gives up.
		if r.URL.Path == "/robots.txt" && answered.CompareAndSwap(false, true) {
			io.WriteString(w, "User-agent: *\nDisallow:\n")
			return
		}
		<-r.Context().Done()
	})
	l := &loopbackOnly{}
	s, err := newServer(Config{RatePerSecond: -1, OriginRate: -1}, l.check)
	if err != nil {
		t.Fatal(err)
	}
	s.crawlFetchTimeout = 50 * time.Millisecond // not asserted: the site never answers
	ts := httptest.NewServer(s)
	defer ts.Close()
	_, events := crawlEvents(t, ts.URL, map[string]any{"url": o.URL + "/"})
	end := events[len(events)-1]
	u, _ := end["unreachable"].(map[string]any)
	if end["type"] != "error" || u == nil || u["cause"] != "timeout" {
		t.Fatalf("last event %v: want an error naming the timeout", end)
	}
	if h, _ := u["hint"].(string); !strings.Contains(h, "web tester waits") {
		t.Errorf("hint %q", h)
	}
}
