package lint

import (
	"bytes"
	"context"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
	"github.com/rep-toolkit/rep/verdict"
)

// Options configure [Run]. The zero value checks against Google.
type Options struct {
	// Engine is whose reading of robots.txt the file is checked against:
	// which directives count as ignored, and how the file is parsed (Bing
	// and Yandex are checked with Google's parser, the closest documented
	// one; see package engine). Auto checks against Google.
	Engine engine.Engine
	// Agents are crawlers for the per-crawler view of the report, as
	// verdict.NewAgent resolves them: the group each obeys (its fallback chain,
	// whether it ignores the * group), the rules it ignores, and the
	// Crawl-delay its engine reads.
	Agents []*verdict.Agent
	// URL is where the file is served, when known: Sitemap lines are then
	// checked against its host.
	URL string
	// Fetch is the outcome of fetching the file, when it was fetched; its
	// findings (status, redirects, Content-Type, RFC 9309 §2.3.1) join the
	// report. When the fetch did not return the file (an HTTP error, an
	// unreachable host) the body is not linted: crawlers do not read it
	// either.
	Fetch *robotsfetch.Outcome
}

// Report is the result of [Run].
type Report struct {
	// Engine is the engine the file was checked against (never Auto).
	Engine engine.Engine
	// Findings are every finding, ordered by line, column and code;
	// findings about the fetch (line 0) come first.
	Findings []Finding
	// Agents is the per-crawler view, one entry per Options.Agents.
	Agents []AgentView

	file  *robotstxt.File
	lines map[int]string // text of the lines that have findings, for SARIF columns
	all   map[int]string // text of every line read, for baselines
}

// Finding is one mistake in a robots.txt: where it is, how serious, its
// stable code (documented by [Explain]), what crawlers make of the line
// and what to change. Line 0 is about the fetch, not a line.
type Finding struct {
	Line     int // 1-based; 0 for findings about the fetch
	Column   int // 1-based byte column; 0 with line 0
	Severity Severity
	Code     string // stable, kebab-case, e.g. "shadowed-rule"
	Message  string
	Hint     string // what to change
	// Suppressed is set for a finding the file's "# rep:ignore" comments
	// or a baseline accept: it is not counted, and SARIF marks it.
	Suppressed Suppression
}

// String renders the finding as "line:col: severity: [code] message".
func (f Finding) String() string {
	return strconv.Itoa(f.Line) + ":" + strconv.Itoa(f.Column) + ": " + f.Severity.String() + ": [" + f.Code + "] " + f.Message
}

// Severity ranks findings; it is the parser's severity, so the parser's
// own diagnostics join the report as they are.
type Severity = robotstxt.Severity

// The severities, lowest first.
const (
	Info    = robotstxt.Info
	Warning = robotstxt.Warning
	Error   = robotstxt.Error
)

// AgentView is what one crawler obeys in a file.
type AgentView struct {
	// Name is the crawler as asked for; Engine whose rules it follows;
	// Notes what the crawler registry changed about its answer.
	Name   string
	Engine engine.Engine
	Notes  []string
	// Kind is the registry's kind of crawler (crawlers.KindOf): what its
	// rules decide (fetching, or for a control token the use of content).
	Kind  crawlers.Kind
	Group robotstxt.GroupMatch
	// Rules are the rules in force for it: its groups merged, in file order.
	Rules []robotstxt.Rule
	// Ignored are the rules of every other group, which it does not obey.
	Ignored []robotstxt.Rule
	// CrawlDelay is the Crawl-delay line it obeys under the report's
	// engine (0: none); Inherited is set when it comes from the * group
	// (Bing's exception).
	CrawlDelay          int
	CrawlDelayInherited bool

	file    *robotstxt.File   // the file as the agent's engine groups it
	crawler *crawlers.Crawler // the registry's entry; nil when unknown
}

// File returns the parsed file the report is about.
func (r *Report) File() *robotstxt.File { return r.file }

// Count returns how many findings that are not suppressed have at least
// the given severity.
func (r *Report) Count(min Severity) int {
	n := 0
	for _, d := range r.Findings {
		if d.Severity >= min && d.Suppressed == "" {
			n++
		}
	}
	return n
}

