// Package harness loads the benchmark corpus and builds the adversarial
// inputs that rep's benchmarks feed to rep's robotstxt package and to its Go
// peers (temoto/robotstxt, jimsmart/grobotstxt, slyrz/robots).
//
// The corpus and the query set are those of the performance baseline
// (shared/notes/perf-baseline.md): 1,613 real robots.txt files, the 24,312
// URLs of urls.tsv derived from them, and the verdicts of Google's C++
// parser in google_answers.tsv. The size classes and the adversarial cases
// follow the same note, so rep's figures can be read beside the peers'.
package harness

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Class is a size class of robots.txt files.
type Class int

// The size classes of the baseline note.
const (
	Small   Class = iota // < 1 KiB
	Typical              // 1 KiB to < 8 KiB
	Large                // 8 KiB to < 100 KiB
	Huge                 // ≥ 100 KiB
)

// Classes lists every class in increasing size.
var Classes = []Class{Small, Typical, Large, Huge}

func (c Class) String() string {
	switch c {
	case Small:
		return "small"
	case Typical:
		return "typical"
	case Large:
		return "large"
	case Huge:
		return "huge"
	}
	return "class" + strconv.Itoa(int(c))
}

// ClassOf returns the size class of a file of n bytes.
func ClassOf(n int) Class {
	switch {
	case n < 1<<10:
		return Small
	case n < 8<<10:
		return Typical
	case n < 100<<10:
		return Large
	}
	return Huge
}

// File is one robots.txt of the corpus with the queries derived from it.
type File struct {
	Host  string // the file name, which is the site's host
	Data  []byte
	Class Class
	// URLs are the full URLs of urls.tsv for this host, in file order.
	URLs []string
}

// Answer is one line of google_answers.tsv: Google's verdict for one query.
type Answer struct {
	Agent, Host, URL string
	Allowed          bool
	Line             int // the deciding line, 0 when no rule matched
}

// Corpus is the loaded corpus directory.
type Corpus struct {
	Dir   string
	Files []*File // sorted by host
	// Bytes is the total size of all files.
	Bytes  int
	byHost map[string]*File
}

// File returns the file of a host, or nil.
func (c *Corpus) File(host string) *File { return c.byHost[host] }

// Class returns the files of one size class.
func (c *Corpus) Class(cl Class) []*File {
	var out []*File
	for _, f := range c.Files {
		if f.Class == cl {
			out = append(out, f)
		}
	}
	return out
}

// DefaultDir is where the corpus sits relative to the bench directory
// (the working directory of its tests): ../shared/corpus beside the
// checkout. make sets $REP_CORPUS to the same place.
const DefaultDir = "../../shared/corpus"

// Dir returns the corpus directory: $REP_CORPUS when set, else DefaultDir.
func Dir() string {
	if d := os.Getenv("REP_CORPUS"); d != "" {
		return d
	}
	return DefaultDir
}

// Load reads the robots.txt files of dir/robots and the queries of
// dir/urls.tsv. Every query must name a file of the corpus.
func Load(dir string) (*Corpus, error) {
	rdir := filepath.Join(dir, "robots")
	ents, err := os.ReadDir(rdir)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w (set REP_CORPUS to the directory holding robots/ and urls.tsv)", err)
	}
	c := &Corpus{Dir: dir, byHost: map[string]*File{}}
	for _, e := range ents {
		if e.IsDir() || e.Name() == "README.md" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(rdir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("corpus: %w", err)
		}
		f := &File{Host: e.Name(), Data: b, Class: ClassOf(len(b))}
		c.Files = append(c.Files, f)
		c.byHost[f.Host] = f
		c.Bytes += len(b)
	}
	sort.Slice(c.Files, func(i, j int) bool { return c.Files[i].Host < c.Files[j].Host })
	err = readTSV(filepath.Join(dir, "urls.tsv"), 3, func(n int, col []string) error {
		f := c.byHost[col[0]]
		if f == nil {
			return fmt.Errorf("line %d: no corpus file for host %q", n, col[0])
		}
		f.URLs = append(f.URLs, col[2])
		return nil
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Answers reads dir/google_answers.tsv.
func Answers(dir string) ([]Answer, error) {
	var out []Answer
	err := readTSV(filepath.Join(dir, "google_answers.tsv"), 5, func(n int, col []string) error {
		line, err := strconv.Atoi(col[4])
		if err != nil || (col[3] != "0" && col[3] != "1") {
			return fmt.Errorf("line %d: bad verdict or line number %q %q", n, col[3], col[4])
		}
		out = append(out, Answer{Agent: col[0], Host: col[1], URL: col[2], Allowed: col[3] == "1", Line: line})
		return nil
	})
	return out, err
}

func readTSV(path string, cols int, row func(n int, col []string) error) error {
	fh, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("corpus: %w", err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		col := strings.Split(sc.Text(), "\t")
		if len(col) != cols {
			return fmt.Errorf("%s:%d: %d columns, want %d", path, n, len(col), cols)
		}
		if err := row(n, col); err != nil {
			return fmt.Errorf("%s:%w", path, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// PathQuery returns the path and query of an absolute URL ("/" when the
// path is empty), as temoto/robotstxt and slyrz/robots expect to be fed;
// the fragment is dropped. A string without "://" is returned unchanged.
func PathQuery(rawurl string) string {
	i := strings.Index(rawurl, "://")
	if i < 0 {
		return rawurl
	}
	rest := rawurl[i+3:]
	j := strings.IndexAny(rest, "/?#")
	if j < 0 {
		return "/"
	}
	p := rest[j:]
	if k := strings.IndexByte(p, '#'); k >= 0 {
		p = p[:k]
	}
	if p == "" || p[0] != '/' {
		p = "/" + p
	}
	return p
}
