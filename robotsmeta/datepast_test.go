package robotsmeta_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/robotsmeta"
)

// TestDatePastScope: a past unavailable_after warns the crawler it reaches;
// read for another crawler, the finding says whom it concerns and is only
// information (rep page -agent bingbot on a googlebot-only date).
func TestDatePastScope(t *testing.T) {
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	const meta = `<html><head><meta name="googlebot" content="unavailable_after: 2020-01-01"></head><body>x</body></html>`
	hdr := http.Header{"X-Robots-Tag": {"googlebot: unavailable_after: 2020-01-01"}}
	for _, tc := range []struct {
		name   string
		h      http.Header
		body   string
		agent  string
		prof   robotsmeta.Profile
		want   robotsmeta.Severity
		phrase string
	}{
		{"meta for googlebot", nil, meta, "googlebot", robotsmeta.Google, robotsmeta.Warning, "the page is treated as noindex"},
		{"meta read for bingbot", nil, meta, "bingbot", robotsmeta.Bing, robotsmeta.Info, "does not apply to bingbot"},
		{"header read for bingbot", hdr, "", "bingbot", robotsmeta.Bing, robotsmeta.Info, "already past for googlebot"},
		{"header for googlebot", hdr, "", "googlebot", robotsmeta.Google, robotsmeta.Warning, "the page is treated as noindex"},
		// The finding is about the date's own rule, not the rule before it.
		{"after a bingbot rule, read for bingbot", http.Header{"X-Robots-Tag": {"bingbot: noarchive, googlebot: unavailable_after: 2020-01-01"}}, "", "bingbot", robotsmeta.Bing, robotsmeta.Info, "already past for googlebot"},
		{"after a googlebot rule, read for bingbot", http.Header{"X-Robots-Tag": {"googlebot: noarchive, bingbot: unavailable_after: 2020-01-01"}}, "", "bingbot", robotsmeta.Bing, robotsmeta.Warning, "the page is treated as noindex"},
		// At the very instant the date is past (the cut-off is inclusive).
		{"at the instant", http.Header{"X-Robots-Tag": {"unavailable_after: 2026-06-01T00:00:00Z"}}, "", "googlebot", robotsmeta.Google, robotsmeta.Warning, "2026-06-01T00:00:00Z is already past"},
		{"no agent given", nil, meta, "", robotsmeta.Google, robotsmeta.Warning, "the page is treated as noindex"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pg, err := robotsmeta.Parse(tc.h, strings.NewReader(tc.body), robotsmeta.Options{Now: now, Agent: tc.agent, Profile: tc.prof})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range pg.Diagnostics {
				if d.Code != "date-past" {
					continue
				}
				if d.Severity != tc.want || !strings.Contains(d.Message, tc.phrase) {
					t.Errorf("%s %q; want %s containing %q", d.Severity, d.Message, tc.want, tc.phrase)
				}
				return
			}
			t.Errorf("no date-past finding in %v", pg.Diagnostics)
		})
	}
}
