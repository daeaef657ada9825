package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/crawl"
	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
	"github.com/rep-toolkit/rep/verdict"
)

// Bounds of a crawl run by POST /api/crawl.
const (
	// MaxCrawlPages caps max_pages; DefaultCrawlPages is used when it is
	// zero or absent.
	MaxCrawlPages     = 200
	DefaultCrawlPages = 50
	// maxCrawlAgents caps the crawlers audited, purposes expanded.
	maxCrawlAgents = 40
	// crawlTimeout bounds a whole crawl; the report then holds what was
	// found so far.
	crawlTimeout = 5 * time.Minute
	// crawlConcurrency is the requests in flight to the site at once; the
	// site's per-origin limit paces them.
	crawlConcurrency = 2
	// crawlBusyRetry is the Retry-After of a crawl refused because another
	// is running.
	crawlBusyRetry = 10
	// crawlSitemaps and crawlSitemapBytes bound the sitemaps a crawl
	// reads, in total: files queued and read (indexes included), and
	// bytes read from all of them uncompressed. Past them the report says
	// truncated, with a sitemaps-truncated finding. The byte bound is
	// over the protocol's 50 MB, so that one file over it is still told
	// as sitemap-too-large.
	crawlSitemaps     = 50
	crawlSitemapBytes = 64 << 20
)

// crawlRequest is the body of POST /api/crawl.
type crawlRequest struct {
	URL string `json:"url"`
	// Agents are crawler names or registry purposes (search,
	// ai-training...); empty means Googlebot and bingbot.
	Agents   []string `json:"agents,omitempty"`
	MaxPages int      `json:"max_pages,omitempty"`
}

// The events of the NDJSON answer, one a line: "start" (the site, its
// crawlers and the page limit), then for each page a "page" (one
// crawl.Page) and a "progress" (the counts so far), then "report" (the
// crawl.Report, its fields inline) or "error" (with "unreachable" when
// the site itself could not be read).
type (
	crawlStart struct {
		Type   string   `json:"type"`
		Site   string   `json:"site"`
		Agents []string `json:"agents"`
		// Crawlers says what the registry knows of each crawler named in
		// the request: its kind, its notes, "did you mean" for a name
		// it does not know. Empty for the default crawlers.
		Crawlers []crawlAgentJSON `json:"crawlers"`
		MaxPages int              `json:"max_pages"`
	}
	crawlPage struct {
		Type string      `json:"type"`
		Page *crawl.Page `json:"page"`
	}
	crawlProgressEvent struct {
		Type string `json:"type"`
		crawlProgress
	}
	crawlReport struct {
		Type string `json:"type"`
		*crawl.Report
		MaxPages int `json:"max_pages"`
		// TimedOut is set on a report cut short by the time bound.
		TimedOut bool `json:"timed_out"`
	}
	crawlErrorEvent struct {
		Type  string `json:"type"`
		Error string `json:"error"`
		// Unreachable is set when the site could not be read at all
		// (its robots.txt got no answer), with the cause: nothing was
		// crawled, and the site is not reported as disallowing anything.
		Unreachable *crawl.SiteError `json:"unreachable,omitempty"`
	}
)

// crawlAgentJSON is one crawler of a crawl as the registry knows it, in
// the field names of /api/check and /api/page: its kind, the notes that
// hold whatever the site's file (verdict.NotesFor), and the registry names
// an unknown name may be a misspelling of.
type crawlAgentJSON struct {
	Agent      string   `json:"agent"`
	Kind       string   `json:"kind"`
	Engine     string   `json:"engine"`
	Notes      []string `json:"notes,omitempty"`
	DidYouMean []string `json:"did_you_mean,omitempty"`
}

// crawlAgentsJSON describes agents for the start event.
func crawlAgentsJSON(agents []*rep.Agent) []crawlAgentJSON {
	out := make([]crawlAgentJSON, 0, len(agents))
	for _, a := range agents {
		out = append(out, crawlAgentOf(a))
	}
	return out
}

// crawlAgentOf describes a before any robots.txt is read: its notes are
// those that hold whatever the file (no group chosen yet).
func crawlAgentOf(a *rep.Agent) crawlAgentJSON {
	return crawlAgentJSON{
		Agent: a.Name, Kind: string(crawlers.KindOf(a.Crawler)), Engine: a.Engine.String(),
		Notes:      verdict.NotesFor(a, robotstxt.GroupMatch{Via: robotstxt.ViaFetch}),
		DidYouMean: verdict.Suggestions(a),
	}
}

