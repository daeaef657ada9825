package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/accesslog"
	"github.com/rep-toolkit/rep/crawl"
	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/internal/netguard"
	"github.com/rep-toolkit/rep/robotsdiff"
	"github.com/rep-toolkit/rep/sitemap"
)

func init() {
	register(&command{name: "diff", summary: "say which URLs flip for which crawler between two robots.txt versions", run: runDiff})
}

const diffUsage = `usage: rep diff [-agent NAME|PURPOSE ...] [-engine ENGINE] [-urls FILE] [-sitemap URL|FILE ...] [-log FILE ...]
                [-crawl SITE_URL [-max-pages N] [-delay D]]
                [-format text|json|markdown|sarif] [-json] [-fail-on any|block|change] [-max-flips N] [-allow-private] OLD NEW

Compares two versions of a robots.txt by what they mean to each crawler, not
by their text. OLD and NEW are files, URLs (the site's robots.txt is fetched
as a crawler would, status and redirects included; see rep fetch), or - for
standard input (one of them):

    git show HEAD~1:robots.txt | rep diff - robots.txt

For each crawler (the registry's, those the files name, and * for any other;
or -agent, repeatable, a name or a purpose such as ai-training) it reports
the group it obeys before and after, the rules in force added and removed,
its Crawl-delay as its engine reads it, the usage preferences that apply
to it, the Sitemap lines, and the URLs whose verdict flips, with the
deciding line before and after. Witness paths derived from the rules that
changed (a rule's path, one word past it, a slash past it, one byte
shorter, its '*' and '$' edges) find the flips without any URL; -urls,
-sitemap, -log and -crawl add URLs to decide. A change of comments, blank lines,
order, the case of keys or duplicate rules is "no change in meaning".

-crawl crawls the site as rep crawl does (its sitemaps, then its own links;
politely: rep-crawl/1.0 obeys a group naming it, waits -delay between two
requests, longer for its Crawl-delay) and decides every URL it reached, at
most -max-pages of them, sitemap entries and linked pages alike.

-format markdown writes a pull-request comment; sarif feeds code scanning.

Exit status: 0 nothing flips, 1 something flips (-fail-on any: a URL's
verdict or usage preference, either way; block: a URL becomes disallowed;
change: any change in meaning, a Crawl-delay or a Sitemap too), 2 usage or
input error.

flags:
`

// maxDiffURLs bounds the URLs read from -urls, -sitemap and -log together.
const maxDiffURLs = 200000

// defaultDiffCrawlPages is -crawl's default page cap: a sample, not an
// audit (rep crawl's default is crawl.DefaultMaxPages).
const defaultDiffCrawlPages = 500

// maxSitemapFiles bounds the sitemap files read through sitemap indexes.
const maxSitemapFiles = 100

