package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/aipref"
	"github.com/rep-toolkit/rep/internal/urlhead"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
	"github.com/rep-toolkit/rep/verdict"
)

func init() {
	register(&command{name: "check", summary: "test URLs against a robots.txt for a crawler", run: runCheck})
}

const checkUsage = `usage: rep check [-robots FILE] -agent NAME [-engine ENGINE] [-parser-only] [-allow-private] [-json] [-v] [URL ...]

Tests each URL against robots.txt for one crawler and prints the verdict, the
deciding line and the group it belongs to ("group bingbot (line 58)"), and
under it the usage preference (train-ai, ai-use, search) when robots.txt
states one for the URL. URLs come from the arguments, or one per line on standard
input when there are none or the only one is -; a bare path (/x) is accepted.

Without -robots, each URL's robots.txt is fetched from its site, as a crawler
would (see rep fetch); -v also prints how it was fetched.

-agent takes a product token (Googlebot), a full User-Agent header, or a
fallback chain separated by commas (Googlebot-Image,Googlebot): the first
name with a group wins, else the * group. A crawler the registry knows is
answered for as it behaves: Googlebot-Image falls back to Googlebot's group,
AdsBot-Google ignores the * group, bingbot follows Bing's rules; a note says
so where it decides the answer. A name the registry does not know is
answered as the file names it, with "did you mean" when it is close to a
known one (Googlebto: Googlebot). -parser-only gives the bare parser's answer instead.

A URL that is neither absolute (http or https) nor a path is reported with
its position (argument N, standard input line N) and the others are still
checked.

Exit status: 0 every URL allowed, 1 some URL disallowed, 2 usage or input
error (also when some URL was malformed).

flags:
`

