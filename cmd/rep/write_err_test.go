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

// TestAuditWriteErr: a reader that went away (a broken pipe, however
// wrapped, or a closed output) ends the output quietly; any other write
// error is reported.
func TestAuditWriteErr(t *testing.T) {
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
			if code := auditWriteErr(e, tt.err); code != tt.code || !strings.Contains(stderr.String(), tt.stderr) || (tt.stderr == "" && stderr.Len() > 0) {
				t.Errorf("auditWriteErr(%v) = %d, stderr %q; want %d, %q", tt.err, code, stderr.String(), tt.code, tt.stderr)
			}
		})
	}
}