func runDiff(e *env) int {
	fs := flag.NewFlagSet("diff", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	var sitemaps, logs multiFlag
	cs := addCrawlerSet(fs, "compare for")
	urlsFile := fs.String("urls", "", "`FILE` of URLs or paths to decide, one per line (- for standard input)")
	fs.Var(&sitemaps, "sitemap", "sitemap `URL|FILE` whose URLs to decide (indexes followed); repeatable")
	fs.Var(&logs, "log", "access log `FILE` whose paths crawlers asked for are decided; repeatable")
	crawlSite := fs.String("crawl", "", "crawl the site at `SITE_URL` (its sitemaps and links, politely) and decide the URLs reached")
	maxPages := fs.Int("max-pages", defaultDiffCrawlPages, "-crawl: crawl at most `N` URLs")
	delay := fs.Duration("delay", time.Second, "-crawl: least interval `D` between two requests (0 for none); a Crawl-delay for rep-crawl lengthens it")
	format := fs.String("format", "text", "output `FORMAT`: text, json, markdown or sarif")
	asJSON := fs.Bool("json", false, "same as -format json")
	failOn := fs.String("fail-on", "any", "exit 1 when `WHAT` happens: any (a URL flips either way), block (a URL becomes disallowed), change (any change in meaning)")
	maxFlips := fs.Int("max-flips", 20, "text and markdown: show at most `N` flips per group of crawlers (0: every flip kept, up to 200)")
	allowPrivate := fs.Bool("allow-private", false, allowPrivateHelp)
	timeout := fs.Duration("timeout", 30*time.Second, "give up on each fetch after `D`")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), diffUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(e.args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(e.stderr, "rep diff: "+format+"\n", a...)
		return exitUsage
	}
	if *asJSON {
		*format = "json"
	}
	switch *format {
	case "text", "json", "markdown", "sarif":
	default:
		return fail("-format %q: use text, json, markdown or sarif", *format)
	}
	switch *failOn {
	case "any", "block", "change":
	default:
		return fail("-fail-on %q: use any, block or change", *failOn)
	}
	if err := checkDuration("-timeout", *timeout); err != nil {
		return fail("%v", err)
	}
	if *maxPages <= 0 || *delay < 0 {
		return fail("-max-pages must be positive, -delay not negative")
	}
	if *crawlSite != "" && !isURL(*crawlSite) {
		return fail("-crawl %q: give the site's http or https URL", *crawlSite)
	}
	if fs.NArg() != 2 {
		return fail("give two versions, OLD and NEW (files, URLs or - for standard input), e.g. rep diff old/robots.txt robots.txt")
	}
	oldArg, newArg := fs.Arg(0), fs.Arg(1)
	stdinUsers := 0
	for _, a := range []string{oldArg, newArg, *urlsFile} {
		if a == "-" {
			stdinUsers++
		}
	}
	if stdinUsers > 1 {
		return fail("only one of OLD, NEW and -urls can be - (standard input)")
	}
	eng, list, err := cs.resolve()
	if err != nil {
		return fail("%v", err)
	}
	in := diffInputs{e: e, allowPrivate: *allowPrivate, timeout: *timeout}
	old, err := in.version(oldArg)
	if err != nil {
		return fail("%v", err)
	}
	newV, err := in.version(newArg)
	if err != nil {
		return fail("%v", err)
	}
	if list == nil {
		list = robotsdiff.DefaultAgents(eng, old.Body, newV.Body)
	}
	urls, err := in.urls(*urlsFile, sitemaps, logs)
	if err != nil {
		return fail("%v", err)
	}
	if *crawlSite != "" {
		if urls, err = in.crawl(*crawlSite, *maxPages, *delay, urls); err != nil {
			return fail("%v", err)
		}
	}
	d := robotsdiff.Compare(old, newV, robotsdiff.Options{Agents: list, URLs: urls})
	// Text and Markdown go to terminals: control bytes from the files are
	// escaped there; JSON and SARIF escape them themselves.
	out := e.output(*format == "text" || *format == "markdown")
	switch *format {
	case "json":
		enc := json.NewEncoder(out)
		enc.SetEscapeHTML(false)
		err = enc.Encode(d)
	case "markdown":
		err = d.WriteMarkdown(out, *maxFlips)
	case "sarif":
		err = d.WriteSARIF(out)
	default:
		err = d.WriteText(out, *maxFlips)
	}
	if err != nil {
		return writeErr(e, "rep diff", err)
	}
	return out.done(e, "rep diff", diffStatus(d, *failOn))
}

// diffStatus is the exit status for -fail-on.
func diffStatus(d *robotsdiff.Diff, failOn string) int {
	blocked, unblocked, usage := d.Flips()
	switch {
	case failOn == "block" && blocked > 0,
		failOn == "any" && blocked+unblocked+usage > 0,
		failOn == "change" && d.Changed():
		return exitFinding
	}
	return exitOK
}

// crawlerSet is the -agent and -engine flags of rep diff and rep watch:
// crawlers by name or registry purpose, repeatable.
type crawlerSet struct {
	agents multiFlag
	eng    *engineFlag
}

func addCrawlerSet(fs *flag.FlagSet, what string) *crawlerSet {
	c := &crawlerSet{}
	fs.Var(&c.agents, "agent", "crawler `NAME` or registry purpose (ai-training, search, ...) to "+what+"; repeatable, or comma-separated (default: every registry crawler, the files' tokens and *)")
	c.eng = addEngineFlag(fs, "engine whose rules apply: `ENGINE` "+engine.Names+" (default: each crawler's own)")
	return c
}

