package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/robotsfetch"
)

// MaxBatch caps the queries of one batch.
const MaxBatch = 100_000

// batchOrigins bounds the origins of one batch fetched at once.
const batchOrigins = 32

// batchQuery is one question of a batch. Agent, Profile and ParserOnly
// default to the batch's own fields.
type batchQuery struct {
	Agent      string `json:"agent,omitempty"`
	URL        string `json:"url"`
	Profile    string `json:"profile,omitempty"`
	ParserOnly *bool  `json:"parser_only,omitempty"`
}

// batchRequest is the body of POST /api/allowed.
type batchRequest struct {
	Queries    []batchQuery `json:"queries"`
	Agent      string       `json:"agent,omitempty"`
	Profile    string       `json:"profile,omitempty"`
	ParserOnly bool         `json:"parser_only,omitempty"`
}

// batchItem is the answer to one query of a batch or one URL of a check:
// a verdict, or the error that kept it from one, with the status a request
// for it alone would have answered.
type batchItem struct {
	d      rep.Decision // its JSON notes are those that apply (verdict.NotesFor)
	err    error
	status int
	msg    string
}

// batchError is a result with no verdict: the fields of the verdict
// shape left empty (allowed false), and what went wrong. Status is the
// status GET /api/allowed would have answered; RetryAfter (seconds) is
// set for a fetch the limits refused.
type batchError struct {
	rep.DecisionJSON
	Error      string `json:"error"`
	Status     int    `json:"status"`
	RetryAfter int    `json:"retry_after,omitempty"`
}

// MarshalJSON renders the item: the verdict, or a batchError.
func (it batchItem) MarshalJSON() ([]byte, error) { return it.appendJSON(nil), nil }

// appendJSON renders the item: the verdict, or a batchError.
func (it *batchItem) appendJSON(b []byte) []byte {
	var j []byte
	var err error
	if it.err == nil {
		j, err = json.Marshal(it.d.JSON())
	} else {
		e := batchError{DecisionJSON: it.d.JSON(), Error: it.msg, Status: it.status}
		e.Reason, e.Notes = "", nil // no verdict: nothing decided, nothing to note
		if e.Tokens == nil {
			e.Tokens = []string{}
		}
		if l := (*limitedError)(nil); errors.As(it.err, &l) {
			e.RetryAfter = l.retryAfter()
		}
		j, err = json.Marshal(e)
	}
	if err != nil { // both always render; keep the line valid anyway
		j = []byte(`{}`)
	}
	return append(b, j...)
}

