package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// changingSite serves a robots.txt that moves through four states, one per
// request when step is set, else as state says: the file; the same rules
// with a comment and another order (text only); a new rule (meaning); a
// 503 (status).
type changingSite struct {
	mu       sync.Mutex
	state    int
	step     bool
	requests int
	times    []time.Time // when each request was made, by now
	now      func() time.Time
}

var siteStates = []string{
	"User-agent: *\nDisallow: /private/\nDisallow: /tmp/\n",
	"# reordered, commented\nUser-agent: *\nDisallow: /tmp/\nDisallow: /private/\n",
	"User-agent: *\nDisallow: /tmp/\nDisallow: /private/\nDisallow: /search\n",
	"",
}

func (s *changingSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	st := s.state
	if s.step {
		st = min(s.requests, len(siteStates)-1)
	}
	s.requests++
	if s.now != nil {
		s.times = append(s.times, s.now())
	}
	s.mu.Unlock()
	if st == 3 {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Cache-Control", "max-age=600")
	io.WriteString(w, siteStates[st])
}

func (s *changingSite) set(st int) {
	s.mu.Lock()
	s.state = st
	s.mu.Unlock()
}

func (s *changingSite) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

// TestWatchOnce runs rep watch -once as cron would, through the CLI: a
// baseline is recorded silently, a text-only change is recorded and not
// reported, a change in meaning and a 503 are each reported once (exit 1),
// and a copy that has not expired is not fetched again without -force.
func TestWatchOnce(t *testing.T) {
	for _, backend := range []string{"dir", "bolt"} {
		t.Run(backend, func(t *testing.T) { testWatchOnce(t, backend) })
	}
}

// historyArg is -history for a backend in a fresh temporary directory.
func historyArg(t *testing.T, backend string) string {
	if backend == "bolt" {
		return "bolt:" + filepath.Join(t.TempDir(), "watch.db")
	}
	return t.TempDir()
}

// historyOf is what a backend recorded for origin: "N:status:changed"
// per version.
func historyOf(t *testing.T, h history, origin string) string {
	t.Helper()
	vs, err := h.versions(origin)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range vs {
		got = append(got, fmt.Sprintf("%d:%d:%v", r.N, r.Outcome.Status, r.Changed))
	}
	return strings.Join(got, " ")
}

func testWatchOnce(t *testing.T, backend string) {
	site := &changingSite{}
	srv := httptest.NewServer(site)
	defer srv.Close()
	hist := historyArg(t, backend)
	watch := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		a := append([]string{"watch", "-once", "-history", hist, "-allow-private", "-agent", "Googlebot"}, args...)
		code := run(context.Background(), append(a, srv.URL+"/"), strings.NewReader(""), &out, &errb)
		return code, out.String(), errb.String()
	}
	steps := []struct {
		state  int
		args   []string
		code   int
		stdout []string // parts the report must hold; none: no report
	}{
		{0, nil, 0, nil},
		{0, nil, 0, nil}, // not expired: not fetched
		{1, []string{"-force"}, 0, nil},
		{2, []string{"-force"}, 1, []string{"changed in meaning", "blocked    /search (witness): no rule matched → line 4: Disallow: /search"}},
		{2, []string{"-force"}, 0, nil},
		{3, []string{"-force"}, 1, []string{"status 200 → 503", "robots.txt 503"}},
		{3, []string{"-force", "-json"}, 0, nil},
	}
	for i, s := range steps {
		site.set(s.state)
		before := site.count()
		code, out, errs := watch(s.args...)
		if code != s.code {
			t.Fatalf("step %d: exit %d, want %d; stderr %s", i, code, s.code, errs)
		}
		if len(s.stdout) == 0 && out != "" {
			t.Errorf("step %d: reported\n%s", i, out)
		}
		for _, p := range s.stdout {
			if !strings.Contains(out, p) {
				t.Errorf("step %d: report lacks %q:\n%s", i, p, out)
			}
		}
		if i == 1 && site.count() != before {
			t.Errorf("step 1: fetched a copy that has not expired")
		}
	}
	// The history: the baseline, the text-only version, the meaning
	// change and the 503, in order.
	h, err := openHistory(hist)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if got, want := historyOf(t, h, srv.URL), "1:200:false 2:200:false 3:200:true 4:503:true"; got != want {
		t.Errorf("history %q, want %q", got, want)
	}
	if backend == "dir" {
		// The directory's layout: one directory per site, its index.
		dirs, _ := os.ReadDir(hist)
		if len(dirs) != 1 {
			t.Fatalf("%d site directories", len(dirs))
		}
		idx, err := os.ReadFile(filepath.Join(hist, dirs[0].Name(), "index.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(idx), "\n"); n != 4 {
			t.Errorf("index.jsonl has %d lines, want 4", n)
		}
	}
	// The versions' bodies: the baseline's is the first state's text.
	last, err := h.last(srv.URL)
	if err != nil || last == nil || last.N != 4 || last.SHA256 != "" {
		t.Fatalf("last version %+v, %v: want 4, the 503, without a body", last, err)
	}
	vs, _ := h.versions(srv.URL)
	b, err := h.body(srv.URL, &vs[0])
	if err != nil || string(b) != siteStates[0] {
		t.Errorf("version 1's body %q, %v", b, err)
	}
}

// TestWatchLoop runs the interval mode on an injected clock: each wait
// advances it, so the site changes once per fetch (text only, meaning,
// status) and the loop must report twice, each to the webhook too, and
// wait for each copy to expire (max-age 600) rather than the shorter
// interval.
func TestWatchLoop(t *testing.T) {
	for _, backend := range []string{"dir", "bolt"} {
		t.Run(backend, func(t *testing.T) { testWatchLoop(t, backend) })
	}
}

func testWatchLoop(t *testing.T, backend string) {
	var mu sync.Mutex
	clock := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	site := &changingSite{step: true, now: now}
	srv := httptest.NewServer(site)
	defer srv.Close()
	var hooks []string
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		hooks = append(hooks, string(b))
		mu.Unlock()
	}))
	defer hook.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb bytes.Buffer
	e := &env{ctx: ctx, stdin: strings.NewReader(""), stdout: &out, stderr: &errb}
	h, err := openHistory(historyArg(t, backend))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	w := &watcher{e: e, hist: h, interval: time.Minute, format: "json", webhook: hook.URL, now: now}
	w.after = func(d time.Duration) <-chan time.Time {
		if site.count() >= len(siteStates) {
			cancel() // every state served: stop
			return make(chan time.Time)
		}
		mu.Lock()
		clock = clock.Add(d)
		mu.Unlock()
		c := make(chan time.Time, 1)
		c <- clock
		return c
	}
	if w.fetcher, err = watchFetcher(true, 5*time.Second, now); err != nil {
		t.Fatal(err)
	}
	if err := w.loop([]string{srv.URL}); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var r struct {
			URL  string `json:"url"`
			Diff struct {
				Summary string `json:"summary"`
				Fetch   *struct {
					What []string `json:"what"`
				} `json:"fetch"`
			} `json:"diff"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("report line %q: %v", l, err)
		}
		k := "rules"
		if r.Diff.Fetch != nil {
			k = "fetch"
		}
		kinds = append(kinds, k)
	}
	if got := strings.Join(kinds, " "); got != "rules fetch" {
		t.Errorf("reports %q, want one for the meaning change and one for the 503; stderr %s", got, errb.String())
	}
	if len(hooks) != 2 || !strings.Contains(hooks[0], `"summary":"meaning changed for`) || !strings.Contains(hooks[0], `"text":"### robots.txt`) {
		t.Errorf("webhook got %d posts: %q", len(hooks), hooks)
	}
	// Each fetch waited for the copy to expire: 600 s, not the 60 s interval.
	if len(site.times) != len(siteStates) {
		t.Fatalf("%d fetches, want %d", len(site.times), len(siteStates))
	}
	for i := 1; i < len(site.times); i++ {
		if d := site.times[i].Sub(site.times[i-1]); d != 600*time.Second {
			t.Errorf("fetch %d came %v after the one before, want 10m0s", i, d)
		}
	}
	// Each version recorded at the injected clock's time of its fetch.
	if got, want := historyOf(t, h, srv.URL), "1:200:false 2:200:false 3:200:true 4:503:true"; got != want {
		t.Errorf("history %q, want %q", got, want)
	}
	vs, _ := h.versions(srv.URL)
	for i, r := range vs {
		if !r.Time.Equal(site.times[i]) {
			t.Errorf("version %d recorded at %v, fetched at %v", r.N, r.Time, site.times[i])
		}
	}
}