// resolve returns the engine and the crawlers asked for; nil crawlers when
// none were (robotsdiff.DefaultAgents then applies).
func (c *crawlerSet) resolve() (engine.Engine, []*rep.Agent, error) {
	eng, err := c.eng.get()
	if err != nil || len(c.agents) == 0 {
		return eng, nil, err
	}
	var ns []string
	for _, a := range c.agents {
		ns = append(ns, strings.Split(a, ",")...)
	}
	list, err := rep.AgentsFor(ns, rep.AgentOptions{Engine: eng})
	if err != nil {
		return eng, nil, fmt.Errorf("-agent: %w", err)
	}
	return eng, list, nil
}

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

// diffInputs reads the versions and the URL sources of rep diff and rep
// watch.
type diffInputs struct {
	e            *env
	allowPrivate bool
	timeout      time.Duration
}

func isURL(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

// version reads one side: a URL is fetched as a crawler would, through
// the one robots.txt fetcher; a file or - is read as rep check reads
// -robots.
func (in diffInputs) version(arg string) (robotsdiff.Version, error) {
	if isURL(arg) {
		if _, err := os.Stat(arg); err != nil {
			return in.fetch(arg)
		}
	}
	data, warning, err := readRobots(arg, in.e.input())
	if err != nil {
		return robotsdiff.Version{}, err
	}
	if warning != "" {
		fmt.Fprintf(in.e.stderr, "rep diff: warning: %s\n", warning)
	}
	return robotsdiff.Version{Name: inputName(arg), Body: data}, nil
}

// fetch fetches the robots.txt of u's origin as a crawler would.
func (in diffInputs) fetch(u string) (robotsdiff.Version, error) {
	f, err := in.e.fetcher(fetchSettings{tool: "rep-diff", allowPrivate: in.allowPrivate, timeout: in.timeout})
	if err != nil {
		return robotsdiff.Version{}, err
	}
	r, err := f.Get(in.e.ctx, u)
	if err != nil {
		return robotsdiff.Version{}, err
	}
	o := r.Outcome
	return robotsdiff.Version{Name: o.URL, Body: r.Body, Fetch: &o}, nil
}

// urls gathers the URLs to decide: -urls, the sitemaps' pages, the paths
// crawlers asked for in the logs; duplicates dropped, at most maxDiffURLs.
func (in diffInputs) urls(file string, sitemaps, logs []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(u string) error {
		if seen[u] {
			return nil
		}
		if len(out) >= maxDiffURLs {
			return fmt.Errorf("more than %d URLs from -urls, -sitemap and -log: give a smaller sample", maxDiffURLs)
		}
		seen[u] = true
		out = append(out, u)
		return nil
	}
	if file != "" {
		data, name, err := readInput(file, in.e.input())
		if err != nil {
			return nil, err
		}
		for i, l := range strings.Split(string(data), "\n") {
			u := strings.TrimSpace(l)
			if u == "" || strings.HasPrefix(u, "#") {
				continue
			}
			if err := checkURL(u); err != nil {
				return nil, fmt.Errorf("%s line %d: %v", name, i+1, err)
			}
			if err := add(u); err != nil {
				return nil, err
			}
		}
	}
	for _, s := range sitemaps {
		if err := in.sitemap(s, add); err != nil {
			return nil, err
		}
	}
	for _, l := range logs {
		if err := in.log(l, add); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// sitemap reads the page URLs of a sitemap file or URL, following a
// sitemap index to at most maxSitemapFiles files.
func (in diffInputs) sitemap(src string, add func(string) error) error {
	todo, seen := []string{src}, map[string]bool{}
	for i := 0; i < len(todo); i++ {
		loc := todo[i]
		if seen[loc] {
			continue
		}
		seen[loc] = true
		if len(seen) > maxSitemapFiles {
			return fmt.Errorf("sitemap %s: more than %d sitemap files through its indexes", src, maxSitemapFiles)
		}
		r, closeFn, err := in.open(loc)
		if err != nil {
			return fmt.Errorf("sitemap %s: %v", loc, err)
		}
		o := sitemap.Options{}
		if isURL(loc) {
			o.URL = loc
		}
		res, err := sitemap.Parse(r, o, func(en sitemap.Entry) error {
			if en.Sitemap {
				todo = append(todo, en.Loc)
				return nil
			}
			return add(en.Loc)
		})
		closeFn()
		if err != nil {
			return fmt.Errorf("sitemap %s: %v", loc, err)
		}
		if res.Entries == 0 && len(res.Findings) > 0 {
			return fmt.Errorf("sitemap %s: %s", loc, res.Findings[0].Message)
		}
	}
	return nil
}

// open opens a sitemap: a URL fetched with the one guarded client
// (internal/netguard: private addresses refused unless -allow-private, no
// proxy, -timeout, at most 5 redirects, 50 MB, the protocol's limit), else
// a file.
func (in diffInputs) open(loc string) (io.Reader, func(), error) {
	if !isURL(loc) {
		fh, err := os.Open(loc)
		if err != nil {
			return nil, nil, err
		}
		return fh, func() { fh.Close() }, nil
	}
	ctx, cancel := context.WithTimeout(in.e.ctx, in.timeout)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, loc, nil)
	if err != nil {
		cancel()
		return nil, nil, err
	}
	c := netguard.NewClient(netguard.Options{AllowPrivate: in.allowPrivate, UserAgent: fetchUserAgent("rep-diff", nil),
		Timeout: in.timeout, MaxRedirects: 5, MaxBodyBytes: sitemap.MaxBytes})
	resp, err := c.Do(req)
	if err != nil {
		cancel()
		return nil, nil, err
	}
	if resp.StatusCode/100 != 2 {
		resp.Body.Close()
		cancel()
		return nil, nil, fmt.Errorf("status %d", resp.StatusCode)
	}
	return resp.Body, func() { resp.Body.Close(); cancel() }, nil
}

// log reads the paths known crawlers asked for in an access log (its
// format detected), each once.
func (in diffInputs) log(name string, add func(string) error) error {
	r, err := accesslog.Open(name, nil, accesslog.Options{})
	if err != nil {
		return fmt.Errorf("-log %s: %v", name, err)
	}
	defer r.Close()
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("-log %s: %v", name, err)
		}
		if _, ok := crawlers.MatchBytes(rec.UserAgent); !ok {
			continue
		}
		p := rec.PathQuery()
		if len(p) == 0 || p[0] != '/' {
			continue
		}
		if err := add(string(p)); err != nil {
			return err
		}
	}
}

