package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"strings"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/aipref"
	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotsmeta"
	"github.com/rep-toolkit/rep/robotstxt"
	"github.com/rep-toolkit/rep/verdict"
)

// maxPageBytes caps the body read from a fetched page. Google reads 15 MiB;
// a shared service reads less, and says so in a diagnostic when it stops.
const maxPageBytes = 5 << 20

// maxPageAgents caps the crawlers of one page request.
const maxPageAgents = 32

// defaultPageAgents are the crawlers the page tab shows when the request
// names none: the main search engines, each under its own profile, and the
// AI crawlers site owners most often ask about.
var defaultPageAgents = []string{"Googlebot", "Googlebot-Image", "bingbot", "YandexBot", "Applebot", "GPTBot", "ClaudeBot", "CCBot"}

type pageRequest struct {
	// URL is fetched unless Headers or HTML is given; then it only names
	// the page for the robots.txt check.
	URL     string `json:"url,omitempty"`
	Headers string `json:"headers,omitempty"`
	HTML    string `json:"html,omitempty"`
	// Robots, when given, is the robots.txt to test URL against; else it
	// is fetched (when the server can fetch).
	Robots *string  `json:"robots,omitempty"`
	Agents []string `json:"agents,omitempty"`
	// Profile is the engine whose rules apply to every agent (google,
	// bing, yandex, rfc9309); empty: each follows its own.
	Profile string `json:"profile,omitempty"`
	// ParserOnly asks for the bare parser's robots.txt answer.
	ParserOnly bool `json:"parser_only,omitempty"`
}

type pageValue struct {
	Field string `json:"field"`
	// Value is the effective value: a boolean (true = allowed), a number,
	// a string, or null when no rule set it.
	Value any `json:"value"`
	// Rule and Source say where a non-default value came from.
	Rule   string `json:"rule,omitempty"`
	Source string `json:"source,omitempty"`
	Line   int    `json:"line,omitempty"`
}

type pageCrawler struct {
	// The crawler as a crawl's start event gives it: its kind
	// (crawlers.Kind: search, ai-training, control-token, unknown...),
	// which decides whether "indexable" means anything for it; the engine
	// whose rules apply, robots.txt and page-level alike; the notes that
	// apply to this answer (verdict.NotesFor), as /api/check's do; and
	// the registry names an unknown name may be a misspelling of.
	crawlAgentJSON
	// Meaning says, for a crawler that keeps no index (AI training, ads,
	// a control token...), what robots.txt's answer means for it
	// (crawlers.Kind.Refused or Allowed); empty for an indexer, whose
	// answer is whether the page is indexable.
	Meaning string `json:"meaning,omitempty"`
	// Robots is the robots.txt verdict for the page's URL, when known, in
	// the verdict shape of rep.Decision (the notes above). Its fetch is
	// given only when the verdict rests on it; the outcome is in the
	// answer's robots.outcome.
	Robots *rep.Decision `json:"robots,omitempty"`
	// Blocked is set when robots.txt disallows the page: the crawler never
	// fetches it, so it never sees the directives below.
	Blocked bool `json:"blocked"`
	// Action says in words what the crawler does with the page
	// (rep.PageVerdict.Action), as rep page does.
	Action string `json:"action"`
	// Values are the page's rules for the crawler; empty when the page
	// was not fetched (every crawler asked is blocked): the rules are
	// then never seen, and no default value stands in for them.
	Values []pageValue `json:"values"`
	// NotRead lists the sources whose rules this crawler's engine does
	// not read at all (robotsmeta.Source.NotRead): a Robots-Tag member
	// under google, bing or yandex rules.
	NotRead []pageNotRead `json:"not_read,omitempty"`
	// Usage is the page's usage-preference verdict for the crawler
	// (rep.PageUsage): robots.txt's statements for the URL (those of
	// Robots.usage) with the page's Content-Usage header, TDMRep header
	// or meta, noai/noimageai and, for a fetched page, the site's
	// /.well-known/tdmrep.json (the answer's tdmrep).
	Usage aipref.Usage `json:"usage"`
}

type sourceJSON struct {
	Kind   string `json:"kind"` // header or meta
	Name   string `json:"name"`
	Value  string `json:"value"`
	Line   int    `json:"line"`
	Column int    `json:"column,omitempty"`
	InBody bool   `json:"in_body,omitempty"`
	Where  string `json:"where"`
}

