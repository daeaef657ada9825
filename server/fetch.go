package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/rep-toolkit/rep/internal/netguard"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
)

// fetchJSON is the outcome of fetching a robots.txt, as the page and the
// fleet endpoint report it.
type fetchJSON struct {
	Origin string `json:"origin"`
	// URL is the robots.txt URL asked for; FinalURL is where the answer
	// came from after Redirects.
	URL       string   `json:"url"`
	FinalURL  string   `json:"final_url,omitempty"`
	Redirects []string `json:"redirects"`
	// Status is the final HTTP status, 0 when no response came.
	Status int `json:"status"`
	// Size is the body size in bytes (after content decoding).
	Size int `json:"size"`
	// Rule is the row of RFC 9309's status table that applied (success,
	// unavailable, unreachable, ...); Verdict is what it means for every
	// URL: use-rules, allow-all or disallow-all; Meaning says it in words.
	Rule     string   `json:"rule"`
	Verdict  string   `json:"verdict"`
	Meaning  string   `json:"meaning"`
	Warnings []string `json:"warnings"`
	Error    string   `json:"error,omitempty"`
	// Cached is set when the answer came from the cache, not a fetch made
	// for this request; Source says where the cached copy came from
	// (network, revalidated, store).
	Cached     bool    `json:"cached"`
	Source     string  `json:"source"`
	FetchedAt  string  `json:"fetched_at"`
	ExpiresAt  string  `json:"expires_at"`
	DurationMS float64 `json:"duration_ms"`
}

func outcomeJSON(o *robotsfetch.Outcome, start time.Time, took time.Duration) fetchJSON {
	j := fetchJSON{
		Origin: o.Origin, URL: o.URL, FinalURL: o.FinalURL, Redirects: o.Redirects, Status: o.Status, Size: o.Bytes,
		Rule: o.Case.String(), Verdict: o.Verdict.String(), Meaning: o.Case.Explain(), Warnings: []string{}, Error: o.Error,
		Cached: o.FetchedAt.Before(start), Source: o.Source.String(),
		FetchedAt: o.FetchedAt.UTC().Format(time.RFC3339), ExpiresAt: o.ExpiresAt.UTC().Format(time.RFC3339),
		DurationMS: float64(took.Microseconds()) / 1000,
	}
	if j.Redirects == nil {
		j.Redirects = []string{}
	}
	for _, w := range o.Warnings {
		j.Warnings = append(j.Warnings, w.String())
	}
	return j
}

type robotsResult struct {
	robots *robotsfetch.Robots
	fetch  fetchJSON
}

// robotsFor returns the robots.txt answer for rawurl's origin through the
// cache. A refused address is an error (*netguard.BlockedError or a
// refusal recorded by the fetcher), so that callers answer 403 instead of
// reporting a site as unreachable.
func (s *Server) robotsFor(ctx context.Context, rawurl string) (robotsResult, error) {
	u, err := originTarget(rawurl)
	if err != nil {
		return robotsResult{}, err
	}
	if err := s.guard.literal(u); err != nil {
		return robotsResult{}, err
	}
	start := s.cfg.Now()
	r, err := s.fetcher.Get(ctx, rawurl)
	if err != nil {
		return robotsResult{}, err
	}
	o := &r.Outcome
	if o.Refused {
		return robotsResult{}, refusedError{o.Error}
	}
	return robotsResult{robots: r, fetch: outcomeJSON(o, start, s.cfg.Now().Sub(start))}, nil
}

// refusedError is a fetch the guard refused somewhere along the redirects.
type refusedError struct{ msg string }

func (e refusedError) Error() string { return e.msg }

// fetchError answers a failed fetching request.
func fetchError(w http.ResponseWriter, rawurl string, err error) {
	var blocked *netguard.BlockedError
	var refused refusedError
	switch {
	case errors.As(err, &blocked):
		writeError(w, http.StatusForbidden, fmt.Sprintf("refused to fetch %s: %s is a %s address (start rep serve with -allow-private to test local sites)", rawurl, blocked.Addr, blocked.Reason))
	case errors.As(err, &refused):
		writeError(w, http.StatusForbidden, fmt.Sprintf("refused to fetch %s: %s (start rep serve with -allow-private to test local sites)", rawurl, refused.msg))
	case errors.Is(err, context.DeadlineExceeded):
		writeError(w, http.StatusGatewayTimeout, fmt.Sprintf("fetching %s took too long: %v", rawurl, err))
	case errors.Is(err, errTarget):
		writeError(w, http.StatusBadRequest, err.Error())
	default:
		writeError(w, http.StatusBadGateway, fetchErrorMessage(rawurl, err))
	}
}

