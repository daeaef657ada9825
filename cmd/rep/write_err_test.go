package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
)

// TestWriteErr: a reader that went away (a broken pipe, however
// wrapped, or a closed output) ends the output quietly; any other write
// error is reported.
func TestWriteErr(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	_, pipeErr := w.Write([]byte("x"))
	w.Close()
	tests := []struct {
		name   string
		err    error
		code   int
		stderr string
	}{
		{"write to a pipe with no reader", pipeErr, exitOK, ""},
		{"EPIPE from a socket", &net.OpError{Op: "write", Net: "tcp", Err: os.NewSyscallError("write", syscall.EPIPE)}, exitOK, ""},
		{"closed output", fmt.Errorf("flush: %w", os.ErrClosed), exitOK, ""},
		{"disk full", &os.PathError{Op: "write", Path: "out.jsonl", Err: syscall.ENOSPC}, exitUsage, "rep audit enrich: write out.jsonl: no space left on device"},
		{"a message that mentions a broken pipe", fmt.Errorf("upstream said: broken pipe"), exitUsage, "upstream said: broken pipe"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			e := &env{ctx: context.Background(), stdout: &bytes.Buffer{}, stderr: &stderr}
			if code := writeErr(e, "rep audit enrich", tt.err); code != tt.code || !strings.Contains(stderr.String(), tt.stderr) || (tt.stderr == "" && stderr.Len() > 0) {
				t.Errorf("writeErr(%v) = %d, stderr %q; want %d, %q", tt.err, code, stderr.String(), tt.code, tt.stderr)
			}
		})
	}
}

// fullWriter fails every write as a full disk does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.ENOSPC}
}

// TestWritesChecked: every command that writes standard output exits 2
// with the error when the write fails (rep check > /dev/full exited 0 or
// 1, silently), and stops reading its input at the first failure.
func TestWritesChecked(t *testing.T) {
	dir := t.TempDir()
	robots := writeFile(t, dir, "ok.txt", "User-agent: *\nDisallow: /x\n")
	page := writeFile(t, dir, "p.html", `<meta name="robots" content="noindex">`)
	log := writeFile(t, dir, "a.log", `66.249.66.1 - - [01/Mar/2026:00:00:01 +0000] "GET /a HTTP/1.1" 200 5 "-" "Googlebot/2.1"`+"\n")
	many := strings.Repeat("/a\n", 200000)
	tests := []struct {
		name  string
		stdin string
		args  []string
	}{
		{"check", "", []string{"check", "-robots", robots, "-agent", "G", "/x"}},
		{"check -json", "", []string{"check", "-robots", robots, "-agent", "G", "-json", "/x"}},
		{"check many URLs", many, []string{"check", "-robots", robots, "-agent", "G"}},
		{"page", "", []string{"page", page}},
		{"page -json", "", []string{"page", "-json", page}},
		{"verify", "", []string{"verify", "-offline", "-cache", dir, "66.249.66.1"}},
		{"verify -json", "", []string{"verify", "-offline", "-json", "-cache", dir, "66.249.66.1"}},
		{"lint", "", []string{"lint", "-severity", "info", robots}},
		{"audit", "", []string{"audit", log}},
		{"audit -json", "", []string{"audit", "-json", log}},
		{"audit enrich", "", []string{"audit", "enrich", log}},
		{"version", "", []string{"version"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			code := run(context.Background(), tt.args, strings.NewReader(tt.stdin), fullWriter{}, &stderr)
			if code != exitUsage || !strings.Contains(stderr.String(), "no space left on device") {
				t.Errorf("exit %d, stderr %q; want 2 and no space left on device", code, stderr.String())
			}
			if strings.Count(stderr.String(), "no space") != 1 {
				t.Errorf("the write error is reported %d times: %q", strings.Count(stderr.String(), "no space"), stderr.String())
			}
		})
	}
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := dir + "/" + name
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
