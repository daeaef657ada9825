package lint_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/lint"
	"github.com/rep-toolkit/rep/robotstxt"
)

// TestRedundantWildcardSafe: the redundant-wildcard finding suggests
// dropping a trailing '*' only when that changes no verdict of the rules
// the crawlers obey. The '*' makes the rule longer, and length decides
// between an Allow and a Disallow that both match (equal lengths: Allow
// wins, RFC 9309 §2.2.2). Each case's claim is checked with the matcher:
// the file with the line rewritten as the hint says gives the same verdict
// on every probe URL exactly when the finding is given.
func TestRedundantWildcardSafe(t *testing.T) {
	probes := []string{"/", "/a", "/a/", "/ab", "/abc", "/a.html", "/b", "/zz", "/x", "/a$"}
	for _, tc := range []struct {
		name   string
		robots string
		lines  []int // lines with the finding
	}{
		{"alone", "User-agent: *\nDisallow: /a*\n", []int{2}},
		{"allow-same-path", "User-agent: *\nDisallow: /a*\nAllow: /a\n", nil},
		{"allow-same-path-first", "User-agent: *\nAllow: /a\nDisallow: /a*\n", nil},
		{"allow-elsewhere", "User-agent: *\nDisallow: /a*\nAllow: /zz\n", []int{2}},
		{"allow-shorter", "User-agent: *\nDisallow: /ab*\nAllow: /a\n", []int{2}},
		{"allow-tie-after", "User-agent: *\nDisallow: /ab*\nAllow: /a*\n", []int{3}},
		{"allow-longer", "User-agent: *\nDisallow: /a*\nAllow: /abc\n", []int{2}},
		{"allow-star-disallow-same", "User-agent: *\nAllow: /a*\nDisallow: /a\n", []int{2}},
		{"allow-star-disallow-star", "User-agent: *\nAllow: /a*\nDisallow: /a*\n", []int{3}},
		{"other-group", "User-agent: a\nDisallow: /a*\n\nUser-agent: b\nAllow: /a\n", []int{2}},
		{"merged-group", "User-agent: a\nDisallow: /a*\n\nUser-agent: b\nDisallow: /x\n\nUser-agent: a\nAllow: /a\n", nil},
		{"wildcard-allow", "User-agent: *\nDisallow: /a.html*\nAllow: /*.html\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := lint.Run([]byte(tc.robots), lint.Options{})
			var got []int
			for _, f := range r.Findings {
				if f.Code == "redundant-wildcard" {
					got = append(got, f.Line)
				}
			}
			if !slices.Equal(got, tc.lines) {
				t.Errorf("redundant-wildcard on lines %v, want %v:\n%s", got, tc.lines, tc.robots)
			}
			// Every line with a trailing '*' either keeps every verdict when
			// trimmed (and is reported) or changes one (and is not).
			lines := strings.Split(tc.robots, "\n")
			for i, line := range lines {
				if !strings.HasSuffix(line, "*") || strings.HasPrefix(line, "User-agent") {
					continue
				}
				trimmed := slices.Clone(lines)
				trimmed[i] = strings.TrimRight(line, "*")
				fa := robotstxt.Parse([]byte(tc.robots))
				fb := robotstxt.Parse([]byte(strings.Join(trimmed, "\n")))
				same := true
				for _, agent := range []string{"a", "b", "c"} {
					for _, u := range probes {
						if fa.Check(agent, u).Allowed != fb.Check(agent, u).Allowed {
							same = false
						}
					}
				}
				if reported := slices.Contains(got, i+1); reported != same {
					t.Errorf("line %d: reported %v, but trimming its '*' keeps every verdict: %v", i+1, reported, same)
				}
			}
		})
	}
}