// serverSiteError is e with the hint a user of the web tester can act on:
// the server's flag, not rep crawl's.
func serverSiteError(e *crawl.SiteError) *crawl.SiteError {
	c := *e
	switch c.Cause {
	case crawl.CauseRefusedAddress:
		c.Hint = "start rep serve with -allow-private to test local sites"
	case crawl.CauseTimeout:
		c.Hint = fmt.Sprintf("check that the site is up: the web tester waits %s for each answer", fetchTimeout)
	}
	return &c
}

// crawlProgress is how far a crawl is: URLs audited, fetched, waiting in
// the queue, and findings so far.
type crawlProgress struct {
	Crawled  int `json:"crawled"`
	Fetched  int `json:"fetched"`
	Queued   int `json:"queued"`
	Findings int `json:"findings"`
}

// crawlBusyError refuses a crawl while another runs for the same client or
// of the same site.
type crawlBusyError struct {
	// Site is set when the site is being crawled (for any client); else
	// the client has a crawl running.
	Site string
}

func (e *crawlBusyError) Error() string {
	if e.Site != "" {
		return e.Site + " is being crawled already: one crawl of a site at a time (per-site politeness)"
	}
	return "a crawl is running for this client already: one at a time; wait for it to end or stop it"
}

// crawlSlots holds the crawls running: one per client, one per site.
type crawlSlots struct {
	mu      sync.Mutex
	clients map[string]bool
	sites   map[string]bool
}

// take reserves a crawl of site for client (key "" for a trusted client,
// not bounded); release frees it.
func (c *crawlSlots) take(client, site string) (release func(), err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.clients == nil {
		c.clients, c.sites = map[string]bool{}, map[string]bool{}
	}
	if client != "" && c.clients[client] {
		return nil, &crawlBusyError{}
	}
	if c.sites[site] {
		return nil, &crawlBusyError{Site: site}
	}
	if client != "" {
		c.clients[client] = true
	}
	c.sites[site] = true
	return func() {
		c.mu.Lock()
		delete(c.clients, client)
		delete(c.sites, site)
		c.mu.Unlock()
	}, nil
}

// crawlAgents resolves the agents field through rep.AgentsFor (crawler
// names or registry purposes), as rep crawl -agent does.
func crawlAgents(names []string) ([]*rep.Agent, error) {
	if len(names) == 0 {
		return nil, nil // crawl's default: Googlebot and bingbot
	}
	out, err := rep.AgentsFor(names, rep.AgentOptions{})
	if err != nil {
		return nil, err
	}
	if len(out) > maxCrawlAgents {
		return nil, fmt.Errorf("%d crawlers: at most %d per crawl", len(out), maxCrawlAgents)
	}
	return out, nil
}

// pacedTransport spends a token of the site's per-origin limit for every
// request of a crawl, waiting for one when the bucket is empty: a crawl
// is as polite as the rest of the server's fetches, and shares their
// budget.
type pacedTransport struct {
	rt    http.RoundTripper
	limit *limiter
}

func (t pacedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	origin, err := robotsfetch.Origin(r.URL.String())
	if err != nil {
		origin = r.URL.Scheme + "://" + r.URL.Host
	}
	for {
		ok, wait := t.limit.allow(origin)
		if ok {
			break
		}
		tm := time.NewTimer(wait)
		select {
		case <-tm.C:
		case <-r.Context().Done():
			tm.Stop()
			return nil, r.Context().Err()
		}
	}
	return t.rt.RoundTrip(r)
}

