package audit

import (
	"testing"

	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
)

// TestVersionDigest: a version's digest is the SHA-256 of its rules as
// RulesDigest lists them when it is judged by its file, and of the fetch's
// verdict when the fetch decided without one. The expected digests are
// sha256sum of the texts in the comments.
func TestVersionDigest(t *testing.T) {
	f := robotstxt.Parse([]byte("User-agent: *\nDisallow: /private/\nCrawl-delay: 5\n# a comment\nSitemap: https://example.com/s.xml\n"))
	// printf 'profile google\ngroup 0\nagent 1 "*"\nrule 2 false "/private/"\next 3 0 "crawl-delay" "5"\n' | sha256sum
	const rules = "8ff357c7123d29f80e1c7c9ac242f89ed6e482408a0f99064ea2130f5bcec4cd"
	for _, tt := range []struct {
		name string
		v    Version
		want string
	}{
		{"a file", Version{File: f}, rules},
		{"a fetched file", Version{File: f, Fetch: &robotsfetch.Outcome{Verdict: robotsfetch.UseRules}}, rules},
		// printf 'verdict disallow-all' | sha256sum
		{"unreachable", Version{Fetch: &robotsfetch.Outcome{Verdict: robotsfetch.DisallowAll}}, "bd28a2dd05710be5ea7c8a7e0c7fe56249b5ec5100dfaebcc5291b1807cd21ce"},
		// printf 'verdict allow-all' | sha256sum
		{"not found", Version{Fetch: &robotsfetch.Outcome{Verdict: robotsfetch.AllowAll}}, "13e8138997fc76f4f0c8d198b3934857100982c19fe75350dab6a00350821d67"},
		// printf 'profile google\n' | sha256sum
		{"no file", Version{}, "8819748b84e94b67e5b92c9a4a9d02ad1750d8eb8f70a6052590bd1c8228ca91"},
	} {
		if got := tt.v.Digest(); got != tt.want {
			t.Errorf("%s: digest %s, want %s", tt.name, got, tt.want)
		}
	}
}
