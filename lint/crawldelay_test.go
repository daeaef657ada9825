package lint_test

import (
	"slices"
	"testing"

	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/lint"
)

// TestCrawlDelayIgnored: a Crawl-delay in a group that names only crawlers
// documented to ignore it (Google's, Yandex's, by the crawler registry) is
// a warning under every engine: the site owner believes it slows them
// down. A group that also names a crawler that may read it is not.
func TestCrawlDelayIgnored(t *testing.T) {
	for _, tc := range []struct {
		name   string
		robots string
		line   int // line of the warning; 0: none
	}{
		{"googlebot", "User-agent: Googlebot\nCrawl-delay: 10\nDisallow: /x\n", 2},
		{"google-crawlers", "User-agent: Googlebot\nUser-agent: Googlebot-Image\nUser-agent: AdsBot-Google\nCrawl-delay: 10\n", 4},
		{"token-with-version", "User-agent: googlebot/2.1\nDisallow: /x\nCrawl-delay: 1\n", 3},
		{"yandex", "User-agent: YandexBot\nCrawl-delay: 2\n", 2},
		{"google-and-bing", "User-agent: Googlebot\nUser-agent: bingbot\nCrawl-delay: 10\n", 0},
		{"google-and-unknown", "User-agent: Googlebot\nUser-agent: examplebot\nCrawl-delay: 10\n", 0},
		{"star", "User-agent: *\nCrawl-delay: 10\n", 0},
		{"bingbot", "User-agent: bingbot\nCrawl-delay: 10\n", 0},
		{"outside-group", "Crawl-delay: 10\nUser-agent: Googlebot\nDisallow: /x\n", 0},
	} {
		for _, e := range engine.All() {
			t.Run(tc.name+"/"+e.String(), func(t *testing.T) {
				r := lint.Run([]byte(tc.robots), lint.Options{Engine: e})
				var got []lint.Finding
				for _, f := range r.Findings {
					if f.Code == "crawl-delay-ignored" {
						got = append(got, f)
					}
				}
				switch {
				case tc.line == 0 && len(got) > 0:
					t.Errorf("unexpected %v", got)
				case tc.line > 0 && (len(got) != 1 || got[0].Line != tc.line || got[0].Severity != lint.Warning):
					t.Errorf("want one crawl-delay-ignored warning on line %d, got %v", tc.line, r.Findings)
				case tc.line > 0 && slices.ContainsFunc(r.Findings, func(f lint.Finding) bool {
					return f.Line == tc.line && f.Code == "ignored-directive"
				}):
					t.Errorf("line %d is also reported as ignored-directive: %v", tc.line, r.Findings)
				}
			})
		}
	}
}
