package server

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/internal/urlhead"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
	"github.com/rep-toolkit/rep/verdict"
)

// maxURLs caps the URLs of one check request; the body cap already bounds
// the work, this keeps the answer readable.
const maxURLs = 10000

// checkRequest is the body of POST /api/check. Other tools script against
// it: keep the field names.
type checkRequest struct {
	Robots *string  `json:"robots"`
	Agent  string   `json:"agent"`
	URLs   []string `json:"urls"`
	// Profile is the engine whose rules apply (google, bing, yandex,
	// rfc9309); empty follows the agent.
	Profile string `json:"profile,omitempty"`
	// ParserOnly asks for the bare parser's answer: no registry fallback
	// chains or * group exceptions.
	ParserOnly bool `json:"parser_only,omitempty"`
}

// groupJSON is the group the crawler obeys, for every URL of the request.
type groupJSON struct {
	// Agent is the token that selected the group ("*" for the star group,
	// "" when none applies); Why says how it was chosen.
	Agent string `json:"agent"`
	Why   string `json:"why"`
	// Lines are the user-agent lines of the groups merged into it.
	Lines []int `json:"lines"`
	// RuleLines are the lines of the rules in force.
	RuleLines []int `json:"rule_lines"`
}

type sitemapJSON struct {
	URL  string `json:"url"`
	Line int    `json:"line"`
}

// crawlDelayJSON is the Crawl-delay line of the group, whether or not the
// engine reads it.
type crawlDelayJSON struct {
	Seconds float64 `json:"seconds"`
	Line    int     `json:"line"`
}

// delayJSON is the interval the agent's engine reads from the file
// (rep.Agent.SiteDelay): From says where it comes from.
type delayJSON struct {
	Seconds float64 `json:"seconds"`
	From    string  `json:"from"`
}

// checkResponse is the answer of POST /api/check: the crawler as resolved
// (the fields of the verdict shape), its group, and one verdict per URL in
// the verdict shape of rep.Decision.
type checkResponse struct {
	Agent      string   `json:"agent"`
	Engine     string   `json:"engine"`
	Tokens     []string `json:"tokens"`
	ParserOnly bool     `json:"parser_only"`
	// Notes say what the crawler registry changed about the answer, each
	// only where it applies to this file (verdict.NotesFor).
	Notes []string `json:"notes"`
	// DidYouMean are the registry names a name it does not know may be a
	// misspelling of (crawlers.Suggest); absent for a known name.
	DidYouMean []string  `json:"did_you_mean,omitempty"`
	Group      groupJSON `json:"group"`
	// Results are in the order of the URLs: a verdict, or for a URL that
	// is neither a path nor an absolute http(s) URL, the verdict fields
	// left empty and "error" (with "status" 400); the other URLs are
	// still checked.
	Results    []batchItem     `json:"results"`
	Sitemaps   []sitemapJSON   `json:"sitemaps"`
	CrawlDelay *crawlDelayJSON `json:"crawl_delay,omitempty"`
	Delay      *delayJSON      `json:"delay,omitempty"`
	Size       int             `json:"size"`
	// Truncated is set when the file is over the 500 KiB crawlers read:
	// they read ParsedBytes bytes, lines 1 to ParsedLines, and ignore
	// the rest.
	Truncated   bool `json:"truncated"`
	ParsedBytes int  `json:"parsed_bytes"`
	ParsedLines int  `json:"parsed_lines"`
}

