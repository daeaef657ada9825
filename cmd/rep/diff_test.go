package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/rep-toolkit/rep/internal/testkit/sitegen"
)

// TestDiffScript runs testdata/diff/*.txtar: rep diff against live sites
// on loopback. Setup serves each script's www/ directory as $SITE, and
// names a site answering 503 ($DOWN) and one serving an HTML page with
// 200 ($HTML). $SITE serves a directory's index.html for its path, and
// "$ORIGIN" in a file as the site's origin.
func TestDiffScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/diff",
		UpdateScripts: *update,
		Cmds:          map[string]func(ts *testscript.TestScript, neg bool, args []string){"status": cmdStatus},
		Setup: func(e *testscript.Env) error {
			e.Setenv("NO_COLOR", "1")
			serve := func(name string, h http.Handler) {
				s := httptest.NewServer(h)
				e.Defer(s.Close)
				e.Setenv(name, s.URL)
			}
			www := filepath.Join(e.WorkDir, "www")
			serve("SITE", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				p := path.Clean(r.URL.Path)
				if strings.HasSuffix(r.URL.Path, "/") {
					p = path.Join(p, "index.html")
				}
				b, err := os.ReadFile(filepath.Join(www, filepath.FromSlash(p)))
				if err != nil {
					http.NotFound(w, r)
					return
				}
				w.Write(bytes.ReplaceAll(b, []byte("$ORIGIN"), []byte("http://"+r.Host)))
			}))
			serve("DOWN", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(503) }))
			serve("HTML", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.Write([]byte("<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body>Password</body></html>\n"))
			}))
			return nil
		},
	})
}

// TestDiffCrawlBound runs rep diff -crawl against a generated site of
// 2,000 linked pages (internal/testkit/sitegen): the crawl stops at
// -max-pages, every URL it reached is decided (the JSON's "urls"), and
// the flips are the reached pages the new rule blocks.
func TestDiffCrawlBound(t *testing.T) {
	var mu sync.Mutex
	var pages []string
	site := sitegen.Large(2000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" || strings.HasPrefix(r.URL.Path, "/p/") { // not robots.txt, not /sitemap.xml
			mu.Lock()
			pages = append(pages, r.URL.Path)
			mu.Unlock()
		}
		site.ServeHTTP(w, r)
	}))
	defer srv.Close()
	dir := t.TempDir()
	oldF, newF := filepath.Join(dir, "old.txt"), filepath.Join(dir, "new.txt")
	os.WriteFile(oldF, []byte("User-agent: *\nDisallow: /p/*/private\n"), 0o644)
	os.WriteFile(newF, []byte("User-agent: *\nDisallow: /p/*/private\nDisallow: /p/1\n"), 0o644)
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"diff", "-json", "-allow-private", "-delay", "0", "-max-pages", "40",
		"-agent", "Googlebot", "-crawl", srv.URL + "/", oldF, newF}, strings.NewReader(""), &out, &errb)
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr %s", code, errb.String())
	}
	var d struct {
		URLs     int `json:"urls"`
		Crawlers []struct {
			Flips []struct {
				URL     string `json:"url"`
				Witness bool   `json:"witness"`
			} `json:"flips"`
		} `json:"crawlers"`
	}
	if err := json.Unmarshal(out.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	if d.URLs != 40 {
		t.Errorf("%d URLs decided, want the 40 crawled", d.URLs)
	}
	if len(pages) != 40 {
		t.Errorf("%d pages fetched, want -max-pages 40", len(pages))
	}
	// Which 40 pages are reached depends on which of the concurrent
	// requests ends first; the sample is the pages fetched, and those
	// the new rule blocks are the ones under /p/1.
	var want []string
	for _, p := range pages {
		if strings.HasPrefix(p, "/p/1") {
			want = append(want, p)
		}
	}
	slices.Sort(want)
	if len(want) == 0 || want[0] != "/p/1" {
		t.Fatalf("pages fetched %q lack /p/1, linked from /", pages)
	}
	var blocked []string
	for _, f := range d.Crawlers[0].Flips {
		if !f.Witness {
			blocked = append(blocked, strings.TrimPrefix(f.URL, srv.URL))
		}
	}
	if got, want := strings.Join(blocked, " "), strings.Join(want, " "); got != want {
		t.Errorf("sample URLs blocked: %s, want %s", got, want)
	}
	if !strings.Contains(errb.String(), "-crawl stopped at -max-pages 40 URLs") {
		t.Errorf("stderr %q", errb.String())
	}
}
