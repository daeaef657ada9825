package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/rep-toolkit/rep/accesslog"
	"github.com/rep-toolkit/rep/audit"
)

func runAuditEnrich(e *env, args []string) int {
	fs := flag.NewFlagSet("audit enrich", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprint(e.stderr, `usage: rep audit enrich [flags] LOG ...

Writes exactly one NDJSON row per input line, in input order: for a request
src, line, time, ip, host, method, path, status, bytes, ua, and for crawlers
crawler, operator, purpose, verified, verified_by, signature, signature_reason,
robots (allow|disallow|grace), rule, rule_line, robots_version, gap_ms,
crawl_delay_s; for a bad line src, line, error, text; for a blank or directive
line src, line, skip. Use - to read standard input, as Spark pipe, Hadoop
Streaming and ClickHouse executables do; output is flushed whenever the input
has no complete line left. With -tsv the rows are ClickHouse TabSeparated lines
instead, every field in that order (row schema version 2, docs/scale-out.md),
for the faster load.

flags:
`)
		fs.PrintDefaults()
	}
	var f auditFlags
	f.register(fs)
	tsv := fs.Bool("tsv", false, "write TabSeparated rows (every field, in schema order) instead of NDJSON")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(e.stderr, "rep audit enrich: no log files: give one or more, or - for standard input")
		return exitUsage
	}
	if auditStdinTwice(e, "rep audit enrich", fs.Args()) {
		return exitUsage
	}
	in, opt, code := auditSetup(e, &f)
	if code != exitOK {
		return code
	}
	a := audit.New(opt, true)
	w := &auditFlushWriter{w: e.stdout, buf: make([]byte, 0, 1<<16)}
	for _, name := range fs.Args() {
		r, err := audit.Open(name, in)
		if err != nil {
			fmt.Fprintf(e.stderr, "rep audit enrich: %v\n", err)
			return exitUsage
		}
		appendRow, appendBad, appendSkip := audit.AppendRow, audit.AppendBadRow, audit.AppendSkipRow
		if *tsv {
			appendRow, appendBad, appendSkip = audit.AppendRowTSV, audit.AppendBadRowTSV, audit.AppendSkipRowTSV
		}
		r.OnBad(func(b accesslog.BadLine) { w.buf = appendBad(w.buf, b) })
		r.OnSkip(func(line int64, directive bool) { w.buf = appendSkip(w.buf, name, line, directive) })
		// Answer what has been read before waiting for more: a ClickHouse
		// executable pool sends a block and waits for all its rows.
		var werr error
		r.OnRead(func() {
			if werr == nil {
				werr = w.flush()
			}
		})
		for {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				r.Close()
				fmt.Fprintf(e.stderr, "rep audit enrich: %v\n", err)
				return exitUsage
			}
			row := a.Add(e.ctx, rec)
			w.buf = appendRow(w.buf, name, rec, row, opt.Robots)
			if werr != nil {
				r.Close()
				return writeErr(e, "rep audit enrich", werr)
			}
			if err := w.maybeFlush(); err != nil {
				r.Close()
				return writeErr(e, "rep audit enrich", err)
			}
		}
		r.Close()
	}
	if err := w.flush(); err != nil {
		return writeErr(e, "rep audit enrich", err)
	}
	return exitOK
}

// auditFlushWriter batches rows into large writes.
type auditFlushWriter struct {
	w   io.Writer
	buf []byte
}

func (w *auditFlushWriter) maybeFlush() error {
	if len(w.buf) < 60<<10 {
		return nil
	}
	return w.flush()
}

func (w *auditFlushWriter) flush() error {
	_, err := w.w.Write(w.buf)
	w.buf = w.buf[:0]
	return err
}
