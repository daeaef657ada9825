package lint

import (
	"bytes"
	"context"
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

func plural(n int, w string) string {
	if n == 1 {
		return "1 " + w
	}
	return strconv.Itoa(n) + " " + w + "s"
}
