package main

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"html/template"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/crawl"
)

func init() {
	register(&command{name: "crawl", summary: "audit a whole site as each crawler sees it: robots.txt, sitemaps, page directives", run: runCrawl})
}

const crawlUsage = `usage: rep crawl [-agent NAME|PURPOSE ...] [-max-pages N] [-concurrency N] [-delay D]
                 [-include REGEXP] [-exclude REGEXP] [-obey] [-json] [-csv FILE] [-html FILE]
                 [-allow-private] URL|-
       rep crawl -explain CODE

Crawls one site from URL (its home page) and its sitemaps (robots.txt
Sitemap lines, else /sitemap.xml), following the site's own links, and
audits every page for each crawler: the robots.txt verdict with its line,
the page-level rules that reach it (robots meta, X-Robots-Tag), and whether
the page can be indexed, and why. What they disagree on is reported as
findings with stable codes (a sitemap URL robots.txt disallows, a noindex
the crawler can never see, a stylesheet blocked for a crawlable page...);
-explain CODE documents each one (docs/crawl.md).

-agent takes a crawler (Googlebot, bingbot, GPTBot, any product token) or a
purpose of the crawler registry (search, ai-training, ai-search...), which
stands for every registry crawler with that purpose; repeat it for more.
The default is Googlebot and bingbot.

The crawl identifies itself as rep-crawl/1.0 (+https://github.com/rep-toolkit/rep)
and is polite: -concurrency requests at once, -delay between two, longer
when robots.txt gives rep-crawl a Crawl-delay. It obeys a robots.txt group
naming rep-crawl, not the * group: it fetches pages disallowed for the
audited crawlers, to read the noindex they never see, unless -obey.
Loopback, private and link-local addresses are refused unless -allow-private.

Output: a summary (counts by code and crawler, the worst URLs, the findings);
-json one object with pages[] and findings[]; -csv FILE one row per URL and
crawler; -html FILE a self-contained report. Progress is shown on a terminal.

A site that cannot be read (its robots.txt gets no answer: connection
refused, timeout, an address refused without -allow-private) is reported
with the cause, never as disallowed, and exits 2.

Exit status: 0 no finding at warning or above, 1 some, 2 usage or input error
or a site that could not be read.

flags:
`

// agentList is the repeatable -agent flag.
type agentList []string

func (l *agentList) String() string { return strings.Join(*l, ",") }
func (l *agentList) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("empty crawler name")
	}
	*l = append(*l, s)
	return nil
}

