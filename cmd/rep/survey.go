package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rep-toolkit/rep/survey"
	"golang.org/x/term"
)

func init() {
	register(&command{name: "survey", summary: "robots.txt captures in, one row per capture and crawler out", run: runSurvey})
}

const surveyUsage = `usage: rep survey [-agent LIST] [-format F] [-out jsonl|csv|parquet] [-o FILE] [-report text|json|html] [-tmp DIR] INPUT ...

Reads robots.txt captures and writes one row per capture and crawler: the
fetch class (rules, allow-all, disallow-all, missing), the restriction of
the site for the crawler (full, partial, none, unknown), the group it
obeys, the deciding line for "/", its Crawl-delay, the usage preferences
for "/" and the parser's diagnostics (docs/survey.md defines each column;
the schema is versioned).

An INPUT is a directory (one robots.txt per host, named by the host), a
JSONL, CSV or TSV file of captures (host or url, time, status, body or
body_base64, location, truncated), a WARC or WARC.gz file (its response
records for /robots.txt), or - for standard input. The format is guessed
from the name and first bytes unless -format says; a .gz file is
gunzipped. A 3xx whose target is captured in the input is followed.

-agent is a comma-separated list of crawlers (GPTBot,CCBot), registry
purposes (ai-training, search, ai-search, user-fetch, ads...) or all (every
registry crawler not retired); verdicts are rep check's for each.

Rows go to standard output (or -o FILE) as JSONL unless -out says; with
-report, the share of hosts restricting each crawler and purpose (overall
and per month) goes to standard output instead, and the rows only to -o.

A capture that cannot be read is reported on standard error with its
position and skipped; the exit status is then 2.

flags:
`

