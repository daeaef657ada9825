package robotsdiff

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strings"
)

// SARIF 2.1.0 (OASIS), the subset a code-scanning upload needs: one result
// per change and cluster of crawlers, located at the deciding line in the
// new file (or, for a rule removed, in the old one).

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifRule struct {
	ID                   string      `json:"id"`
	ShortDescription     sarifText   `json:"shortDescription"`
	DefaultConfiguration sarifConfig `json:"defaultConfiguration"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

// The SARIF rules: one per kind of change.
var sarifRules = []sarifRule{
	{"url-blocked", sarifText{"A URL a crawler could fetch becomes disallowed"}, sarifConfig{"error"}},
	{"url-allowed", sarifText{"A URL a crawler could not fetch becomes allowed"}, sarifConfig{"warning"}},
	{"usage-changed", sarifText{"A usage preference (AI training, AI use, search) changes for a URL"}, sarifConfig{"warning"}},
	{"rules-changed", sarifText{"The rules a crawler obeys change without any URL found to flip"}, sarifConfig{"note"}},
	{"delay-changed", sarifText{"The crawl interval a crawler's engine reads changes"}, sarifConfig{"note"}},
	{"sitemap-removed", sarifText{"A Sitemap line is removed"}, sarifConfig{"warning"}},
	{"sitemap-added", sarifText{"A Sitemap line is added"}, sarifConfig{"note"}},
	{"fetch-changed", sarifText{"The robots.txt is fetched differently (status, redirects, an HTML page)"}, sarifConfig{"error"}},
}

func sarifIndex(id string) int {
	for i, r := range sarifRules {
		if r.ID == id {
			return i
		}
	}
	panic("robotsdiff: no SARIF rule " + id)
}

// WriteSARIF writes the diff as a SARIF 2.1.0 log for code-scanning tools:
// each flip (per cluster of crawlers), rule change without flips, delay,
// sitemap and fetch change is one result.
func (d *Diff) WriteSARIF(w io.Writer) error {
	run := sarifRun{
		Tool:    sarifTool{Driver: sarifDriver{Name: "rep diff", InformationURI: "https://github.com/rep-toolkit/rep", Rules: sarifRules}},
		Results: []sarifResult{},
	}
	add := func(id, msg, file string, line int) {
		loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: sarifURI(file)}}}
		if line > 0 {
			loc.PhysicalLocation.Region = &sarifRegion{StartLine: line}
		}
		i := sarifIndex(id)
		run.Results = append(run.Results, sarifResult{RuleID: id, RuleIndex: i, Level: sarifRules[i].DefaultConfiguration.Level,
			Message: sarifText{msg}, Locations: []sarifLocation{loc}})
	}
	if d.Fetch != nil {
		add("fetch-changed", "robots.txt: "+strings.Join(d.Fetch.What, "; "), d.New.Name, 0)
	}
	for _, s := range d.Sitemaps {
		if s.Added {
			add("sitemap-added", "Sitemap added: "+s.URL, d.New.Name, s.Line)
		} else {
			add("sitemap-removed", "Sitemap removed: "+s.URL, d.Old.Name, s.Line)
		}
	}
	for _, cl := range d.Clusters() {
		c := cl.First()
		who := names(cl.Names(), 8)
		for _, f := range c.Flips {
			file, line := d.New.Name, f.After.Rule.Line
			if line == 0 || f.After.FromFetch() {
				file, line = d.Old.Name, f.Before.Rule.Line
			}
			switch {
			case f.Blocks():
				add("url-blocked", fmt.Sprintf("%s: %s becomes disallowed (after: %s; before: %s)", who, f.URL, f.After.Why(), f.Before.Why()), file, line)
			case f.Crawl():
				add("url-allowed", fmt.Sprintf("%s: %s becomes allowed (after: %s; before: %s)", who, f.URL, f.After.Why(), f.Before.Why()), file, line)
			default:
				add("usage-changed", fmt.Sprintf("%s: %s: %s", who, f.URL, usageText(f)), d.New.Name, 0)
			}
		}
		if c.FlipCount() == 0 && (len(c.Added) > 0 || len(c.Removed) > 0) {
			var parts []string
			line := 0
			for _, r := range c.Added {
				parts = append(parts, "added "+r.String())
				if line == 0 {
					line = r.Line
				}
			}
			for _, r := range c.Removed {
				parts = append(parts, "removed "+r.String())
			}
			add("rules-changed", fmt.Sprintf("%s: %s; no URL flips", who, strings.Join(parts, ", ")), d.New.Name, line)
		}
		if dl := c.Delay; dl != nil {
			add("delay-changed", fmt.Sprintf("%s: crawl interval %s → %s", who, delayText(dl.Before), delayText(dl.After)), d.New.Name, 0)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
}

// sarifURI makes a file name or URL a valid URI reference.
func sarifURI(name string) string {
	if u, err := url.Parse(name); err == nil && u.Scheme != "" && u.Host != "" {
		return u.String()
	}
	return (&url.URL{Path: strings.ReplaceAll(name, "\\", "/")}).String()
}