// handleCrawl runs a bounded crawl of one site (package crawl) and streams
// its progress as NDJSON: the page shows it live. The request is refused
// before anything is fetched for a bad URL or agent, a refused address, a
// page limit over MaxCrawlPages, a client out of fetch tokens, or a crawl
// already running for the client or of the site.
func (s *Server) handleCrawl(w http.ResponseWriter, r *http.Request) {
	var req crawlRequest
	if !decodeBody(w, r, &req) {
		return
	}
	switch {
	case req.MaxPages < 0 || req.MaxPages > MaxCrawlPages:
		writeError(w, http.StatusBadRequest, fmt.Sprintf("max_pages %d: give 1 to %d (the web tester crawls at most %d pages; rep crawl has no such limit)", req.MaxPages, MaxCrawlPages, MaxCrawlPages))
		return
	case req.MaxPages == 0:
		req.MaxPages = DefaultCrawlPages
	}
	agents, err := crawlAgents(req.Agents)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if err := s.fetchable(req.URL); err != nil {
		fetchError(w, req.URL, err)
		return
	}
	origin, err := robotsfetch.Origin(req.URL)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	client := clientAddr(r)
	key := client.String()
	if s.trusted(client) {
		key = ""
	}
	release, err := s.crawls.take(key, origin)
	if err != nil {
		w.Header().Set("Retry-After", fmt.Sprint(crawlBusyRetry))
		writeError(w, http.StatusTooManyRequests, err.Error())
		return
	}
	defer release()
	// One token of the client's budget starts a crawl; its requests are
	// then paced by the site's limit.
	if err := s.admitFetch(client, origin); err != nil {
		fetchError(w, req.URL, err)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), crawlTimeout)
	defer cancel()
	// The site's robots.txt through the cache, with the guard: a site the
	// server must not reach is refused here with 403, before streaming.
	if _, err := s.robotsFetch(ctx, req.URL); err != nil {
		fetchError(w, req.URL, err)
		return
	}

	var rt http.RoundTripper = s.crawlTransport
	if s.originLimit != nil {
		rt = pacedTransport{rt, s.originLimit}
	}
	st := &crawlStream{w: w, rc: http.NewResponseController(w), cancel: cancel}
	prog := crawlProgress{}
	cfg := crawl.Config{
		Start: req.URL, Agents: agents, MaxPages: req.MaxPages, Concurrency: crawlConcurrency,
		AllowPrivate: s.guard == nil, Transport: rt, Timeout: s.crawlFetchTimeout,
		MaxBodyBytes: maxPageBytes, MaxSitemaps: crawlSitemaps, MaxSitemapBytes: crawlSitemapBytes, Now: s.cfg.Now,
		OnPage: func(p *crawl.Page) {
			// Counted here, not taken from crawl.Progress, so that the
			// counts grow with the page events.
			prog.Crawled++
			if p.Skipped == "" && p.Error == "" {
				prog.Fetched++
			}
			st.send(crawlPage{"page", p})
		},
		Progress: func(p crawl.Progress) {
			prog.Queued, prog.Findings = p.Queued, p.Findings
			st.send(crawlProgressEvent{"progress", prog})
		},
	}
	names := make([]string, 0, len(agents))
	for _, a := range agents {
		names = append(names, a.Name)
	}
	if len(agents) == 0 {
		names = []string{"Googlebot", "bingbot"}
	}
	st.send(crawlStart{"start", origin, names, crawlAgentsJSON(agents), req.MaxPages})
	report, err := crawl.Run(ctx, cfg)
	var site *crawl.SiteError
	switch {
	case errors.As(err, &site) && r.Context().Err() == nil:
		// The site could not be read: an error with its cause, not a
		// report of a site that disallows everything (nor a timed-out
		// report, for a robots.txt that never answered).
		site = serverSiteError(site)
		st.send(crawlErrorEvent{"error", site.Error(), site})
	case report != nil && (err == nil || errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil):
		st.send(crawlReport{"report", report, req.MaxPages, err != nil})
	case r.Context().Err() != nil:
		// The client left: nobody reads the answer.
	case err != nil:
		st.send(crawlErrorEvent{"error", err.Error(), nil})
	}
}

// crawlStream writes the events of one crawl, flushing each. A failed
// write (the client gone) stops the crawl.
type crawlStream struct {
	w      http.ResponseWriter
	rc     *http.ResponseController
	cancel context.CancelFunc
	mu     sync.Mutex
	failed bool
	begun  bool
}

func (st *crawlStream) send(e any) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.failed {
		return
	}
	if !st.begun {
		st.begun = true
		h := st.w.Header()
		h.Set("Content-Type", "application/x-ndjson")
		h.Set("Cache-Control", "no-store")
		h.Set("X-Accel-Buffering", "no") // a proxy in front must not hold the progress back
		st.w.WriteHeader(http.StatusOK)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)              // evidence quotes HTML: keep it readable
	if err := enc.Encode(e); err != nil { // every event renders; keep the stream valid anyway
		b.Reset()
		b.WriteString(`{"type":"error","error":"cannot render an event"}` + "\n")
	}
	st.rc.SetWriteDeadline(time.Now().Add(writeTimeout))
	if _, err := st.w.Write(b.Bytes()); err != nil || st.rc.Flush() != nil {
		st.failed = true
		st.cancel()
	}
}

// codeJSON documents one finding code of a crawl.
type codeJSON struct {
	Code     string         `json:"code"`
	Severity crawl.Severity `json:"severity"`
	// PerAgent is set for codes reported once per crawler.
	PerAgent bool   `json:"per_agent"`
	Title    string `json:"title"`
	Doc      string `json:"doc"`
}

// handleCrawlCodes answers the finding codes of a crawl and their
// documentation (crawl.Codes), for the page to explain each finding.
func (s *Server) handleCrawlCodes(w http.ResponseWriter, r *http.Request) {
	out := []codeJSON{}
	for _, c := range crawl.Codes() {
		out = append(out, codeJSON{c.Code, c.Severity, c.PerAgent, c.Title, c.Doc})
	}
	writeJSON(w, http.StatusOK, map[string]any{"codes": out})
}