// Run checks a robots.txt body for the mistakes that make crawlers read it
// differently from what its author meant, and returns every finding with a
// stable code (see [Codes]). It includes the parser's diagnostics. Run
// never fails and is safe for any input.
func Run(data []byte, opts Options) *Report {
	r, _ := run(context.Background(), data, opts)
	return r
}

// RunContext is Run that stops when ctx is done (a server's client gone):
// the cross-rule checks, the only ones whose cost grows faster than the
// file, look at ctx as they go. It returns ctx's error, and no report,
// when it stopped.
func RunContext(ctx context.Context, data []byte, opts Options) (*Report, error) {
	r, _ := run(ctx, data, opts)
	if err := context.Cause(ctx); err != nil {
		return nil, err
	}
	return r, nil
}

// run is Run, also returning the work spent on cross-rule checks.
func run(ctx context.Context, data []byte, opts Options) (*Report, int) {
	opts.Engine = opts.Engine.Or(engine.Google)
	l := linter{ctx: ctx, data: data, opts: opts, rep: &Report{Engine: opts.Engine}}
	l.f = robotstxt.ParseWith(data, opts.Engine.ParseOptions())
	l.rep.file = l.f
	if opts.Fetch != nil {
		l.fetch(opts.Fetch)
	}
	if opts.Fetch == nil || (opts.Fetch.Status >= 200 && opts.Fetch.Status < 300) {
		l.body()
	}
	l.agents()
	if l.work > lintBudget {
		// Never stop silently: say which checks did not cover the file.
		l.add(0, 0, Info, "checks-incomplete",
			"the checks for shadowed rules and for * rules hidden by a crawler's own group stopped at their work limit ("+strconv.Itoa(lintBudget)+" comparisons); other checks cover the whole file",
			"split the rules into fewer, simpler patterns")
	}
	l.inlineSuppress()
	l.rep.all = l.text
	slices.SortStableFunc(l.rep.Findings, func(a, b Finding) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		if a.Column != b.Column {
			return a.Column - b.Column
		}
		return strings.Compare(a.Code, b.Code)
	})
	l.rep.lines = map[int]string{}
	for _, d := range l.rep.Findings {
		if t, ok := l.text[d.Line]; ok {
			l.rep.lines[d.Line] = t
		}
	}
	return l.rep, l.work
}

type linter struct {
	ctx  context.Context // stops the cross-rule checks when done
	data []byte
	opts Options
	f    *robotstxt.File
	rep  *Report
	// lines within the parsing limit, by number
	lines []robotstxt.Line
	text  map[int]string
	cols  map[int]int // value column by line number
	html  bool
	// junk is set for an HTML page, a UTF-16 file or a binary file: every
	// line would be a finding, and html-file, utf16-file or binary-file
	// says it once. binary is set for the last, whose lines are not
	// reported at all.
	junk, binary bool
	// work counts the pattern comparisons and matcher calls of the
	// cross-rule checks, which stop at lintBudget: a hostile file (tens of
	// thousands of wildcard rules) must not make Run quadratic.
	work int
	// ties indexes each rule set's rules by kind and length, for
	// redundant-wildcard; built on first use.
	ties []*tieIndex
}

// spend records n units of work and reports whether the budget allows it.
func (l *linter) spend(n int) bool {
	if l.work > lintBudget {
		return false
	}
	before := l.work
	l.work += n
	if before>>14 != l.work>>14 && l.ctx.Err() != nil {
		l.work = lintBudget + 1 // the caller is gone: stop like at the budget
		return false
	}
	return l.work <= lintBudget
}

// checkCost approximates the cost of one matcher call on rules: literal
// rules are found by binary search, but the matcher may try every
// wildcard rule whose literal head matches.
func checkCost(rules []robotstxt.Rule) int {
	n := 0
	for _, r := range rules {
		if strings.ContainsAny(r.Pattern, "*$") {
			n++
		}
	}
	return 1 + n/4
}

// lintBudget bounds the cross-rule work per file; the largest file of the
// test corpus (31,847 rules) needs a tenth of it.
const lintBudget = 20_000_000

func (l *linter) add(line, col int, sev Severity, code, msg, hint string) {
	l.rep.Findings = append(l.rep.Findings, Finding{Line: line, Column: col, Severity: sev, Code: code, Message: msg, Hint: hint})
}

