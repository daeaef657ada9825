package robotstxt_test

import (
	"testing"

	"github.com/rep-toolkit/rep/robotstxt"
)

// TestEscapePattern: EscapePattern escapes as the parser does (robots.cc's
// MaybeEscapePattern), and a rule matches the URL made of its escaped
// pattern.
func TestEscapePattern(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/plain/path?q=1", "/plain/path?q=1"},
		{"/caf\u00e9", "/caf%C3%A9"},
		{"/a%2fb%c3%a9", "/a%2Fb%C3%A9"},
		{"/100%", "/100%"},
		{"/%zz%4", "/%zz%4"},
		{"/\xff", "/%FF"},
		{"", ""},
	} {
		if got := robotstxt.EscapePattern(tc.in); got != tc.want {
			t.Errorf("EscapePattern(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if tc.in == "" {
			continue
		}
		f := robotstxt.Parse([]byte("User-agent: *\nDisallow: " + tc.in + "$\n"))
		if d := f.Check("x", robotstxt.EscapePattern(tc.in)); d.Allowed || d.Rule.Line != 2 {
			t.Errorf("Disallow: %s$ does not decide %q: %+v", tc.in, robotstxt.EscapePattern(tc.in), d)
		}
	}
}
