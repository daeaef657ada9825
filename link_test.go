package rep

import (
	"net/url"
	"testing"
)

// FuzzLinkURL: the short path of linkURL (a plain absolute path written
// after the base's origin) gives what url.Parse and String give.
func FuzzLinkURL(f *testing.F) {
	for _, s := range [][2]string{
		{"http://www.example.com/article/1", "/article/3#top"},
		{"https://www.example.com/a/b?q=1", "/x/y.html?a=1&b=2#f"},
		{"http://www.example.com:8080/", "/"},
		{"http://user@www.example.com/", "/a"},
		{"http://www.example.com/", "//other.example/a"},
		{"http://www.example.com/a/", "/b/../c"},
		{"http://www.example.com/a/", "/b/./c"},
		{"http://www.example.com/a/", "/b//c"},
		{"http://www.example.com/a/", "/.well-known/x"},
		{"http://www.example.com/", "/a?"},
		{"http://www.example.com/", "/a#"},
		{"http://www.example.com/", "/a#%zz"},
		{"http://www.example.com/", "/a%20b"},
		{"http://[::1]:80/", "/a"},
		{"http://www.EXAMPLE.com/", "/A-_~z"},
		{"ftp://www.example.com/", "/a"},
		{"http://www.example.com/", "relative/a"},
		{"http://xn--caf-dma.example/", "/caf"},
		{"http://www.example.com/", "/a=b&c"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, rawbase, href string) {
		base, err := url.Parse(rawbase)
		if err != nil {
			return
		}
		short, okShort := linkURL(base, linkOrigin(base), href)
		long, okLong := linkURL(base, "", href)
		if short != long || okShort != okLong {
			t.Errorf("base %q, href %q: %q %v, url.Parse gives %q %v", rawbase, href, short, okShort, long, okLong)
		}
	})
}

// TestPlainPath: which hrefs take the short path.
func TestPlainPath(t *testing.T) {
	for href, want := range map[string]bool{
		"/article/3#top": true, "/x/y.html?a=1&b=2": true, "/": true, "/a?": true,
		"": false, "a": false, "//host/a": false, "/a//b": false, "/a/./b": false, "/a/../b": false,
		"/.well-known": false, "/a=b": false, "/a%20b": false, "/a b": false, "/a?b?c": false, "/a#b#c": false,
		"/caf\u00e9": false,
	} {
		if got := plainPath(href); got != want {
			t.Errorf("plainPath(%q) = %v, want %v", href, got, want)
		}
	}
}