type pageDiag struct {
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Message  string `json:"message"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
}

// pageNotRead is a source an engine does not read: its index in the
// answer's sources, where it is, and why.
type pageNotRead struct {
	Source int    `json:"source"`
	Where  string `json:"where"`
	Note   string `json:"note"`
}

type pageFetchJSON struct {
	URL         string   `json:"url"`
	FinalURL    string   `json:"final_url"`
	Status      int      `json:"status"`
	ContentType string   `json:"content_type"`
	Redirects   []string `json:"redirects"`
	Bytes       int64    `json:"bytes"`
	DurationMS  float64  `json:"duration_ms"`
}

type pageRobotsJSON struct {
	// Source is "pasted", "fetched" or "none".
	Source string `json:"source"`
	Note   string `json:"note,omitempty"`
	// Outcome is how the site's robots.txt was fetched, when it was.
	Outcome *robotsfetch.Outcome `json:"outcome,omitempty"`
}

type pageResponse struct {
	URL         string         `json:"url,omitempty"`
	Fetch       *pageFetchJSON `json:"fetch,omitempty"`
	Robots      pageRobotsJSON `json:"robots"`
	Crawlers    []pageCrawler  `json:"crawlers"`
	Sources     []sourceJSON   `json:"sources"`
	Diagnostics []pageDiag     `json:"diagnostics"`
	Charset     string         `json:"charset,omitempty"`
	Stop        string         `json:"stop"`
	BytesRead   int64          `json:"bytes_read"`
	// TDMRep is the fetch of the site's /.well-known/tdmrep.json, for a
	// fetched page (rep.FetchTDMRep, through the guarded page client).
	TDMRep *rep.TDMRepFetch `json:"tdmrep,omitempty"`
}

func (s *Server) handlePage(w http.ResponseWriter, r *http.Request) {
	var req pageRequest
	if !decodeBody(w, r, &req) {
		return
	}
	agents := req.Agents
	if len(agents) == 0 {
		agents = defaultPageAgents
	}
	if len(agents) > maxPageAgents {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("%d agents: at most %d", len(agents), maxPageAgents))
		return
	}
	resolved := make([]*rep.Agent, len(agents))
	for i, name := range agents {
		a, err := newAgent(name, req.Profile, req.ParserOnly)
		if err != nil {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("agents[%d]: %v", i, err))
			return
		}
		resolved[i] = a
	}
	pasted := req.Headers != "" || req.HTML != ""
	if !pasted && req.URL == "" {
		writeError(w, http.StatusBadRequest, `give "url" to fetch a page, or "headers" and/or "html" to read pasted ones`)
		return
	}
	if req.URL != "" {
		if err := checkTarget(req.URL); err != nil || (!pasted && strings.HasPrefix(req.URL, "/")) {
			if err == nil {
				err = fmt.Errorf("%q is a path: give an absolute URL to fetch", req.URL)
			}
			writeError(w, http.StatusBadRequest, "url: "+err.Error())
			return
		}
	}
	ctx, cancel := context.WithTimeout(r.Context(), fetchTimeout)
	defer cancel()
	client := clientAddr(r)
	if !pasted {
		// The page itself is fetched every time: always a fetch.
		if origin, err := robotsfetch.Origin(req.URL); err == nil {
			if err := s.admitFetch(client, origin); err != nil {
				fetchError(w, req.URL, err)
				return
			}
		}
	}

	resp := pageResponse{URL: req.URL, Sources: []sourceJSON{}, Diagnostics: []pageDiag{}, Crawlers: []pageCrawler{}}
	notFetched := false // every crawler is refused: the page was not fetched
	opts := robotsmeta.Options{MaxBytes: maxPageBytes, Now: s.cfg.Now()}
	var pg *robotsmeta.Page
	if pasted {
		lines, err := headerLines(req.Headers)
		if err != nil {
			writeError(w, http.StatusBadRequest, "headers: "+err.Error())
			return
		}
		var body io.Reader
		if req.HTML != "" {
			body = strings.NewReader(req.HTML)
		}
		pg, _ = robotsmeta.ParseLines(lines, body, opts)
	} else {
		pf, fj, err := s.fetchPage(ctx, client, req.URL, resolved)
		var limited *limitedError
		if errors.As(err, &limited) {
			writeLimited(w, limited)
			return
		}
		if err != nil {
			fetchError(w, req.URL, err)
			return
		}
		resp.Fetch, resp.TDMRep = fj, pf.TDMRep
		if !pf.Verdict.Blocked {
			pg = pf.Verdict.Policy.Page()
		} else {
			notFetched = true
			pg, _ = robotsmeta.ParseLines(nil, nil, opts)
		}
	}

	// The robots.txt verdict for the page, per crawler: from the pasted
	// file, else from the site (through the cache).
	var decide func(a *rep.Agent, u string) (rep.Decision, error)
	switch {
	case req.Robots != nil:
		files := map[robotstxt.Options]*robotstxt.File{}
		decide = func(a *rep.Agent, u string) (rep.Decision, error) {
			f := files[a.ParseOptions()]
			if f == nil {
				f = robotstxt.ParseWith([]byte(*req.Robots), a.ParseOptions())
				files[a.ParseOptions()] = f
			}
			return a.Decide(f, u), nil
		}
		resp.Robots = pageRobotsJSON{Source: "pasted"}
	case req.URL == "" || strings.HasPrefix(req.URL, "/"):
		resp.Robots = pageRobotsJSON{Source: "none", Note: "no absolute URL given: robots.txt was not checked"}
	default:
		resp.Robots = pageRobotsJSON{Source: "fetched"}
		decide = func(a *rep.Agent, u string) (rep.Decision, error) {
			d, err := s.check(ctx, client, a, u)
			if err == nil && resp.Robots.Outcome == nil {
				resp.Robots.Outcome = d.Fetch
			}
			if !d.FromFetch() {
				d.Fetch = nil
			}
			return d, err
		}
	}

	for _, src := range pg.Sources {
		kind := "header"
		if src.Kind == robotsmeta.FromMeta {
			kind = "meta"
		}
		resp.Sources = append(resp.Sources, sourceJSON{Kind: kind, Name: src.Name, Value: src.Value, Line: src.Line, Column: src.Column, InBody: src.InBody, Where: src.String()})
	}
	for _, d := range pg.Diagnostics {
		resp.Diagnostics = append(resp.Diagnostics, pageDiag{Severity: d.Severity.String(), Code: d.Code, Message: d.Message, Line: d.Line, Column: d.Column})
	}
	resp.Charset, resp.Stop, resp.BytesRead = pg.Charset, pg.Stop.String(), pg.BytesRead
	path := req.URL
	if resp.Fetch != nil {
		path = resp.Fetch.FinalURL // a refused redirect hop's URL, when one was refused
	}
	ruled := make([]bool, len(pg.Sources)) // the sources some rule was read from
	for _, r := range pg.Rules {
		ruled[r.Source] = true
	}
	pols := make([]robotsmeta.Policy, 0, len(resolved))
	for _, a := range resolved {
		pol := pg.Policy(strings.ToLower(a.Token()), a.MetaProfile(), s.cfg.Now())
		pols = append(pols, pol)
		kind := crawlers.KindOf(a.Crawler)
		pc := pageCrawler{crawlAgentJSON: crawlAgentOf(a), Values: policyValues(&pol)}
		for i, src := range pg.Sources {
			if note := src.NotRead(a.MetaProfile()); note != "" && ruled[i] {
				pc.NotRead = append(pc.NotRead, pageNotRead{Source: i, Where: src.String(), Note: note})
			}
		}
		if decide != nil {
			d, err := decide(a, path)
			s.metrics.answer(answerPage, d.Allowed, err)
			var limited *limitedError
			if errors.As(err, &limited) {
				writeLimited(w, limited)
				return
			}
			if err != nil {
				resp.Robots = pageRobotsJSON{Source: "none", Note: "robots.txt was not checked: " + err.Error()}
				decide = nil
				for i := range resp.Crawlers {
					resp.Crawlers[i].Robots, resp.Crawlers[i].Blocked = nil, false
				}
			} else {
				pc.Robots, pc.Blocked = &d, !d.Allowed
			}
		}
		switch {
		case kind.Concerns(crawlers.ConcernIndexing):
		case pc.Blocked:
			pc.Meaning = kind.Refused()
		default:
			pc.Meaning = kind.Allowed()
		}
		switch {
		case pc.Blocked:
			pc.Action = rep.BlockedVerdict(*pc.Robots).Action()
			if notFetched {
				pc.Values, pc.NotRead = []pageValue{}, nil
			}
		default:
			pc.Action = (&rep.PageVerdict{Index: pol.Index, Follow: pol.Follow}).Action()
		}
		resp.Crawlers = append(resp.Crawlers, pc)
	}
	// After the loop: a robots.txt check that failed part-way leaves
	// every crawler without one.
	for i := range resp.Crawlers {
		var d rep.Decision
		// The notes of the group chosen; with no robots.txt verdict, only
		// those that hold whatever the file (a fetch decided: no group).
		g := robotstxt.GroupMatch{Via: robotstxt.ViaFetch}
		if r := resp.Crawlers[i].Robots; r != nil {
			d, g = *r, r.Group
		}
		resp.Crawlers[i].Notes = verdict.NotesFor(resolved[i], g)
		var tdm []aipref.Evidence
		if resp.TDMRep != nil {
			tdm = resp.TDMRep.Evidence
		}
		resp.Crawlers[i].Usage = rep.PageUsage(d, &pols[i], tdm)
	}
	writeJSON(w, http.StatusOK, resp)
}

// policyValues lists every field of the policy with its value and, when a
// rule set it, where that rule came from.
func policyValues(p *robotsmeta.Policy) []pageValue {
	sum := p.Summary()
	raw, _ := json.Marshal(sum)
	var m map[string]any
	json.Unmarshal(raw, &m)
	out := make([]pageValue, 0, len(robotsmeta.Fields()))
	for _, f := range robotsmeta.Fields() {
		v := pageValue{Field: f.String(), Value: m[f.String()]}
		if why, ok := p.Why(f); ok {
			if why.HasRule {
				v.Rule = why.Rule.String()
			}
			v.Source = why.Source.String()
			v.Line = why.Source.Line
		}
		out = append(out, v)
	}
	return out
}

// headerLines splits pasted response headers into "Name: value" lines. A
// status line ("HTTP/1.1 200 OK") is skipped, as are blank lines; folded
// continuation lines (obs-fold) are joined to the field before.
func headerLines(s string) ([]string, error) {
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(make([]byte, 64<<10), MaxBody)
	n := 0
	for sc.Scan() {
		n++
		l := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(l) == "" || (n == 1 && strings.HasPrefix(l, "HTTP/")) {
			continue
		}
		if (l[0] == ' ' || l[0] == '\t') && len(lines) > 0 {
			lines[len(lines)-1] += " " + strings.TrimSpace(l)
			continue
		}
		if !strings.Contains(l, ":") {
			return nil, fmt.Errorf("line %d %q is not a header field (Name: value)", n, l)
		}
		lines = append(lines, l)
	}
	return lines, sc.Err()
}

// fetchPage fetches a page as the first of agents that robots.txt lets
// fetch it, through the library's robots-aware client (rep.Crawler.
// FetchPage) on the guarded transport: robots.txt first, every redirect
// hop asked too. When robots.txt refuses every agent, nothing is fetched
// and the PageFetch is the first agent's blocked verdict.
func (s *Server) fetchPage(ctx context.Context, client netip.Addr, raw string, agents []*rep.Agent) (*rep.PageFetch, *pageFetchJSON, error) {
	u, err := fetchTarget(raw)
	if err != nil {
		return nil, nil, err
	}
	if err := s.guard.literal(u); err != nil {
		return nil, nil, err
	}
	a := agents[0]
	var first rep.Decision
	for i, ag := range agents {
		d, err := s.check(ctx, client, ag, u.String())
		if err != nil {
			return nil, nil, err
		}
		if i == 0 {
			first = d
		}
		if d.Allowed {
			a = ag
			break
		}
	}
	fj := &pageFetchJSON{URL: raw, Redirects: []string{}}
	if !first.Allowed && a == agents[0] {
		fj.FinalURL = u.String()
		return &rep.PageFetch{URL: raw, FinalURL: u.String(), Verdict: rep.BlockedVerdict(first)}, fj, nil
	}
	c, err := rep.New(s.cfg.UserAgent, rep.WithAgent(a), rep.WithFetcher(s.fetcherFor(a)),
		rep.WithPoliteness(rep.Politeness{MinDelay: -1, CrawlDelay: rep.HonourNever}))
	if err != nil {
		return nil, nil, err
	}
	pf, err := c.FetchPage(ctx, u.String(), rep.PageOptions{
		Base: s.crawlTransport, MaxRedirects: maxRedirects, MaxBytes: maxPageBytes, Now: s.cfg.Now(), TDMRep: true,
		Header: http.Header{"Accept": {"text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"}},
	})
	if err != nil {
		return nil, nil, err
	}
	if r := pf.Refusal; r != nil && r.Kind == rep.RefusedAddress && r.Err != nil {
		return nil, nil, r // the guard refused a hop: 403, as for the URL itself
	}
	fj.FinalURL, fj.Status, fj.ContentType = pf.FinalURL, pf.Status, pf.ContentType
	fj.Redirects = append(fj.Redirects, pf.Redirects...)
	fj.DurationMS = float64(pf.Duration.Microseconds()) / 1000
	if !pf.Verdict.Blocked {
		fj.Bytes = pf.Verdict.Policy.Page().BytesRead
	}
	return pf, fj, nil
}
