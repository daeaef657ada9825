package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rep-toolkit/rep/internal/urlhead"
	"github.com/rep-toolkit/rep/robotstxt"
)

func init() {
	register(&command{name: "check", summary: "test URLs against a robots.txt for a crawler", run: runCheck})
}

const checkUsage = `usage: rep check [-robots FILE] -agent NAME [-profile google|rfc9309] [-json] [-v] [URL ...]

Tests each URL against robots.txt for one crawler and prints the verdict and
the deciding line. URLs come from the arguments, or one per line on standard
input when there are none or the only one is -; a bare path (/x) is accepted.

Without -robots, each URL's robots.txt is fetched from its site, as a crawler
would (see rep fetch); -v also prints how it was fetched.

-agent takes a product token (Googlebot), a full User-Agent header, or a
fallback chain separated by commas (Googlebot-Image,Googlebot): the first
name with a group wins, else the * group.

Exit status: 0 every URL allowed, 1 some URL disallowed, 2 usage or input error.

flags:
`

// checkResult is one line of -json output. Other tools script against it:
// keep the field names.
type checkResult struct {
	URL     string `json:"url"`
	Agent   string `json:"agent"`
	Allowed bool   `json:"allowed"`
	Line    int    `json:"line"`
	Rule    string `json:"rule"`
	Group   string `json:"group"`
	Reason  string `json:"reason"`
	Fetch   any    `json:"fetch,omitempty"` // -v: how robots.txt was fetched
}

func runCheck(e *env) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	robots := fs.String("robots", "", "robots.txt `FILE` to test against (- for standard input)")
	agent := fs.String("agent", "", "crawler `NAME`: product token, User-Agent, or comma-separated fallback chain")
	profile := fs.String("profile", "google", "`PROFILE`: google (Google's parser exactly) or rfc9309")
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
	prof, ok := robotstxt.ParseProfile(*profile)
	if !ok {
		fmt.Fprintf(e.stderr, "rep check: unknown -profile %q: use google or rfc9309\n", *profile)
		return exitUsage
	}
	names := checkAgents(*agent)
	if len(names) == 0 {
		fmt.Fprintln(e.stderr, "rep check: -agent is required and must not be empty, e.g. -agent Googlebot")
		return exitUsage
	}
	urls := fs.Args()
	if len(urls) == 1 && urls[0] == "-" {
		urls = nil // "-" names standard input, as everywhere else
	}
	if l := strings.ToLower(*robots); strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") {
		if _, err := os.Stat(*robots); err != nil {
			fmt.Fprintf(e.stderr, "rep check: -robots takes a FILE; to check against a site's live robots.txt, leave -robots out and give absolute URLs (rep check -agent %s https://host/path)\n", names[0])
			return exitUsage
		}
	}
	if len(urls) == 0 && *robots == "-" {
		fmt.Fprintln(e.stderr, "rep check: robots.txt and the URLs cannot both come from standard input: give the URLs as arguments")
		return exitUsage
	}
	for _, u := range urls {
		if err := checkURL(u); err != nil {
			fmt.Fprintf(e.stderr, "rep check: %v\n", err)
			return exitUsage
		}
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
		f = robotstxt.ParseWith(data, robotstxt.Options{Profile: prof})
		for _, d := range f.Diagnostics() {
			if d.Code == "size-limit" {
				// Crawlers stop reading at the limit, and so does the parser:
				// say so, or a rule past it looks like a matcher bug.
				fmt.Fprintf(e.stderr, "rep check: warning: %s is %d bytes, over the %d KiB crawlers read: every line after line %d is ignored\n",
					inputName(*robots), f.Size(), robotstxt.DefaultMaxBytes>>10, d.Line-1)
			}
		}
	}
	out := bufio.NewWriter(e.stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	status := exitOK
	var a *robotstxt.Agent
	if f != nil {
		a = f.Agent(names...)
	}
	n := 0
	for {
		u, err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			out.Flush()
			fmt.Fprintf(e.stderr, "rep check: %v\n", err)
			return exitUsage
		}
		n++
		var d robotstxt.Decision
		var fetchWhy, info string
		var fetched any
		if f != nil {
			d = a.Check(u)
		} else {
			if d, fetchWhy, info, fetched, err = checkFetchURL(e, u, names, prof); err != nil {
				out.Flush()
				fmt.Fprintf(e.stderr, "rep check: %v\n", err)
				return exitUsage
			}
			if !*verbose {
				info, fetched = "", nil
			}
		}
		if !d.Allowed {
			status = exitFinding
		}
		if *asJSON {
			reason := d.Reason.String()
			if fetchWhy != "" {
				reason = fetchWhy
			}
			enc.Encode(checkResult{
				URL: u, Agent: *agent, Allowed: d.Allowed, Line: d.Rule.Line, Rule: d.Rule.String(),
				Group: d.Group.Agent, Reason: reason, Fetch: fetched,
			})
			continue
		}
		verdict := "allowed"
		if !d.Allowed {
			verdict = "disallowed"
		}
		why := "no rule matched"
		if d.Rule.Line > 0 {
			why = fmt.Sprintf("line %d: %s", d.Rule.Line, d.Rule)
		}
		switch d.Reason {
		case robotstxt.RobotsTxt, robotstxt.EmptyRuleMatched, robotstxt.IndexHTML:
			why += " (" + d.Reason.String() + ")"
		}
		if fetchWhy != "" {
			why = fetchWhy
		}
		fmt.Fprintf(out, "%-10s %s  %s\n", verdict, u, why)
		if info != "" {
			fmt.Fprintf(out, "%-10s %s\n", "", info)
		}
		if interactive {
			out.Flush()
		}
	}
	if n == 0 {
		fmt.Fprintln(e.stderr, "rep check: no URLs: give them as arguments or one per line on standard input")
		return exitUsage
	}
	return status
}

// checkArgs returns the URLs given as arguments one at a time, then io.EOF.
func checkArgs(urls []string) func() (string, error) {
	return func() (string, error) {
		if len(urls) == 0 {
			return "", io.EOF
		}
		u := urls[0]
		urls = urls[1:]
		return u, nil
	}
}

// checkStdin reads URLs from r one line at a time, so that a list of
// millions of URLs streams through in constant memory and a bad one is
// reported with its line number after the answers before it.
func checkStdin(r io.Reader) (next func() (string, error)) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line := 0
	return func() (string, error) {
		for sc.Scan() {
			line++
			if u := strings.TrimSpace(sc.Text()); u != "" {
				if err := checkURL(u); err != nil {
					return "", fmt.Errorf("standard input line %d: %v", line, err)
				}
				return u, nil
			}
		}
		if err := sc.Err(); err != nil {
			return "", fmt.Errorf("reading URLs from standard input, line %d: %v", line+1, err)
		}
		return "", io.EOF
	}
}

func checkAgents(s string) []string {
	var names []string
	for _, n := range strings.Split(s, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	return names
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
	if p.Scheme == "" {
		return fmt.Errorf("URL %q is neither absolute (https://host/path) nor a path starting with /", u)
	}
	return nil
}
