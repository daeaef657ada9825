package verdict

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
)

// Agent is a crawler as rep answers for it: the name asked about, the
// registry's entry for it, and how it reads robots.txt (its fallback chain
// of product tokens, whether it ignores the "*" group, whose rules it
// follows). Every door of rep (this package, the CLI, the server, the
// audit) resolves a crawler with NewAgent, so each gives the same answer.
//
// An Agent is immutable and safe for concurrent use.
type Agent struct {
	last atomic.Pointer[groupMemo] // the last file's group (see Group)
	tell atomic.Pointer[noteCache] // its notes, worked out once (see NotesFor)
	// the notes of Notes that hold only for some group choices (a
	// fallback group, the * group ignored): NotesFor says them where they
	// apply
	fallbackNote, starNote string

	// Name is the agent as given: a product token ("Googlebot"), a full
	// User-Agent header, or a comma-separated fallback chain.
	Name string
	// Tokens is the chain of product tokens matched against robots.txt
	// user-agent lines, most specific first: the crawler's own token, then
	// the tokens whose group it falls back to (Googlebot-Image, Googlebot).
	Tokens []string
	// IgnoresStar is set for crawlers documented to ignore the "*" group
	// (AdsBot-Google, Mediapartners-Google): only a group naming one of
	// Tokens applies.
	IgnoresStar bool
	// IgnoresRobots is set for crawlers documented not to obey robots.txt
	// (user-triggered fetchers): the verdict is what the file asks of them,
	// not what they do.
	IgnoresRobots bool
	// Engine is whose rules apply, never engine.Auto: the one asked for,
	// else the one the crawler follows (bingbot: bing), else google.
	Engine engine.Engine
	// Crawler is the registry's entry for the agent; nil when the registry
	// does not know it or ParserOnly is set.
	Crawler *crawlers.Crawler
	// ParserOnly is set when the registry was not consulted: the bare
	// parser's answer for Tokens as given.
	ParserOnly bool
	// Notes say in words what the registry may change about an answer (a
	// fallback chain, the * group ignored, the engine chosen by the agent),
	// whatever the file. NotesFor keeps those that apply to one answer;
	// Decision.JSON gives those.
	Notes []string
}

// AgentOptions configure NewAgent. The zero value applies the registry
// and picks the engine the crawler follows.
type AgentOptions struct {
	// Engine is whose rules apply; engine.Auto (the zero value) picks the
	// crawler's own: bing for Microsoft's crawlers, yandex for Yandex's,
	// google otherwise.
	Engine engine.Engine
	// ParserOnly skips the registry: no fallback chain beyond the one
	// given, the "*" group applies to everyone, and Auto means google. For
	// testing the parser itself.
	ParserOnly bool
}

// ErrNoAgent is the error NewAgent wraps when the name holds no crawler.
var ErrNoAgent = errors.New("no crawler named")

// MaxAgentBytes bounds an agent name (a full User-Agent header is rarely
// over 300 bytes).
const MaxAgentBytes = 1024

// AgentError reports an agent name NewAgent cannot use.
type AgentError struct {
	Name string // the name given
	Err  error  // ErrNoAgent, or what else is wrong with it
}

// Error says what is wrong with the agent name and what to give instead.
func (e *AgentError) Error() string {
	if errors.Is(e.Err, ErrNoAgent) {
		return fmt.Sprintf("agent %q names no crawler: give a product token such as Googlebot, a User-Agent header, or a comma-separated fallback chain", e.Name)
	}
	return fmt.Sprintf("agent %q: %v", e.Name, e.Err)
}

// Unwrap returns the cause (ErrNoAgent, or what else is wrong).
func (e *AgentError) Unwrap() error { return e.Err }

