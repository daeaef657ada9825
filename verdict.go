package rep

import (
	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/verdict"
)

// The verdict path lives in package verdict; these aliases keep code
// written against rep compiling. New code that needs only a verdict (no
// fetching, pacing or page reading) imports package verdict.

// Agent is an alias of verdict.Agent: the crawler rep answers for.
type Agent = verdict.Agent

// AgentOptions is an alias of verdict.AgentOptions.
type AgentOptions = verdict.AgentOptions

// AgentError is an alias of verdict.AgentError.
type AgentError = verdict.AgentError

// Decision is an alias of verdict.Decision: the answer to "may this
// crawler fetch this URL?" with its evidence.
type Decision = verdict.Decision

// DecisionJSON is an alias of verdict.DecisionJSON, a Decision's one JSON
// shape.
type DecisionJSON = verdict.DecisionJSON

// ErrNoAgent is verdict.ErrNoAgent.
var ErrNoAgent = verdict.ErrNoAgent

// MaxAgentBytes is verdict.MaxAgentBytes.
const MaxAgentBytes = verdict.MaxAgentBytes

// NewAgent is verdict.NewAgent.
func NewAgent(name string, o AgentOptions) (*Agent, error) { return verdict.NewAgent(name, o) }

// AgentFor is verdict.AgentFor.
func AgentFor(c *crawlers.Crawler, e engine.Engine) *Agent { return verdict.AgentFor(c, e) }

// AgentsFor is verdict.AgentsFor.
func AgentsFor(names []string, o AgentOptions) ([]*Agent, error) { return verdict.AgentsFor(names, o) }
