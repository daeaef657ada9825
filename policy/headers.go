package policy

import (
	"net/http"

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
			p.headers[i] = robotstxt.Parse([]byte("User-agent: *\nDisallow: " + h.Path + "\n")).Star()
		}
	})
	return p.headers[i].Check(path).Rule.Line > 0
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
