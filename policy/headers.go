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

// Matches reports whether path (the request's path, %-encoded as sent,
// without the query) matches the [[header]]'s pattern, as robots.txt
// matches a rule: "*" any run of characters, a final "$" the end.
func (p *Policy) Matches(i int, path string) bool {
	p.headerOnce.Do(func() {
		p.headers = make([]*robotstxt.Agent, len(p.Headers))
		for i, h := range p.Headers {
			// One rule in a file of its own: the matcher robots.txt uses,
			// not a second one.
			p.headers[i] = robotstxt.Parse([]byte("User-agent: *\nDisallow: " + normalizeEscapes(h.Path) + "\n")).Star()
		}
	})
	return p.headers[i].Check(normalizeEscapes(path)).Rule.Line > 0
}

// normalizeEscapes writes the %-escapes of s as RFC 3986 §6.2.2 compares
// them: an unreserved character decoded, any other escape in upper case.
// "/h%c3%a9/%7Eme" and "/h%C3%A9/~me" are one path, as they are for the
// servers, which match the decoded path.
func normalizeEscapes(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '%' || i+2 >= len(s) || !ishex(s[i+1]) || !ishex(s[i+2]) {
			b = append(b, s[i])
			continue
		}
		c := unhex(s[i+1])<<4 | unhex(s[i+2])
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b = append(b, c)
		} else {
			b = append(b, '%', hex[c>>4], hex[c&15])
		}
		i += 2
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