// handleBatch answers many "may this agent fetch this URL?" at once:
// results in input order, each origin's robots.txt fetched once (or taken
// from the cache), origins concurrently. The answer is streamed: one JSON
// object {"results": [...]}, or with Accept: application/x-ndjson (or
// ?format=ndjson) one result per line.
func (s *Server) handleBatch(w http.ResponseWriter, r *http.Request) {
	var req batchRequest
	if !decodeBodyMax(w, r, &req, MaxBatchBody) {
		return
	}
	if req.Queries == nil {
		writeError(w, http.StatusBadRequest, `missing field "queries": a list of {"agent","url"} (for one URL, GET /api/allowed?url=&agent=)`)
		return
	}
	if len(req.Queries) > MaxBatch {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("%d queries: at most %d per batch", len(req.Queries), MaxBatch))
		return
	}
	ndjson := r.URL.Query().Get("format") == "ndjson" || strings.Contains(r.Header.Get("Accept"), "application/x-ndjson")
	client := clientAddr(r)

	// Resolve each query's agent once per distinct (agent, profile,
	// parser_only), and group the queries by origin.
	type agentKey struct {
		name, profile string
		parserOnly    bool
	}
	type agentRes struct {
		a   *rep.Agent
		err error
	}
	agents := map[agentKey]agentRes{}
	items := make([]batchItem, len(req.Queries))
	resolved := make([]*rep.Agent, len(req.Queries))
	jobs := map[string]*batchJob{}
	var order []*batchJob
	jobOf := make([]*batchJob, len(req.Queries))
	for i, q := range req.Queries {
		k := agentKey{q.Agent, q.Profile, req.ParserOnly}
		if k.name == "" {
			k.name = req.Agent
		}
		if k.profile == "" {
			k.profile = req.Profile
		}
		if q.ParserOnly != nil {
			k.parserOnly = *q.ParserOnly
		}
		ar, ok := agents[k]
		if !ok {
			ar.a, ar.err = newAgent(k.name, k.profile, k.parserOnly)
			agents[k] = ar
		}
		if ar.err != nil {
			s.metrics.answer(answerBatch, false, ar.err)
			items[i] = batchItem{d: rep.Decision{URL: q.URL, Agent: &rep.Agent{Name: k.name}}, err: ar.err, status: http.StatusBadRequest, msg: ar.err.Error()}
			continue
		}
		resolved[i] = ar.a
		if err := s.fetchable(q.URL); err != nil {
			s.metrics.answer(answerBatch, false, err)
			status, msg := fetchStatus(q.URL, err)
			items[i] = batchItem{d: rep.Decision{URL: q.URL, Agent: ar.a}, err: err, status: status, msg: msg}
			continue
		}
		origin, err := robotsfetch.Origin(q.URL)
		if err != nil {
			s.metrics.answer(answerBatch, false, err)
			items[i] = batchItem{d: rep.Decision{URL: q.URL, Agent: ar.a}, err: err, status: http.StatusBadRequest, msg: err.Error()}
			continue
		}
		j := jobs[origin]
		if j == nil {
			j = &batchJob{done: make(chan struct{})}
			jobs[origin] = j
			order = append(order, j)
		}
		j.queries = append(j.queries, i)
		jobOf[i] = j
	}

	// Each origin's queries run in turn (the first fetches, the others
	// hit the cache); up to batchOrigins origins at once.
	ctx := r.Context()
	go func() {
		sem := make(chan struct{}, batchOrigins)
		for _, j := range order {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				close(j.done) // the client left: nothing waits for it
				continue
			}
			go func() {
				defer func() { <-sem; close(j.done) }()
				s.runBatchJob(ctx, client, j, req.Queries, resolved, items)
			}()
		}
	}()

	if ndjson {
		w.Header().Set("Content-Type", "application/x-ndjson")
	} else {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	buf := make([]byte, 0, 64<<10)
	if !ndjson {
		buf = append(buf, `{"results":[`...)
	}
	flush := func() bool {
		rc.SetWriteDeadline(time.Now().Add(writeTimeout))
		if _, err := w.Write(buf); err != nil {
			return false
		}
		buf = buf[:0]
		return rc.Flush() == nil
	}
	for i := range items {
		if j := jobOf[i]; j != nil {
			select {
			case <-j.done:
			default:
				// Waiting for a fetch: send what is ready first.
				if len(buf) > 0 && !flush() {
					return
				}
				select {
				case <-j.done:
				case <-ctx.Done():
					return
				}
			}
		}
		if !ndjson && i > 0 {
			buf = append(buf, ',')
		}
		buf = items[i].appendJSON(buf)
		if ndjson {
			buf = append(buf, '\n')
		}
		if len(buf) >= 60<<10 && !flush() {
			return
		}
	}
	if !ndjson {
		buf = append(buf, "]}\n"...)
	}
	flush()
}

// batchJob is the queries of one origin.
type batchJob struct {
	queries []int
	done    chan struct{}
}

// runBatchJob answers one origin's queries. When the first needs a fetch
// the limits refuse, the rest share the refusal rather than spend tokens.
func (s *Server) runBatchJob(ctx context.Context, client netip.Addr, j *batchJob, qs []batchQuery, agents []*rep.Agent, items []batchItem) {
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	var stop error
	for _, i := range j.queries {
		a, u := agents[i], qs[i].URL
		var d rep.Decision
		err := stop
		if err == nil {
			d, err = s.check(ctx, client, a, u)
		}
		s.metrics.answer(answerBatch, d.Allowed, err)
		if err != nil {
			if limited := (*limitedError)(nil); errors.As(err, &limited) {
				stop = err
			}
			status, msg := fetchStatus(u, err)
			items[i] = batchItem{d: rep.Decision{URL: u, Agent: a}, err: err, status: status, msg: msg}
			continue
		}
		items[i] = batchItem{d: d}
	}
}
