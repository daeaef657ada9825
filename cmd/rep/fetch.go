package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
	"github.com/rep-toolkit/rep/verdict"
)

func init() {
	register(&command{name: "fetch", summary: "fetch a site's robots.txt as a crawler would and show how it reads", run: runFetch})
}

const fetchUsage = `usage: rep fetch [-agent NAME] [-engine ENGINE] [-parser-only] [-user-agent UA] [-timeout D] [-allow-private] [-json] URL ... | -

Fetches the robots.txt of each URL's origin (scheme://host[:port]/robots.txt)
as RFC 9309 and Google say: redirects followed up to 5 hops, 4xx read as
"no restrictions", 429, 5xx and network errors as "everything disallowed",
500 KiB read at most after gzip/deflate decoding. It prints what was fetched
(status, redirects, bytes, cache lifetime) and how it was interpreted (the
case of the status table, the verdict, groups, sitemaps, warnings). With
-agent, also the group that crawler obeys and its pacing, as the crawler
behaves (registry fallback chains, * group exceptions, its engine's
Crawl-delay reading; -parser-only for the bare parser). - reads the URLs
from standard input, one per line. Loopback, private and link-local
addresses are refused unless -allow-private.

Exit status: 0 the file was read or is absent, 1 some origin is unreachable
(everything disallowed), 2 usage error.

flags:
`

// fetchResult is one line of -json output.
type fetchResult struct {
	Input       string               `json:"input"`
	Outcome     *robotsfetch.Outcome `json:"outcome"`
	Groups      int                  `json:"groups"`
	Rules       int                  `json:"rules"`
	Sitemaps    []string             `json:"sitemaps,omitempty"`
	Diagnostics []string             `json:"diagnostics,omitempty"`
	Truncated   bool                 `json:"truncated,omitempty"`
	Agent       *fetchAgent          `json:"agent,omitempty"`
}

type fetchAgent struct {
	Name       string   `json:"name"`
	Engine     string   `json:"engine"`
	Notes      []string `json:"notes,omitempty"`
	Group      string   `json:"group"`
	GroupLines []int    `json:"group_lines,omitempty"`
	Rules      int      `json:"rules"`
	Delay      string   `json:"delay"`
	DelayFrom  string   `json:"delay_from"`
}

