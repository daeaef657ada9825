package identity

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/internal/netguard"
)

// listServer serves list bodies by URL path; a body of "" answers 404.
type listServer struct {
	mu     sync.Mutex
	bodies map[string]string
	srv    *httptest.Server
}

func newListServer(t *testing.T) *listServer {
	ls := &listServer{bodies: map[string]string{}}
	ls.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ls.mu.Lock()
		body, ok := ls.bodies[r.URL.Path]
		ls.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(body))
	}))
	t.Cleanup(ls.srv.Close)
	return ls
}

func (ls *listServer) set(path, body string) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	ls.bodies[path] = body
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestUpdate fetches lists from a local server standing in for the
// operators: good lists are stored by date, and a list that went bad (200
// with no prefixes, as Google's retired URLs answer) is rejected while the
// last good one stays in use.
func TestUpdate(t *testing.T) {
	ls := newListServer(t)
	dir := t.TempDir()
	google, _ := crawlers.ListByID("google-common")
	gptbot, _ := crawlers.ListByID("openai-gptbot")
	lists := []*crawlers.List{google, gptbot}
	u := &Updater{Dir: dir, Client: ls.srv.Client(), BaseURL: ls.srv.URL,
		Now: func() time.Time { return time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC) }}
	ctx := context.Background()

	ls.set("/static/crawling/ipranges/common-crawlers.json", `{"creationTime":"2026-11-01T10:00:00.000000","prefixes":[{"ipv4Prefix":"66.249.64.0/27"},{"ipv6Prefix":"2001:4860:4801:10::/64"}]}`)
	ls.set("/gptbot.json", `{"prefixes":[{"ipv4Prefix":"20.171.206.0/24"}]}`)
	res := u.Update(ctx, lists, Embedded())
	for _, r := range res {
		if r.Err != nil {
			t.Fatalf("%s: %v", r.ID, r.Err)
		}
	}
	if want := filepath.Join(dir, "google-common", "2026-11-01.json"); res[0].File != want {
		t.Errorf("stored at %s, want %s", res[0].File, want)
	}
	// No creationTime: dated by the fetch day.
	if want := filepath.Join(dir, "openai-gptbot", "2026-11-20.json"); res[1].File != want {
		t.Errorf("stored at %s, want %s", res[1].File, want)
	}
	good := readFile(t, res[0].File)

	// The URL now answers 200 with no prefixes.
	ls.set("/static/crawling/ipranges/common-crawlers.json", readFile(t, "testdata/lists/action-needed.json"))
	ls.set("/gptbot.json", `{"creationTime":"2026-11-02T00:00:00Z","prefixes":[{"ipv4Prefix":"0.0.0.0/0"}]}`)
	cached, err := LoadCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	res = u.Update(ctx, lists, Embedded().Merge(cached))
	if !errors.Is(res[0].Err, ErrNoPrefixes) || !strings.Contains(res[0].Err.Error(), "Action needed") {
		t.Errorf("empty 200: err = %v, want ErrNoPrefixes naming the \"Action needed\" key", res[0].Err)
	}
	if res[0].Kept == nil || res[0].Kept.Date.Format(time.DateOnly) != "2026-11-01" {
		t.Errorf("empty 200: kept %v, want the 2026-11-01 list", res[0].Kept)
	}
	if res[1].Err == nil || !strings.Contains(res[1].Err.Error(), "too broad") {
		t.Errorf("0.0.0.0/0: err = %v", res[1].Err)
	}
	if got := readFile(t, filepath.Join(dir, "google-common", "2026-11-01.json")); got != good {
		t.Error("the last good list was overwritten")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*"))
	if len(files) != 2 {
		t.Errorf("cache holds %v, want the two good lists only", files)
	}
	cached, err = LoadCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	l, _ := Embedded().Merge(cached).At("google-common", time.Time{})
	if l.Date.Format(time.DateOnly) != "2026-11-01" || l.Len() != 2 {
		t.Errorf("current google-common is %s with %d prefixes, want the fetched 2026-11-01 list", l.Date, l.Len())
	}
	if old, _ := Embedded().Merge(cached).At("google-common", time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)); old.Date.Format(time.DateOnly) != "2026-03-16" {
		t.Errorf("history lost: list for 2026-04-01 is %s", old.Date)
	}
}

func TestUpdateErrors(t *testing.T) {
	ls := newListServer(t)
	ls.set("/bad.json", "{")
	dir := t.TempDir()
	lists := []*crawlers.List{
		{ID: "missing", URL: "https://example.com/missing.json"},
		{ID: "bad", URL: "https://example.com/bad.json"},
	}
	u := &Updater{Dir: dir, Client: ls.srv.Client(), BaseURL: ls.srv.URL}
	res := u.Update(context.Background(), lists, nil)
	if res[0].Err == nil || !strings.Contains(res[0].Err.Error(), "404") || !strings.Contains(res[0].Err.Error(), "/missing.json") {
		t.Errorf("404: %v, want an error naming the URL and status", res[0].Err)
	}
	if res[1].Err == nil || !strings.Contains(res[1].Err.Error(), "not a JSON list object") {
		t.Errorf("bad JSON: %v", res[1].Err)
	}
	// The default client refuses loopback: lists live on the public internet.
	u = &Updater{Dir: dir, BaseURL: ls.srv.URL}
	res = u.Update(context.Background(), lists[:1], nil)
	if !errors.Is(res[0].Err, netguard.ErrBlocked) {
		t.Errorf("default client fetched from loopback: %v", res[0].Err)
	}
}

func TestLoadCacheSkipsDamaged(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "bing"), 0o755)
	os.WriteFile(filepath.Join(dir, "bing", "2026-01-01.json"), []byte(`{"prefixes":[{"ipv4Prefix":"157.55.39.0/24"}]}`), 0o644)
	os.WriteFile(filepath.Join(dir, "bing", "2026-02-01.json"), []byte(`{"prefixes":[]}`), 0o644)
	os.WriteFile(filepath.Join(dir, "bing", "notes.json"), []byte(`x`), 0o644)
	r, err := LoadCache(dir)
	if err == nil || !strings.Contains(err.Error(), "2026-02-01.json") {
		t.Errorf("err = %v, want one naming the damaged file", err)
	}
	if vs := r.Versions("bing"); len(vs) != 1 || vs[0].Date.Format(time.DateOnly) != "2026-01-01" {
		t.Errorf("versions = %v", vs)
	}
	if r, err := LoadCache(filepath.Join(dir, "none")); err != nil || len(r.IDs()) != 0 {
		t.Errorf("missing dir: %v, %v", r, err)
	}
}
