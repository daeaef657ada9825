package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/rep-toolkit/rep/lint"
	"github.com/rep-toolkit/rep/robotstxt"
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
	var buf bytes.Buffer
	if st, err := fh.Stat(); err == nil && st.IsDir() {
		return nil, name, fmt.Errorf("%s is a directory, not a file", name)
	} else if err == nil && st.Mode().IsRegular() {
		// Refuse an oversized file before reading any of it, and read
		// the rest into one buffer of its size, not a growing one.
		if st.Size() > maxInput {
			return nil, name, fmt.Errorf("%s is over %d MiB", name, maxInput>>20)
		}
		buf.Grow(int(st.Size()) + 512)
	}
	if _, err := buf.ReadFrom(io.LimitReader(fh, maxInput+1)); err != nil {
		return nil, name, err
	}
	b := buf.Bytes()
	if len(b) > maxInput {
		return nil, name, fmt.Errorf("%s is over %d MiB", name, maxInput>>20)
	}
	return b, name, nil
}

// maxInput caps what a command reads from one file argument.
const maxInput = 64 << 20

// binaryKind tells a robots.txt with a stray NUL byte ("nul") from a
// UTF-16 file ("utf-16") and from a file that is not text at all
// ("binary", as lint.IsBinary judges), by the first 8 KiB. It returns ""
// for clean text.
func binaryKind(b []byte) string {
	head := b[:min(len(b), 8192)]
	switch {
	case bytes.IndexByte(head, 0) < 0:
		return ""
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}) || bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		return "utf-16"
	case lint.IsBinary(b):
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
// the commands that test against it. Crawlers parse whatever body they get
// (Google's parser ends a line at a NUL byte), so a file with NUL bytes, a
// UTF-16 file or a binary file is read as they read it, with a warning
// that says what they make of it.
func readRobots(name string, stdin io.Reader) (data []byte, warning string, err error) {
	data, name, err = readInput(name, stdin)
	if err != nil {
		return nil, "", err
	}
	nuls := strconv.Itoa(bytes.Count(data, []byte{0})) + " NUL bytes"
	if nuls == "1 NUL bytes" {
		nuls = "1 NUL byte"
	}
	kind := binaryKind(data)
	if kind == "binary" && hasRules(data) {
		kind = "nul" // mostly control bytes, but a robots.txt all the same
	}
	switch kind {
	case "utf-16":
		warning = name + " is UTF-16: crawlers read robots.txt as UTF-8, a NUL byte ending each line, and find no rule in it; save it as UTF-8"
	case "binary":
		warning = name + " is not text (" + nuls + " and other control bytes): crawlers read it as robots.txt all the same, a NUL ending its line, and find no rule in it, so every URL is allowed"
	case "nul":
		warning = name + " has " + nuls + ": crawlers read it all the same, but a NUL ends its line and the rest of the line is ignored (rep lint shows where)"
	}
	return data, warning, nil
}

// hasRules reports whether a robots.txt holds an Allow or Disallow rule
// in a group, read as Google's parser reads it.
func hasRules(data []byte) bool {
	for _, g := range robotstxt.Parse(data).Groups() {
		if len(g.Rules) > 0 {
			return true
		}
	}
	return false
}
