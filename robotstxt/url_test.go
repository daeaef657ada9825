package robotstxt_test

import (
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/robotstxt"
)

// TestQueryOnlyURLs: a URL whose path starts with '?' is checked as "/"
// and the query, whole, however long (a path of up to 2048 bytes is
// rewritten on the stack, a longer one on the heap).
func TestQueryOnlyURLs(t *testing.T) {
	a := robotstxt.Parse([]byte("User-agent: *\nDisallow: /*x$\n")).Matcher("x")
	for _, c := range []struct {
		url  string
		want bool
	}{
		{"https://h?ax", false},
		{"https://h?xa", true},
		{"https://h?" + strings.Repeat("a", 2045) + "x", false}, // "?…x" is 2047 bytes
		{"https://h?" + strings.Repeat("a", 2046) + "x", false}, // 2048
		{"https://h?" + strings.Repeat("a", 2047) + "x", false}, // 2049
		{"https://h?" + strings.Repeat("a", 2046) + "xa", true},
	} {
		if d := a.Check(c.url); d.Allowed != c.want {
			t.Errorf("Check(%.16q… %d bytes) = %v, want %v", c.url, len(c.url), d.Allowed, c.want)
		}
		if got := a.Allowed(c.url); got != c.want {
			t.Errorf("Allowed(%.16q… %d bytes) = %v, want %v", c.url, len(c.url), got, c.want)
		}
	}
}

// TestURLWithoutPath: a URL with no path, or only a fragment after its
// authority, is checked as "/".
func TestURLWithoutPath(t *testing.T) {
	a := robotstxt.Parse([]byte("User-agent: *\nDisallow: /$\n")).Matcher("x")
	for _, c := range []struct {
		url  string
		want bool
	}{
		{"https://example.com", false},
		{"http://example.com#top", false},
		{"https://example.com/", false},
		{"https://example.com/a", true},
		{"https://example.com?a", true},
	} {
		if d := a.Check(c.url); d.Allowed != c.want {
			t.Errorf("Check(%q) = %v, want %v", c.url, d.Allowed, c.want)
		}
		if got := a.Allowed(c.url); got != c.want {
			t.Errorf("Allowed(%q) = %v, want %v", c.url, got, c.want)
		}
	}
}

// TestPathOfAnyURL: the path a check compares, for inputs that are not a
// plain http(s) URL, as robots.cc's GetPathParamsQuery finds it: two
// leading slashes are skipped; "://" ends a scheme unless a '/', '?' or
// ';' comes before it; the path starts at the first '/', '?' or ';' after
// the scheme and authority; a '#' before that start leaves "/"; a path
// starting with '?' or ';' gets a "/" in front. Each row's path is
// checked exactly, as the only path "Disallow: <path>$" disallows.
func TestPathOfAnyURL(t *testing.T) {
	for _, c := range []struct {
		url, path string
	}{
		{"/private", "/private"},
		{"/private#top", "/private"},
		{"/abc://x/y", "/abc://x/y"},
		{"//example.com/private", "/private"},
		{"//example.com/private#top", "/private"},
		{"//", "/"},
		{"///private", "/private"},
		{"//://x/y", "/y"},
		{"//x://y/z", "/z"},
		{"a/private", "/private"},
		{"example.com", "/"},
		{"example.com?x", "/?x"},
		{"example.com;x", "/;x"},
		{"?x", "/?x"},
		{"?a://b/c", "/?a://b/c"},
		{"#frag/x", "/"},
		{"://a/b", "/b"},
		{"ftp://example.com", "/"},
		{"ftp://example.com/x?q#f", "/x?q"},
		{"ftp:///private", "/private"},
		{"http/abc/def", "/abc/def"},
		{"http:///x/y", "/x/y"},
		{"https:///x/y", "/x/y"},
		{"https://", "/"},
		{"http://a#/x", "/"},
		{"http://abcdefgh#/x", "/"},
		{"http://a;b/x", "/;b/x"},
	} {
		for _, prof := range []robotstxt.Profile{robotstxt.Google, robotstxt.RFC9309} {
			f := robotstxt.ParseWith([]byte("User-agent: *\nDisallow: "+c.path+"$\n"), robotstxt.Options{Profile: prof})
			if d := f.Matcher("x").Check(c.url); d.Allowed {
				t.Errorf("%v: Check(%q) allowed, want the path %q (disallowed)", prof, c.url, c.path)
			}
		}
	}
}
