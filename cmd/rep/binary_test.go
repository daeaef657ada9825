package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// binaryInputs are files that are not clean text, as users hand them to
// rep: a robots.txt with NUL bytes (crawlers read it: a NUL ends its line),
// a UTF-16 robots.txt, and a PNG image.
var binaryInputs = map[string][]byte{
	// 100 bytes, 7 of them NUL.
	"nul.txt":   []byte("User-agent: *\x00\x00\nDisallow: /private/\x00junk\x00\nDisallow: /tmp/\x00\x00\n# padding to one hundred bytes .......\x00\n"),
	"utf16.txt": append([]byte{0xFF, 0xFE}, []byte("U\x00s\x00e\x00r\x00-\x00a\x00g\x00e\x00n\x00t\x00:\x00 \x00*\x00\n\x00D\x00i\x00s\x00a\x00l\x00l\x00o\x00w\x00:\x00 \x00/\x00p\x00\n\x00")...),
	"image.png": append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\x00\x00\x01\x00\x08\x06\x00\x00\x00"),
		bytes.Repeat([]byte("\x00\x01\x02IDAT\x78\x9c\xed\xc1\x01\x0d\x00\x00\x00\xc2\xa0\xf7Om\x0e\x37\xa0\x00\n<meta name=robots content=noindex>\n"), 400)...),
}

// TestBinaryInputs: rep check and rep lint read a robots.txt with NUL or
// binary bytes as crawlers do, answer, and say what crawlers make of it;
// rep page does not call a non-HTML file indexable on the strength of meta
// tags that crawlers never read from it.
func TestBinaryInputs(t *testing.T) {
	dir := t.TempDir()
	for name, b := range binaryInputs {
		if len(b) == 0 || bytes.IndexByte(b, 0) < 0 {
			t.Fatalf("%s: not binary", name)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(binaryInputs["nul.txt"]); n != 100 || bytes.Count(binaryInputs["nul.txt"], []byte{0}) != 7 {
		t.Fatalf("nul.txt: %d bytes", n)
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string // substrings
		stderr []string
		not    string // not in stdout, when set
		most   int    // at most this many lines of output (0: no limit)
	}{
		{"check nul", []string{"check", "-robots", "nul.txt", "-agent", "Googlebot", "/private/x", "/tmp/x", "/public"}, 1,
			[]string{"disallowed /private/x  line 2: Disallow: /private/", "disallowed /tmp/x  line 3: Disallow: /tmp/", "allowed    /public  no rule matched"},
			[]string{"nul.txt has 7 NUL bytes", "a NUL ends its line"}, "", 0},
		{"check utf16", []string{"check", "-robots", "utf16.txt", "-agent", "Googlebot", "/p"}, 0,
			[]string{"allowed    /p  no rule matched"},
			[]string{"utf16.txt is UTF-16", "find no rule in it", "save it as UTF-8"}, "", 0},
		{"check png", []string{"check", "-robots", "image.png", "-agent", "Googlebot", "/x"}, 0,
			[]string{"allowed    /x  no rule matched"},
			[]string{"image.png is not text", "NUL"}, "", 0},
		{"lint nul", []string{"lint", "nul.txt"}, 1,
			[]string{"[nul-byte]"}, nil, "[binary-file]", 0},
		{"lint png", []string{"lint", "-severity", "info", "image.png"}, 1,
			[]string{"[binary-file]", "1 error, 0 warnings, 0 infos"}, nil, "", 4},
		{"page png", []string{"page", "image.png"}, 0,
			[]string{"not HTML", "image/png", "only the headers apply"},
			[]string{"image.png is not HTML (image/png)", "X-Robots-Tag"}, "image.png: indexable by googlebot\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(dir)
			var out, errb bytes.Buffer
			code := run(context.Background(), tt.args, strings.NewReader(""), &out, &errb)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, out.String(), errb.String())
			}
			for _, s := range tt.stdout {
				if !strings.Contains(out.String(), s) {
					t.Errorf("stdout lacks %q:\n%s", s, out.String())
				}
			}
			for _, s := range tt.stderr {
				if !strings.Contains(errb.String(), s) {
					t.Errorf("stderr lacks %q:\n%s", s, errb.String())
				}
			}
			if n := strings.Count(out.String(), "\n"); tt.most > 0 && n > tt.most {
				t.Errorf("%d lines of output, want at most %d:\n%.2000s", n, tt.most, out.String())
			}
			if tt.not != "" && strings.Contains(out.String(), tt.not) {
				t.Errorf("stdout has %q:\n%.2000s", tt.not, out.String())
			}
		})
	}
}