// NewAgent resolves name into the crawler rep answers for. A single name
// (a product token or a User-Agent header, reduced to its product token as
// robotstxt.ProductToken does) gets the registry's documented behaviour:
// its fallback chain, whether it ignores the "*" group, the engine it
// follows. A comma-separated chain is taken as the fallback chain; the
// registry's entry for its first token still says whether the * group is
// ignored and which engine applies.
func NewAgent(name string, o AgentOptions) (*Agent, error) {
	if len(name) > MaxAgentBytes {
		return nil, &AgentError{Name: name[:64] + "...", Err: fmt.Errorf("%d bytes: at most %d", len(name), MaxAgentBytes)}
	}
	if o.Engine > engine.RFC9309 {
		return nil, &AgentError{Name: name, Err: &engine.Error{Name: o.Engine.String()}}
	}
	a := &Agent{Name: strings.TrimSpace(name), ParserOnly: o.ParserOnly}
	for n := range strings.SplitSeq(name, ",") {
		if n = strings.TrimSpace(n); n != "" {
			a.Tokens = append(a.Tokens, n)
		}
	}
	if len(a.Tokens) == 0 {
		return nil, &AgentError{Name: name, Err: ErrNoAgent}
	}
	chain := len(a.Tokens) > 1
	if !chain {
		a.Tokens[0] = robotstxt.ProductToken(a.Tokens[0])
	}
	if !o.ParserOnly {
		if c, ok := crawlers.ByName(a.Tokens[0]); ok {
			a.Crawler = c
		}
	}
	a.Engine = o.Engine
	c := a.Crawler
	if c == nil {
		if a.Engine == engine.Auto {
			a.Engine = engine.Google
		}
		if o.ParserOnly {
			a.Notes = append(a.Notes, "parser only: the crawler registry's fallback chains and * group exceptions are not applied")
		}
		return a, nil
	}
	if !chain && len(c.RobotsFallback) > 0 {
		a.Tokens = append(a.Tokens, c.RobotsFallback...)
		a.fallbackNote = fmt.Sprintf("%s falls back to the %s group when no group names it", a.Tokens[0], strings.Join(c.RobotsFallback, ", "))
		a.Notes = append(a.Notes, a.fallbackNote)
	}
	if c.IgnoresStar {
		a.IgnoresStar = true
		a.starNote = fmt.Sprintf("%s ignores the * group: only a group naming it applies", a.Tokens[0])
		a.Notes = append(a.Notes, a.starNote)
	}
	if c.RobotsTxt == crawlers.No {
		a.IgnoresRobots = true
		msg := c.Name + " is documented not to obey robots.txt: the verdict is what the file asks of it"
		if c.Note != "" {
			msg += " (" + strings.TrimSuffix(c.Note, ".") + ")"
		}
		a.Notes = append(a.Notes, msg)
	}
	if a.Engine == engine.Auto {
		a.Engine = c.Engine.Or(engine.Google)
		if a.Engine != engine.Google {
			a.Notes = append(a.Notes, fmt.Sprintf("%s follows the %s engine's rules (%s)", a.Tokens[0], a.Engine, c.Operator))
		}
	}
	return a, nil
}

// AgentFor returns the Agent for a registry crawler, as NewAgent does for
// its first token.
func AgentFor(c *crawlers.Crawler, e engine.Engine) *Agent {
	name := c.Name
	if len(c.Tokens) > 0 {
		name = c.Tokens[0]
	}
	a, err := NewAgent(name, AgentOptions{Engine: e})
	if err != nil || a.Crawler != c {
		// A data-set crawler the registry does not hold by name: its tokens
		// and nothing else.
		return &Agent{Name: name, Tokens: c.RobotsAgents(), Engine: e.Or(engine.Google), Crawler: c}
	}
	return a
}

// Token returns the agent's own product token, the first of Tokens.
func (a *Agent) Token() string { return a.Tokens[0] }

// Group returns the group of f the agent obeys.
//
// The group is remembered with each file (robotstxt.File.Remember), and
// the last file's is at hand: a crawler asks about many URLs of one site
// in a row, or alternates between sites, and resolving the group costs
// more than the check.
func (a *Agent) Group(f *robotstxt.File) *robotstxt.Matcher {
	return a.memo(f).g
}

// groupMemo is the group the agent obeys in f, and whether f states usage
// preferences (Content-Usage, Content-Signal).
type groupMemo struct {
	f        *robotstxt.File
	g        *robotstxt.Matcher
	hasUsage bool
}

func (a *Agent) memo(f *robotstxt.File) *groupMemo {
	if m := a.last.Load(); m != nil && m.f == f {
		return m
	}
	if m, ok := f.Recall(a).(*groupMemo); ok {
		return m // last is left as it is: alternating files write nothing
	}
	m := &groupMemo{f: f}
	if a.IgnoresStar {
		m.g = f.MatcherExplicit(a.Tokens...)
	} else {
		m.g = f.Matcher(a.Tokens...)
	}
	for _, e := range f.Extensions() {
		if e.Key == robotstxt.KeyContentUsage || e.Key == robotstxt.KeyContentSignal {
			m.hasUsage = true
			break
		}
	}
	m = f.Remember(a, m).(*groupMemo)
	a.last.Store(m)
	return m
}

// Parser is the robots.txt parser profile the agent's engine reads files
// with.
func (a *Agent) Parser() robotstxt.Profile { return a.Engine.Parser() }

// ParseOptions are the options the agent's engine parses robots.txt with
// (engine.Engine.ParseOptions): its parser profile, and Crawl-delay as a
// group member for the engines that read it. Answers about the agent
// (Group, CrawlDelay, Decide) are its engine's when f was parsed so.
func (a *Agent) ParseOptions() robotstxt.Options { return a.Engine.ParseOptions() }

// MetaProfile is the page-level combining rules of the agent's engine
// (robotsmeta.Profile is the engine type itself): Bing's and Yandex's for
// theirs, Google's for google and rfc9309 (the RFC says nothing about
// pages).
func (a *Agent) MetaProfile() engine.Engine { return a.Engine }

// String returns the agent's fallback chain, e.g. "Googlebot-Image,Googlebot".
func (a *Agent) String() string { return strings.Join(a.Tokens, ",") }

