package robotsfetch

import (
	"bytes"
	"fmt"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

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

func boolT(t *testing.T, s string) bool {
	t.Helper()
	b, err := strconv.ParseBool(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestOutageBoundary: the 30-day rule applies from the instant the origin
// has been unreachable for 30 days, not a second before.
func TestOutageBoundary(t *testing.T) {
	for _, row := range readTable(t, "outage_boundary.tsv", 5) {
		good := boolT(t, row[0])
		down, err := time.ParseDuration(row[1])
		if err != nil {
			t.Fatal(err)
		}
		t.Run(row[0]+"/"+row[1], func(t *testing.T) {
			clk := newClock()
			var unreachable atomic.Bool
			unreachable.Store(!good)
			s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
				if unreachable.Load() {
					w.WriteHeader(http.StatusServiceUnavailable)
					return
				}
				text(robotsBody)(w, r)
			})
			f := newFetcher(t, Options{Now: clk.Now})
			if good {
				get(t, f, s.URL)
				clk.Advance(25 * time.Hour)
				unreachable.Store(true)
			}
			start := clk.Now()
			if r := get(t, f, s.URL); r.Outcome.Case != Unreachable {
				t.Fatalf("first failure: %s", r.Outcome.String())
			}
			clk.Advance(down)
			r := get(t, f, s.URL)
			o := r.Outcome
			if !o.DownSince.Equal(start) || !o.FetchedAt.Equal(start.Add(down)) {
				t.Fatalf("down since %v, fetched at %v; want %v, %v", o.DownSince, o.FetchedAt, start, start.Add(down))
			}
			if o.Case.String() != row[2] {
				t.Errorf("after %s: %s, want %s", row[1], o.String(), row[2])
			}
			if got := r.Check(s.URL + "/public").Allowed; got != boolT(t, row[3]) {
				t.Errorf("after %s: /public allowed %v", row[1], got)
			}
			if got := r.Check(s.URL + "/private/x").Allowed; got != boolT(t, row[4]) {
				t.Errorf("after %s: /private/x allowed %v", row[1], got)
			}
		})
	}
}

// sizedRobots returns a robots.txt of size bytes whose "Disallow: /late"
// line ends (line end included) at byte ruleEnd, after a group for every
// crawler and comment lines; the bytes after the rule are filler with no
// line end.
func sizedRobots(t *testing.T, size, ruleEnd int) []byte {
	t.Helper()
	const head, rule = "User-agent: *\nDisallow: /early\n", "Disallow: /late\n"
	var b bytes.Buffer
	b.WriteString(head)
	for b.Len()+64+2+len(rule) <= ruleEnd {
		b.WriteString("# " + strings.Repeat("p", 61) + "\n")
	}
	if n := ruleEnd - len(rule) - b.Len(); n >= 2 {
		b.WriteString("#" + strings.Repeat("q", n-2) + "\n")
	}
	b.WriteString(rule)
	if b.Len() != ruleEnd || size < ruleEnd {
		t.Fatalf("cannot end the rule at %d in %d bytes (got %d)", ruleEnd, size, b.Len())
	}
	b.WriteString(strings.Repeat("z", size-ruleEnd))
	return b.Bytes()
}

// TestSizeLimitBoundary: the default body limit is 512000 bytes (500 KiB),
// read whole up to it; one byte more and the body is truncated at the last
// line end within the limit.
func TestSizeLimitBoundary(t *testing.T) {
	for _, row := range readTable(t, "size_limit.tsv", 5) {
		size, end := atoiT(t, row[0]), atoiT(t, row[1])
		truncated, read, late := boolT(t, row[2]), atoiT(t, row[3]), boolT(t, row[4])
		t.Run(fmt.Sprintf("%d/%d", size, end), func(t *testing.T) {
			body := sizedRobots(t, size, end)
			s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/plain")
				w.Write(body)
			})
			r := get(t, newFetcher(t, Options{}), s.URL)
			o := r.Outcome
			if o.Case != Success || o.Bytes != read || o.Has(WarnTruncated) != truncated {
				t.Fatalf("%s: bytes %d, warnings %v; want %d bytes, truncated %v", o.String(), o.Bytes, o.Warnings, read, truncated)
			}
			if r.File.Truncated() != truncated {
				t.Errorf("File.Truncated() = %v, want %v", r.File.Truncated(), truncated)
			}
			if r.Check(s.URL + "/early").Allowed {
				t.Error("/early allowed: the first rule must always apply")
			}
			if got := r.Check(s.URL + "/late").Allowed; got != late {
				t.Errorf("/late allowed %v, want %v", got, late)
			}
		})
	}
}
