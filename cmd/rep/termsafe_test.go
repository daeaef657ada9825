package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// hostile is a robots.txt line with an OSC sequence that retitles a
// terminal, a BEL, a CSI that clears it, a C1 CSI and a CR.
const hostile = "Disallow: /x\x1b]0;pwned\x07\x1b[2J\u009b31m\r/y"

// rawControl reports whether s holds a byte a terminal obeys: C0 other
// than tab and newline, DEL, or a C1 control.
func rawControl(s string) bool {
	for _, r := range s {
		if r < 0x20 && r != '\t' && r != '\n' || r >= 0x7f && r <= 0x9f {
			return true
		}
	}
	return false
}

// TestTerminalSafe: control characters from a robots.txt, a page, a log
// line or a User-Agent reach text output escaped, never raw; JSON output
// keeps them as JSON escapes.
func TestTerminalSafe(t *testing.T) {
	dir := t.TempDir()
	robots := writeFile(t, dir, "e.txt", "User-agent: *\n"+hostile+"\nDisa\x1b]0;pwned\x07llow /z\n")
	page := writeFile(t, dir, "p.html", "<meta name=\"robots\" content=\"noindex, \x1b]0;pwned\x07\">\n<title>x</title>")
	log := writeFile(t, dir, "a.log", "66.249.66.1 - - [01/Mar/2026:00:00:01 +0000] \"GET /a\x1b[2J HTTP/1.1\" 200 5 \"-\" \"Googlebot/2.1\x1b]0;pwned\x07\"\n"+
		"66.249.66.1 - - [01/Mar/2026:00:00:01 +0000] \"GET /a HTTP/1.1\" 200 x\x1b[2J \"-\" \"Googlebot/2.1\"\n")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("User-agent: *\n" + hostile + "\nSitemap: https://h/s\x1b[2J.xml\nDisa\x1b]0;pwned\x07llow /z\n"))
	}))
	defer srv.Close()
	tests := []struct {
		name  string
		stdin string
		args  []string
	}{
		{"lint", "", []string{"lint", "-severity", "info", "-agent", "Googlebot", robots}},
		{"lint -explain", "", []string{"lint", "-explain", "unknown-directive"}},
		{"check", "", []string{"check", "-robots", robots, "-agent", "Googlebot", "/x", "/z"}},
		{"page", "", []string{"page", page}},
		{"audit", "", []string{"audit", log}},
		{"verify", "66.249.66.1 Googlebot\x1b]0;pwned\x07\n", []string{"verify", "-offline", "-cache", dir}},
		{"fetch", "", []string{"fetch", "-allow-private", "-agent", "Googlebot", srv.URL + "/"}},
		{"lint URL", "", []string{"lint", "-allow-private", "-severity", "info", srv.URL + "/"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, out, _ := runRep(t, tt.stdin, tt.args...)
			if out == "" {
				t.Fatal("no output")
			}
			if rawControl(out) {
				t.Errorf("raw control characters in the text output:\n%q", out)
			}
		})
	}
	// JSON is left to the encoder, which escapes them (\u001b).
	_, out, _ := runRep(t, "", "lint", "-json", robots)
	if rawControl(out) || !strings.Contains(out, `\u001b`) {
		t.Errorf("lint -json: %q", out)
	}
}
