package main

import (
	"flag"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/internal/termsafe"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/verdict"
)

// Every command that answers for a crawler (check, lint -agent, page,
// fetch, audit) takes the same flags and resolves the crawler through
// rep.NewAgent, so each gives the library's answer: the registry's
// fallback chains and * group exceptions, the engine the crawler follows.

// agentFlags are -agent, -engine (-profile, its former name) and
// -parser-only.
type agentFlags struct {
	agent      *string
	eng        *engineFlag
	parserOnly *bool
}

const agentFlagHelp = "crawler `NAME`: product token (Googlebot), full User-Agent, or comma-separated fallback chain"

func addAgentFlags(fs *flag.FlagSet) *agentFlags {
	return &agentFlags{
		agent:      fs.String("agent", "", agentFlagHelp),
		eng:        addEngineFlag(fs, "engine whose rules apply: `ENGINE` "+engine.Names+" (default: the one the crawler follows: bingbot bing, YandexBot yandex, else google)"),
		parserOnly: fs.Bool("parser-only", false, "the bare parser's answer: no registry fallback chains or * group exceptions"),
	}
}

// engineFlag is -engine, the engine whose rules apply, and -profile, the
// name it had first, kept so that scripts written with it still run. A
// message about the value names the flag that was given.
type engineFlag struct {
	value string
	name  string
}

func addEngineFlag(fs *flag.FlagSet, help string) *engineFlag {
	f := &engineFlag{name: "-engine"}
	fs.Func("engine", help, func(s string) error { f.value, f.name = s, "-engine"; return nil })
	fs.Func("profile", "same as -engine `ENGINE` (its former name)", func(s string) error { f.value, f.name = s, "-profile"; return nil })
	return f
}

// get returns the engine asked for (engine.Auto when none was).
func (f *engineFlag) get() (engine.Engine, error) {
	e, err := engine.Parse(f.value)
	if err != nil {
		return e, fmt.Errorf("%s: %w", f.name, err)
	}
	return e, nil
}

// engine returns the -engine flag's engine.
func (f *agentFlags) engine() (engine.Engine, error) { return f.eng.get() }

// resolve returns the crawler asked for; nil, nil when -agent is empty.
func (f *agentFlags) resolve() (*rep.Agent, error) {
	e, err := f.engine()
	if err != nil {
		return nil, err
	}
	if *f.agent == "" {
		return nil, nil
	}
	a, err := rep.NewAgent(*f.agent, rep.AgentOptions{Engine: e, ParserOnly: *f.parserOnly})
	if err != nil {
		return nil, fmt.Errorf("-agent: %w", err)
	}
	return a, nil
}

// noteUnknown says on stderr, for each crawler the registry does not know
// but whose name is close to one it does, "did you mean": the answer is
// still given for the name as written (unknown crawlers are legitimate),
// but a misspelt Googlebot answered from the * group must not pass
// unnoticed. It returns how many notes it wrote.
func noteUnknown(e *env, cmd string, agents ...*rep.Agent) int {
	n := 0
	for _, a := range agents {
		if s := verdict.Suggestions(a); len(s) > 0 {
			fmt.Fprintf(e.stderr, "rep %s: note: unknown crawler %s — did you mean %s? (answered as a crawler the registry does not know)\n",
				cmd, termsafe.Escape(a.Token()), strings.Join(s, " or "))
			n++
		}
	}
	return n
}

// allowPrivateHelp is the -allow-private flag's text, the same on every
// command that fetches.
const allowPrivateHelp = "fetch from loopback, private and link-local addresses too (refused by default)"

// fetchSettings are what a command's fetcher depends on.
type fetchSettings struct {
	tool         string // rep-check, rep-page...: names the User-Agent
	agent        *rep.Agent
	userAgent    string // empty: tool's, naming the agent
	allowPrivate bool
	timeout      time.Duration
	maxBytes     int // 0: the 500 KiB crawlers read
}

// fetcherCache holds a run's fetchers, one per settings, so a run
// fetches each origin once whatever the number of URLs and engines, and
// runs in one process (tests) do not share a cache.
type fetcherCache struct {
	mu sync.Mutex
	m  map[fetcherKey]*robotsfetch.Fetcher
}

type fetcherKey struct {
	ua           string
	allowPrivate bool
	timeout      time.Duration
	maxBytes     int
}

// fetcher returns the run's fetcher for s: the one way every command
// fetches robots.txt (robotsfetch: the status table, redirects, 500 KiB,
// caching; each engine's parse made from the one fetch on demand),
// refusing private addresses unless -allow-private.
func (e *env) fetcher(s fetchSettings) (*robotsfetch.Fetcher, error) {
	ua := s.userAgent
	if ua == "" {
		var names []string
		if s.agent != nil {
			names = s.agent.Tokens[:1]
		}
		ua = fetchUserAgent(s.tool, names)
	}
	if s.timeout <= 0 {
		s.timeout = 30 * time.Second
	}
	k := fetcherKey{ua, s.allowPrivate, s.timeout, s.maxBytes}
	c := &e.fetchers
	c.mu.Lock()
	defer c.mu.Unlock()
	if f := c.m[k]; f != nil {
		return f, nil
	}
	f, err := rep.NewFetchers(robotsfetch.Options{UserAgent: ua, Guard: !s.allowPrivate, Timeout: s.timeout, BodyTimeout: s.timeout, MaxBytes: s.maxBytes}).For(s.agent)
	if err != nil {
		return nil, err
	}
	if c.m == nil {
		c.m = map[fetcherKey]*robotsfetch.Fetcher{}
	}
	c.m[k] = f
	return f, nil
}
