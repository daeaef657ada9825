package survey

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"
)

// Load adds to s the captures of each path: a directory (FormatDir), a
// file, or "-" for stdin. format "" sniffs each input (Sniff); a name
// ending in ".gz" other than ".warc.gz" is gunzipped first. bad is as for
// Read. Load does not call s.Done.
func Load(s *Store, paths []string, format Format, stdin io.Reader, bad func(*InputError) error) error {
	for _, p := range paths {
		if err := load(s, p, format, stdin, bad); err != nil {
			return err
		}
	}
	return nil
}

func load(s *Store, p string, format Format, stdin io.Reader, bad func(*InputError) error) error {
	name := p
	var r io.Reader
	if p == "-" {
		name, r = "standard input", stdin
	} else {
		fi, err := os.Stat(p)
		if err != nil {
			return err
		}
		if fi.IsDir() {
			if format != "" && format != FormatDir {
				return fmt.Errorf("%s is a directory, not %s", p, format)
			}
			return ReadDir(p, s.Add)
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	br := bufio.NewReaderSize(r, 1<<20)
	l := strings.ToLower(p)
	if strings.HasSuffix(l, ".gz") && !strings.HasSuffix(l, ".warc.gz") {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return &InputError{Where: name, Err: err}
		}
		defer zr.Close()
		br = bufio.NewReaderSize(zr, 1<<20)
		l = strings.TrimSuffix(l, ".gz")
	}
	f := format
	if f == "" || f == FormatDir {
		head, _ := br.Peek(4096)
		f = Sniff(l, head)
		if p == "-" {
			f = Sniff("", head)
		}
	}
	return Read(br, f, name, s.Add, bad)
}
