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
	a := robotstxt.Parse([]byte("User-agent: *\nDisallow: /*x$\n")).Agent("x")
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
	a := robotstxt.Parse([]byte("User-agent: *\nDisallow: /$\n")).Agent("x")
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