func runCrawl(e *env) int {
	fs := flag.NewFlagSet("crawl", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	var agents agentList
	fs.Var(&agents, "agent", "audit crawler `NAME` or every registry crawler of a PURPOSE (repeatable; default Googlebot and bingbot)")
	maxPages := fs.Int("max-pages", crawl.DefaultMaxPages, "crawl at most `N` URLs")
	concurrency := fs.Int("concurrency", crawl.DefaultConcurrency, "`N` requests in flight to the site at once")
	delay := fs.Duration("delay", time.Second, "least interval `D` between two requests (0 for none); a Crawl-delay for rep-crawl lengthens it")
	include := fs.String("include", "", "crawl only URLs matching `REGEXP` (the start URL always)")
	exclude := fs.String("exclude", "", "do not crawl URLs matching `REGEXP`")
	obey := fs.Bool("obey", false, "do not fetch URLs robots.txt disallows for an audited crawler")
	asJSON := fs.Bool("json", false, "print one JSON object: pages[] and findings[]")
	csvFile := fs.String("csv", "", "write one row per URL and crawler to `FILE`")
	htmlFile := fs.String("html", "", "write a self-contained HTML report to `FILE`")
	allowPrivate := fs.Bool("allow-private", false, allowPrivateHelp)
	explain := fs.String("explain", "", "print the documentation of a finding `CODE` and exit")
	timeout := fs.Duration("timeout", crawl.DefaultTimeout, "give up on each request after `D`")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), crawlUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(e.args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	if *explain != "" {
		c, ok := crawl.Explain(*explain)
		if !ok {
			var names []string
			for _, c := range crawl.Codes() {
				names = append(names, c.Code)
			}
			fmt.Fprintf(e.stderr, "rep crawl: unknown code %q; the codes are: %s\n", *explain, strings.Join(names, ", "))
			return exitUsage
		}
		scope := "reported once per crawler"
		if !c.PerAgent {
			scope = "reported once, for every crawler"
		}
		fmt.Fprintf(e.stdout, "%s (%s, %s): %s\n\n%s\n", c.Code, c.Severity, scope, c.Title, c.Doc)
		return exitOK
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(e.stderr, "rep crawl: give one site URL, e.g. rep crawl https://www.example.com/")
		return exitUsage
	}
	if *maxPages <= 0 || *concurrency <= 0 || *delay < 0 || *timeout <= 0 {
		fmt.Fprintln(e.stderr, "rep crawl: -max-pages, -concurrency and -timeout must be positive, -delay not negative")
		return exitUsage
	}
	start := fs.Arg(0)
	if start == "-" {
		// The site's URL on standard input, as every command reads "-":
		// the first line that is not blank.
		sc := lineScanner(e.input())
		start = ""
		for start == "" && sc.Scan() {
			start = strings.TrimSpace(sc.Text())
		}
		if err := sc.Err(); err != nil {
			fmt.Fprintf(e.stderr, "rep crawl: %v\n", lineError(err, 1))
			return exitUsage
		}
		if start == "" {
			fmt.Fprintln(e.stderr, "rep crawl: no site URL on standard input")
			return exitUsage
		}
	}
	cfg := crawl.Config{Start: start, MaxPages: *maxPages, Concurrency: *concurrency, Delay: *delay,
		Obey: *obey, AllowPrivate: *allowPrivate, Timeout: *timeout}
	for _, re := range []struct {
		flag string
		src  string
		dst  **regexp.Regexp
	}{{"-include", *include, &cfg.Include}, {"-exclude", *exclude, &cfg.Exclude}} {
		if re.src == "" {
			continue
		}
		r, err := regexp.Compile(re.src)
		if err != nil {
			fmt.Fprintf(e.stderr, "rep crawl: %s: %v\n", re.flag, err)
			return exitUsage
		}
		*re.dst = r
	}
	var err error
	if len(agents) > 0 {
		cfg.Agents, err = rep.AgentsFor(agents, rep.AgentOptions{})
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "rep crawl: -agent: %v\n", err)
		return exitUsage
	}
	noteUnknown(e, "crawl", cfg.Agents...)
	var csvOut *csv.Writer
	var files []*os.File
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	create := func(name string) (*os.File, bool) {
		f, err := os.Create(name)
		if err != nil {
			fmt.Fprintf(e.stderr, "rep crawl: %v\n", err)
			return nil, false
		}
		files = append(files, f)
		return f, true
	}
	if *csvFile != "" {
		f, ok := create(*csvFile)
		if !ok {
			return exitUsage
		}
		csvOut = csv.NewWriter(f)
		csvOut.Write([]string{"url", "status", "content_type", "in_sitemap", "agent", "robots_allowed", "robots_line", "robots_rule", "state", "indexable", "why", "directives"})
	}
	var htmlOut *os.File
	if *htmlFile != "" {
		var ok bool
		if htmlOut, ok = create(*htmlFile); !ok {
			return exitUsage
		}
	}
	out := bufio.NewWriter(e.stdout)
	defer out.Flush()
	var kept []*crawl.Page // for -html, bounded
	nPages := 0
	if *asJSON {
		out.WriteString("{\"pages\":[")
	}
	cfg.OnPage = func(p *crawl.Page) {
		if *asJSON {
			if nPages > 0 {
				out.WriteString(",")
			}
			out.WriteString("\n")
			b, _ := json.Marshal(p)
			out.Write(b)
		}
		nPages++
		if csvOut != nil {
			for _, v := range p.Verdicts {
				csvOut.Write([]string{p.URL, strconv.Itoa(p.Status), p.ContentType, strconv.FormatBool(p.InSitemap), v.Agent,
					strconv.FormatBool(v.Robots.Allowed), strconv.Itoa(v.Robots.Rule.Line), v.Robots.Rule.String(), v.State,
					strconv.FormatBool(v.Indexable), v.Why, strings.Join(v.Directives, "; ")})
			}
		}
		if htmlOut != nil && len(kept) < crawlHTMLPages {
			kept = append(kept, p)
		}
	}
	stopProgress := crawlProgress(e, &cfg)
	r, err := crawl.Run(e.ctx, cfg)
	stopProgress()
	var se *crawl.StartError
	if errors.As(err, &se) {
		fmt.Fprintf(e.stderr, "rep crawl: %v\n", err)
		return exitUsage
	}
	if r == nil {
		fmt.Fprintf(e.stderr, "rep crawl: %v\n", err)
		return exitUsage
	}
	var site *crawl.SiteError
	switch {
	case errors.As(err, &site):
		// Unreachable is not disallowed: say why, report nothing else.
		fmt.Fprintf(e.stderr, "rep crawl: %v\n", site)
	case err != nil:
		fmt.Fprintf(e.stderr, "rep crawl: stopped: %v; reporting what was crawled\n", err)
	}
	if csvOut != nil {
		csvOut.Flush()
		if err := csvOut.Error(); err != nil {
			fmt.Fprintf(e.stderr, "rep crawl: -csv: %v\n", err)
			return exitUsage
		}
	}
	if htmlOut != nil {
		if err := crawlHTML(htmlOut, r, kept, nPages); err != nil {
			fmt.Fprintf(e.stderr, "rep crawl: -html: %v\n", err)
			return exitUsage
		}
	}
	if *asJSON {
		if r.Findings == nil {
			r.Findings = []crawl.Finding{}
		}
		b, _ := json.Marshal(r)
		out.WriteString("\n],")
		out.Write(b[1:])
		out.WriteString("\n")
	} else {
		crawlText(out, r, nPages)
	}
	if site != nil {
		return exitUsage // the site itself could not be read
	}
	if w, ok := r.Worst(); ok && w >= crawl.Warning {
		return exitFinding
	}
	return exitOK
}

