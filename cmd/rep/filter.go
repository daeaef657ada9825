package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/rep-toolkit/rep/filter"
	"github.com/rep-toolkit/rep/survey"
)

func init() {
	register(&command{name: "filter", summary: "keep or drop a data set's documents by their hosts' robots.txt captures", run: runFilter})
}

const filterUsage = `usage: rep filter (-captures INPUT[,INPUT...] | -rows FILE [-partial drop|keep]) -agent LIST [-all-of] [-pick latest|asof] [-missing keep|drop] [-emit verdicts|keep|drop] [-format F] [-url-field NAME] [-date-field NAME] [-cache-mb N] [-stats] [DOCS | -]

Decides, for each document of a data set (a URL and optionally a date),
whether to keep it given robots.txt captures of its host: the filter that
removes what crawlers of AI training may not fetch.

-captures takes what rep survey reads: a directory (one robots.txt per
host), JSONL, CSV, TSV or WARC captures, comma-separated. A host's captures
are read as a crawler reads a fetch: 4xx allows all, 429 and 5xx disallow
all, a redirect to a capture in the input is followed.

-agent is a comma-separated list of crawlers or registry purposes
(ai-training, search...). With the default -any-of, a document is dropped
when any crawler is disallowed from its URL; -all-of drops it only when
every one is. -pick latest applies each host's latest capture to every
document (retroactively); -pick asof the latest capture at or before the
document's date (-date-field; an undated document or one older than every
capture has none). -missing says what a document with no capture gets.

DOCS is JSONL (one object per line with -url-field, default url), CSV or
TSV (a header row naming it) or Parquet (a top-level string column), or -
for standard input (JSONL or CSV). -emit verdicts (the default) writes one
JSON object per document: url, keep, class and, when a crawler decided,
crawler, group, line and rule; -emit keep or drop writes the input lines
of the documents kept or dropped (JSONL, CSV, TSV only).

-rows takes rep survey's rows instead of captures: each document is then
decided by its host's restriction for each crawler (full drops, none keeps,
partial as -partial says), not by its URL, since rows hold no rules.

A document that cannot be read is reported on standard error with its
line and skipped; the exit status is then 2. Otherwise it is 0, whatever
is dropped.

flags:
`

