package server

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/robotstxt"
)

// agentSpec is how one crawler reads robots.txt: the fallback chain of
// product tokens, and whether it ignores the * group.
type agentSpec struct {
	chain    []string
	explicit bool
	note     string
}

func (a agentSpec) of(f *robotstxt.File) *robotstxt.Agent {
	if a.explicit {
		return f.AgentExplicit(a.chain...)
	}
	return f.Agent(a.chain...)
}

// resolveAgent turns the agent field into a spec: a comma-separated chain
// is taken as given; a single known crawler gets its documented fallback
// and * handling. The message is non-empty when the field is unusable.
func (s *Server) resolveAgent(agent string) (agentSpec, string) {
	agent = strings.TrimSpace(agent)
	if agent == "" {
		return agentSpec{}, `missing field "agent": a crawler name such as "Googlebot", a User-Agent header, or a comma-separated fallback chain`
	}
	if len(agent) > maxAgent {
		return agentSpec{}, fmt.Sprintf("agent is %d bytes: at most %d", len(agent), maxAgent)
	}
	var spec agentSpec
	for n := range strings.SplitSeq(agent, ",") {
		if n = strings.TrimSpace(n); n != "" {
			spec.chain = append(spec.chain, n)
		}
	}
	if len(spec.chain) == 0 {
		return agentSpec{}, "agent names no crawler: give a name such as Googlebot"
	}
	if len(spec.chain) > 1 {
		return spec, ""
	}
	tok := strings.ToLower(robotstxt.ProductToken(spec.chain[0]))
	// The registry says how a known crawler reads robots.txt: its fallback
	// chain (Googlebot-Image → Googlebot) and whether it ignores *.
	c, known := crawlers.ByName(tok)
	if known && len(c.RobotsFallback) > 0 {
		spec.chain = append(spec.chain, c.RobotsFallback...)
		spec.note = fmt.Sprintf("%s falls back to the %s group when no group names it.", spec.chain[0], strings.Join(c.RobotsFallback, ", "))
	}
	if known && c.IgnoresStar {
		spec.explicit = true
		spec.note = fmt.Sprintf("%s ignores the * group: only a group naming it applies.", spec.chain[0])
	}
	if known && c.RobotsTxt == crawlers.No {
		msg := c.Name + " is not documented to obey robots.txt"
		if c.Note != "" {
			msg += ": " + c.Note
		}
		spec.note = strings.TrimSpace(spec.note + " " + msg)
	}
	return spec, ""
}

// crawlerInfo is one entry of the page's crawler picker.
type crawlerInfo struct {
	Name     string `json:"name"`
	Operator string `json:"operator"`
	Purpose  string `json:"purpose"`
	Obeys    string `json:"robots_txt"`
	Note     string `json:"note,omitempty"`
}

func knownCrawlers() []crawlerInfo {
	var out []crawlerInfo
	for _, c := range crawlers.All() {
		if len(c.Tokens) == 0 {
			continue
		}
		out = append(out, crawlerInfo{Name: c.Tokens[0], Operator: c.Operator, Purpose: string(c.Purpose), Obeys: string(c.RobotsTxt), Note: c.Note})
	}
	return out
}

func (s *Server) handleCrawlers(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"crawlers": s.agents})
}

// infoJSON tells the page what this server can do.
type infoJSON struct {
	// Fetch is set when the server can fetch robots.txt and pages.
	Fetch bool   `json:"fetch"`
	Note  string `json:"note,omitempty"`
	// AllowPrivate is set when fetching may reach private addresses.
	AllowPrivate bool `json:"allow_private"`
}

func (s *Server) handleInfo(w http.ResponseWriter, r *http.Request) {
	in := infoJSON{Fetch: s.fetcher != nil, AllowPrivate: s.cfg.AllowPrivate}
	writeJSON(w, http.StatusOK, in)
}
