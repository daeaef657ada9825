package gate

import (
	"bytes"
	"strings"

	"github.com/rep-toolkit/rep/policy"
)

// The gate matches a canonical target (Canonical) against the policy's
// robots.txt rules, and a rule may spell the same path otherwise: the
// policy writes a literal $ or * as %24 or %2A (robots.txt has no other
// way), and may write %2B or %7E where the origin serves + and ~. Both
// sides are put in the one spelling the policy's [[header]] paths are
// matched in (policy.MatchPattern, policy.MatchPath) before they are
// compared. The robots.txt served is the policy's own, unchanged.

// matchRules returns robots.txt with the value of every Allow and Disallow
// line in the gate's matching spelling; every line keeps its number.
func matchRules(robots []byte) []byte {
	lines := bytes.SplitAfter(robots, []byte("\n"))
	var out bytes.Buffer
	out.Grow(len(robots))
	for _, l := range lines {
		line := string(l)
		body := strings.TrimRight(line, "\r\n")
		key, value, ok := strings.Cut(body, ":")
		k := strings.ToLower(strings.TrimSpace(key))
		if !ok || k != "allow" && k != "disallow" {
			out.WriteString(line)
			continue
		}
		value, comment, hasComment := strings.Cut(value, "#")
		out.WriteString(key)
		out.WriteString(": ")
		out.WriteString(policy.MatchPattern(strings.TrimSpace(value)))
		if hasComment {
			out.WriteString(" #")
			out.WriteString(comment)
		}
		out.WriteString(line[len(body):])
	}
	return out.Bytes()
}

// matchTarget is a canonical target in the matching spelling: its literal
// $ and * escaped, which a rule would otherwise read as an anchor and a
// wildcard.
func matchTarget(target string) string {
	return policy.MatchPath(target)
}
