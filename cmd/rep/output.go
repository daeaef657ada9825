package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/rep-toolkit/rep/internal/termsafe"
)

// output is a command's standard output, the one way every command
// writes it: buffered, escaped for a terminal when it is text (control
// bytes from a robots.txt, a page, a log or a URL show as \x1b, never
// reach the terminal raw; JSON escapes them itself), and checked: the
// first failed write is kept, later writes are dropped, and done turns it
// into the exit status.
type output struct {
	io.Writer // what the command writes to
	buf       *bufio.Writer
	ts        *termsafe.Writer // nil for JSON
}

// output returns the command's standard output; text says whether to
// escape control characters.
func (e *env) output(text bool) *output {
	o := &output{buf: bufio.NewWriterSize(e.stdout, 64<<10)}
	o.Writer = o.buf
	if text {
		o.ts = termsafe.NewWriter(o.buf)
		o.Writer = o.ts
	}
	return o
}

// Flush writes what is buffered, for a command that answers line by line
// (a URL typed on a terminal).
func (o *output) Flush() error {
	if o.ts != nil {
		o.ts.Flush()
	}
	return o.buf.Flush()
}

// Err returns the first write error, so that a long run stops at once
// instead of working on for output that is lost.
func (o *output) Err() error {
	_, err := o.buf.Write(nil) // bufio.Writer keeps its first error
	return err
}

// done flushes the output and returns code, or the status for a failed
// write (see writeErr).
func (o *output) done(e *env, cmd string, code int) int {
	if err := o.Flush(); err != nil {
		return writeErr(e, cmd, err)
	}
	return code
}

// writeErr reports a failed write of standard output (or of an output
// file) and returns the exit status: 2, with the error on standard error
// ("rep check: write /dev/stdout: no space left on device"). A reader
// that went away (a broken pipe, however wrapped, or a closed output:
// head, a finished Spark task) is no error: the output ends quietly.
func writeErr(e *env, cmd string, err error) int {
	if errors.Is(err, os.ErrClosed) || errors.Is(err, syscall.EPIPE) {
		return exitOK
	}
	fmt.Fprintf(e.stderr, "%s: %v\n", cmd, err)
	return exitUsage
}