type fetchRequest struct {
	URL string `json:"url"`
}

type fetchResponse struct {
	Fetch fetchJSON `json:"fetch"`
	// Robots is the text crawlers obey: the body when its rules apply;
	// otherwise a file with the same effect (empty for allow-all, a
	// "Disallow: /" for disallow-all) with a comment saying why.
	Robots string `json:"robots"`
}

// handleFetch fetches (or takes from the cache) a site's robots.txt and
// returns its text and the fetch outcome, for the page's editor.
func (s *Server) handleFetch(w http.ResponseWriter, r *http.Request) {
	var req fetchRequest
	if !decodeBody(w, r, &req) {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), fetchTimeout)
	defer cancel()
	res, err := s.robotsFor(ctx, req.URL)
	if err != nil {
		fetchError(w, req.URL, err)
		return
	}
	out := fetchResponse{Fetch: res.fetch}
	o := &res.robots.Outcome
	switch o.Verdict {
	case robotsfetch.UseRules:
		// The parsed File does not keep its text; the Store does.
		e, err := s.store.Get(ctx, o.Origin)
		switch {
		case err != nil:
			writeError(w, http.StatusBadGateway, fmt.Sprintf("reading the cached copy of %s: %v", o.URL, err))
			return
		case e == nil || e.Good == nil:
			out.Robots = fmt.Sprintf("# rep: %s was fetched, but its text was not kept (Cache-Control: no-store); its rules still apply to /api/allowed.\n", o.URL)
		default:
			out.Robots = string(e.Good.Body)
		}
	case robotsfetch.AllowAll:
		out.Robots = fmt.Sprintf("# rep: %s: %s.\n# Crawlers read this as an empty robots.txt: everything is allowed.\n", o.URL, o.Case.Explain())
	default:
		out.Robots = fmt.Sprintf("# rep: %s: %s.\n# Crawlers read this as if the file said:\nUser-agent: *\nDisallow: /\n", o.URL, o.Case.Explain())
	}
	writeJSON(w, http.StatusOK, out)
}

// allowedResponse is the answer of GET /api/allowed. url, agent, allowed,
// line, rule and fetch are a contract.
type allowedResponse struct {
	URL     string    `json:"url"`
	Agent   string    `json:"agent"`
	Allowed bool      `json:"allowed"`
	Line    int       `json:"line"`
	Rule    string    `json:"rule"`
	Reason  string    `json:"reason"`
	Group   string    `json:"group"`
	Fetch   fetchJSON `json:"fetch"`
}

// handleAllowed answers one "may this agent fetch this URL?" for a fleet:
// the site's robots.txt comes from the shared cache, or is fetched once.
func (s *Server) handleAllowed(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	rawurl, agent := q.Get("url"), q.Get("agent")
	if _, err := originTarget(rawurl); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	spec, msg := s.resolveAgent(agent)
	if msg != "" {
		writeError(w, http.StatusBadRequest, msg)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), fetchTimeout)
	defer cancel()
	res, err := s.robotsFor(ctx, rawurl)
	if err != nil {
		fetchError(w, rawurl, err)
		return
	}
	d := decide(res.robots, spec, rawurl)
	writeJSON(w, http.StatusOK, allowedResponse{
		URL: rawurl, Agent: agent, Allowed: d.Allowed, Line: d.Rule.Line, Rule: d.Rule.String(),
		Reason: reasonOf(res.robots, d), Group: d.Group.Agent, Fetch: res.fetch,
	})
}

// decide applies the fetch verdict, then the rules for the crawler.
func decide(r *robotsfetch.Robots, spec agentSpec, rawurl string) robotstxt.Decision {
	if r.File != nil && spec.explicit {
		return r.File.AgentExplicit(spec.chain...).Check(rawurl)
	}
	return r.Check(rawurl, spec.chain...)
}

// reasonOf explains a decision, naming the fetch verdict when no rule
// could apply.
func reasonOf(r *robotsfetch.Robots, d robotstxt.Decision) string {
	if r.Outcome.Verdict != robotsfetch.UseRules {
		return r.Outcome.Case.Explain()
	}
	return d.Reason.String()
}