// crawl crawls site through package crawl (its guarded client, its
// politeness, at most maxPages URLs) and appends the URLs it reached to
// urls, sorted (pages arrive in no set order), those already there
// dropped. A crawl that fetched no page at all is an error: the sample
// asked for is not there.
func (in diffInputs) crawl(site string, maxPages int, delay time.Duration, urls []string) ([]string, error) {
	var found []string
	firstErr := ""
	cfg := crawl.Config{Start: site, MaxPages: maxPages, Delay: delay, AllowPrivate: in.allowPrivate, Timeout: in.timeout,
		OnPage: func(p *crawl.Page) {
			found = append(found, p.URL)
			if p.Error != "" && firstErr == "" {
				firstErr = p.Error
			}
		}}
	r, err := crawl.Run(in.e.ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("-crawl: %w", err)
	}
	if r.Fetched == 0 {
		if firstErr == "" {
			firstErr = "every page was skipped (robots.txt keeps rep-crawl out)"
		}
		return nil, fmt.Errorf("-crawl %s: no page fetched: %s", site, firstErr)
	}
	if r.Crawled >= maxPages {
		fmt.Fprintf(in.e.stderr, "rep diff: -crawl stopped at -max-pages %d URLs\n", maxPages)
	}
	slices.Sort(found)
	seen := make(map[string]bool, len(urls))
	for _, u := range urls {
		seen[u] = true
	}
	for _, u := range found {
		if seen[u] {
			continue
		}
		if len(urls) >= maxDiffURLs {
			return nil, fmt.Errorf("more than %d URLs from -urls, -sitemap, -log and -crawl: give a smaller sample", maxDiffURLs)
		}
		seen[u] = true
		urls = append(urls, u)
	}
	return urls, nil
}