func runFilter(e *env) int {
	fs := flag.NewFlagSet("filter", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	captures := fs.String("captures", "", "robots.txt captures: comma-separated `INPUTs` (directory, JSONL, CSV, TSV, WARC)")
	rowsFile := fs.String("rows", "", "instead of -captures: rep survey's rows `FILE` (JSONL, CSV, Parquet); decides by host, not by URL")
	partial := fs.String("partial", "drop", "with -rows, a host that restricts a crawler partly: `drop` or keep its documents")
	capFormat := fs.String("captures-format", "", "captures `FORMAT`: dir, jsonl, csv, tsv or warc (default: guessed)")
	agents := fs.String("agent", "", "crawlers: comma-separated `LIST` of names or purposes (ai-training, search...)")
	allOf := fs.Bool("all-of", false, "drop a document only when every crawler is disallowed (default: any)")
	fs.Bool("any-of", true, "drop a document when any crawler is disallowed (the default)")
	pick := fs.String("pick", "latest", "capture applied: `latest` (of all, retroactively) or asof (latest at or before the document's date)")
	missing := fs.String("missing", "keep", "a document with no capture: `keep` or drop")
	emit := fs.String("emit", "verdicts", "output: `verdicts` (JSONL), keep or drop (the input lines)")
	format := fs.String("format", "", "documents `FORMAT`: jsonl, csv, tsv or parquet (default: from the name, else jsonl)")
	urlField := fs.String("url-field", "url", "the documents' URL field or column `NAME`")
	dateField := fs.String("date-field", "date", "the documents' date field or column `NAME` (for -pick asof)")
	cacheMB := fs.Int("cache-mb", 256, "memory for parsed robots.txt files, in `MiB`")
	stats := fs.Bool("stats", false, "print counts on standard error at the end")
	tmp := fs.String("tmp", "", "`DIR` for the spool file of capture bodies")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), filterUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(e.args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	usageErr := func(f string, a ...any) int {
		fmt.Fprintf(e.stderr, "rep filter: "+f+"\n", a...)
		return exitUsage
	}
	if (*captures == "") == (*rowsFile == "") {
		return usageErr("give -captures (the robots.txt captures of the documents' hosts) or -rows (rep survey's rows), one of them")
	}
	var pt filter.Partial
	switch *partial {
	case "drop":
	case "keep":
		pt = filter.PartialKeep
	default:
		return usageErr("-partial %q: want drop or keep", *partial)
	}
	if strings.TrimSpace(*agents) == "" {
		return usageErr("-agent is required, e.g. -agent GPTBot,CCBot or -agent ai-training")
	}
	o := filter.Options{CacheBytes: int64(*cacheMB) << 20}
	if *allOf {
		o.Mode = filter.AllOf
	}
	switch *pick {
	case "latest":
	case "asof":
		o.Pick = filter.AsOf
	default:
		return usageErr("-pick %q: want latest or asof", *pick)
	}
	switch *missing {
	case "keep":
	case "drop":
		o.Missing = filter.MissingDrop
	default:
		return usageErr("-missing %q: want keep or drop", *missing)
	}
	if *emit != "verdicts" && *emit != "keep" && *emit != "drop" {
		return usageErr("-emit %q: want verdicts, keep or drop", *emit)
	}
	if *cacheMB <= 0 {
		return usageErr("-cache-mb must be positive")
	}
	var err error
	if o.Agents, err = survey.Agents(splitList(*agents)); err != nil {
		return usageErr("-agent: %v", err)
	}
	if fs.NArg() > 1 {
		return usageErr("give one DOCS file (or - for standard input)")
	}
	docsName := "-"
	if fs.NArg() == 1 {
		docsName = fs.Arg(0)
	}
	df := *format
	if df == "" {
		df = "jsonl"
		l := strings.ToLower(docsName)
		for _, x := range []string{"csv", "tsv", "parquet"} {
			if strings.HasSuffix(l, "."+x) {
				df = x
			}
		}
	}
	var in io.Reader = e.input()
	var docs filter.DocReader
	if docsName != "-" {
		f, err := os.Open(docsName)
		if err != nil {
			return usageErr("%v", err)
		}
		defer f.Close()
		in = f
		if df == "parquet" {
			if *emit != "verdicts" {
				return usageErr("-emit %s writes input lines: Parquet documents take -emit verdicts", *emit)
			}
			if docs, err = filter.NewParquetReader(f, *urlField, *dateField); err != nil {
				return usageErr("%s: %v", docsName, err)
			}
		}
	} else if df == "parquet" {
		return usageErr("Parquet documents must be a file, not standard input")
	}
	if docs == nil {
		switch df {
		case "jsonl":
			docs = filter.NewJSONLReader(in, *urlField, *dateField)
		case "csv":
			docs = filter.NewCSVReader(in, ',', *urlField, *dateField)
		case "tsv":
			docs = filter.NewCSVReader(in, '\t', *urlField, *dateField)
		default:
			return usageErr("-format %q: want jsonl, csv, tsv or parquet", df)
		}
	}

	var flt interface {
		DecideInto(v *filter.Verdict, rawurl string, date time.Time)
		Hosts() int
	}
	nbadCap := 0
	if *rowsFile != "" {
		rf, err := filter.NewRowFilter(func(fn func(*survey.Row) error) error { return survey.ReadRows(*rowsFile, fn) }, o, pt)
		if err != nil {
			return usageErr("-rows: %v", err)
		}
		flt = rf
	} else {
		st, err := survey.NewStore(*tmp)
		if err != nil {
			return usageErr("%v", err)
		}
		defer st.Close()
		bad := func(ie *survey.InputError) error {
			nbadCap++
			if nbadCap <= 10 {
				fmt.Fprintf(e.stderr, "rep filter: capture skipped: %v\n", ie)
			}
			return nil
		}
		if err := survey.Load(st, splitList(*captures), survey.Format(*capFormat), e.input(), bad); err != nil {
			return usageErr("-captures: %v", err)
		}
		if flt, err = filter.New(st, o); err != nil {
			return usageErr("%v", err)
		}
	}

	out := e.output(false)
	prog := newProgress(e, "documents")
	var (
		d             filter.Doc
		v             filter.Verdict
		n, kept, nbad int
		byClass       [4]int
	)
	asof := o.Pick == filter.AsOf
	for {
		err := docs.Next(&d)
		if err == io.EOF {
			break
		}
		var de *filter.DocError
		if errors.As(err, &de) {
			nbad++
			if nbad <= 10 {
				out.Flush()
				fmt.Fprintf(e.stderr, "rep filter: skipped: %v\n", de)
			}
			continue
		}
		if err != nil {
			out.Flush()
			fmt.Fprintf(e.stderr, "rep filter: %s: %v\n", inputName(docsName), err)
			return out.done(e, "rep filter", exitUsage)
		}
		var date time.Time
		if asof && d.Date != "" {
			if date, err = survey.ParseTime(d.Date); err != nil {
				nbad++
				if nbad <= 10 {
					fmt.Fprintf(e.stderr, "rep filter: skipped: document line %d: %v\n", d.Line, err)
				}
				continue
			}
		}
		flt.DecideInto(&v, d.URL, date)
		n++
		byClass[v.Class]++
		if v.Keep {
			kept++
		}
		switch *emit {
		case "verdicts":
			// Written in place in the output's buffer: no copy.
			out.buf.Write(v.AppendJSON(out.buf.AvailableBuffer(), d.URL))
		case "keep", "drop":
			if v.Keep == (*emit == "keep") {
				out.buf.Write(d.Raw)
				out.buf.WriteByte('\n')
			}
		}
		if n&(1<<14-1) == 0 {
			if out.Err() != nil {
				break
			}
			if e.ctx.Err() != nil {
				out.Flush()
				fmt.Fprintln(e.stderr, "rep filter: interrupted")
				return exitUsage
			}
		}
		prog.tick()
	}
	prog.done()
	if err := out.Flush(); err != nil {
		return writeErr(e, "rep filter", err)
	}
	if *stats {
		fmt.Fprintf(e.stderr, "rep filter: %d documents, %d kept, %d dropped; by capture class: rules %d, allow-all %d, disallow-all %d, missing %d; %d hosts captured\n",
			n, kept, n-kept, byClass[survey.ClassRules], byClass[survey.ClassAllowAll], byClass[survey.ClassDisallowAll], byClass[survey.ClassMissing], flt.Hosts())
	}
	if nbad > 0 || nbadCap > 0 {
		fmt.Fprintf(e.stderr, "rep filter: %d document(s) and %d capture(s) skipped (see above)\n", nbad, nbadCap)
		return exitUsage
	}
	return exitOK
}