func (l *linter) body() {
	l.text = map[int]string{}
	l.cols = map[int]int{}
	var beyond *robotstxt.Line // first rule beyond the size limit
	limit := l.f.ParsedBytes()
	for ln := range robotstxt.Lines(l.data, robotstxt.Options{Profile: l.f.Profile(), MaxBytes: -1}) {
		if l.f.Truncated() && ln.Offset >= limit {
			if ln.Key == robotstxt.KeyAllow || ln.Key == robotstxt.KeyDisallow || ln.Key == robotstxt.KeyUserAgent {
				beyond = &ln
				break
			}
			continue
		}
		l.lines = append(l.lines, ln)
		l.text[ln.Num] = ln.Text
		if ln.ValueCol > 0 {
			l.cols[ln.Num] = ln.ValueCol
		}
	}
	l.html = robotsfetch.LooksLikeHTML(l.data) && !hasRules(l.f)
	if l.html {
		l.junk = true
		l.add(1, 1, Error, "html-file",
			"this is an HTML page, not a robots.txt: crawlers find no valid rules in it and may fetch everything",
			"serve the real robots.txt as text/plain, or a 404 status when there is none")
	}
	if isUTF16(l.data) {
		l.junk = true
		l.add(1, 1, Error, "utf16-file", "the file is UTF-16: crawlers read it as UTF-8 bytes and no line is read as written",
			"save the file as UTF-8")
	} else if !l.html && IsBinary(l.data) && !hasRules(l.f) {
		// An image, an archive, a compiled file: crawlers parse it all
		// the same (a NUL ends its line) and find no rule.
		l.junk, l.binary = true, true
		l.add(1, 1, Error, "binary-file",
			"the file is not text ("+plural(bytes.Count(l.data, []byte{0}), "NUL byte")+" and other control bytes): crawlers parse it as robots.txt all the same, a NUL ending its line, find no rule in it and may fetch everything",
			"serve the real robots.txt as UTF-8 text, or a 404 status when there is none")
	}
	l.parserDiags(beyond)
	if !l.binary {
		l.lineChecks()
	}
	l.empty()
	l.ruleChecks()
	l.groupChecks()
	l.extensionChecks()
	if !l.junk {
		l.mergedGroups()
	}
	l.sitemapChecks()
}

// parserDiags copies the parser's diagnostics, adding hints and details the
// parser leaves out. HTML pages make every tag line a finding; those are
// summed up by html-file instead.
func (l *linter) parserDiags(beyond *robotstxt.Line) {
	byNum := map[int]*robotstxt.Line{}
	for i := range l.lines {
		byNum[l.lines[i].Num] = &l.lines[i]
	}
	for _, d := range l.f.Diagnostics() {
		if l.junk && (d.Code == "no-separator" || d.Code == "missing-colon" || d.Code == "misspelled-key") {
			continue
		}
		if l.binary && d.Code != "size-limit" {
			continue // binary-file says it once
		}
		switch d.Code {
		case "invalid-value":
			if ln := byNum[d.Line]; ln != nil && d.Hint == "" {
				d.Hint = valueHints[ln.Key]
			}
		case "extension-outside-group":
			if d.Hint == "" {
				d.Hint = "move it below the User-agent line of the crawlers it is for"
			}
		case "size-limit":
			if beyond != nil {
				d.Message += "; the first line ignored is line " + strconv.Itoa(beyond.Num) + ": " + strings.TrimSpace(beyond.Text)
			}
		case "nul-byte", "invalid-utf8":
			if isUTF16(l.data) {
				continue // utf16-file says it once
			}
		case "invalid-agent":
			if ln := byNum[d.Line]; ln != nil {
				harmless, why := agentEffect(ln.Value)
				if harmless {
					d.Severity = Info
				}
				if why != "" {
					d.Message += "; " + why
				}
			}
		case "missing-colon":
			if ln := byNum[d.Line]; ln != nil && ln.Key == robotstxt.KeyUnknown {
				d.Hint = "write '" + ln.KeyText + ": " + ln.Value + "' if it is meant as a directive"
			}
		}
		l.rep.Findings = append(l.rep.Findings, Finding{Line: d.Line, Column: d.Column, Severity: d.Severity, Code: d.Code, Message: d.Message, Hint: d.Hint})
	}
}

