package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestInputInterrupted checks that a command waiting on standard input
// stops when its context is cancelled, as main cancels it on SIGINT. The
// input is a pipe nobody writes to or closes, like a terminal nobody types
// into; before, Ctrl-C left every such command waiting for ever.
func TestInputInterrupted(t *testing.T) {
	robots := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(robots, []byte("User-agent: *\nDisallow: /x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"check", "-robots", robots, "-agent", "Googlebot"},
		{"check", "-robots", "-", "-agent", "Googlebot", "/x"},
		{"verify", "-offline"},
		{"lint", "-"},
		{"page", "-"},
		{"audit", "-"},
		{"audit", "enrich", "-"},
		{"audit", "merge", "-"},
		{"fetch", "-"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			defer w.Close()
			ctx, cancel := context.WithCancel(context.Background())
			var stderr bytes.Buffer
			done := make(chan int, 1)
			go func() { done <- run(ctx, args, r, new(bytes.Buffer), &stderr) }()
			cancel()
			select {
			case code := <-done:
				if code != exitUsage || !strings.Contains(stderr.String(), "interrupted") {
					t.Errorf("exit %d, stderr %q; want %d and 'interrupted'", code, stderr.String(), exitUsage)
				}
			case <-time.After(time.Minute): // a deadlock guard, not a timing assertion
				w.Close() // let the command end so the test can
				<-done
				t.Error("still reading standard input after the context was cancelled")
			}
		})
	}
}