// CrawlDelay is the Crawl-delay the agent's engine reads for it in f: its
// group's, or for bing, when its own group sets none, the * group's (as
// Bing documents; fromStar is then set). ok is false when f sets none the
// engine reads.
func (a *Agent) CrawlDelay(f *robotstxt.File) (d time.Duration, line int, fromStar, ok bool) {
	if f == nil || !a.Engine.ReadsCrawlDelay() {
		return 0, 0, false, false
	}
	return a.crawlDelay(f)
}

// crawlDelay is CrawlDelay whether or not the engine reads it.
func (a *Agent) crawlDelay(f *robotstxt.File) (d time.Duration, line int, fromStar, ok bool) {
	g := a.Group(f)
	if d, line, ok = g.CrawlDelay(); ok {
		return d, line, false, true
	}
	if a.Engine == engine.Bing && g.Group().Via != robotstxt.ViaStar {
		if d, line, ok = f.Star().CrawlDelay(); ok {
			return d, line, true, true
		}
	}
	return 0, 0, false, false
}

// SiteDelay reads the interval the site asks of the agent in r: its
// Crawl-delay (see CrawlDelay), and Request-rate for the engines that read
// it; the longer interval wins. src says where it comes from:
// "crawl-delay (line N)", "crawl-delay (line N, * group)", "request-rate
// (line N)". ok is false when the site sets none the engine reads. A
// crawler's pacing may read more than the engine does (see DelayFrom).
func (a *Agent) SiteDelay(r *robotsfetch.Robots) (d time.Duration, src string, ok bool) {
	return a.DelayFrom(r, a.Engine.ReadsCrawlDelay(), a.Engine.ReadsRequestRate())
}

// DelayFrom is SiteDelay reading the lines a crawler's pacing honours,
// whatever the engine reads: Crawl-delay when crawlDelay is set,
// Request-rate when requestRate is (rep.Politeness's Honour).
func (a *Agent) DelayFrom(r *robotsfetch.Robots, crawlDelay, requestRate bool) (d time.Duration, src string, ok bool) {
	d, from, ok := a.delayFrom(r, crawlDelay, requestRate)
	if ok {
		src = from.String()
	}
	return d, src, ok
}

// Interval is DelayFrom without the source: what pacing each request
// needs, read without allocating.
func (a *Agent) Interval(r *robotsfetch.Robots, crawlDelay, requestRate bool) (time.Duration, bool) {
	d, _, ok := a.delayFrom(r, crawlDelay, requestRate)
	return d, ok
}

// delaySource is the line a delay comes from, written out only on demand.
type delaySource struct {
	line     int
	rate     bool // a Request-rate line, else a Crawl-delay one
	fromStar bool // a Crawl-delay of the * group
}

func (s delaySource) String() string {
	switch {
	case s.rate:
		return fmt.Sprintf("request-rate (line %d)", s.line)
	case s.fromStar:
		return fmt.Sprintf("crawl-delay (line %d, * group)", s.line)
	}
	return fmt.Sprintf("crawl-delay (line %d)", s.line)
}

func (a *Agent) delayFrom(r *robotsfetch.Robots, crawlDelay, requestRate bool) (d time.Duration, src delaySource, ok bool) {
	f := r.FileFor(a.ParseOptions())
	if f == nil || (!crawlDelay && !requestRate) {
		return 0, src, false
	}
	if crawlDelay {
		if cd, line, fromStar, has := a.crawlDelay(f); has {
			d, src, ok = cd, delaySource{line: line, fromStar: fromStar}, true
		}
	}
	if requestRate {
		if e, has := a.Group(f).Extension(robotstxt.KeyRequestRate); has && e.Requests > 0 {
			if rd := e.Per / time.Duration(e.Requests); !ok || rd > d {
				d, src, ok = rd, delaySource{line: e.Line, rate: true}, true
			}
		}
	}
	return d, src, ok
}

// AgentsFor resolves a list of crawlers as every door that audits several
// takes them: each name a crawler (as NewAgent reads it) or a purpose of
// the registry (crawlers.PurposeAITraining's "ai-training", "search", ...)
// standing for every registry crawler with that purpose that is not
// retired. Duplicates are dropped, first kept. An empty name is an
// *AgentError.
func AgentsFor(names []string, o AgentOptions) ([]*Agent, error) {
	var out []*Agent
	seen := map[string]bool{}
	add := func(a *Agent) {
		if k := strings.ToLower(a.Token()); !seen[k] {
			seen[k] = true
			out = append(out, a)
		}
	}
	for _, n := range names {
		n = strings.TrimSpace(n)
		matched := false
		for _, c := range crawlers.All() {
			if n != "" && string(c.Purpose) == strings.ToLower(n) && c.Source == crawlers.SourceRegistry && !c.Retired {
				add(AgentFor(c, o.Engine))
				matched = true
			}
		}
		if matched {
			continue
		}
		a, err := NewAgent(n, o)
		if err != nil {
			return nil, err
		}
		add(a)
	}
	return out, nil
}
