package robotsdiff

import (
	"fmt"
	"io"
	"strings"

	"github.com/rep-toolkit/rep/internal/sarif"
)

// The SARIF rules: one per kind of change.
var sarifRules = []sarif.Rule{
	{ID: "url-blocked", ShortDescription: sarif.Text{Text: "A URL a crawler could fetch becomes disallowed"}, DefaultConfiguration: sarif.Config{Level: "error"}},
	{ID: "url-allowed", ShortDescription: sarif.Text{Text: "A URL a crawler could not fetch becomes allowed"}, DefaultConfiguration: sarif.Config{Level: "warning"}},
	{ID: "usage-changed", ShortDescription: sarif.Text{Text: "A usage preference (AI training, AI use, search) changes for a URL"}, DefaultConfiguration: sarif.Config{Level: "warning"}},
	{ID: "rules-changed", ShortDescription: sarif.Text{Text: "The rules a crawler obeys change without any URL found to flip"}, DefaultConfiguration: sarif.Config{Level: "note"}},
	{ID: "delay-changed", ShortDescription: sarif.Text{Text: "The crawl interval a crawler's engine reads changes"}, DefaultConfiguration: sarif.Config{Level: "note"}},
	{ID: "sitemap-removed", ShortDescription: sarif.Text{Text: "A Sitemap line is removed"}, DefaultConfiguration: sarif.Config{Level: "warning"}},
	{ID: "sitemap-added", ShortDescription: sarif.Text{Text: "A Sitemap line is added"}, DefaultConfiguration: sarif.Config{Level: "note"}},
	{ID: "fetch-changed", ShortDescription: sarif.Text{Text: "The robots.txt is fetched differently (status, redirects, an HTML page)"}, DefaultConfiguration: sarif.Config{Level: "error"}},
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
// sitemap and fetch change is one result, located at the deciding line in
// the new file (or, for a rule removed, in the old one).
func (d *Diff) WriteSARIF(w io.Writer) error {
	run := sarif.Run{Tool: sarif.Tool{Driver: sarif.Driver{Name: "rep diff", InformationURI: "https://github.com/rep-toolkit/rep", Rules: sarifRules}}}
	add := func(id, msg, file string, line int) {
		i := sarifIndex(id)
		run.Results = append(run.Results, sarif.Result{RuleID: id, RuleIndex: i, Level: sarifRules[i].DefaultConfiguration.Level,
			Message: sarif.Text{Text: msg}, Locations: []sarif.Location{sarif.At(file, line)}})
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
	return sarif.Write(w, run)
}