var valueHints = map[robotstxt.Key]string{
	robotstxt.KeyCrawlDelay:    "give seconds as a number, e.g. 'Crawl-delay: 10'",
	robotstxt.KeyRequestRate:   "write requests/period, e.g. 'Request-rate: 1/10s' or 'Request-rate: 1/10s 0100-0600'",
	robotstxt.KeyVisitTime:     "write a UTC window hhmm-hhmm, e.g. 'Visit-time: 0100-0600'",
	robotstxt.KeyHost:          "write a host name, e.g. 'Host: www.example.com'",
	robotstxt.KeyCleanParam:    "write parameters joined by '&' and an optional path, e.g. 'Clean-param: ref&utm_source /shop/'",
	robotstxt.KeyContentSignal: "write key=yes|no pairs, e.g. 'Content-Signal: search=yes, ai-train=no'",
	robotstxt.KeyContentUsage:  "write key=y|n pairs, e.g. 'Content-Usage: train-ai=n'",
}

// IsBinary reports whether data is not text: more than one byte in 20 of
// its first 8 KiB are NUL bytes or other control characters (tab, LF, CR
// and form feed aside), and it has at least one NUL. A UTF-16 file is text
// in another encoding, not binary. Crawlers parse any body as robots.txt
// (Google's parser ends a line at a NUL), so a binary file is not
// refused: the linter reports binary-file when crawlers find no rule in
// it, and rep check warns before answering.
func IsBinary(data []byte) bool {
	b := data[:min(len(data), 8192)]
	if bytes.IndexByte(b, 0) < 0 || isUTF16(b) {
		return false
	}
	ctl := 0
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' || c == 0x7f {
			ctl++
		}
	}
	return ctl*20 > len(b)
}

func isUTF16(b []byte) bool {
	return len(b) >= 2 && (b[0] == 0xFF && b[1] == 0xFE || b[0] == 0xFE && b[1] == 0xFF)
}

func hasRules(f *robotstxt.File) bool {
	for _, g := range f.Groups() {
		if len(g.Rules) > 0 {
			return true
		}
	}
	return false
}

// knownKeys are the directive names did-you-mean suggestions pick from.
var knownKeys = []string{"User-agent", "Allow", "Disallow", "Sitemap", "Crawl-delay", "Request-rate",
	"Visit-time", "Host", "Clean-param", "Content-Signal", "Content-Usage"}

// noindexKeys are page-level directives people put in robots.txt.
var noindexKeys = map[string]bool{"noindex": true, "nofollow": true, "noarchive": true, "nosnippet": true,
	"noimageindex": true, "notranslate": true, "unavailable_after": true, "none": true}

func (l *linter) lineChecks() {
	crs, firstCR := 0, 0
	for i, ln := range l.lines {
		// CR CR LF (a CRLF file saved again with CRLF conversion) ends the
		// line, then adds an empty line: harmless for every parser.
		crcrlf := i+1 < len(l.lines) && l.lines[i+1].Text == "" && l.lines[i+1].End == "\r\n"
		if ln.End == "\r" && !crcrlf {
			if crs == 0 {
				firstCR = ln.Num
			}
			crs++
		}
		if i := strings.Index(ln.Text, "\uFEFF"); i >= 0 {
			msg := "byte order mark (U+FEFF) inside the file; it is only skipped at the very start"
			if ln.Key == robotstxt.KeyUnknown && strings.HasPrefix(ln.KeyText, "\uFEFF") {
				msg += ": the key '" + strings.TrimPrefix(ln.KeyText, "\uFEFF") + "' is read as an unknown key and the line is ignored"
			}
			l.add(ln.Num, i+1, Warning, "bom-not-at-start", msg, "delete the invisible U+FEFF character (bytes EF BB BF)")
		}
		if ln.Key != robotstxt.KeyUnknown || l.junk {
			continue
		}
		key := ln.KeyText
		if strings.HasPrefix(key, "\uFEFF") {
			continue // bom-not-at-start said why
		}
		lk := strings.ToLower(key)
		if noindexKeys[lk] {
			l.add(ln.Num, ln.KeyCol, Warning, "noindex-directive",
				"'"+key+"' in robots.txt is not supported: Google stopped reading it on 2019-09-01 and no major engine reads it",
				"use <meta name=\"robots\" content=\""+lk+"\"> or an 'X-Robots-Tag: "+lk+"' header, and let crawlers fetch the page so they see it")
			continue
		}
		if s, ok := didYouMean(lk); ok {
			l.add(ln.Num, ln.KeyCol, Warning, "unknown-directive",
				"unknown directive '"+key+"'; crawlers ignore the line. Did you mean '"+s+"'?",
				"write '"+s+": "+ln.Value+"'")
			continue
		}
		l.add(ln.Num, ln.KeyCol, Info, "unknown-directive", "unknown directive '"+key+"'; crawlers ignore the line",
			"remove the line or make it a comment with '#', unless a crawler you care about reads it")
	}
	if crs > 0 {
		msg := "line ends with a bare carriage return (CR)"
		if crs > 1 {
			msg = strconv.Itoa(crs) + " lines end with a bare carriage return (CR), the first here"
		}
		l.add(firstCR, len(l.textOf(firstCR))+1, Warning, "lone-cr",
			msg+"; Google accepts it, but tools that split lines on LF read the file as one line",
			"save the file with LF (or CRLF) line ends")
	}
}

