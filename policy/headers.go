package policy

import (
	"net/http"
	"strings"

	"github.com/rep-toolkit/rep/robotstxt"
)

// Field is one response header: its canonical name and value.
type Field struct {
	Name, Value string
}

// Header names the policy sets.
const (
	XRobotsTag   = "X-Robots-Tag"
	ContentUsage = "Content-Usage"
)

// Fields returns the header fields the [[header]] sets.
func (h Header) Fields() []Field {
	var out []Field
	if h.XRobotsTag != "" {
		out = append(out, Field{XRobotsTag, h.XRobotsTag})
	}
	if h.ContentUsage != "" {
		out = append(out, Field{ContentUsage, h.ContentUsage})
	}
	return out
}

// Matches reports whether path (the request's path without the query,
// %-encoded as sent or as the gate passes it on) matches the [[header]]'s
// pattern, as robots.txt matches a rule: "*" any run of characters, a
// final "$" the end. Both are compared in one spelling (MatchPattern,
// MatchPath).
func (p *Policy) Matches(i int, path string) bool {
	p.headerOnce.Do(func() {
		p.headers = make([]*robotstxt.Matcher, len(p.Headers))
		for i, h := range p.Headers {
			// One rule in a file of its own: the matcher robots.txt uses,
			// not a second one.
			p.headers[i] = robotstxt.Parse([]byte("User-agent: *\nDisallow: " + MatchPattern(h.Path) + "\n")).Star()
		}
	})
	return p.headers[i].Check(MatchPath(path)).Rule.Line > 0
}

// MatchPattern returns a robots.txt pattern (a policy path, a rule) in
// the spelling patterns and paths are compared in, as the origin serves
// a path: in its path part, an escape of an unreserved character, a
// sub-delim, ":" or "@" decoded (/h%7Eu, /p%2Bq are /h~u, /p+q), except
// %24 and %2A, which stand for a literal $ and * (robots.txt has no other
// way to write them); in its query, escapes of unreserved characters
// decoded; every other escape in upper case, and a byte a URI may not
// hold escaped. Its wildcards * and $ stay as they are.
func MatchPattern(p string) string {
	return matchSpelling(p, true)
}

// MatchPath returns a request path (and query, if any) in the spelling
// of MatchPattern, with a literal $ and * escaped: in a path they are
// characters, never a wildcard or an anchor.
func MatchPath(path string) string {
	return matchSpelling(path, false)
}

func matchSpelling(s string, pattern bool) string {
	const hex = "0123456789ABCDEF"
	clean := true
	for i := 0; i < len(s) && clean; i++ {
		c := s[i]
		clean = c != '%' && c > ' ' && c < 0x7f && (pattern || c != '$' && c != '*')
	}
	if clean {
		return s // most paths: nothing to rewrite, no allocation
	}
	b := make([]byte, 0, len(s)+8)
	inQuery := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '?' && !inQuery:
			inQuery = true
			b = append(b, c)
			continue
		case c == '%' && i+2 < len(s) && ishex(s[i+1]) && ishex(s[i+2]):
			d := unhex(s[i+1])<<4 | unhex(s[i+2])
			i += 2
			unreserved := d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' || d >= '0' && d <= '9' || d == '-' || d == '.' || d == '_' || d == '~'
			if unreserved || !inQuery && strings.IndexByte("!&'()+,;=:@", d) >= 0 {
				b = append(b, d)
				continue
			}
			c = d
		case c == '%':
			// A % that starts no escape is a literal percent sign: written
			// %25, so that the spelling is its own spelling ("%%370" is "%2570",
			// not "%70", which reads again as "p").
		case c <= ' ' || c >= 0x7f || !pattern && (c == '$' || c == '*'):
		default:
			b = append(b, c)
			continue
		}
		b = append(b, '%', hex[c>>4], hex[c&15])
	}
	return string(b)
}

// HeadersFor returns the header fields for a response to path, in policy
// order: those of every [[header]] whose pattern matches, then the
// site-wide Content-Usage when no [[header]] gave one. Several values of
// one header are several fields, as a server sends them.
func (p *Policy) HeadersFor(path string) []Field {
	var out []Field
	usage := false
	for i, h := range p.Headers {
		if p.Matches(i, path) {
			out = append(out, h.Fields()...)
			usage = usage || h.ContentUsage != ""
		}
	}
	if !usage && p.Usage.ContentUsage != "" {
		out = append(out, Field{ContentUsage, p.Usage.ContentUsage})
	}
	return out
}

// SetHeaders adds the header fields for path to h.
func (p *Policy) SetHeaders(h http.Header, path string) {
	for _, f := range p.HeadersFor(path) {
		h.Add(f.Name, f.Value)
	}
}
