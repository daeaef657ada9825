package audit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/accesslog"
)

const runLine = `66.249.66.1 - - [01/Mar/2026:00:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "Googlebot/2.1"` + "\n"

// writeLog writes n copies of line to a file in dir and returns its path
// and size.
func writeLog(t *testing.T, dir, name, line string, n int) (string, int64) {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(strings.Repeat(line, n)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, int64(n * len(line))
}

// TestRunProgress: Progress counts every request and every byte read,
// across the batches it is updated in (65,536 requests) and across files,
// and Run reports each file's requests merged.
func TestRunProgress(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name  string
		sizes []int
	}{
		{"one request", []int{1}},
		{"one batch less one", []int{65535}},
		{"one batch", []int{65536}},
		{"one batch and one", []int{65537}},
		{"two batches and one", []int{131073}},
		{"two files", []int{3, 65537}},
	} {
		var files []string
		var bytes int64
		var requests int64
		for i, n := range tt.sizes {
			line := strings.Replace(runLine, "00:00:00", "00:00:0"+string(rune('0'+i)), 1) // each file its own part
			path, size := writeLog(t, dir, tt.name+string(rune('a'+i))+".log", line, n)
			files, bytes, requests = append(files, path), bytes+size, requests+int64(n)
		}
		var prog Progress
		rep, err := Run(context.Background(), files, Input{Format: accesslog.MustFormat("combined")}, Options{}, &prog)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if prog.Lines.Load() != requests || prog.Bytes.Load() != bytes {
			t.Errorf("%s: progress %d requests, %d bytes; want %d, %d", tt.name, prog.Lines.Load(), prog.Bytes.Load(), requests, bytes)
		}
		if c := rep.Crawler("Googlebot"); rep.Requests != requests || c == nil || c.Requests != requests || len(rep.Sources) != len(files) {
			t.Errorf("%s: report of %d requests from %v; want %d from %d files", tt.name, rep.Requests, rep.Sources, requests, len(files))
		}
	}
}

// TestRunErrors: an unreadable file, standard input without a reader, a
// cancelled audit and the same part given twice are errors naming what
// went wrong.
func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	big, _ := writeLog(t, dir, "big.log", runLine, 65537)
	small, _ := writeLog(t, dir, "small.log", runLine, 2)
	copied, _ := writeLog(t, dir, "copy.log", runLine, 2)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	combined := Input{Format: accesslog.MustFormat("combined")}
	for _, tt := range []struct {
		name  string
		ctx   context.Context
		files []string
		in    Input
		check func(error) bool
	}{
		{"missing file", context.Background(), []string{small, filepath.Join(dir, "missing.log")}, combined,
			func(err error) bool {
				return errors.Is(err, os.ErrNotExist) && strings.Contains(err.Error(), "missing.log")
			}},
		{"no standard input", context.Background(), []string{"-"}, combined,
			func(err error) bool { return err != nil && strings.Contains(err.Error(), "-: no standard input") }},
		{"cancelled", cancelled, []string{big}, combined,
			func(err error) bool { return errors.Is(err, context.Canceled) }},
		{"same part twice", context.Background(), []string{small, copied}, combined,
			func(err error) bool {
				return err != nil && strings.Contains(err.Error(), small+" and "+copied+" are the same part of the log")
			}},
	} {
		rep, err := Run(tt.ctx, tt.files, tt.in, Options{}, nil)
		if !tt.check(err) || rep != nil {
			t.Errorf("%s: %v, report %v", tt.name, err, rep)
		}
	}
	// Standard input is read for "-".
	rep, err := Run(context.Background(), []string{"-"}, Input{Stdin: strings.NewReader(runLine)}, Options{}, nil)
	if err != nil || rep.Requests != 1 || len(rep.Sources) != 1 || rep.Sources[0] != "-" {
		t.Errorf("standard input: %v, %+v", err, rep)
	}
}
