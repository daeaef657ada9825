package gate

import (
	"bytes"
	"strings"
)

// The gate matches a canonical target (Canonical) against the policy's
// robots.txt rules, and a rule may spell the same path otherwise: the
// policy writes a literal $ or * as %24 or %2A (robots.txt has no other
// way), and may write %2B or %7E where the origin serves + and ~. Both
// sides are put in one spelling before they are compared: the rules'
// escapes decoded as Canonical decodes a target's, except %24 and %2A,
// which stay escaped, and a target's literal $ and * escaped alike. The
// robots.txt served is the policy's own, unchanged.

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
		out.WriteString(matchRule(strings.TrimSpace(value)))
		if hasComment {
			out.WriteString(" #")
			out.WriteString(comment)
		}
		out.WriteString(line[len(body):])
	}
	return out.Bytes()
}

// matchRule is one rule's pattern in the matching spelling: in its path,
// escapes decoded as Canonical decodes them (unreserved characters,
// sub-delims, ":" and "@"), in its query those of unreserved characters
// only; %24 and %2A kept, every other escape in upper case, and a byte a
// URI may not hold escaped. The wildcards * and $ stay as they are.
func matchRule(p string) string {
	var b strings.Builder
	b.Grow(len(p))
	inQuery := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '?' && !inQuery:
			inQuery = true
			b.WriteByte(c)
			continue
		case c == '%' && i+2 < len(p) && isHex(p[i+1]) && isHex(p[i+2]):
			d := unhex(p[i+1])<<4 | unhex(p[i+2])
			i += 2
			switch {
			case d == '*' || d == '$' || d == '/' || d == '?' || d == '%' || d == '#':
			case isUnreserved(d), !inQuery && strings.IndexByte("!&'()+,;=:@", d) >= 0:
				b.WriteByte(d)
				continue
			}
			c = d
		case c <= ' ' || c >= 0x7f:
		default:
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(upperHex[c>>4])
		b.WriteByte(upperHex[c&15])
	}
	return b.String()
}

// matchTarget is a canonical target in the matching spelling: its literal
// $ and * escaped, which a rule would otherwise read as an anchor and a
// wildcard.
func matchTarget(target string) string {
	if !strings.ContainsAny(target, "$*") {
		return target
	}
	return strings.NewReplacer("$", "%24", "*", "%2A").Replace(target)
}
