package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// Reading the files commands are given, shared by the commands.

// readInput reads a file argument, "-" meaning standard input, and returns
// the name to use in messages.
func readInput(name string, stdin io.Reader) ([]byte, string, error) {
	if name == "-" {
		if stdin == nil {
			return nil, "<standard input>", errors.New("standard input is not available here: give a file")
		}
		b, err := io.ReadAll(io.LimitReader(stdin, maxInput+1))
		if err != nil {
			return nil, "<standard input>", fmt.Errorf("reading standard input: %v", err)
		}
		if len(b) > maxInput {
			return nil, "<standard input>", fmt.Errorf("standard input is over %d MiB", maxInput>>20)
		}
		return b, "<standard input>", nil
	}
	fh, err := os.Open(name)
	if err != nil {
		return nil, name, err
	}
	defer fh.Close()
	if st, err := fh.Stat(); err == nil && st.IsDir() {
		return nil, name, fmt.Errorf("%s is a directory, not a file", name)
	}
	b, err := io.ReadAll(io.LimitReader(fh, maxInput+1))
	if err != nil {
		return nil, name, err
	}
	if len(b) > maxInput {
		return nil, name, fmt.Errorf("%s is over %d MiB", name, maxInput>>20)
	}
	return b, name, nil
}

// maxInput caps what a command reads from one file argument.
const maxInput = 64 << 20

// binaryKind tells a robots.txt with a stray NUL byte ("nul"), which
// crawlers read (a NUL ends its line) and the user must be able to test,
// from a UTF-16 file ("utf-16") and from a file that is not text at all
// ("binary"), judging by the first 8 KiB. It returns "" for clean text.
func binaryKind(b []byte) string {
	b = b[:min(len(b), 8192)]
	if bytes.IndexByte(b, 0) < 0 {
		return ""
	}
	if bytes.HasPrefix(b, []byte{0xFF, 0xFE}) || bytes.HasPrefix(b, []byte{0xFE, 0xFF}) {
		return "utf-16"
	}
	ctl := 0
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' || c == 0x7f {
			ctl++
		}
	}
	if ctl*20 > len(b) {
		return "binary"
	}
	return "nul"
}

// inputName is how messages name a file argument.
func inputName(name string) string {
	if name == "-" {
		return "<standard input>"
	}
	return name
}

// readRobots reads a robots.txt argument (a file, or "-" for stdin) for
// the commands that test against it. A UTF-16 or binary file is an error
// that says what to do; a stray NUL byte, which crawlers read past (it
// ends its line), is only a warning.
func readRobots(name string, stdin io.Reader) (data []byte, warning string, err error) {
	data, name, err = readInput(name, stdin)
	if err != nil {
		return nil, "", err
	}
	switch binaryKind(data) {
	case "utf-16":
		return nil, "", fmt.Errorf("%s is UTF-16: crawlers read robots.txt as UTF-8 and find no rule in it; save it as UTF-8", name)
	case "binary":
		return nil, "", fmt.Errorf("%s looks like a binary file, not a robots.txt (it is mostly NUL and control bytes)", name)
	case "nul":
		warning = name + " has NUL bytes: crawlers ignore the rest of each line that has one (rep lint shows where)"
	}
	return data, warning, nil
}