func (l *linter) textOf(n int) string { return l.text[n] }

// didYouMean returns the known directive closest to key when it is a
// plausible misspelling: an edit distance of at most 2 (1 for short keys).
func didYouMean(key string) (string, bool) {
	best, bestD := "", 1<<30
	for _, k := range knownKeys {
		d := crawlers.EditDistance(key, strings.ToLower(k))
		if d < bestD {
			best, bestD = k, d
		}
	}
	limit := 2
	if len(key) <= 5 {
		limit = 1
	}
	if bestD == 0 || bestD > limit {
		return "", false
	}
	return best, true
}

// empty reports a file with nothing for crawlers in it.
func (l *linter) empty() {
	for _, ln := range l.lines {
		if ln.Key != robotstxt.KeyNone {
			return
		}
	}
	if l.html {
		return
	}
	msg := "the file is empty: every crawler may fetch everything"
	if len(bytes.TrimSpace(l.data)) > 0 {
		msg = "the file has only comments and blank lines: every crawler may fetch everything"
	}
	l.add(1, 1, Warning, "empty-file", msg,
		"if that is what you mean, serve a 404 or write 'User-agent: *' and 'Disallow:'")
}

// extensionChecks reports directives the engine ignores.
func (l *linter) extensionChecks() {
	groups := l.f.Groups()
	for _, e := range l.f.Extensions() {
		col := 1
		if t, ok := l.text[e.Line]; ok {
			col = strings.Index(t, e.Name) + 1
		}
		if e.Key == robotstxt.KeyCrawlDelay && e.Group >= 0 && e.Group < len(groups) {
			if ops := crawlDelayIgnoredBy(groups[e.Group]); ops != nil {
				who := strings.Join(ops, " and ") + " ignore"
				if len(ops) == 1 {
					who += "s"
				}
				l.add(e.Line, max(col, 1), Warning, "crawl-delay-ignored",
					"Crawl-delay in a group for "+tokenList(groups[e.Group].Agents)+" only: "+who+" Crawl-delay, so it does not slow them down",
					crawlDelayHint(ops))
				continue // says more than ignored-directive would
			}
		}
		why := ignoredBy(l.opts.Engine, e.Key)
		if why == "" {
			continue
		}
		l.add(e.Line, max(col, 1), Info, "ignored-directive", why, ignoredHint(l.opts.Engine, e.Key))
	}
}

// crawlDelayIgnoredBy returns the operators of the crawlers a group names
// when the crawler registry documents every one of them as ignoring
// Crawl-delay (Google's crawlers, Yandex's since 2018), else nil: a group
// that also names '*' or a crawler that may read it is not reported.
func crawlDelayIgnoredBy(g robotstxt.Group) []string {
	var ops []string
	for _, tok := range g.Tokens {
		c, ok := crawlers.ByName(tok)
		if !ok || c.CrawlDelay != crawlers.No || c.Operator == "" {
			return nil
		}
		if !slices.Contains(ops, c.Operator) {
			ops = append(ops, c.Operator)
		}
	}
	return ops
}