func runCheck(e *env) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	robots := fs.String("robots", "", "robots.txt `FILE` to test against (- for standard input)")
	af := addAgentFlags(fs)
	allowPrivate := fs.Bool("allow-private", false, allowPrivateHelp)
	asJSON := fs.Bool("json", false, "print one JSON object per URL")
	verbose := fs.Bool("v", false, "without -robots: also show how each URL's robots.txt was fetched")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), checkUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(e.args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	if strings.TrimSpace(*af.agent) == "" {
		fmt.Fprintln(e.stderr, "rep check: -agent is required and must not be empty, e.g. -agent Googlebot")
		return exitUsage
	}
	a, err := af.resolve()
	if err != nil {
		fmt.Fprintf(e.stderr, "rep check: %v\n", err)
		return exitUsage
	}
	urls := fs.Args()
	if len(urls) == 1 && urls[0] == "-" {
		urls = nil // "-" names standard input, as everywhere else
	}
	if l := strings.ToLower(*robots); strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") {
		if _, err := os.Stat(*robots); err != nil {
			fmt.Fprintf(e.stderr, "rep check: -robots takes a FILE; to check against a site's live robots.txt, leave -robots out and give absolute URLs (rep check -agent %s https://host/path)\n", a.Token())
			return exitUsage
		}
	}
	if len(urls) == 0 && *robots == "-" {
		fmt.Fprintln(e.stderr, "rep check: robots.txt and the URLs cannot both come from standard input: give the URLs as arguments")
		return exitUsage
	}
	next, interactive := checkArgs(urls), false
	if len(urls) == 0 {
		next, interactive = checkStdin(e.input()), e.inputIsTerminal()
	}
	var f *robotstxt.File
	if *robots != "" {
		data, warning, err := readRobots(*robots, e.input())
		if err != nil {
			fmt.Fprintf(e.stderr, "rep check: %v\n", err)
			return exitUsage
		}
		if warning != "" {
			fmt.Fprintf(e.stderr, "rep check: warning: %s\n", warning)
		}
		f = robotstxt.ParseWith(data, a.ParseOptions())
		for _, d := range f.Diagnostics() {
			if d.Code == "size-limit" {
				// Crawlers stop reading at the limit, and so does the parser:
				// say so, or a rule past it looks like a matcher bug.
				fmt.Fprintf(e.stderr, "rep check: warning: %s is %d bytes, over the %d KiB crawlers read: every line after line %d is ignored\n",
					inputName(*robots), f.Size(), robotstxt.DefaultMaxBytes>>10, d.Line-1)
			}
		}
	}
	var fetcher *robotsfetch.Fetcher
	if f == nil {
		if fetcher, err = e.fetcher(fetchSettings{tool: "rep-check", agent: a, allowPrivate: *allowPrivate}); err != nil {
			fmt.Fprintf(e.stderr, "rep check: %v\n", err)
			return exitUsage
		}
	}
	out := e.output(!*asJSON)
	enc := json.NewEncoder(out)
	status := exitOK
	said := map[string]bool{} // notes printed: each once, before the first verdict it applies to
	n, bad := 0, 0
	for out.Err() == nil {
		u, err := next()
		if err == io.EOF {
			break
		}
		var inErr *checkInputError
		if errors.As(err, &inErr) {
			// One bad line costs that line only: say where it is and go on.
			out.Flush()
			fmt.Fprintf(e.stderr, "rep check: %v\n", err)
			bad++
			continue
		}
		if err != nil {
			out.Flush()
			fmt.Fprintf(e.stderr, "rep check: %v\n", err)
			return out.done(e, "rep check", exitUsage)
		}
		n++
		var d rep.Decision
		if f != nil {
			d = a.Decide(f, u)
		} else {
			if strings.HasPrefix(u, "/") {
				out.Flush()
				fmt.Fprintf(e.stderr, "rep check: URL %q is a path: without -robots FILE each URL's robots.txt is fetched, so give absolute URLs (https://host/path)\n", u)
				bad++
				continue
			}
			if d, err = rep.Check(e.ctx, fetcher, a, u); err != nil {
				out.Flush()
				fmt.Fprintf(e.stderr, "rep check: %v\n", err)
				return out.done(e, "rep check", exitUsage)
			}
		}
		if !d.Allowed {
			status = exitFinding
		}
		if *asJSON {
			if !*verbose {
				d.Fetch = checkBrief(d.Fetch)
			}
			enc.Encode(d.JSON()) // the notes that apply, as the text prints them
			continue
		}
		for _, n := range verdict.NotesFor(a, d.Group) {
			if len(said) >= maxSaid {
				clear(said) // bounded: past many sites' notes, one may be said again
			}
			if !said[n] {
				said[n] = true
				fmt.Fprintf(out, "%-10s %s\n", "note", n)
			}
		}
		checkText(out, u, d)
		if *verbose && d.Fetch != nil {
			info := "robots.txt: " + d.Fetch.String()
			for _, w := range d.Fetch.Warnings {
				info += ", warning: " + w.String()
			}
			fmt.Fprintf(out, "%-10s %s\n", "", info)
		}
		if interactive {
			out.Flush()
		}
	}
	if err := out.Flush(); err != nil {
		return writeErr(e, "rep check", err)
	}
	if bad > 0 {
		fmt.Fprintf(e.stderr, "rep check: %d URL(s) not checked (see above); %d checked\n", bad, n)
		return exitUsage
	}
	if n == 0 {
		fmt.Fprintln(e.stderr, "rep check: no URLs: give them as arguments or one per line on standard input")
		return exitUsage
	}
	return status
}

// maxSaid bounds the notes rep check remembers having printed.
const maxSaid = 1024

// checkText prints one verdict: the URL, the deciding line and the group
// it belongs to, and under it the usage verdict when robots.txt states one
// for the URL and crawler.
func checkText(w io.Writer, u string, d rep.Decision) {
	verdict := "allowed"
	if !d.Allowed {
		verdict = "disallowed"
	}
	why := d.Why()
	if !d.FromFetch() {
		why += "; " + checkGroup(d.Group)
	}
	fmt.Fprintf(w, "%-10s %s  %s\n", verdict, u, why)
	if v := d.Usage; v != nil && len(v.Evidence) > 0 {
		fmt.Fprintf(w, "%-10s %s\n", "", checkUsageText(*v))
	}
}