func (s *Server) handleCheck(w http.ResponseWriter, r *http.Request) {
	var req checkRequest
	if !decodeBody(w, r, &req) {
		return
	}
	if req.Robots == nil {
		writeError(w, http.StatusBadRequest, `missing field "robots": the robots.txt text (an empty string is an empty file)`)
		return
	}
	a, err := newAgent(req.Agent, req.Profile, req.ParserOnly)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if req.URLs == nil {
		writeError(w, http.StatusBadRequest, `missing field "urls": a list of URLs or paths to check, e.g. ["/private/x"]`)
		return
	}
	if len(req.URLs) > maxURLs {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("%d URLs: at most %d per request", len(req.URLs), maxURLs))
		return
	}
	data := []byte(*req.Robots)
	opts := a.ParseOptions()
	f := robotstxt.ParseWith(data, opts)
	g := a.Group(f)
	ns := verdict.NotesFor(a, g.Group())
	if ns == nil {
		ns = []string{}
	}
	resp := checkResponse{
		Agent: a.Name, Engine: a.Engine.String(), Tokens: a.Tokens, ParserOnly: a.ParserOnly, Notes: ns,
		DidYouMean: verdict.Suggestions(a),
		Group:      groupOf(g), Results: make([]batchItem, len(req.URLs)),
		Sitemaps: sitemapsOf(f), Size: f.Size(), Truncated: f.Truncated(), ParsedBytes: f.ParsedBytes(),
	}
	for l := range robotstxt.Lines(data, opts) {
		if l.End != "" || l.Text != "" { // not the empty rest after the last line end
			resp.ParsedLines = l.Num
		}
	}
	for i, u := range req.URLs {
		if err := checkTarget(u); err != nil {
			resp.Results[i] = batchItem{d: rep.Decision{URL: u, Agent: a}, err: err, status: http.StatusBadRequest, msg: err.Error()}
			s.metrics.answer(answerCheck, false, err)
			continue
		}
		d := a.Decide(f, u)
		resp.Results[i] = batchItem{d: d}
		s.metrics.answer(answerCheck, d.Allowed, nil)
	}
	if d, line, ok := g.CrawlDelay(); ok {
		resp.CrawlDelay = &crawlDelayJSON{Seconds: d.Seconds(), Line: line}
	}
	if d, from, ok := a.SiteDelay(&robotsfetch.Robots{File: f}); ok {
		resp.Delay = &delayJSON{Seconds: d.Seconds(), From: from}
	}
	writeJSON(w, http.StatusOK, resp)
}

func groupOf(a *robotstxt.Matcher) groupJSON {
	g := a.Group()
	j := groupJSON{Agent: g.Agent, Why: g.Via.String(), Lines: g.Lines, RuleLines: []int{}}
	if j.Lines == nil {
		j.Lines = []int{}
	}
	for _, r := range a.Rules() {
		j.RuleLines = append(j.RuleLines, r.Line)
	}
	return j
}

func sitemapsOf(f *robotstxt.File) []sitemapJSON {
	out := []sitemapJSON{}
	for _, sm := range f.Sitemaps() {
		out = append(out, sitemapJSON{URL: sm.URL, Line: sm.Line})
	}
	return out
}

// checkTarget accepts an absolute http(s) URL or a path, as a crawler
// would request them.
func checkTarget(u string) error {
	if u == "" {
		return fmt.Errorf("empty URL")
	}
	if strings.HasPrefix(u, "/") {
		return nil
	}
	// Only the scheme and authority must parse; see originTarget.
	p, err := urlhead.Parse(u)
	if err != nil {
		return fmt.Errorf("%q does not parse: %v", u, err)
	}
	switch strings.ToLower(p.Scheme) {
	case "http", "https":
		if p.Host == "" {
			return fmt.Errorf("%q has no host", u)
		}
		return nil
	case "":
		return fmt.Errorf("%q is neither an absolute URL (https://host/path) nor a path starting with /", u)
	}
	return fmt.Errorf("%q: scheme %q is not http or https", u, p.Scheme)
}

// lintFinding is one problem on one line.
type lintFinding struct {
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Message  string `json:"message"`
	Hint     string `json:"hint,omitempty"`
}

type lintRequest struct {
	Robots *string `json:"robots"`
	// Profile is the engine whose reading is checked: google (the
	// default), bing, yandex or rfc9309.
	Profile string `json:"profile,omitempty"`
	// URL is where the file is served, when known: Sitemap lines are
	// then checked against its host.
	URL string `json:"url,omitempty"`
}

type lintResponse struct {
	Findings []lintFinding `json:"findings"`
	// FindingsTotal counts every finding; past MaxLintFindings only the
	// first are in Findings.
	FindingsTotal int  `json:"findings_total"`
	Lines         int  `json:"lines"`
	Size          int  `json:"size"`
	Truncated     bool `json:"truncated"`
}

func (s *Server) handleLint(w http.ResponseWriter, r *http.Request) {
	var req lintRequest
	if !decodeBody(w, r, &req) {
		return
	}
	if req.Robots == nil {
		writeError(w, http.StatusBadRequest, `missing field "robots": the robots.txt text to lint`)
		return
	}
	e, err := parseEngine(req.Profile)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	e = e.Or(engine.Google) // no agent to follow
	data := []byte(*req.Robots)
	opts := e.ParseOptions() // bing and yandex: Google's parser, Crawl-delay a group member
	f := robotstxt.ParseWith(data, opts)
	findings, total, err := lintFindings(r.Context(), data, e, req.URL)
	if err != nil {
		return
	}
	resp := lintResponse{Findings: findings, FindingsTotal: total, Size: f.Size(), Truncated: f.Truncated()}
	for range robotstxt.Lines(data, opts) {
		resp.Lines++
	}
	writeJSON(w, http.StatusOK, resp)
}
