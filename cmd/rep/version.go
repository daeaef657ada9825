package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"slices"
	"time"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/crawlers/identity"
)

func init() {
	register(&command{name: "version", summary: "print rep's version, its Go version and the dates of its embedded data", run: runVersion})
}

const versionUsage = `usage: rep version [-json]

Prints the module version of this build (with the VCS revision, its time and
whether the tree was modified, when the build recorded them; "(devel)" for a
build outside a released module), the Go version, and the day each embedded
data set is current as of: the crawler registry, the crawler-user-agents
data set, and the operators' IP-range lists (the newest snapshot of each).
Data older than the requests you check may need a newer rep, or
'rep verify -update' for the IP lists. 'rep -version' is the same.

flags:
`

// versionInfo is the -json output of rep version.
type versionInfo struct {
	Module string `json:"module"`
	// Version is the main module's version, "(devel)" when unknown.
	Version string `json:"version"`
	// Revision, RevisionTime and Modified come from the VCS stamp.
	Revision     string `json:"revision,omitempty"`
	RevisionTime string `json:"revision_time,omitempty"`
	Modified     bool   `json:"modified,omitempty"`
	Go           string `json:"go"`
	Platform     string `json:"platform"`
	Data         struct {
		// Registry is the day data/registry.json was last revised.
		Registry string `json:"registry"`
		// CrawlerUserAgents is the vendored data set's version and the
		// day it was published.
		CrawlerUserAgents struct {
			Version   string `json:"version"`
			Published string `json:"published"`
		} `json:"crawler_user_agents"`
		// IPLists maps each list with an embedded snapshot to the day the
		// newest snapshot is current from.
		IPLists map[string]string `json:"ip_lists"`
	} `json:"data"`
}

func runVersion(e *env) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	asJSON := fs.Bool("json", false, "print one JSON object")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), versionUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(e.args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "rep version: unexpected argument %q: rep version takes no arguments\n", fs.Arg(0))
		return exitUsage
	}
	bi, _ := debug.ReadBuildInfo()
	v := buildVersion(bi)
	out := e.output(!*asJSON)
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		enc.Encode(v)
	} else {
		versionText(out, v)
	}
	return out.done(e, "rep version", exitOK)
}

// buildVersion reads the build information (nil when the binary has none)
// and the embedded data's dates.
func buildVersion(bi *debug.BuildInfo) *versionInfo {
	v := &versionInfo{Module: "github.com/rep-toolkit/rep", Version: "(devel)", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi != nil {
		if bi.Main.Path != "" {
			v.Module = bi.Main.Path
		}
		if bi.Main.Version != "" {
			v.Version = bi.Main.Version
		}
		if bi.GoVersion != "" {
			v.Go = bi.GoVersion
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Revision = s.Value
			case "vcs.time":
				v.RevisionTime = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	v.Data.Registry = crawlers.RegistryDate().Format(time.DateOnly)
	cuaVersion, published := crawlers.DataSetVersion()
	v.Data.CrawlerUserAgents.Version, v.Data.CrawlerUserAgents.Published = cuaVersion, published.Format(time.DateOnly)
	v.Data.IPLists = map[string]string{}
	for id, d := range identity.SnapshotDates() {
		v.Data.IPLists[id] = d.Format(time.DateOnly)
	}
	return v
}

func versionText(w io.Writer, v *versionInfo) {
	fmt.Fprintf(w, "rep %s\n", v.Version)
	fmt.Fprintf(w, "  module               %s\n", v.Module)
	if v.Revision != "" {
		rev := v.Revision
		if v.RevisionTime != "" {
			rev += " (" + v.RevisionTime + ")"
		}
		if v.Modified {
			rev += ", modified"
		}
		fmt.Fprintf(w, "  revision             %s\n", rev)
	}
	fmt.Fprintf(w, "  go                   %s %s\n", v.Go, v.Platform)
	fmt.Fprintf(w, "data\n")
	fmt.Fprintf(w, "  crawler registry     %s\n", v.Data.Registry)
	fmt.Fprintf(w, "  crawler-user-agents  %s, published %s\n", v.Data.CrawlerUserAgents.Version, v.Data.CrawlerUserAgents.Published)
	ids := make([]string, 0, len(v.Data.IPLists))
	for id := range v.Data.IPLists {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	width := 0
	for _, id := range ids {
		width = max(width, len(id))
	}
	for i, id := range ids {
		label := ""
		if i == 0 {
			label = "IP lists"
		}
		fmt.Fprintf(w, "  %-20s %-*s %s\n", label, width, id, v.Data.IPLists[id])
	}
	if len(ids) == 0 {
		fmt.Fprintf(w, "  %-20s none embedded\n", "IP lists")
	}
}
