package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/rep-toolkit/rep/audit"
)

func runAuditMerge(e *env, args []string) int {
	fs := flag.NewFlagSet("audit merge", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprint(e.stderr, "usage: rep audit merge [-json] [-html FILE] [-force] PART.json ...\n\nCombines the -json reports of parts of a log (split at line boundaries, in any\norder) into the report of the whole. A file may hold several reports one after\nanother (cat p1.json p2.json); each is a part. - reads standard input.\nThe same part given twice is refused (it would be counted twice), and so are\nparts audited against different robots.txt histories or grace periods\nunless -force is given.\n\nflags:\n")
		fs.PrintDefaults()
	}
	asJSON := fs.Bool("json", false, "write the merged report as JSON")
	htmlOut := fs.String("html", "", "also write a self-contained HTML report to `FILE`")
	top := fs.Int("top", 1000, "paths kept per crawler")
	force := fs.Bool("force", false, "merge parts audited against different robots.txt histories or grace periods (the report says MIXED)")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(e.stderr, "rep audit merge: no reports: give the PART.json files written by rep audit -json")
		return exitUsage
	}
	if *top < 1 {
		fmt.Fprintf(e.stderr, "rep audit merge: -top %d: want a number of at least 1\n", *top)
		return exitUsage
	}
	var parts []*audit.Report
	var names []string // each part's name in messages
	for _, name := range fs.Args() {
		rd := e.input()
		if name != "-" {
			fh, err := os.Open(name)
			if err != nil {
				fmt.Fprintf(e.stderr, "rep audit merge: %v\n", err)
				return exitUsage
			}
			defer fh.Close()
			rd = fh
		}
		// Every report in the file is read: a second one (cat p1.json
		// p2.json > both.json) was silently ignored.
		dec := json.NewDecoder(io.LimitReader(rd, 1<<30))
		for i := 1; ; i++ {
			where := name
			if i > 1 {
				where = fmt.Sprintf("%s (report %d)", name, i)
			}
			var rep audit.Report
			if err := dec.Decode(&rep); err == io.EOF && i > 1 {
				break
			} else if err != nil {
				fmt.Fprintf(e.stderr, "rep audit merge: %s: not a rep audit -json report: %v\n", where, err)
				return exitUsage
			}
			if rep.Schema == 0 {
				// Any JSON object decodes; a report always has its schema.
				fmt.Fprintf(e.stderr, "rep audit merge: %s: not a rep audit -json report (no \"schema\"): give the output of rep audit -json\n", where)
				return exitUsage
			}
			parts = append(parts, &rep)
			names = append(names, where)
		}
	}
	rep, err := audit.Merge(*top, parts...)
	if me, ok := errors.AsType[*audit.MergeError](err); ok {
		msg := me.Describe(names[me.A], names[me.B])
		if me.Kind != audit.RobotsDiffer || !*force {
			if me.Kind == audit.RobotsDiffer {
				msg += "; give every part the same -robots and -grace flags, or -force to merge anyway"
			}
			fmt.Fprintf(e.stderr, "rep audit merge: %s\n", msg)
			return exitUsage
		}
		fmt.Fprintf(e.stderr, "rep audit merge: warning: %s; merged anyway (-force), the report says MIXED\n", msg)
		rep, err = audit.MergeWith(audit.MergeOptions{TopK: *top, MixedRobots: true}, parts...)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "rep audit merge: %v\n", err)
		return exitUsage
	}
	return auditOutput(e, rep, *asJSON, *htmlOut)
}