func crawlDelayHint(ops []string) string {
	switch {
	case len(ops) == 1 && ops[0] == "Google":
		return "Google sets its crawl rate by your server's responses (answer 500, 503 or 429 to slow it down for a while); delete the line, or move it to a group for crawlers that read it (bingbot)"
	case len(ops) == 1 && ops[0] == "Yandex":
		return "set the crawl rate in Yandex Webmaster; delete the line"
	}
	return "delete the line: no crawler of this group reads it"
}

func ignoredBy(p engine.Engine, k robotstxt.Key) string {
	switch p {
	case engine.Google:
		switch k {
		case robotstxt.KeyCrawlDelay, robotstxt.KeyRequestRate, robotstxt.KeyVisitTime, robotstxt.KeyHost, robotstxt.KeyCleanParam:
			return "Google ignores " + k.String() + ": it reads only User-agent, Allow, Disallow and Sitemap"
		}
	case engine.Bing:
		switch k {
		case robotstxt.KeyRequestRate, robotstxt.KeyVisitTime, robotstxt.KeyHost, robotstxt.KeyCleanParam:
			return "Bing ignores " + k.String() + " (it honours Crawl-delay)"
		}
	case engine.Yandex:
		switch k {
		case robotstxt.KeyCrawlDelay:
			return "Yandex has ignored Crawl-delay since 2018-02-22"
		case robotstxt.KeyHost:
			return "Yandex deprecated Host in 2018; it no longer picks the main mirror from it"
		case robotstxt.KeyRequestRate, robotstxt.KeyVisitTime:
			return "Yandex ignores " + k.String()
		}
	case engine.RFC9309:
		switch k {
		case robotstxt.KeyCrawlDelay, robotstxt.KeyRequestRate, robotstxt.KeyVisitTime, robotstxt.KeyHost, robotstxt.KeyCleanParam, robotstxt.KeyContentSignal, robotstxt.KeyContentUsage:
			return k.String() + " is not part of RFC 9309: crawlers may ignore it"
		}
	}
	return ""
}

func ignoredHint(p engine.Engine, k robotstxt.Key) string {
	switch {
	case p == engine.Yandex && k == robotstxt.KeyCrawlDelay:
		return "set the crawl rate in Yandex Webmaster; keep the line only for crawlers that read it (Bing)"
	case p == engine.Yandex && k == robotstxt.KeyHost:
		return "redirect the other mirrors to the main host with 301s; the line can go"
	case p == engine.Google && k == robotstxt.KeyCrawlDelay:
		return "Google adjusts its crawl rate to your server's responses; keep the line only for crawlers that read it (Bing)"
	}
	return "keep the line only if a crawler you care about reads it"
}

// sitemapChecks reports Sitemap lines that are not absolute URLs, or that
// point to another host than the file's.
func (l *linter) sitemapChecks() {
	var self *url.URL
	if l.opts.URL != "" {
		if u, err := url.Parse(l.opts.URL); err == nil && u.Host != "" {
			self = u
		}
	}
	for _, s := range l.f.Sitemaps() {
		col := 1
		if t, ok := l.text[s.Line]; ok && s.URL != "" {
			col = strings.Index(t, s.URL) + 1
		}
		u, err := url.Parse(s.URL)
		switch {
		case s.URL == "":
			l.add(s.Line, max(col, 1), Warning, "sitemap-url", "Sitemap line without a URL", "write the sitemap's full URL, e.g. 'Sitemap: https://www.example.com/sitemap.xml'")
			continue
		case err != nil:
			l.add(s.Line, max(col, 1), Warning, "sitemap-url", "Sitemap URL '"+s.URL+"' does not parse", "write the sitemap's full URL, e.g. 'Sitemap: https://www.example.com/sitemap.xml'")
			continue
		case u.Scheme == "" || u.Host == "":
			hint := "write the full URL, e.g. 'Sitemap: https://www.example.com/sitemap.xml'"
			if self != nil {
				ref := self.ResolveReference(u)
				hint = "write the full URL: 'Sitemap: " + ref.String() + "'"
			}
			l.add(s.Line, max(col, 1), Warning, "sitemap-url", "Sitemap '"+s.URL+"' is not an absolute URL; Google ignores it", hint)
			continue
		case u.Scheme != "http" && u.Scheme != "https":
			l.add(s.Line, max(col, 1), Warning, "sitemap-url", "Sitemap '"+s.URL+"' is not an http(s) URL", "serve the sitemap over https")
			continue
		}
		if self != nil && !strings.EqualFold(u.Hostname(), self.Hostname()) {
			l.add(s.Line, max(col, 1), Info, "sitemap-other-host",
				"Sitemap is on "+u.Hostname()+", not on "+self.Hostname()+" where this robots.txt is",
				"this cross-host submission is allowed; check the host name is the one you mean")
		}
	}
}

