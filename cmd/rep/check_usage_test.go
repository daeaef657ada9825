package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/aipref"
)

// TestCheckUsageJSON checks the usage object of rep check -json: present
// with its evidence when robots.txt states usage preferences, absent when
// it states none, and the Content-Usage path rule applied only where the
// agent may crawl.
func TestCheckUsageJSON(t *testing.T) {
	const robots = "User-agent: *\nContent-Signal: search=yes, ai-train=no\nDisallow: /private/\nContent-Usage: /articles/ train-ai=y, ai-use=n\n"
	for _, c := range []struct {
		robots, url          string
		none                 bool
		train, aiUse, search aipref.Pref
		lines                []int
	}{
		{robots: robots, url: "https://example.com/articles/a", train: aipref.Disallowed, aiUse: aipref.Disallowed, search: aipref.Allowed, lines: []int{4, 4, 2, 2}},
		{robots: robots, url: "https://example.com/private/articles/a", train: aipref.Disallowed, aiUse: aipref.Unknown, search: aipref.Allowed, lines: []int{2, 2}},
		{robots: "User-agent: *\nDisallow: /private/\n", url: "https://example.com/a", none: true},
	} {
		_, stdout, stderr := checkRun(t, c.robots, "-robots", "-", "-agent", "examplebot", "-json", c.url)
		var got struct {
			Usage *aipref.Usage `json:"usage"`
		}
		if err := json.Unmarshal([]byte(stdout), &got); err != nil {
			t.Fatalf("%s: %v (stdout %q, stderr %q)", c.url, err, stdout, stderr)
		}
		if c.none {
			if got.Usage != nil || strings.Contains(stdout, `"usage"`) {
				t.Errorf("%s: usage %+v, want none", c.url, got.Usage)
			}
			continue
		}
		v := got.Usage
		if v == nil {
			t.Fatalf("%s: no usage object: %s", c.url, stdout)
		}
		if v.TrainAI != c.train || v.AIUse != c.aiUse || v.Search != c.search {
			t.Errorf("%s: usage %s, want train-ai=%s ai-use=%s search=%s", c.url, v, c.train, c.aiUse, c.search)
		}
		var lines []int
		for _, e := range v.Evidence {
			lines = append(lines, e.Line)
		}
		if len(lines) != len(c.lines) {
			t.Errorf("%s: evidence lines %v, want %v", c.url, lines, c.lines)
		}
		for i := range lines {
			if i < len(c.lines) && lines[i] != c.lines[i] {
				t.Errorf("%s: evidence lines %v, want %v", c.url, lines, c.lines)
				break
			}
		}
	}
}
