package robotsfetch

import "testing"

// TestLooksLikeHTML: pages served in place of robots.txt are recognised by
// their first tag; robots.txt files, even with '<' in them, are not.
func TestLooksLikeHTML(t *testing.T) {
	for _, tc := range []struct {
		body string
		want bool
	}{
		{"<!DOCTYPE html><html><body>Sign in</body></html>", true},
		{"\xef\xbb\xbf\n  <html lang=en>", true},
		{"<!-- generated --><!-- twice -->\n<HEAD><title>x</title>", true},
		{"<?xml version=\"1.0\"?><html xmlns=\"http://www.w3.org/1999/xhtml\">", true},
		{"<meta http-equiv=refresh content=0>", true},
		{"<p>Not found</p>", true},
		{"<span>x</span>\n<html>", true},
		{"<!-- never closed", false},
		{"User-agent: *\nDisallow: /<html>\n", false},
		{"# <html> in a comment\nUser-agent: *\n", false},
		{"<span>no document here</span>", false},
		{"", false},
	} {
		if got := LooksLikeHTML([]byte(tc.body)); got != tc.want {
			t.Errorf("LooksLikeHTML(%q) = %v, want %v", tc.body, got, tc.want)
		}
	}
}