// fetch reports what the HTTP answer means for crawlers.
func (l *linter) fetch(o *robotsfetch.Outcome) {
	if o.Status == 0 {
		why := o.Error
		if why == "" {
			why = o.Case.Explain()
		}
		l.add(0, 0, Error, "fetch-unreachable", "robots.txt could not be fetched ("+why+"): crawlers assume every URL is disallowed (RFC 9309 §2.3.1.4)",
			"make sure the host resolves and serves /robots.txt")
		return
	}
	chain := append([]string{o.URL}, o.Redirects...)
	if n := len(chain) - 1; n > 0 {
		msg := "robots.txt is redirected " + plural(n, "time") + ": " + strings.Join(chain, " -> ")
		if o.Status >= 300 && o.Status < 400 {
			l.add(0, 0, Error, "fetch-redirect", msg+", and redirects again (status "+statusText(o.Status)+"): after 5 redirects Google treats robots.txt as not found and crawls everything",
				"point the robots.txt URL directly (or in one redirect) at the file")
			return
		}
		first, last := chain[0], chain[n]
		u0, e0 := url.Parse(first)
		u1, e1 := url.Parse(last)
		if e0 == nil && e1 == nil && !strings.EqualFold(u0.Host, u1.Host) {
			msg += "; crawlers apply the file they reach to " + u0.Host
		}
		l.add(0, 0, Info, "fetch-redirect", msg, "fine for http->https and www redirects; otherwise serve the file directly")
	}
	switch s := o.Status; {
	case s >= 200 && s < 300:
	case s == 429 || s >= 500:
		l.add(0, 0, Error, "fetch-status", "status "+statusText(s)+": robots.txt is unreachable and crawlers assume every URL is disallowed (RFC 9309 §2.3.1.4)",
			"serve robots.txt with status 200 (or 404 for no rules)")
	case s >= 400:
		msg := "status " + statusText(s) + ": robots.txt is unavailable and crawlers may fetch every URL (RFC 9309 §2.3.1.3)"
		if s == 401 || s == 403 {
			msg += "; Google treats " + strconv.Itoa(s) + " like 404"
		}
		l.add(0, 0, Warning, "fetch-status", msg, "serve robots.txt with status 200, or keep the 404 if you want no rules")
	case s >= 300:
		l.add(0, 0, Error, "fetch-status", "status "+statusText(s)+" without a redirect that could be followed: crawlers treat robots.txt as not found",
			"serve robots.txt with status 200")
	default:
		l.add(0, 0, Error, "fetch-status", "unexpected status "+strconv.Itoa(s), "serve robots.txt with status 200")
	}
	if o.Status >= 200 && o.Status < 300 {
		ct := strings.ToLower(o.ContentType)
		mt, params, _ := strings.Cut(ct, ";")
		mt = strings.TrimSpace(mt)
		switch {
		case ct == "":
			l.add(0, 0, Warning, "fetch-content-type", "robots.txt is served without a Content-Type", "serve it as 'text/plain; charset=utf-8'")
		case mt != "text/plain":
			l.add(0, 0, Warning, "fetch-content-type", "robots.txt is served as "+mt+", not text/plain (RFC 9309 §2.3)", "serve it as 'text/plain; charset=utf-8'")
		default:
			if i := strings.Index(params, "charset="); i >= 0 {
				cs := strings.Trim(strings.TrimSpace(params[i+len("charset="):]), `"`)
				if cs != "utf-8" && cs != "utf8" && cs != "us-ascii" {
					l.add(0, 0, Warning, "fetch-content-type", "robots.txt is served with charset "+cs+"; RFC 9309 §2.3 requires UTF-8", "save the file as UTF-8 and serve it as 'text/plain; charset=utf-8'")
				}
			}
		}
	}
}

