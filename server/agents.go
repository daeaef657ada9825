package server

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/engine"
)

// errNoAgent answers a request whose agent field is missing or blank.
var errNoAgent = errors.New(`missing field "agent": a crawler name such as "Googlebot", a User-Agent header, or a comma-separated fallback chain`)

// newAgent resolves a request's agent, profile and parser_only fields
// through rep.NewAgent, as every door of rep does: the registry's fallback
// chains and * group exceptions, and the engine the crawler follows when
// profile is empty.
func newAgent(name, profile string, parserOnly bool) (*rep.Agent, error) {
	if strings.TrimSpace(name) == "" {
		return nil, errNoAgent
	}
	e, err := parseEngine(profile)
	if err != nil {
		return nil, err
	}
	return rep.NewAgent(name, rep.AgentOptions{Engine: e, ParserOnly: parserOnly})
}

// parseEngine reads a profile field: google, bing, yandex or rfc9309;
// empty (or auto) follows the agent.
func parseEngine(profile string) (engine.Engine, error) {
	e, err := engine.Parse(profile)
	var bad *engine.Error
	if errors.As(err, &bad) {
		return e, fmt.Errorf("unknown profile %q: use %s", bad.Name, engine.Names)
	}
	return e, err
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

// agentKey is what resolves one agent: the request's three fields.
type agentKey struct {
	name, profile string
	parserOnly    bool
}

// maxCachedAgents bounds the agents the server keeps resolved: the
// crawlers a fleet asks for, many times each. Past it, an agent is
// resolved per request.
const maxCachedAgents = 1024

// agentCache keeps resolved agents, so that a warm /api/allowed neither
// resolves the agent again, nor resolves its group in a file it has seen
// (an Agent remembers its group per file: rep.Agent.Group), nor works out
// its notes again (an Agent keeps them: verdict.NotesFor).
type agentCache struct {
	m sync.Map // agentKey -> *rep.Agent
	n atomic.Int32
}

// agent is newAgent, remembered for the names asked before.
func (c *agentCache) agent(name, profile string, parserOnly bool) (*rep.Agent, error) {
	k := agentKey{name, profile, parserOnly}
	if v, ok := c.m.Load(k); ok {
		return v.(*rep.Agent), nil
	}
	a, err := newAgent(name, profile, parserOnly)
	if err != nil || c.n.Load() >= maxCachedAgents {
		return a, err
	}
	if prev, loaded := c.m.LoadOrStore(k, a); loaded {
		return prev.(*rep.Agent), nil
	}
	c.n.Add(1)
	return a, nil
}
