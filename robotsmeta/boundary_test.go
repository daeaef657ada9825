package robotsmeta

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/internal/testkit/table"
)

// readTable reads testdata/boundary/name, a tab-separated table of n
// fields a row.
func readTable(t *testing.T, name string, n int) [][]string {
	return table.Read(t, filepath.Join("testdata", "boundary", name), n)
}

func parseBool(t *testing.T, s string) bool {
	t.Helper()
	switch s {
	case "true":
		return true
	case "false":
		return false
	}
	t.Fatalf("%q is not true or false", s)
	return false
}

// TestUnavailableAfterInstant: a page is indexable just before its
// unavailable_after date and not at the date itself or after it, as
// Policy.UnavailableAfter documents ("Index is false once Now is at or
// after it").
func TestUnavailableAfterInstant(t *testing.T) {
	for _, row := range readTable(t, "unavailable_after.tsv", 2) {
		now, err := time.Parse(time.RFC3339Nano, row[0])
		if err != nil {
			t.Fatal(err)
		}
		want := parseBool(t, row[1])
		for _, src := range []struct {
			name   string
			header []string
			html   string
		}{
			{"header", []string{"X-Robots-Tag: unavailable_after: 25 Jun 2030 15:00:00 GMT"}, ""},
			{"meta", nil, `<meta name="robots" content="unavailable_after: 2030-06-25T15:00:00Z">`},
		} {
			pol, err := EvaluateLines(src.header, strings.NewReader(src.html), "googlebot", Google, now, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if pol.Index != want {
				t.Errorf("%s, now %s: Index = %v, want %v (unavailable_after %v)", src.name, row[0], pol.Index, want, pol.UnavailableAfter)
			}
			if got := pol.UnavailableAfter.Format(time.RFC3339); got != "2030-06-25T15:00:00Z" {
				t.Errorf("%s: UnavailableAfter = %s", src.name, got)
			}
		}
	}
}

// TestTwoDigitYearWindow: the 1950/2050 window of RFC 5322 section 4.3 at
// its boundary, through ParseDate and through a page's policy.
func TestTwoDigitYearWindow(t *testing.T) {
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	for _, row := range readTable(t, "two_digit_years.tsv", 2) {
		want, err := time.Parse(time.RFC3339, row[1])
		if err != nil {
			t.Fatal(err)
		}
		got, ok := ParseDate(row[0])
		if !ok || !got.Equal(want) {
			t.Errorf("ParseDate(%q) = %v, %v; want %v", row[0], got, ok, want)
		}
		pol, err := EvaluateLines([]string{"X-Robots-Tag: unavailable_after: " + row[0]}, nil, "googlebot", Google, now, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !pol.UnavailableAfter.Equal(want) || pol.Index != now.Before(want) {
			t.Errorf("unavailable_after: %s at %v: UnavailableAfter %v, Index %v; want %v, %v", row[0], now, pol.UnavailableAfter, pol.Index, want, now.Before(want))
		}
	}
}

// TestGoogleSpecialCrawlers: under the google profile the generic robots
// meta tag and an unscoped X-Robots-Tag do not address the crawlers Google
// documents as ignoring rules for all crawlers; their own name does.
func TestGoogleSpecialCrawlers(t *testing.T) {
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	for _, row := range readTable(t, "special_crawlers.tsv", 4) {
		prof, ok := ParseProfile(row[0])
		if !ok {
			t.Fatalf("profile %q", row[0])
		}
		agent, want := row[1], parseBool(t, row[3])
		var header []string
		html := ""
		switch row[2] {
		case "meta":
			html = `<meta name="robots" content="noindex, nofollow">`
		case "header":
			header = []string{"X-Robots-Tag: noindex, nofollow"}
		case "own-meta":
			html = `<meta name="` + agentToken(agent) + `" content="noindex, nofollow">`
		default:
			t.Fatalf("source %q", row[2])
		}
		pol, err := EvaluateLines(header, strings.NewReader(html), agent, prof, now, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if pol.Index != want || pol.Follow != want {
			t.Errorf("%s %s, %s: Index %v, Follow %v; want %v", row[0], agent, row[2], pol.Index, pol.Follow, want)
		}
	}
}
