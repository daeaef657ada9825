package main

import (
	"bytes"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/crawlers"
)

// TestBuildVersion: what the build recorded is reported, "(devel)" and the
// module's path stand in for what it did not, and the data dates are the
// packages' own.
func TestBuildVersion(t *testing.T) {
	stamped := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/rep-toolkit/rep", Version: "v1.2.3"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.time", Value: "2026-11-20T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	clean := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/rep-toolkit/rep", Version: "v1.2.3"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.modified", Value: "false"}}}
	tests := []struct {
		name string
		bi   *debug.BuildInfo
		want []string // lines of the text output
		not  []string
	}{
		{"no build information", nil, []string{"rep (devel)\n", "  module               github.com/rep-toolkit/rep\n"}, []string{"revision"}},
		{"no version", &debug.BuildInfo{Main: debug.Module{Path: "github.com/rep-toolkit/rep"}}, []string{"rep (devel)\n"}, []string{"revision"}},
		{"tagged, modified tree", stamped, []string{"rep v1.2.3\n", "  revision             0123456789abcdef (2026-11-20T10:00:00Z), modified\n", "  go                   go1.26.0 "}, nil},
		{"clean tree, no time", clean, []string{"  revision             0123456789abcdef\n"}, []string{"modified"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			versionText(&b, buildVersion(tt.bi))
			for _, w := range tt.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, b.String())
				}
			}
			for _, w := range tt.not {
				if strings.Contains(b.String(), w) {
					t.Errorf("output has %q:\n%s", w, b.String())
				}
			}
		})
	}
	v := buildVersion(nil)
	cua, published := crawlers.DataSetVersion()
	if v.Data.Registry != crawlers.RegistryDate().Format(time.DateOnly) || v.Data.CrawlerUserAgents.Version != cua ||
		v.Data.CrawlerUserAgents.Published != published.Format(time.DateOnly) || v.Data.IPLists["google-common"] == "" {
		t.Errorf("data dates %+v", v.Data)
	}
}

func TestOldData(t *testing.T) {
	v := &versionInfo{}
	v.Data.Registry = "2026-01-10"
	v.Data.CrawlerUserAgents.Published = "2025-06-01"
	v.Data.IPLists = map[string]string{"bing": "2024-01-03", "google-common": "2026-03-16", "apple": "not a date"}
	day := func(s string) time.Time { t, _ := time.Parse(time.DateOnly, s); return t }
	for _, tc := range []struct {
		now  string
		want []string
	}{
		{"2026-11-28", []string{"crawler_user_agents", "ip_lists/bing"}},
		{"2025-01-02", nil},                       // 365 days to the day: not over a year
		{"2025-01-03", []string{"ip_lists/bing"}}, // 366 days
		{"2024-12-30", nil},
		{"2027-03-17", []string{"registry", "crawler_user_agents", "ip_lists/bing", "ip_lists/google-common"}},
	} {
		if got := oldData(v, day(tc.now)); !slices.Equal(got, tc.want) {
			t.Errorf("on %s: old %q, want %q", tc.now, got, tc.want)
		}
	}
}
