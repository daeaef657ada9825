package audit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/rep-toolkit/rep/accesslog"
)

// Input is how Run reads logs.
type Input struct {
	// Format is the log format; nil detects it per file.
	Format *accesslog.Format
	// Log configures the parser (trusted client-IP header).
	Log accesslog.Options
	// Stdin is read for the file name "-".
	Stdin io.Reader
	// Jobs is how many files are read at once (default GOMAXPROCS): each
	// file, gzip above all, decompresses serially, so files are the unit of
	// parallelism.
	Jobs int
}

// Progress is updated while Run works; read it from another goroutine.
type Progress struct {
	Bytes atomic.Int64 // input bytes consumed (compressed size for compressed files)
	Lines atomic.Int64 // requests read
}

// Run audits the files (several at once), merging their Reports. An
// unreadable file is an error naming it; bad lines are not.
func Run(ctx context.Context, files []string, in Input, opt Options, prog *Progress) (*Report, error) {
	if prog == nil {
		prog = &Progress{}
	}
	jobs := in.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	reports := make([]*Report, len(files))
	errs := make([]error, len(files))
	sem := make(chan struct{}, jobs)
	var wg sync.WaitGroup
	for i, name := range files {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			reports[i], errs[i] = runOne(ctx, name, in, opt, prog)
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if len(reports) == 1 {
		return reports[0], nil
	}
	rep, err := Merge(opt.TopK, reports...)
	if me, ok := errors.AsType[*MergeError](err); ok {
		return nil, errors.New(me.Describe(files[me.A], files[me.B]))
	}
	return rep, err
}

// Open opens one log for reading: "-" is in.Stdin.
func Open(name string, in Input) (*accesslog.Reader, error) {
	if name == "-" {
		if in.Stdin == nil {
			return nil, fmt.Errorf("-: no standard input")
		}
		return accesslog.NewReader(in.Stdin, "-", in.Format, in.Log)
	}
	return accesslog.Open(name, in.Format, in.Log)
}

func runOne(ctx context.Context, name string, in Input, opt Options, prog *Progress) (*Report, error) {
	r, err := Open(name, in)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	a := New(opt, false)
	var n, seen int64
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		a.Add(ctx, rec)
		n++
		if n&0xffff == 0 {
			prog.Lines.Add(0x10000)
			b := r.BytesRead()
			prog.Bytes.Add(b - seen)
			seen = b
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
	}
	prog.Lines.Add(n & 0xffff)
	prog.Bytes.Add(r.BytesRead() - seen)
	if err := checkFormat(name, r.Format(), r.Stats()); err != nil {
		return nil, err
	}
	a.Finish(ctx, r.Stats(), name)
	return a.Report(), nil
}

// FormatError is a log with more bad lines than requests: read in a
// format that is not its own, most likely, so its report would be a
// clean-looking run with nothing in it.
type FormatError struct {
	Source     string            // the file, "-" for standard input
	Format     string            // the format it was read in
	Lines, Bad int64             // lines read, lines that did not parse
	First      accesslog.BadLine // the first bad line
	// Suggest is a format the bad lines parse in, "" when none does.
	Suggest string
}

// Error names the file, the format and the first bad line, and the
// format the lines look like when there is one.
func (e *FormatError) Error() string {
	s := fmt.Sprintf("%s: %d of %d lines do not parse as %s (line %d: %s)", e.Source, e.Bad, e.Lines, e.Format, e.First.Line, e.First.Error)
	if e.Suggest != "" {
		return s + "; they look like " + e.Suggest + ": give -format " + e.Suggest
	}
	return s + "; if the log is in another format, give its -format (combined, common, w3c, caddy, cloudfront, alb, json, nginx:'…' or apache:'…')"
}

// checkFormat returns a *FormatError when st has more bad lines than
// requests. The suggestion is the format detected from the bad lines
// kept as samples.
func checkFormat(name string, f *accesslog.Format, st accesslog.Stats) error {
	if st.Bad == 0 || st.Bad <= st.Records {
		return nil
	}
	e := &FormatError{Source: name, Format: f.String(), Lines: st.Lines, Bad: st.Bad, First: st.Samples[0]}
	var sample []byte
	for _, b := range st.Samples {
		sample = append(append(sample, b.Text...), '\n')
	}
	if d, err := accesslog.Detect(sample); err == nil && d.String() != e.Format {
		// Only a format the lines actually parse in is worth naming.
		if p, err := d.NewParser(accesslog.Options{}); err == nil {
			var rec accesslog.Record
			ok := 0
			for _, b := range st.Samples {
				if p.Parse([]byte(b.Text), &rec) == nil {
					ok++
				}
			}
			if ok > 0 {
				e.Suggest = d.String()
			}
		}
	}
	return e
}
