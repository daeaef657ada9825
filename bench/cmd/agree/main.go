// Command agree counts, for rep and each peer, how often its verdicts
// differ from those of Google's C++ parser (google_answers.tsv: 24,312 URLs
// × Googlebot and ExampleBot), so that no speed figure is shown without the
// correctness it comes with.
//
//	go run ./cmd/agree [-corpus DIR] [-tsv FILE] > agreement.md
//
// It writes a Markdown table to stdout and, with -tsv, the same figures as
// tab-separated values for cmd/summary. Exit status 1 when rep (without a
// size limit, as Google) disagrees on any verdict or deciding line.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/rep-toolkit/rep/bench/harness"
	"github.com/rep-toolkit/rep/robotstxt"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("agree", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("corpus", harness.Dir(), "corpus directory (robots/, urls.tsv, google_answers.tsv)")
	tsv := fs.String("tsv", "", "also write the figures as TSV to this file")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	c, err := harness.Load(*dir)
	if err != nil {
		fmt.Fprintln(stderr, "agree:", err)
		return 2
	}
	answers, err := harness.Answers(*dir)
	if err != nil {
		fmt.Fprintln(stderr, "agree:", err)
		return 2
	}
	var rows []harness.Agreement
	repBad := false
	for _, agent := range []string{"Googlebot", harness.Agent} {
		ag, err := harness.AgreeLines(c, answers, harness.RepOptions, agent)
		if err != nil {
			fmt.Fprintln(stderr, "agree:", err)
			return 2
		}
		repBad = repBad || ag.Disagree > 0 || ag.LineDisagree > 0
		rows = append(rows, ag)
		ag, err = harness.AgreeLines(c, answers, robotstxt.Options{}, agent)
		if err != nil {
			fmt.Fprintln(stderr, "agree:", err)
			return 2
		}
		ag.Lib = "rep (default 500 KiB limit)"
		rows = append(rows, ag)
		for _, lib := range harness.Libs(harness.RepOptions)[1:] {
			ag, err := harness.Agree(c, answers, lib, agent)
			if err != nil {
				fmt.Fprintln(stderr, "agree:", err)
				return 2
			}
			rows = append(rows, ag)
		}
	}

	fmt.Fprintln(stdout, "| library | agent | queries | verdicts ≠ Google | rate | deciding line ≠ Google (verdict equal) | /robots.txt allowed by design | files affected | files rejected |")
	fmt.Fprintln(stdout, "|---|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		line := "n/a"
		if r.LineDisagree >= 0 {
			line = fmt.Sprint(r.LineDisagree)
		}
		fmt.Fprintf(stdout, "| %s | %s | %d | %d | %.2f%% | %s | %d | %d | %d |\n",
			r.Lib, r.Agent, r.Queries, r.Disagree, 100*r.Rate(), line, r.ByDesign, r.Files, r.Rejected)
	}
	fmt.Fprintln(stdout)
	for _, r := range rows {
		for _, e := range r.Examples {
			fmt.Fprintf(stdout, "- %s / %s: %s\n", r.Lib, r.Agent, e)
		}
	}
	if *tsv != "" {
		out, err := os.Create(*tsv)
		if err != nil {
			fmt.Fprintln(stderr, "agree:", err)
			return 2
		}
		for _, r := range rows {
			fmt.Fprintf(out, "%s\t%s\t%d\t%d\t%d\t%d\n", r.Lib, r.Agent, r.Queries, r.Disagree, r.LineDisagree, r.ByDesign)
		}
		if err := out.Close(); err != nil {
			fmt.Fprintln(stderr, "agree:", err)
			return 2
		}
	}
	if repBad {
		fmt.Fprintln(stderr, "agree: rep disagrees with Google")
		return 1
	}
	return 0
}
