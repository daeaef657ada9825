package server

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/internal/urlhead"
	"github.com/rep-toolkit/rep/robotstxt"
)

// maxURLs caps the URLs of one check request; the body cap already bounds
// the work, this keeps the answer readable.
const maxURLs = 10000

// maxAgent caps the agent string (a full User-Agent header is rarely over
// 300 bytes).
const maxAgent = 1024

// checkRequest is the body of POST /api/check. Other tools script against
// it: keep the field names.
type checkRequest struct {
	Robots  *string  `json:"robots"`
	Agent   string   `json:"agent"`
	URLs    []string `json:"urls"`
	Profile string   `json:"profile,omitempty"`
}

// checkResult is one verdict. url, allowed, line and rule are a contract.
type checkResult struct {
	URL     string `json:"url"`
	Allowed bool   `json:"allowed"`
	Line    int    `json:"line"`
	Rule    string `json:"rule"`
	Reason  string `json:"reason"`
}

// groupJSON explains which group the crawler obeys and why.
type groupJSON struct {
	// Agent is the token that selected the group ("*" for the star group,
	// "" when none applies).
	Agent string `json:"agent"`
	// Via is one of token, fallback, star, none; Why says it in words.
	Via string `json:"via"`
	Why string `json:"why"`
	// Lines are the user-agent lines of the groups merged into it.
	Lines []int `json:"lines"`
	// RuleLines are the lines of the rules in force.
	RuleLines []int `json:"rule_lines"`
}

type sitemapJSON struct {
	URL  string `json:"url"`
	Line int    `json:"line"`
}

type crawlDelayJSON struct {
	Seconds float64 `json:"seconds"`
	Line    int     `json:"line"`
}

type checkResponse struct {
	Agent string `json:"agent"`
	// Tokens is the fallback chain matched, most specific first.
	Tokens []string `json:"tokens"`
	// Explicit is set for crawlers that ignore the * group.
	Explicit   bool            `json:"explicit"`
	Note       string          `json:"note,omitempty"`
	Profile    string          `json:"profile"`
	Group      groupJSON       `json:"group"`
	Results    []checkResult   `json:"results"`
	Sitemaps   []sitemapJSON   `json:"sitemaps"`
	CrawlDelay *crawlDelayJSON `json:"crawl_delay,omitempty"`
	Size       int             `json:"size"`
	Truncated  bool            `json:"truncated"`
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
	prof, ok := parseProfile(req.Profile)
	if !ok {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("unknown profile %q: use google or rfc9309", req.Profile))
		return
	}
	ag, msg := s.resolveAgent(req.Agent)
	if msg != "" {
		writeError(w, http.StatusBadRequest, msg)
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
	for i, u := range req.URLs {
		if err := checkTarget(u); err != nil {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("urls[%d]: %v", i, err))
			return
		}
	}
	f := robotstxt.ParseWith([]byte(*req.Robots), robotstxt.Options{Profile: prof})
	a := ag.of(f)
	resp := checkResponse{
		Agent: req.Agent, Tokens: ag.chain, Explicit: ag.explicit, Note: ag.note,
		Profile: prof.String(), Group: groupOf(a), Results: make([]checkResult, len(req.URLs)),
		Sitemaps: sitemapsOf(f), Size: f.Size(), Truncated: f.Truncated(),
	}
	for i, u := range req.URLs {
		d := a.Check(u)
		resp.Results[i] = checkResult{URL: u, Allowed: d.Allowed, Line: d.Rule.Line, Rule: d.Rule.String(), Reason: d.Reason.String()}
	}
	if d, line, ok := a.CrawlDelay(); ok {
		resp.CrawlDelay = &crawlDelayJSON{Seconds: d.Seconds(), Line: line}
	}
	writeJSON(w, http.StatusOK, resp)
}

func parseProfile(s string) (robotstxt.Profile, bool) {
	if s == "" {
		return robotstxt.Google, true
	}
	return robotstxt.ParseProfile(s)
}

var viaCode = [...]string{robotstxt.ViaNone: "none", robotstxt.ViaToken: "token", robotstxt.ViaFallback: "fallback", robotstxt.ViaStar: "star"}

func groupOf(a *robotstxt.Agent) groupJSON {
	g := a.Group()
	j := groupJSON{Agent: g.Agent, Why: g.Via.String(), Lines: g.Lines, RuleLines: []int{}}
	if int(g.Via) < len(viaCode) {
		j.Via = viaCode[g.Via]
	}
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
	// Profile is the engine whose reading is checked: google (default),
	// bing, yandex or rfc9309 (package engine's names).
	Profile string `json:"profile,omitempty"`
	// URL is where the file is served, when known: Sitemap lines are
	// then checked against its host.
	URL string `json:"url,omitempty"`
}

type lintResponse struct {
	Findings  []lintFinding `json:"findings"`
	Lines     int           `json:"lines"`
	Size      int           `json:"size"`
	Truncated bool          `json:"truncated"`
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
	e, err := engine.Parse(req.Profile)
	if err != nil {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("unknown profile %q: use %s", req.Profile, engine.Names))
		return
	}
	e = e.Or(engine.Google)
	data := []byte(*req.Robots)
	opts := robotstxt.Options{Profile: e.Parser()} // bing and yandex are read with Google's parser
	f := robotstxt.ParseWith(data, opts)
	resp := lintResponse{Findings: lintFindings(data, e, req.URL), Size: f.Size(), Truncated: f.Truncated()}
	for range robotstxt.Lines(data, opts) {
		resp.Lines++
	}
	writeJSON(w, http.StatusOK, resp)
}