// checkGroup names the group a verdict came from: "group bingbot (line
// 58)", "group * (line 3)", "no group (no group names the agent and no *
// group applies to it)".
func checkGroup(g robotstxt.GroupMatch) string {
	if g.Via == robotstxt.ViaNone || g.Agent == "" {
		return "no group: " + g.Via.String()
	}
	s := "group " + g.Agent
	if len(g.Lines) > 0 {
		ls := make([]string, len(g.Lines))
		for i, l := range g.Lines {
			ls[i] = fmt.Sprint(l)
		}
		s += " (line " + strings.Join(ls, ", ") + ")"
	}
	return s
}

// checkUsageText sums a usage verdict up in one line: each category's
// preference, then the robots.txt lines that decided them, e.g.
// "usage: train-ai=disallowed ai-use=unknown search=allowed, by line 2
// (Content-Usage: train-ai=n)".
func checkUsageText(v aipref.Usage) string {
	s := "usage: " + v.String()
	var by []string
	seen := map[string]bool{}
	for _, c := range aipref.Categories() {
		for _, e := range v.Deciding(c) {
			k := fmt.Sprintf("line %d (%s)", e.Line, e.Value)
			if e.Line == 0 {
				k = fmt.Sprintf("%s (%s)", e.Carrier, e.Value)
			}
			if !seen[k] {
				seen[k] = true
				by = append(by, k)
			}
		}
	}
	if len(by) > 0 {
		s += ", by " + strings.Join(by, ", ")
	}
	return s
}

// checkBrief keeps, without -v, only what the verdict rests on of the fetch
// outcome: nil when the rules of the file decided.
func checkBrief(o *robotsfetch.Outcome) *robotsfetch.Outcome {
	if o == nil || o.Verdict == robotsfetch.UseRules {
		return nil
	}
	return o
}

// checkInputError is a URL of the input that cannot be checked: its
// position and what is wrong with it.
type checkInputError struct {
	where string // "argument 2", "standard input line 7"
	err   error
}

func (e *checkInputError) Error() string { return e.where + ": " + e.err.Error() }
func (e *checkInputError) Unwrap() error { return e.err }

// checkArgs returns the URLs given as arguments one at a time, then io.EOF.
func checkArgs(urls []string) func() (string, error) {
	i := 0
	return func() (string, error) {
		if i == len(urls) {
			return "", io.EOF
		}
		u := urls[i]
		i++
		if err := checkURL(u); err != nil {
			return "", &checkInputError{fmt.Sprintf("argument %d", i), err}
		}
		return u, nil
	}
}

// checkStdin reads URLs from r one line at a time, so that a list of
// millions of URLs streams through in constant memory and a bad one is
// reported with its line number after the answers before it.
func checkStdin(r io.Reader) (next func() (string, error)) {
	sc := lineScanner(r)
	line := 0
	return func() (string, error) {
		for sc.Scan() {
			line++
			if u := strings.TrimSpace(sc.Text()); u != "" {
				if err := checkURL(u); err != nil {
					return "", &checkInputError{fmt.Sprintf("standard input line %d", line), err}
				}
				return u, nil
			}
		}
		if err := sc.Err(); err != nil {
			return "", lineError(err, line+1)
		}
		return "", io.EOF
	}
}

// checkURL rejects what is neither an absolute URL nor a path. Only the
// scheme and authority must parse: a crawler meets paths with a stray '%'
// ("/100%", "/a%zz"), and robots.txt matching, Google's included, takes them
// as they are, so refusing them would leave rules such as "Disallow: /100%"
// untestable.
func checkURL(u string) error {
	if u == "" {
		return fmt.Errorf("empty URL")
	}
	if i := strings.IndexFunc(u, func(r rune) bool { return r < 0x20 || r == 0x7f }); i >= 0 {
		return fmt.Errorf("URL %q has a control character at byte %d", u, i)
	}
	if strings.HasPrefix(u, "/") {
		return nil
	}
	p, err := urlhead.Parse(u)
	if err != nil {
		return fmt.Errorf("URL %q does not parse: %v", u, err)
	}
	switch strings.ToLower(p.Scheme) {
	case "http", "https":
		if p.Host == "" {
			return fmt.Errorf("URL %q has no host", u)
		}
		return nil
	case "":
		return fmt.Errorf("URL %q is neither absolute (https://host/path) nor a path starting with /", u)
	}
	return fmt.Errorf("URL %q: scheme %q is not http or https (robots.txt governs web URLs only)", u, p.Scheme)
}
