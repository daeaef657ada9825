package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"strconv"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/internal/netguard"
	"github.com/rep-toolkit/rep/robotsfetch"
)

// robots returns the robots.txt answer for rawurl's origin through the
// cache, read with Google's parser. A refused address is an error
// (*netguard.BlockedError or a refusal recorded by the fetcher), so that
// callers answer 403 instead of reporting a site as unreachable.
func (s *Server) robots(ctx context.Context, client netip.Addr, rawurl string) (*robotsfetch.Robots, error) {
	if err := s.fetchable(rawurl); err != nil {
		return nil, err
	}
	if err := s.admit(ctx, client, rawurl); err != nil {
		return nil, err
	}
	return s.robotsFetch(ctx, rawurl)
}

// robotsFetch is robots once the URL is known fetchable and the fetch
// admitted.
func (s *Server) robotsFetch(ctx context.Context, rawurl string) (*robotsfetch.Robots, error) {
	r, err := s.fetcher.Get(ctx, rawurl)
	if err != nil {
		return nil, err
	}
	s.observe(&r.Outcome)
	if r.Outcome.Refused {
		return nil, refusedError{r.Outcome.Error}
	}
	return r, nil
}

// check answers for a whether it may fetch rawurl, with the site's
// robots.txt through the cache (rep.Check: the fetch's verdict, else the
// group a obeys and its deciding rule). Errors are those of robots.
func (s *Server) check(ctx context.Context, client netip.Addr, a *rep.Agent, rawurl string) (rep.Decision, error) {
	if err := s.fetchable(rawurl); err != nil {
		return rep.Decision{URL: rawurl, Agent: a}, err
	}
	if err := s.admit(ctx, client, rawurl); err != nil {
		return rep.Decision{URL: rawurl, Agent: a}, err
	}
	d, err := rep.Check(ctx, s.fetcherFor(a), a, rawurl)
	if err != nil {
		return d, err
	}
	s.observe(d.Fetch)
	if d.Fetch.Refused {
		return d, refusedError{d.Fetch.Error}
	}
	return d, nil
}

// observe counts an answer's fetch outcome: a cache hit or miss, and the
// fetch by its case the first time it is seen.
func (s *Server) observe(o *robotsfetch.Outcome) {
	s.metrics.cache(o.Cached)
	if s.warm.seen(o.Origin, o) {
		s.metrics.fetch(o.Case)
	}
}

// fetchable refuses, before any fetch, a URL whose robots.txt the server
// will not fetch: not an absolute http(s) URL, or an address the guard
// refuses.
func (s *Server) fetchable(rawurl string) error {
	u, err := originTarget(rawurl)
	if err != nil {
		return err
	}
	return s.guard.literal(u)
}

// fetcherFor returns the fetcher whose parser reads files as a's engine
// does (all were made at start).
func (s *Server) fetcherFor(a *rep.Agent) *robotsfetch.Fetcher {
	f, _ := s.fetchers.For(a)
	return f
}

// refusedError is a fetch the guard refused somewhere along the redirects.
type refusedError struct{ msg string }

func (e refusedError) Error() string { return e.msg }

// fetchError answers a failed fetching request.
func fetchError(w http.ResponseWriter, rawurl string, err error) {
	var limited *limitedError
	if errors.As(err, &limited) {
		writeLimited(w, limited)
		return
	}
	status, msg := fetchStatus(rawurl, err)
	writeError(w, status, msg)
}

// fetchStatus is the status and message answering a failed fetch.
func fetchStatus(rawurl string, err error) (int, string) {
	var blocked *netguard.BlockedError
	var refused refusedError
	var limited *limitedError
	switch {
	case errors.As(err, &limited):
		return http.StatusTooManyRequests, limited.Error()
	case errors.As(err, &blocked):
		return http.StatusForbidden, fmt.Sprintf("refused to fetch %s: %s is a %s address (start rep serve with -allow-private to test local sites)", rawurl, blocked.Addr, blocked.Reason)
	case errors.As(err, &refused):
		return http.StatusForbidden, fmt.Sprintf("refused to fetch %s: %s (start rep serve with -allow-private to test local sites)", rawurl, refused.msg)
	case errors.Is(err, context.DeadlineExceeded):
		return http.StatusGatewayTimeout, fmt.Sprintf("fetching %s took too long: %v", rawurl, err)
	case errors.Is(err, errTarget):
		return http.StatusBadRequest, err.Error()
	}
	return http.StatusBadGateway, fetchErrorMessage(rawurl, err)
}

type fetchRequest struct {
	URL string `json:"url"`
}

type fetchResponse struct {
	// Outcome is how the robots.txt was fetched and read, in the one shape
	// of robotsfetch.Outcome (rep fetch -json prints the same).
	// Its explain, cached and duration_ms say what it means for every URL,
	// whether it came from the cache, and how long the fetch took.
	Outcome *robotsfetch.Outcome `json:"outcome"`
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
	rb, err := s.robots(ctx, clientAddr(r), req.URL)
	if err != nil {
		fetchError(w, req.URL, err)
		return
	}
	o := &rb.Outcome
	out := fetchResponse{Outcome: o}
	switch o.Verdict {
	case robotsfetch.UseRules:
		out.Robots = string(rb.Body)
	case robotsfetch.AllowAll:
		out.Robots = fmt.Sprintf("# rep: %s: %s.\n# Crawlers read this as an empty robots.txt: everything is allowed.\n", o.URL, o.Case.Explain())
	default:
		out.Robots = fmt.Sprintf("# rep: %s: %s.\n# Crawlers read this as if the file said:\nUser-agent: *\nDisallow: /\n", o.URL, o.Case.Explain())
	}
	writeJSON(w, http.StatusOK, out)
}

// handleAllowed answers one "may this agent fetch this URL?" for a fleet:
// the site's robots.txt comes from the shared cache, or is fetched once.
// The answer is the verdict shape of rep.Decision, its fetch included, with
// the notes that apply to it (verdict.NotesFor).
func (s *Server) handleAllowed(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	rawurl := q.Get("url")
	if _, err := originTarget(rawurl); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	parserOnly := false
	if v := q.Get("parser_only"); v != "" {
		var err error
		if parserOnly, err = strconv.ParseBool(v); err != nil {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("parser_only=%q: use true or false", v))
			return
		}
	}
	a, err := s.agentsByName.agent(q.Get("agent"), q.Get("profile"), parserOnly)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), fetchTimeout)
	defer cancel()
	d, err := s.check(ctx, clientAddr(r), a, rawurl)
	s.metrics.answer(answerAllowed, d.Allowed, err)
	if err != nil {
		fetchError(w, rawurl, err)
		return
	}
	// The notes that apply to this answer, as rep check -json gives them.
	writeJSON(w, http.StatusOK, d.JSON())
}