func runFetch(e *env) int {
	fs := flag.NewFlagSet("fetch", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	af := addAgentFlags(fs)
	ua := fs.String("user-agent", "", "User-Agent `HEADER` to send (default: rep-fetch, naming -agent)")
	timeout := fs.Duration("timeout", 30*time.Second, "give up on each fetch after `D`")
	allowPrivate := fs.Bool("allow-private", false, allowPrivateHelp)
	asJSON := fs.Bool("json", false, "print one JSON object per URL")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), fetchUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(e.args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	a, err := af.resolve()
	if err != nil {
		fmt.Fprintf(e.stderr, "rep fetch: %v\n", err)
		return exitUsage
	}
	urls := fs.Args()
	where := func(i int) string { return fmt.Sprintf("argument %d", i+1) }
	if len(urls) == 1 && urls[0] == "-" {
		// One URL per line, as for every command that reads -.
		var lines []int
		var err error
		if urls, lines, err = fetchReadURLs(e.input()); err != nil {
			fmt.Fprintf(e.stderr, "rep fetch: %v\n", err)
			return exitUsage
		}
		where = func(i int) string { return fmt.Sprintf("standard input line %d", lines[i]) }
	}
	if len(urls) == 0 {
		fmt.Fprintln(e.stderr, "rep fetch: give at least one URL, e.g. rep fetch https://example.com/, or - to read them from standard input")
		return exitUsage
	}
	for _, err := range []error{checkDuration("-timeout", *timeout), checkHeaderValue("-user-agent", *ua)} {
		if err != nil {
			fmt.Fprintf(e.stderr, "rep fetch: %v\n", err)
			return exitUsage
		}
	}
	// A URL that is not absolute http(s) costs its own line only: say
	// where it is, fetch the others, and exit 2.
	good := urls[:0:0]
	for i, u := range urls {
		if _, err := robotsfetch.Origin(u); err != nil {
			fmt.Fprintf(e.stderr, "rep fetch: %s: %v\n", where(i), err)
			continue
		}
		good = append(good, u)
	}
	bad := len(urls) - len(good)
	urls = good
	if a == nil {
		// Without -agent the file is read with the -engine engine's parser.
		eng, _ := af.engine()
		// Built whole, not changed after NewAgent: Agents are immutable.
		a = &rep.Agent{Name: "*", Tokens: []string{"*"}, Engine: eng.Or(engine.Google), ParserOnly: true}
	}
	fetcher, err := e.fetcher(fetchSettings{tool: "rep-fetch", agent: a, userAgent: *ua, allowPrivate: *allowPrivate, timeout: *timeout})
	if err != nil {
		fmt.Fprintf(e.stderr, "rep fetch: %v\n", err)
		return exitUsage
	}
	c, err := rep.New(fetcher.Options().UserAgent, rep.WithAgent(a), rep.WithFetcher(fetcher))
	if err != nil {
		fmt.Fprintf(e.stderr, "rep fetch: %v\n", err)
		return exitUsage
	}
	withAgent := *af.agent != ""
	out := e.output(!*asJSON)
	status := exitOK
	for i, u := range urls {
		if out.Err() != nil {
			break
		}
		r, err := c.Fetcher().Get(e.ctx, u)
		if err != nil {
			out.Flush()
			fmt.Fprintf(e.stderr, "rep fetch: %v\n", err)
			return out.done(e, "rep fetch", exitUsage)
		}
		if r.Outcome.Verdict == robotsfetch.DisallowAll {
			status = exitFinding
		}
		res := fetchResultOf(e, c, u, r, withAgent)
		if *asJSON {
			json.NewEncoder(out).Encode(res)
			continue
		}
		if i > 0 {
			fmt.Fprintln(out)
		}
		fetchText(out, res)
	}
	if bad > 0 {
		if err := out.Flush(); err != nil {
			return writeErr(e, "rep fetch", err)
		}
		fmt.Fprintf(e.stderr, "rep fetch: %d URL(s) not fetched (see above); %d fetched\n", bad, len(urls))
		return exitUsage
	}
	return out.done(e, "rep fetch", status)
}

// fetchUserAgent names rep and the crawler it checks for, so a server log
// shows who asked; servers varying on User-Agent see the product token.
func fetchUserAgent(tool string, names []string) string {
	ua := tool + "/1.0 (+https://github.com/rep-toolkit/rep"
	if len(names) > 0 {
		ua += "; checking as " + strings.Join(names, ",")
	}
	return ua + ")"
}

func fetchResultOf(e *env, c *rep.Crawler, input string, r *robotsfetch.Robots, withAgent bool) *fetchResult {
	res := &fetchResult{Input: input, Outcome: &r.Outcome}
	file := r.FileFor(c.Agent().ParseOptions()) // as the agent's engine groups it
	if f := file; f != nil {
		res.Groups = len(f.Groups())
		for _, g := range f.Groups() {
			res.Rules += len(g.Rules)
		}
		for _, s := range f.Sitemaps() {
			res.Sitemaps = append(res.Sitemaps, s.URL)
		}
		for _, d := range f.Diagnostics() {
			res.Diagnostics = append(res.Diagnostics, d.String())
		}
		res.Truncated = f.Truncated()
	}
	if withAgent {
		ca := c.Agent()
		a := &fetchAgent{Name: ca.String(), Engine: c.Engine().String()}
		gm := robotstxt.GroupMatch{Via: robotstxt.ViaFetch}
		var cd time.Duration
		cdLine := 0
		if file != nil {
			ag := ca.Group(file)
			gm = ag.Group()
			a.Group, a.GroupLines, a.Rules = gm.Agent, gm.Lines, len(ag.Rules())
			if a.Group == "" {
				a.Group = "(none)"
			}
			if d, line, ok := ag.CrawlDelay(); ok {
				cd, cdLine = d, line
			}
		} else {
			a.Group = "(" + r.Outcome.Verdict.String() + ")"
		}
		a.Notes = verdict.NotesFor(ca, gm)
		if d, from, err := c.Delay(e.ctx, input); err == nil {
			a.Delay, a.DelayFrom = d.String(), from
			if cdLine > 0 && !strings.HasPrefix(from, "crawl-delay") {
				a.Notes = append(a.Notes, fetchDelayIgnored(ca, cd, cdLine))
			}
		}
		res.Agent = a
	}
	return res
}

func fetchText(w io.Writer, res *fetchResult) {
	o := res.Outcome
	fmt.Fprintf(w, "%s\n", o.URL)
	status := "no response"
	if o.Status != 0 {
		status = fmt.Sprint(o.Status)
	}
	fmt.Fprintf(w, "  status     %s\n", status)
	fmt.Fprintf(w, "  case       %s: %s\n", o.Case, o.Case.Explain())
	fmt.Fprintf(w, "  verdict    %s\n", o.Verdict)
	for i, r := range o.Redirects {
		fmt.Fprintf(w, "  redirect   %d: %s\n", i+1, r)
	}
	if err := o.Err(); err != nil {
		fmt.Fprintf(w, "  error      %v\n", err)
	}
	if o.Status >= 200 && o.Status <= 299 || o.Source == robotsfetch.FromRevalidation {
		ct := o.ContentType
		if ct == "" {
			ct = "no Content-Type"
		}
		if o.ContentEncoding != "" {
			ct += ", " + o.ContentEncoding
		}
		fmt.Fprintf(w, "  body       %d bytes, %s\n", o.Bytes, ct)
	}
	fmt.Fprintf(w, "  fetched    %s\n", o.FetchedAt.UTC().Format(time.RFC3339))
	fmt.Fprintf(w, "  reuse for  %s (until %s)\n", o.ExpiresAt.Sub(o.FetchedAt).Round(time.Second), o.ExpiresAt.UTC().Format(time.RFC3339))
	if !o.DownSince.IsZero() {
		fmt.Fprintf(w, "  down since %s\n", o.DownSince.UTC().Format(time.RFC3339))
	}
	for _, wn := range o.Warnings {
		fmt.Fprintf(w, "  warning    %s: %s\n", wn, fetchWarningText(wn))
	}
	if o.Verdict == robotsfetch.UseRules {
		fmt.Fprintf(w, "  file       %d group(s), %d rule(s), %d sitemap(s), %d diagnostic(s)\n",
			res.Groups, res.Rules, len(res.Sitemaps), len(res.Diagnostics))
		for _, s := range res.Sitemaps {
			fmt.Fprintf(w, "  sitemap    %s\n", s)
		}
	}
	if a := res.Agent; a != nil {
		fmt.Fprintf(w, "  agent      %s: group %s", a.Name, a.Group)
		if len(a.GroupLines) > 0 {
			lines := make([]string, len(a.GroupLines))
			for i, l := range a.GroupLines {
				lines[i] = fmt.Sprint(l)
			}
			fmt.Fprintf(w, " (line %s)", strings.Join(lines, ", "))
		}
		fmt.Fprintf(w, ", %d rule(s), delay %s (%s), engine %s\n", a.Rules, a.Delay, a.DelayFrom, a.Engine)
		for _, n := range a.Notes {
			fmt.Fprintf(w, "  note       %s\n", n)
		}
	}
}

// fetchDelayIgnored says why the group's Crawl-delay does not set the
// agent's pacing: the crawler is documented to ignore it (Google's), or
// its engine does not read it.
func fetchDelayIgnored(a *rep.Agent, d time.Duration, line int) string {
	s := fmt.Sprintf("Crawl-delay: %v (line %d) is not read: ", d, line)
	if c := a.Crawler; c != nil && c.CrawlDelay == crawlers.No {
		who := c.Operator
		if who == "" {
			who = "its operator"
		}
		return s + fmt.Sprintf("%s ignores Crawl-delay, as %s documents", a.Token(), who)
	}
	return s + fmt.Sprintf("the %s engine's rules do not read Crawl-delay", a.Engine)
}

func fetchWarningText(w robotsfetch.Warning) string {
	switch w {
	case robotsfetch.WarnHTML:
		return "the body is an HTML page, not a robots.txt; read as robots.txt (as Google does), it holds no usable rules"
	case robotsfetch.WarnContentType:
		return "the Content-Type is not text/plain (RFC 9309 §2.3); the body was read anyway"
	case robotsfetch.WarnTruncated:
		return fmt.Sprintf("the file is over %d KiB; lines after the limit are ignored", robotstxt.DefaultMaxBytes>>10)
	case robotsfetch.WarnNoStore:
		return "Cache-Control: no-store; reused only briefly"
	}
	return w.String()
}

// fetchReadURLs reads one URL per line, skipping blank lines and #
// comments, and returns each URL's line number.
func fetchReadURLs(r io.Reader) (urls []string, lines []int, err error) {
	sc := lineScanner(r)
	n := 0
	for sc.Scan() {
		n++
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			urls = append(urls, l)
			lines = append(lines, n)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, lineError(err, n+1)
	}
	return urls, lines, nil
}
