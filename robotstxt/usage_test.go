package robotstxt_test

import (
	"testing"

	"github.com/rep-toolkit/rep/robotstxt"
)

func TestMatchPattern(t *testing.T) {
	for _, c := range []struct {
		pat, path string
		want      bool
	}{
		{"", "/x", true},
		{"/", "/x", true},
		{"/a", "/ab", true},
		{"/a$", "/ab", false},
		{"/a$", "/a", true},
		{"/*.pdf$", "/d/x.pdf", true},
		{"/*.pdf$", "/d/x.pdf?v=1", false},
		{"/b", "/a", false},
		{"/é", "/%C3%A9", true},
		// A pattern may start with '*'.
		{"*.pdf$", "/d/x.pdf", true},
		{"*.pdf$", "/d/x.pdf?v=1", false},
		{"*", "/x", true},
		{"$", "/", false},
		// The pattern is escaped: hex digits of %xx upper-cased (0-9, a-f,
		// A-F are hex digits), bytes from 0x80 up encoded, a '%' without
		// two hex digits after it left alone.
		{"/%0a", "/%0A", true},
		{"/%9f", "/%9F", true},
		{"/%Fa", "/%FA", true},
		{"/%aF", "/%AF", true},
		{"/%xA", "/%xA", true},
		{"/%Ax", "/%Ax", true},
		{"/%A", "/%A", true},
		{"/\x7f", "/\x7f", true},
		{"/\x7f", "/%7F", false},
		{"/\x80", "/%80", true},
		{"/\x81", "/%81", true},
	} {
		if got := robotstxt.MatchPattern(c.pat, c.path); got != c.want {
			t.Errorf("MatchPattern(%q, %q) = %v, want %v", c.pat, c.path, got, c.want)
		}
	}
}

func TestContentUsage(t *testing.T) {
	for _, prof := range []robotstxt.Profile{robotstxt.Google, robotstxt.RFC9309} {
		f := robotstxt.ParseWith([]byte(`User-agent: *
Content-Usage: train-ai=n
Content-Usage: /public/ train-ai=y
Content-Usage: /public/*.pdf$ search=n
Content-Usage: /public/ ai-use=n
Disallow: /tmp/

User-agent: other
Allow: /
`), robotstxt.Options{Profile: prof})
		a := f.Matcher("examplebot")
		for _, c := range []struct {
			url  string
			line int
		}{
			{"https://example.com/", 2},
			{"https://example.com/public/a.html", 3},
			{"https://example.com/public/a.pdf", 4},
			{"/public/a.pdf?x", 3},
		} {
			e, ok := a.ContentUsage(c.url)
			if !ok || e.Line != c.line {
				t.Errorf("%v: ContentUsage(%q) = line %d (%v), want line %d", prof, c.url, e.Line, ok, c.line)
			}
		}
		if e, ok := f.Matcher("other").ContentUsage("/"); ok {
			t.Errorf("other: ContentUsage = line %d, want none", e.Line)
		}
	}
}

// TestContentUsageOneLine: a file with a single Content-Usage line applies
// it (and, with a path, only where the path matches).
func TestContentUsageOneLine(t *testing.T) {
	for _, prof := range []robotstxt.Profile{robotstxt.Google, robotstxt.RFC9309} {
		for _, c := range []struct {
			robots, url string
			ok          bool
		}{
			{"User-agent: *\nContent-Usage: train-ai=n\n", "https://example.com/x", true},
			{"User-agent: *\nContent-Usage: /a/ train-ai=n\n", "https://example.com/a/x", true},
			{"User-agent: *\nContent-Usage: /a/ train-ai=n\n", "https://example.com/b/x", false},
		} {
			a := robotstxt.ParseWith([]byte(c.robots), robotstxt.Options{Profile: prof}).Matcher("examplebot")
			e, ok := a.ContentUsage(c.url)
			if ok != c.ok || ok && e.Line != 2 {
				t.Errorf("%v: %q: ContentUsage(%q) = line %d (%v), want ok=%v line 2", prof, c.robots, c.url, e.Line, ok, c.ok)
			}
		}
	}
}

// TestContentUsageProfiles: Content-Usage paths match as Allow and
// Disallow do under the file's profile: under RFC 9309 the URL and the
// path are normalised (unreserved %xx decoded, a '*' in the URL encoded so
// that a path's %2A matches it); under Google neither is.
func TestContentUsageProfiles(t *testing.T) {
	for _, c := range []struct {
		path, url   string
		google, rfc bool
	}{
		{"/~a/", "https://example.com/%7Ea/x", false, true},
		{"/%7Ea/", "https://example.com/~a/x", false, true},
		{"/a%2A", "https://example.com/a*", false, true},
		{"/a/", "https://example.com/a/x", true, true},
	} {
		robots := []byte("User-agent: *\nContent-Usage: " + c.path + " train-ai=n\n")
		for _, p := range []struct {
			prof robotstxt.Profile
			want bool
		}{{robotstxt.Google, c.google}, {robotstxt.RFC9309, c.rfc}} {
			a := robotstxt.ParseWith(robots, robotstxt.Options{Profile: p.prof}).Matcher("examplebot")
			if _, ok := a.ContentUsage(c.url); ok != p.want {
				t.Errorf("%v: Content-Usage: %s, ContentUsage(%q) ok=%v, want %v", p.prof, c.path, c.url, ok, p.want)
			}
		}
	}
}