// TestWatchWebhookFails: a webhook answering 500 costs that report, said
// on standard error, not the watch.
func TestWatchWebhookFails(t *testing.T) {
	site := &changingSite{}
	srv := httptest.NewServer(site)
	defer srv.Close()
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(500) }))
	defer hook.Close()
	dir := t.TempDir()
	for i, st := range []int{0, 2} {
		site.set(st)
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"watch", "-once", "-force", "-dir", dir, "-allow-private", "-agent", "Googlebot", "-webhook", hook.URL, srv.URL}, strings.NewReader(""), &out, &errb)
		if want := []int{0, 1}[i]; code != want {
			t.Fatalf("run %d: exit %d, want %d: %s", i, code, want, errb.String())
		}
		if i == 1 && !strings.Contains(errb.String(), "webhook: "+hook.URL+" answered 500") {
			t.Errorf("stderr %q", errb.String())
		}
	}
}

// TestWatchFetchChanges: the fetch-level changes the issue names are each
// reported once by rep watch -once, though the rules read stay the same:
// a redirect appearing (same body at its target), then an HTML page
// served with 200 in place of the file; both history backends.
func TestWatchFetchChanges(t *testing.T) {
	for _, backend := range []string{"dir", "bolt"} {
		t.Run(backend, func(t *testing.T) {
			var mu sync.Mutex
			state := 0
			body := "User-agent: *\nDisallow: /private/\n"
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				st := state
				mu.Unlock()
				switch {
				case r.URL.Path == "/moved/robots.txt":
					io.WriteString(w, body)
				case st == 1:
					http.Redirect(w, r, "/moved/robots.txt", http.StatusMovedPermanently)
				case st == 2:
					w.Header().Set("Content-Type", "text/html; charset=utf-8")
					io.WriteString(w, "<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body>Password</body></html>\n")
				default:
					io.WriteString(w, body)
				}
			}))
			defer srv.Close()
			hist := historyArg(t, backend)
			steps := []struct {
				state, code int
				want        string
			}{
				{0, 0, ""},
				{1, 1, "now redirected (1 hop(s)) to " + srv.URL + "/moved/robots.txt"},
				{1, 0, ""}, // the same redirect again: nothing new
				{2, 1, "now an HTML page, not a robots.txt"},
			}
			for i, s := range steps {
				mu.Lock()
				state = s.state
				mu.Unlock()
				var out, errb bytes.Buffer
				code := run(context.Background(), []string{"watch", "-once", "-force", "-history", hist, "-allow-private", "-agent", "Googlebot", srv.URL}, strings.NewReader(""), &out, &errb)
				if code != s.code {
					t.Fatalf("step %d: exit %d, want %d; stderr %s", i, code, s.code, errb.String())
				}
				if s.want == "" && out.Len() > 0 || !strings.Contains(out.String(), s.want) {
					t.Errorf("step %d: report %q, want %q", i, out.String(), s.want)
				}
			}
		})
	}
}

// TestWatchBoltHeld: a bolt history another watch holds is refused with
// exit 2 once bbolt's lock wait (a second) ends, not waited on forever.
func TestWatchBoltHeld(t *testing.T) {
	path := filepath.Join(t.TempDir(), "watch.db")
	h, err := openHistory("bolt:" + path)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"watch", "-once", "-history", "bolt:" + path, "https://example.com/"}, strings.NewReader(""), &out, &errb)
	if code != 2 || !strings.Contains(errb.String(), "another process holds it") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}
