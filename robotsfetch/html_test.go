package robotsfetch

import (
	"strings"
	"testing"
)

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
		// Each tag that opens a document, with no "<html" after it.
		{"<!doctype public>", true},
		{"<head>", true},
		{"<body>", true},
		{"<?xml version=\"1.0\"?><rss>", true},
		{"<title>Login</title>", true},
		{"<script>location='/'</script>", true},
		{"<div>Not found</div>", true},
		{"<pre>404</pre>", true},
		{"<HTML>", true},
		// Up to four comments are skipped, not five.
		{"<!--1--><!--2--><!--3--><!--4--><div>", true},
		{"<!--1--><!--2--><!--3--><!--4--><!--5--><div>", false},
		// "<html" counts within the first 1 KiB (1,024 bytes): ending at
		// byte 1,024, not at 1,025.
		{"<span>" + strings.Repeat("x", 1019-6) + "<html>", true},
		{"<span>" + strings.Repeat("x", 1020-6) + "<html>", false},
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
