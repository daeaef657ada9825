package main

import (
	"bytes"
	"runtime/debug"
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
