package robotstxt_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/robotstxt"
)

// matchCase is one query of a robots.txt body and the decision expected:
// the verdict, the deciding line (0 for none) and the reason.
type matchCase struct {
	name   string
	body   string
	agent  string
	url    string
	allow  bool
	line   int
	reason robotstxt.Reason
}

func runMatchCases(t *testing.T, tests []matchCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := robotstxt.Parse([]byte(tt.body))
			d := f.Check(tt.agent, tt.url)
			if d.Allowed != tt.allow || d.Rule.Line != tt.line || d.Reason != tt.reason {
				t.Errorf("Check: allowed=%v line=%d reason=%q, want %v %d %q", d.Allowed, d.Rule.Line, d.Reason, tt.allow, tt.line, tt.reason)
			}
			if got := f.Matcher(tt.agent).Allowed(tt.url); got != tt.allow {
				t.Errorf("Allowed: %v, want %v", got, tt.allow)
			}
		})
	}
}

// TestWildcardTails: what a pattern's tail after '*' asks of the path
// (RFC 9309 §2.2.3: '*' matches any sequence of characters; Google's
// robots.cc matches every other byte literally).
func TestWildcardTails(t *testing.T) {
	runMatchCases(t, []matchCase{
		// '@' (0x40) is the one printable byte a pattern commonly holds
		// whose low five bits are zero: a tail needing only it must still
		// be matched, not taken for "needs nothing".
		{"tail of '@' matches", "User-agent: *\nDisallow: /*@\n", "x", "/user@host", false, 2, robotstxt.RuleMatched},
		{"tail of '@' absent", "User-agent: *\nDisallow: /*@\n", "x", "/user", true, 0, robotstxt.NoRuleMatched},
		{"tail of '`' matches", "User-agent: *\nDisallow: /*`\n", "x", "/a`b", false, 2, robotstxt.RuleMatched},
	})
}

// TestSharedMatcherAnchors: in a file with many wildcard rules, a long path
// goes through the shared matcher for the wildcard rules, while a rule
// without '*' is still matched by its own pattern: "Disallow: /a$" blocks
// "/a" and nothing longer (RFC 9309 §2.2.3, '$' ends the pattern), even
// after a wildcard rule of the same key was tried through the shared
// matcher first.
func TestSharedMatcherAnchors(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	b.WriteString("Disallow: /a*zz\n") // line 2: tried first (longer), fails
	b.WriteString("Disallow: /a$\n")   // line 3: anchored, no '*'
	b.WriteString("Allow: /a/x$\n")    // line 4
	for i := range 70 {                // lines 5..74: enough for the shared matcher
		fmt.Fprintf(&b, "Disallow: /*zq%d\n", i)
	}
	body := b.String()
	long := "/a" + "z" + strings.Repeat("b", 2000)
	runMatchCases(t, []matchCase{
		{"anchored rule, longer path", body, "x", long, true, 0, robotstxt.NoRuleMatched},
		{"anchored rule, its path", body, "x", "/a", false, 3, robotstxt.RuleMatched},
		{"wildcard rule through the shared matcher", body, "x", "/a" + strings.Repeat("b", 2000) + "zq7", false, 12, robotstxt.RuleMatched},
		{"wildcard rule of the key, shared matcher", body, "x", "/a" + strings.Repeat("b", 2000) + "zz", false, 2, robotstxt.RuleMatched},
	})
}
