package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestDiffScript runs testdata/diff/*.txtar: rep diff against live sites
// on loopback. Setup serves each script's www/ directory as $SITE, and
// names a site (a file's "$ORIGIN" is served as the site's origin) answering 503 ($DOWN) and one serving an HTML page with
// 200 ($HTML).
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
				b, err := os.ReadFile(filepath.Join(www, filepath.FromSlash(path.Clean(r.URL.Path))))
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
