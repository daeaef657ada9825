package lint_test

import (
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/lint"
)

// TestMergedGroup: merged-group is reported where Google's parser joins
// two runs of User-agent lines, under every engine, at the joining line.
func TestMergedGroup(t *testing.T) {
	for _, tc := range []struct {
		name, robots string
		lines        []int    // lines of the findings
		want         []string // substrings of the first message
	}{
		{"the guide's example", "User-agent: msnbot\nCrawl-delay: 5\n\nUser-agent: slurp\nCrawl-delay: 12\n", []int{4},
			[]string{"(line 1) and 'User-agent: slurp' (line 4) as one group", "(Crawl-delay, line 2)", "it has no rules", "Bing and Yandex"}},
		{"the * group takes a crawler's rules", "User-agent: *\nHost: example.com\n\nUser-agent: bingbot\nDisallow: /search\n", []int{4},
			[]string{"'*' therefore gets the rules written for 'bingbot': 'Disallow: /search' (line 5)"}},
		{"unknown lines, a chain", "User-agent: a\nUser-agent: b\nNoindex: /x\nUser-agent: c\nFoo: bar\nUser-agent: d\nAllow: /p\n", []int{4, 6},
			[]string{"'a' and 'b' therefore get the rules written for 'c' and 'd': 'Allow: /p' (line 7)"}},
		{"user-agent lines together", "User-agent: a\nUser-agent: b\nDisallow: /\n", nil, nil},
		{"a rule ends the group", "User-agent: a\nDisallow:\nCrawl-delay: 5\nUser-agent: b\nDisallow: /x\n", nil, nil},
		{"a Sitemap between is no group line", "User-agent: a\nSitemap: https://example.com/s.xml\nUser-agent: b\nDisallow: /x\n", nil, nil},
		{"ignored lines before any group", "Host: example.com\nUser-agent: b\nDisallow: /x\n", nil, nil},
	} {
		for _, e := range engine.All() {
			var got []int
			var msg string
			for _, f := range lint.Run([]byte(tc.robots), lint.Options{Engine: e}).Findings {
				if f.Code == "merged-group" {
					if got == nil {
						msg = f.Message
					}
					got = append(got, f.Line)
					if f.Severity != lint.Warning || !strings.Contains(f.Hint, "'Disallow:' with an empty value") {
						t.Errorf("%s, %v: %v %q", tc.name, e, f.Severity, f.Hint)
					}
				}
			}
			if len(got) != len(tc.lines) || (len(got) > 0 && (got[0] != tc.lines[0] || got[len(got)-1] != tc.lines[len(tc.lines)-1])) {
				t.Errorf("%s, %v: merged-group on lines %v, want %v", tc.name, e, got, tc.lines)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("%s, %v: message lacks %q: %s", tc.name, e, w, msg)
				}
			}
		}
	}
}
