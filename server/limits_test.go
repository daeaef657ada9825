package server

import (
	"fmt"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rep-toolkit/rep/internal/testkit/table"
)

// readTable reads testdata/name, a tab-separated table of n fields a row.
func readTable(t *testing.T, name string, n int) [][]string {
	return table.Read(t, filepath.Join("testdata", name), n)
}

func atoiT(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// sizedBody returns a request body for endpoint of exactly size bytes: one
// JSON object whose longest string is padding.
func sizedBody(t *testing.T, endpoint string, size int) string {
	t.Helper()
	var head, tail string
	switch endpoint {
	case "/api/check":
		head, tail = `{"robots":"`, `","agent":"x","urls":["/"]}`
	case "/api/lint":
		head, tail = `{"robots":"`, `"}`
	case "/api/page":
		head, tail = `{"html":"`, `"}`
	case "/api/allowed": // a batch whose one query's agent is too long: no fetch
		head, tail = `{"queries":[{"url":"/","agent":"`, `"}]}`
	default:
		t.Fatalf("no body for %s", endpoint)
	}
	pad := size - len(head) - len(tail)
	if pad < 0 {
		t.Fatalf("%d bytes is too small for %s", size, endpoint)
	}
	return head + strings.Repeat("a", pad) + tail
}

// TestBodyLimit: request bodies are read up to 8 MiB (a batch's up to
// 32 MiB), the limits the docs
// state, counted in bytes written here rather than taken from MaxBody; the
// 413 answer names the limit.
func TestBodyLimit(t *testing.T) {
	ts := newTestServer(t, Config{})
	for _, row := range readTable(t, "body_limit.tsv", 4) {
		endpoint, size, status, msg := row[0], atoiT(t, row[1]), atoiT(t, row[2]), row[3]
		t.Run(endpoint+"/"+row[1], func(t *testing.T) {
			body := sizedBody(t, endpoint, size)
			if len(body) != size {
				t.Fatalf("body of %d bytes, want %d", len(body), size)
			}
			st, m := call(t, "POST", ts.URL+endpoint, body)
			if st != status {
				t.Fatalf("status %d, want %d (%.200v)", st, status, m)
			}
			if got, _ := m["error"].(string); got != msg {
				t.Errorf("error %q, want %q", got, msg)
			}
		})
	}
}

func TestSizeText(t *testing.T) {
	for _, row := range readTable(t, "size_text.tsv", 2) {
		if got := sizeText(atoiT(t, row[0])); got != row[1] {
			t.Errorf("sizeText(%s) = %q, want %q", row[0], got, row[1])
		}
	}
}

// TestPageRedirectLimit: /api/page with a URL follows at most 5 redirects,
// counted by the loopback site that serves them: a sixth is neither
// requested nor followed.
func TestPageRedirectLimit(t *testing.T) {
	for _, row := range readTable(t, "page_redirects.tsv", 5) {
		hops, status, requests, msg := atoiT(t, row[0]), atoiT(t, row[1]), atoiT(t, row[3]), row[4]
		t.Run(row[0], func(t *testing.T) {
			var pages atomic.Int64
			o := newOrigin(t, func(w http.ResponseWriter, r *http.Request) {
				var n int
				if _, err := fmt.Sscanf(r.URL.Path, "/hop/%d", &n); err != nil {
					http.NotFound(w, r) // robots.txt: none
					return
				}
				pages.Add(1)
				if n < hops {
					http.Redirect(w, r, fmt.Sprintf("/hop/%d", n+1), http.StatusFound)
					return
				}
				w.Header().Set("Content-Type", "text/html")
				w.Write([]byte(`<meta name="robots" content="noindex">`))
			})
			ts, _ := newGuardedServer(t, Config{RatePerSecond: -1})
			st, m := call(t, "POST", ts.URL+"/api/page", `{"url":"`+o.URL+`/hop/0","agents":["Googlebot"]}`)
			if st != status {
				t.Fatalf("status %d, want %d (%v)", st, status, m)
			}
			if got := pages.Load(); got != int64(requests) {
				t.Errorf("the site got %d page requests, want %d", got, requests)
			}
			if status != http.StatusOK {
				if got, _ := m["error"].(string); !strings.Contains(got, msg) {
					t.Errorf("error %q, want it to say %q", got, msg)
				}
				return
			}
			f := m["fetch"].(map[string]any)
			if got := len(f["redirects"].([]any)); strconv.Itoa(got) != row[2] {
				t.Errorf("%d redirects, want %s", got, row[2])
			}
			if want := fmt.Sprintf("%s/hop/%d", o.URL, hops); f["final_url"] != want {
				t.Errorf("final_url %v, want %s", f["final_url"], want)
			}
		})
	}
}