func statusText(s int) string {
	if t := statusNames[s]; t != "" {
		return strconv.Itoa(s) + " " + t
	}
	return strconv.Itoa(s)
}

var statusNames = map[int]string{301: "Moved Permanently", 302: "Found", 303: "See Other", 307: "Temporary Redirect",
	308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 410: "Gone",
	429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout"}

func plural(n int, w string) string {
	if n == 1 {
		return "1 " + w
	}
	return strconv.Itoa(n) + " " + w + "s"
}

// agents builds the per-crawler view, each crawler resolved by verdict.Agent
// (the registry's fallback chains and * group exceptions, its engine's
// Crawl-delay reading), as every door of rep resolves it.
func (l *linter) agents() {
	files := map[robotstxt.Options]*robotstxt.File{l.opts.Engine.ParseOptions(): l.f}
	for _, a := range l.opts.Agents {
		// An agent's view is its engine's reading of the file, which may
		// group it differently from the report's engine (Crawl-delay).
		f := files[a.ParseOptions()]
		if f == nil {
			f = robotstxt.ParseWith(l.data, a.ParseOptions())
			files[a.ParseOptions()] = f
		}
		g := a.Group(f)
		v := AgentView{Name: a.Name, Engine: a.Engine, Notes: a.Notes, Kind: crawlers.KindOf(a.Crawler), Group: g.Group(), Rules: g.Rules(), file: f, crawler: a.Crawler}
		in := map[int]bool{}
		for _, r := range v.Rules {
			in[r.Line] = true
		}
		for _, grp := range f.Groups() {
			for _, r := range grp.Rules {
				if !in[r.Line] {
					v.Ignored = append(v.Ignored, r)
				}
			}
		}
		if _, line, fromStar, ok := a.CrawlDelay(f); ok {
			v.CrawlDelay, v.CrawlDelayInherited = line, fromStar
		}
		l.rep.Agents = append(l.rep.Agents, v)
	}
}

// agentEffect says whether a User-agent value that is not a product token
// misleads no crawler, and why. Google's parser (and
// every crawler reading as Google does) keeps the value's leading letters,
// '-' and '_'; the crawler the value names reads its own name whole.
// Nobody is misled when the name Google reads is the one meant
// ("Googlebot/2.1", "Mediapartners-Google*", "Baiduspider+"), or when it
// is no crawler's at all and the rest names no other crawler ("MJ12bot"
// read as "MJ", "008" as nothing). It misleads when the name Google reads
// is another crawler's ("Googlebot2" is obeyed by Googlebot), or when
// the value names a second crawler that no parser will match
// ("Googlebot, bingbot").
func agentEffect(v string) (harmless bool, why string) {
	n := 0
	for n < len(v) && isTokenByte(v[n]) {
		n++
	}
	if n == len(v) {
		return false, ""
	}
	cut, rest := v[:n], v[n:]
	// Another crawler named later in the value is matched by no parser.
	other := ""
	for _, w := range strings.FieldsFunc(rest, func(r rune) bool { return r >= 0x80 || !isTokenByte(byte(r)) }) {
		if retired, known := knownToken(w); known && !retired {
			other = w
			break
		}
	}
	_, known := knownToken(cut)
	switch {
	case known && strings.ContainsRune("/*+(", rune(rest[0])):
		return true, "harmless: that is the crawler meant, and the rest ('" + rest + "') is a version or pattern crawlers do not need"
	case other != "":
		return false, other + " does not obey this group: one User-agent line names one crawler"
	case known:
		return false, cut + " obeys this group, though the value names something else"
	}
	if cut == "" {
		return true, "harmless: no crawler has an empty name, and the crawler named reads its own name"
	}
	return true, "harmless: no crawler the registry knows is named '" + cut + "', and the crawler named reads its own name"
}

// knownToken reports whether tok names a registry crawler or group;
// retired is set for a retired crawler.
func knownToken(tok string) (retired, ok bool) {
	if tok == "" {
		return false, false
	}
	if c, ok := crawlers.ByName(tok); ok {
		return c.Retired, true
	}
	for _, g := range crawlers.Groups() {
		if strings.EqualFold(g.Token, tok) {
			return false, true
		}
	}
	return false, false
}

func isTokenByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_'
}