// crawlProgress draws a progress line on a terminal stderr; the returned
// function erases it. Nothing is drawn when stderr is not a terminal.
func crawlProgress(e *env, cfg *crawl.Config) func() {
	fh, ok := e.stderr.(*os.File)
	if !ok || !term.IsTerminal(int(fh.Fd())) {
		return func() {}
	}
	var last time.Time
	start := time.Now()
	cfg.Progress = func(p crawl.Progress) {
		if time.Since(last) < 200*time.Millisecond {
			return
		}
		last = time.Now()
		rate := float64(p.Crawled) / time.Since(start).Seconds()
		fmt.Fprintf(fh, "\r\x1b[Kcrawled %d, queued %d, findings %d, %.1f pages/s", p.Crawled, p.Queued, p.Findings, rate)
	}
	return func() { fmt.Fprint(fh, "\r\x1b[K") }
}

// crawlText writes the summary: counts by code and crawler, the worst
// URLs, then the findings (at most 100).
func crawlText(w io.Writer, r *crawl.Report, pages int) {
	fmt.Fprintf(w, "site %s: %d URL(s) crawled (%d fetched, %d skipped, %d failed) in %.1fs as %s\n", r.Site, r.Crawled, r.Fetched, r.Skipped, r.Errors, r.Duration, r.UserAgent)
	if r.Truncated {
		fmt.Fprintln(w, "the -max-pages limit was reached: some URLs were not crawled")
	}
	fmt.Fprintf(w, "audited for: %s\n", strings.Join(r.Agents, ", "))
	if u := r.Unreachable; u != nil {
		fmt.Fprintf(w, "\nthe site could not be read (%s): %s\n", u.Cause, u.Message)
		if u.Hint != "" {
			fmt.Fprintf(w, "hint: %s\n", u.Hint)
		}
		fmt.Fprintln(w, "nothing was crawled: an unreachable site is not a disallowed one, and no finding is reported")
		return
	}
	for _, s := range r.Sitemaps {
		line := fmt.Sprintf("sitemap %s (%s): ", s.URL, s.Source)
		if s.Error != "" {
			line += s.Error
		} else {
			line += fmt.Sprintf("%s, %d entries", s.Kind, s.Entries)
			if s.Gzip {
				line += ", gzip"
			}
		}
		fmt.Fprintln(w, line)
	}
	if len(r.Findings) == 0 {
		fmt.Fprintln(w, "\nno findings")
		return
	}
	type key struct{ code, agent string }
	counts := map[key]int{}
	sev := map[string]crawl.Severity{}
	urlScore := map[string]int{}
	for _, f := range r.Findings {
		counts[key{f.Code, f.Agent}]++
		sev[f.Code] = f.Severity
		urlScore[f.URL] += 1 << (3 * int(f.Severity))
	}
	agents := append([]string{""}, r.Agents...)
	fmt.Fprintf(w, "\n%-26s %-8s", "findings by code", "severity")
	for _, a := range agents {
		if a == "" {
			a = "(all)"
		}
		fmt.Fprintf(w, " %10s", a)
	}
	fmt.Fprintln(w)
	var codes []string
	for c := range sev {
		codes = append(codes, c)
	}
	sort.Slice(codes, func(i, j int) bool {
		if sev[codes[i]] != sev[codes[j]] {
			return sev[codes[i]] > sev[codes[j]]
		}
		return codes[i] < codes[j]
	})
	for _, c := range codes {
		fmt.Fprintf(w, "%-26s %-8s", c, sev[c])
		for _, a := range agents {
			if n := counts[key{c, a}]; n > 0 {
				fmt.Fprintf(w, " %10d", n)
			} else {
				fmt.Fprintf(w, " %10s", "-")
			}
		}
		fmt.Fprintln(w)
	}
	var urls []string
	for u := range urlScore {
		urls = append(urls, u)
	}
	sort.Slice(urls, func(i, j int) bool {
		if urlScore[urls[i]] != urlScore[urls[j]] {
			return urlScore[urls[i]] > urlScore[urls[j]]
		}
		return urls[i] < urls[j]
	})
	fmt.Fprintln(w, "\nworst URLs:")
	for _, u := range urls[:min(len(urls), 5)] {
		var cs []string
		for _, f := range r.Findings {
			if f.URL == u {
				cs = append(cs, f.Code+agentSuffix(f.Agent))
			}
		}
		fmt.Fprintf(w, "  %s  %s\n", u, strings.Join(cs, ", "))
	}
	fmt.Fprintln(w, "\nfindings:")
	for i, f := range r.Findings {
		if i == 100 {
			fmt.Fprintf(w, "... and %d more (see -json, -csv or -html)\n", len(r.Findings)-100)
			break
		}
		fmt.Fprintf(w, "%-7s %s%s %s\n        %s\n        evidence: %s\n", f.Severity, f.Code, agentSuffix(f.Agent), f.URL, f.Message, f.Evidence)
	}
	if r.DroppedFindings > 0 {
		fmt.Fprintf(w, "%d more findings were not kept\n", r.DroppedFindings)
	}
	fmt.Fprintln(w, "\nrep crawl -explain CODE documents each code.")
}