func runSurvey(e *env) int {
	fs := flag.NewFlagSet("survey", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	agents := fs.String("agent", "all", "crawlers: comma-separated `LIST` of names, purposes (ai-training, search...) or all")
	format := fs.String("format", "", "input `FORMAT`: dir, jsonl, csv, tsv or warc (default: guessed)")
	outFormat := fs.String("out", "", "row `FORMAT`: jsonl, csv or parquet (default: from -o's extension, else jsonl)")
	outFile := fs.String("o", "", "write the rows to `FILE` instead of standard output")
	report := fs.String("report", "", "write a report as `FORMAT` (text, json or html) to standard output")
	tmp := fs.String("tmp", "", "`DIR` for the spool file of capture bodies (default: the system's)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), surveyUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(e.args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(e.stderr, "rep survey: give one or more INPUTs (a directory, JSONL, CSV, TSV or WARC file, or -)")
		return exitUsage
	}
	switch *format {
	case "", "dir", "jsonl", "csv", "tsv", "warc":
	default:
		fmt.Fprintf(e.stderr, "rep survey: -format %q: want dir, jsonl, csv, tsv or warc\n", *format)
		return exitUsage
	}
	switch *report {
	case "", "text", "json", "html":
	default:
		fmt.Fprintf(e.stderr, "rep survey: -report %q: want text, json or html\n", *report)
		return exitUsage
	}
	of := *outFormat
	if of == "" {
		of = "jsonl"
		for _, x := range []string{"csv", "parquet"} {
			if strings.HasSuffix(strings.ToLower(*outFile), "."+x) {
				of = x
			}
		}
	}
	if of != "jsonl" && of != "csv" && of != "parquet" {
		fmt.Fprintf(e.stderr, "rep survey: -out %q: want jsonl, csv or parquet\n", of)
		return exitUsage
	}
	as, err := survey.Agents(splitList(*agents))
	if err != nil {
		fmt.Fprintf(e.stderr, "rep survey: -agent: %v\n", err)
		return exitUsage
	}
	if len(as) == 0 {
		fmt.Fprintln(e.stderr, "rep survey: -agent names no crawler")
		return exitUsage
	}
	st, err := survey.NewStore(*tmp)
	if err != nil {
		fmt.Fprintf(e.stderr, "rep survey: %v\n", err)
		return exitUsage
	}
	defer st.Close()
	nbad := 0
	bad := func(ie *survey.InputError) error {
		nbad++
		if nbad <= 10 {
			fmt.Fprintf(e.stderr, "rep survey: skipped: %v\n", ie)
		}
		return nil
	}
	if err := survey.Load(st, fs.Args(), survey.Format(*format), e.input(), bad); err != nil {
		fmt.Fprintf(e.stderr, "rep survey: %v\n", err)
		return exitUsage
	}
	st.Done()

	var rowsOut io.Writer
	var closeRows func() error
	out := e.output(false)
	switch {
	case *outFile != "":
		f, err := os.Create(*outFile)
		if err != nil {
			fmt.Fprintf(e.stderr, "rep survey: %v\n", err)
			return exitUsage
		}
		rowsOut, closeRows = f, f.Close
	case *report == "":
		if of == "parquet" && isTerminal(e.stdout) {
			fmt.Fprintln(e.stderr, "rep survey: Parquet is binary: give -o FILE or redirect standard output")
			return exitUsage
		}
		rowsOut = out
	}
	var w survey.Writer
	if rowsOut != nil {
		if w, err = survey.NewWriter(rowsOut, of); err != nil {
			fmt.Fprintf(e.stderr, "rep survey: %v\n", err)
			return exitUsage
		}
	}
	var rp *survey.Reporter
	if *report != "" {
		rp = survey.NewReporter()
	}
	sv := survey.NewSurveyor(as)
	prog := newProgress(e, "captures")
	var rows []survey.Row
	for i := 0; i < st.Len(); i++ {
		if e.ctx.Err() != nil {
			fmt.Fprintln(e.stderr, "rep survey: interrupted")
			return exitUsage
		}
		rec, err := st.Record(i)
		if err != nil {
			fmt.Fprintf(e.stderr, "rep survey: %v\n", err)
			return exitUsage
		}
		rows = sv.Survey(rows[:0], rec)
		if w != nil {
			if err := w.Write(rows); err != nil {
				return writeErr(e, "rep survey", err)
			}
		}
		if rp != nil {
			rp.Add(rows)
		}
		prog.tick()
	}
	prog.done()
	if w != nil {
		if err := w.Close(); err != nil {
			return writeErr(e, "rep survey", err)
		}
	}
	if closeRows != nil {
		if err := closeRows(); err != nil {
			return writeErr(e, "rep survey", err)
		}
	}
	if rp != nil {
		r := rp.Report()
		switch *report {
		case "json":
			err = r.WriteJSON(out)
		case "html":
			err = r.WriteHTML(out)
		default:
			out = e.output(true)
			err = r.WriteText(out)
		}
		if err != nil {
			return writeErr(e, "rep survey", err)
		}
	}
	code := exitOK
	if nbad > 0 {
		fmt.Fprintf(e.stderr, "rep survey: %d capture(s) skipped (see above); %d read\n", nbad, st.Len())
		code = exitUsage
	}
	return out.done(e, "rep survey", code)
}

// splitList splits a comma-separated flag value, dropping blanks.
func splitList(s string) []string {
	var l []string
	for p := range strings.SplitSeq(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			l = append(l, p)
		}
	}
	return l
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progress counts items on standard error, only when it is a terminal.
type progress struct {
	e    *env
	what string
	n    int
	on   bool
}

func newProgress(e *env, what string) *progress {
	return &progress{e: e, what: what, on: isTerminal(e.stderr)}
}

func (p *progress) tick() {
	p.n++
	if p.on && p.n&(1<<16-1) == 0 {
		fmt.Fprintf(p.e.stderr, "\r%d %s", p.n, p.what)
	}
}

func (p *progress) done() {
	if p.on && p.n >= 1<<16 {
		fmt.Fprintf(p.e.stderr, "\r%d %s\n", p.n, p.what)
	}
}
