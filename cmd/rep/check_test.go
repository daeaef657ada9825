package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkRun runs rep check in-process with stdin and returns the exit
// status, standard output and standard error.
func checkRun(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), append([]string{"check"}, args...), strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// TestCheckTruncated checks that a robots.txt over the 500 KiB crawlers read
// is not cut silently: a rule past the limit decides nothing, and the user
// is told why. The file is generated, too big for a testscript archive.
func TestCheckTruncated(t *testing.T) {
	big := "User-agent: *\n" + strings.Repeat("Disallow: /archive/0123456789/\n", 20000) + "Disallow: /late\n"
	dir := t.TempDir()
	tests := []struct {
		name, body string
		code       int
		stdout     string
		stderr     string // "" means standard error must be empty
	}{
		{"over the limit", big, 0, "allowed    /late  no rule matched", "is 620030 bytes, over the 500 KiB crawlers read: every line after line 16516 is ignored"},
		{"under the limit", "User-agent: *\nDisallow: /late\n", 1, "disallowed /late  line 2: Disallow: /late", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_")+".txt")
			if err := os.WriteFile(path, []byte(tt.body), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"-robots", path}, {"-robots", "-"}} {
				code, stdout, stderr := checkRun(t, tt.body, append(args, "-agent", "Googlebot", "/late")...)
				if code != tt.code || !strings.Contains(stdout, tt.stdout) {
					t.Errorf("%v: exit %d, stdout %q; want %d, %q", args, code, stdout, tt.code, tt.stdout)
				}
				if tt.stderr == "" && stderr != "" || !strings.Contains(stderr, tt.stderr) {
					t.Errorf("%v: stderr %q, want %q", args, stderr, tt.stderr)
				}
			}
		})
	}
}
