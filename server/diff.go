package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/robotsdiff"
)

// maxDiffFlips caps the flips, and the rules added and removed, kept per
// crawler: a page shows a sample, the counts say how many there are.
const maxDiffFlips = 100

// maxDiffAgents caps the crawlers of one compare request (a purpose counts
// for the crawlers it stands for).
const maxDiffAgents = 200

// diffRequest is the body of POST /api/diff: two versions of a robots.txt
// and what to compare them for.
type diffRequest struct {
	Old *string `json:"old"`
	New *string `json:"new"`
	// Agents are crawler names or registry purposes; empty means every
	// registry crawler, the tokens the files name, and *.
	Agents []string `json:"agents,omitempty"`
	// Profile is the engine whose rules apply; empty follows each crawler.
	Profile string `json:"profile,omitempty"`
	// URLs are URLs or paths decided beside the witness paths.
	URLs []string `json:"urls,omitempty"`
}

// handleDiff answers POST /api/diff with the diff in robotsdiff's one JSON
// shape (rep diff -json): per crawler its groups, rules added and removed,
// delay, usage and flips, each flip's before and after in the verdict
// shape. Beside it, "named" lists the crawlers the request named, as a
// crawl's start event does (kind, notes, did_you_mean), when there are.
func (s *Server) handleDiff(w http.ResponseWriter, r *http.Request) {
	var req diffRequest
	if !decodeBody(w, r, &req) {
		return
	}
	if req.Old == nil || req.New == nil {
		writeError(w, http.StatusBadRequest, `missing field "old" or "new": the two robots.txt texts to compare (an empty string is an empty file)`)
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
	e, err := parseEngine(req.Profile)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	old, new := []byte(*req.Old), []byte(*req.New)
	var agents []*rep.Agent
	var names []string
	for _, n := range req.Agents {
		for p := range strings.SplitSeq(n, ",") {
			if p = strings.TrimSpace(p); p != "" {
				names = append(names, p)
			}
		}
	}
	if len(names) > 0 {
		if agents, err = rep.AgentsFor(names, rep.AgentOptions{Engine: e}); err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
	} else {
		agents = robotsdiff.DefaultAgents(e, old, new)
	}
	if len(agents) > maxDiffAgents {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("%d crawlers: at most %d per request", len(agents), maxDiffAgents))
		return
	}
	d := robotsdiff.Compare(robotsdiff.Version{Name: "old", Body: old}, robotsdiff.Version{Name: "new", Body: new},
		robotsdiff.Options{Agents: agents, URLs: req.URLs, MaxFlips: maxDiffFlips, MaxRules: maxDiffFlips})
	if len(names) == 0 {
		writeJSON(w, http.StatusOK, d)
		return
	}
	// The diff's one shape (its own MarshalJSON: an object with fields
	// always), with "named" first.
	body, err := json.Marshal(d)
	named, nerr := json.Marshal(crawlAgentsJSON(agents))
	if err != nil || nerr != nil {
		writeError(w, http.StatusInternalServerError, "cannot render the comparison")
		return
	}
	out := append(append(append([]byte(`{"named":`), named...), ','), body[1:]...)
	writeJSON(w, http.StatusOK, json.RawMessage(out))
}
