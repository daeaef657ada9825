package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/crawlers/identity"
)

func init() {
	register(&command{name: "version", summary: "print rep's version, its Go version and the dates of its embedded data", run: runVersion})
}

const versionUsage = `usage: rep version [-now RFC3339] [-json]

Prints the module version of this build (with the VCS revision, its time and
whether the tree was modified, when the build recorded them; "(devel)" for a
build outside a released module), the Go version, and the day each embedded
data set is current as of: the crawler registry, the crawler-user-agents
data set, and the operators' IP-range lists (the newest snapshot of each).
Data more than a year old (365 days before today, or -now) is marked
"old": an operator's IP ranges and the crawlers in use change within a year,
so answers from it may be out of date. 'rep verify -update' fetches the
current IP lists; a newer rep brings a newer registry. 'rep -version' is
the same.

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
	// Old names the data sets more than dataMaxAge old on the day asked
	// about: "registry", "crawler_user_agents", "ip_lists/bing".
	Old []string `json:"old,omitempty"`
}

// dataMaxAge is the age past which rep version calls embedded data old.
const dataMaxAge = 365 * 24 * time.Hour

func runVersion(e *env) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	asJSON := fs.Bool("json", false, "print one JSON object")
	nowFlag := fs.String("now", "", "judge the data's age as on `RFC3339` time (default: now)")
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
	now := time.Now()
	if *nowFlag != "" {
		t, err := time.Parse(time.RFC3339, *nowFlag)
		if err != nil {
			fmt.Fprintf(e.stderr, "rep version: -now %q is not RFC 3339, e.g. -now 2026-06-01T00:00:00Z\n", *nowFlag)
			return exitUsage
		}
		now = t
	}
	bi, _ := debug.ReadBuildInfo()
	v := buildVersion(bi)
	v.Old = oldData(v, now)
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

// oldData names the data sets of v dated more than dataMaxAge before now,
// in the order rep version prints them.
func oldData(v *versionInfo, now time.Time) []string {
	var old []string
	check := func(name, day string) {
		if t, err := time.Parse(time.DateOnly, day); err == nil && now.Sub(t) > dataMaxAge {
			old = append(old, name)
		}
	}
	check("registry", v.Data.Registry)
	check("crawler_user_agents", v.Data.CrawlerUserAgents.Published)
	ids := make([]string, 0, len(v.Data.IPLists))
	for id := range v.Data.IPLists {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		check("ip_lists/"+id, v.Data.IPLists[id])
	}
	return old
}

func versionText(w io.Writer, v *versionInfo) {
	mark := func(name string) string {
		if slices.Contains(v.Old, name) {
			return "  old"
		}
		return ""
	}
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
	fmt.Fprintf(w, "  crawler registry     %s%s\n", v.Data.Registry, mark("registry"))
	fmt.Fprintf(w, "  crawler-user-agents  %s, published %s%s\n", v.Data.CrawlerUserAgents.Version, v.Data.CrawlerUserAgents.Published, mark("crawler_user_agents"))
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
		fmt.Fprintf(w, "  %-20s %-*s %s%s\n", label, width, id, v.Data.IPLists[id], mark("ip_lists/"+id))
	}
	if len(ids) == 0 {
		fmt.Fprintf(w, "  %-20s none embedded\n", "IP lists")
	}
	if len(v.Old) > 0 {
		fmt.Fprintf(w, "%d data set(s) over a year old: answers from them may be out of date.\n", len(v.Old))
		for _, o := range v.Old {
			if strings.HasPrefix(o, "ip_lists/") {
				fmt.Fprintln(w, "'rep verify -update' fetches the operators' current IP lists.")
				break
			}
		}
		if slices.ContainsFunc(v.Old, func(o string) bool { return !strings.HasPrefix(o, "ip_lists/") }) {
			fmt.Fprintln(w, "A newer rep brings a newer crawler registry and data set.")
		}
	}
}
