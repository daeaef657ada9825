package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"golang.org/x/term"
)

// errInterrupted ends a read of standard input when the command's context
// is cancelled (SIGINT, SIGTERM).
var errInterrupted = errors.New("interrupted")

// inputs holds the reader input returned for each env, so that every call
// for one run returns the same reader.
var inputs sync.Map // *env → io.Reader

// input returns the command's standard input, made to end when the
// command's context does. main turns SIGINT into a cancelled context
// instead of letting it kill the process (so that serve can stop
// gracefully), and a read from a terminal or a silent pipe never looks at
// the context: without this, Ctrl-C left 'rep check' waiting for URLs, and
// every other command reading -, for ever.
//
// Only a file is wrapped; the readers tests pass end by themselves.
func (e *env) input() io.Reader {
	fh, ok := e.stdin.(*os.File)
	if !ok {
		return e.stdin
	}
	if r, ok := inputs.Load(e); ok {
		return r.(io.Reader)
	}
	pr, pw := io.Pipe()
	go func() {
		// The struct hides os.File's WriteTo, whose generic fallback
		// would copy in 32 KiB pieces.
		_, err := io.CopyBuffer(pw, struct{ io.Reader }{fh}, make([]byte, 1<<20))
		pw.CloseWithError(err)
	}()
	context.AfterFunc(e.ctx, func() { pw.CloseWithError(errInterrupted) })
	r, _ := inputs.LoadOrStore(e, pr)
	return r.(io.Reader)
}

// inputIsTerminal reports whether standard input is a terminal, where a
// user types one line at a time and waits for each answer.
func (e *env) inputIsTerminal() bool {
	fh, ok := e.stdin.(*os.File)
	return ok && term.IsTerminal(int(fh.Fd()))
}

// maxLine caps one line of standard input (a URL, an IP address).
const maxLine = 1 << 20

// lineScanner reads r line by line, lines up to maxLine bytes long.
func lineScanner(r io.Reader) *bufio.Scanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	return sc
}

// lineError describes a failed read of standard input at line n: for a
// line over maxLine, the limit and the line, not "token too long".
func lineError(err error, n int) error {
	if errors.Is(err, bufio.ErrTooLong) {
		return fmt.Errorf("standard input line %d is longer than %d MiB, the longest line read", n, maxLine>>20)
	}
	return fmt.Errorf("reading standard input, line %d: %w", n, err)
}