func agentSuffix(a string) string {
	if a == "" {
		return ""
	}
	return " [" + a + "]"
}

// crawlHTMLPages bounds the pages listed in the HTML report.
const crawlHTMLPages = 2000

// crawlHTML writes the self-contained HTML report, in the style of rep
// audit's.
func crawlHTML(w io.Writer, r *crawl.Report, pages []*crawl.Page, total int) error {
	var text strings.Builder
	crawlText(&text, r, total)
	type row struct {
		P      *crawl.Page
		States []crawl.Verdict
	}
	var rows []row
	for _, p := range pages {
		rows = append(rows, row{p, p.Verdicts})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].P.URL < rows[j].P.URL })
	counts := map[crawl.Severity]int{}
	for _, f := range r.Findings {
		counts[f.Severity]++
	}
	return crawlPage.Execute(w, map[string]any{
		"R": r, "Rows": rows, "Total": total, "Shown": len(rows), "Text": text.String(),
		"Generated": time.Now().UTC().Format("2006-01-02 15:04 MST"),
		"Errors":    counts[crawl.Error], "Warnings": counts[crawl.Warning], "Infos": counts[crawl.Info],
	})
}

var crawlPage = template.Must(template.New("crawl").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Site audit: {{.R.Site}}</title>
<style>
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f6f7f9;color:#1d2330}
header{background:#1d2330;color:#fff;padding:20px 32px}header h1{margin:0;font-size:22px}header p{margin:4px 0 0;color:#c9d1e0}
main{max-width:1100px;margin:0 auto;padding:24px 32px}
section{background:#fff;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.08);padding:16px 20px;margin-bottom:20px}
h2{font-size:17px;margin:0 0 10px}
.kpis{display:flex;gap:16px;flex-wrap:wrap}.kpi{flex:1;min-width:140px;background:#fff;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.08);padding:12px 16px;margin-bottom:20px}
.kpi b{display:block;font-size:24px}.kpi span{color:#5b6476;font-size:13px}
table{border-collapse:collapse;width:100%;font-size:13.5px}th,td{padding:5px 8px;text-align:left;border-bottom:1px solid #eceef2;vertical-align:top}
th{color:#5b6476;font-weight:600}td.u{word-break:break-all}
.error{color:#b3261e;font-weight:600}.warning{color:#a15c00;font-weight:600}.info{color:#5b6476}
.indexable{color:#1e7b34}.blocked,.noindex,.not-ok{color:#b3261e}.unknown{color:#5b6476}
.note{color:#5b6476;font-size:12.5px}
pre{white-space:pre-wrap;font-size:12px;background:#f6f7f9;padding:10px;border-radius:6px;overflow:auto}
</style></head><body>
<header><h1>Site audit: {{.R.Site}}</h1><p>audited for {{range $i, $a := .R.Agents}}{{if $i}}, {{end}}{{$a}}{{end}} · crawled as {{.R.UserAgent}} · generated {{.Generated}} by rep crawl</p></header>
<main>
<div class="kpis">
<div class="kpi"><b>{{.R.Crawled}}</b><span>URLs crawled ({{.R.Fetched}} fetched)</span></div>
<div class="kpi"><b class="error">{{.Errors}}</b><span>errors</span></div>
<div class="kpi"><b class="warning">{{.Warnings}}</b><span>warnings</span></div>
<div class="kpi"><b>{{.Infos}}</b><span>notes</span></div>
</div>
<section><h2>Findings</h2>{{if .R.Findings}}<table>
<tr><th>severity</th><th>code</th><th>crawler</th><th>URL</th><th>message</th><th>evidence</th></tr>
{{range .R.Findings}}<tr><td class="{{.Severity}}">{{.Severity}}</td><td>{{.Code}}</td><td>{{.Agent}}</td><td class="u">{{.URL}}</td><td>{{.Message}}</td><td class="u">{{.Evidence}}</td></tr>
{{end}}</table><p class="note">rep crawl -explain CODE documents each code.</p>{{else}}<p>No findings.</p>{{end}}</section>
<section><h2>Pages</h2><table>
<tr><th>URL</th><th>status</th><th>type</th><th>sitemap</th><th>verdicts</th></tr>
{{range .Rows}}<tr><td class="u">{{.P.URL}}</td><td>{{if .P.Status}}{{.P.Status}}{{end}}</td><td>{{.P.ContentType}}</td><td>{{if .P.InSitemap}}yes{{end}}</td><td>{{range .States}}<div><b>{{.Agent}}</b>: <span class="{{.State}}">{{.State}}</span> <span class="note">{{.Why}}</span></div>{{end}}</td></tr>
{{end}}</table>{{if lt .Shown .Total}}<p class="note">The first {{.Shown}} of {{.Total}} pages; -csv lists them all.</p>{{end}}</section>
<section><h2>Summary</h2><pre>{{.Text}}</pre></section>
</main></body></html>
`))
