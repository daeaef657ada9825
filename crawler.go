package rep

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
)

// Crawler answers a crawler's robots questions. Create it with New.
type Crawler struct {
	ua       string
	uaHeader []string // {ua}, shared by every request's header (read only)
	agent    *Agent
	token    string // lower-cased first token, for page-level rules
	fetcher  *robotsfetch.Fetcher
	delay    time.Duration
	maxDelay time.Duration
	perHost  int
	honour   Honour // resolved: never HonourAuto
	pacing   pacing
	now      func() time.Time
	pace     *pacer

	guard    bool // the robots.txt fetches refuse special addresses: so do the pages
	baseOnce sync.Once
	base     http.RoundTripper // see baseTransport
}

// New returns a Crawler for the given User-Agent header, which is sent with
// every robots.txt request and whose product token selects the robots.txt
// group (see WithAgents).
func New(userAgent string, opts ...Option) (*Crawler, error) {
	if strings.TrimSpace(userAgent) == "" {
		return nil, errors.New("rep: a User-Agent is required, e.g. \"ExampleBot/1.0 (+https://example.com/bot)\"")
	}
	cfg := config{}
	for _, o := range opts {
		o(&cfg)
	}
	name := strings.Join(cfg.agents, ",")
	if len(cfg.agents) == 0 {
		name = robotstxt.ProductToken(userAgent)
	}
	a := cfg.agent
	if a == nil {
		var err error
		if a, err = NewAgent(name, AgentOptions{Engine: cfg.engine, ParserOnly: cfg.parserOnly}); err != nil {
			return nil, fmt.Errorf("rep: no product token in User-Agent %q: use WithAgents: %w", userAgent, err)
		}
	}
	pol := Politeness{MinDelay: cfg.delay, MaxDelay: cfg.maxDelay, PerHost: cfg.perHost}.resolve()
	pace := newPacer()
	now := cfg.fetch.Now
	if cfg.fetcher != nil {
		now = cfg.fetcher.Options().Now
	}
	if now == nil {
		now = time.Now
	}
	f := cfg.fetcher
	guard := f != nil && f.Options().Guard
	if f == nil {
		var err error
		fo := cfg.fetch
		fo.UserAgent = userAgent
		// The robots.txt request is paced like any other: it takes the
		// origin's next slot, MinDelay after the one before. The guard,
		// when asked for, is in the client (netguard's), and covers the
		// pages too (baseTransport).
		fo.Client = pacedClient(fo, pace, now, pol.MinDelay)
		guard, fo.Guard = fo.Guard, false
		if a.Engine == engine.RFC9309 && !cfg.outageSet {
			fo.AfterOutage = robotsfetch.OutageAllowAll
		}
		if cfg.logger != nil {
			fo.Logger = cfg.logger
		}
		if cfg.onFetch != nil {
			fo.OnFetch = cfg.onFetch
		}
		// Robots.File is parsed as the crawler's engine reads it.
		po := a.ParseOptions()
		fo.Profile, fo.CrawlDelayEndsGroup = po.Profile, po.CrawlDelayEndsGroup
		if f, err = NewFetchers(fo).For(a); err != nil {
			return nil, err
		}
	}
	pc, honour := resolvePacing(cfg.honour, a)
	return &Crawler{
		ua: userAgent, uaHeader: []string{userAgent}, agent: a, token: strings.ToLower(a.Token()),
		fetcher: f, delay: pol.MinDelay, maxDelay: pol.MaxDelay, perHost: pol.PerHost,
		honour: honour, pacing: pc, now: now, pace: pace, guard: guard,
	}, nil
}

// UserAgent returns the User-Agent header the crawler sends; send it with
// page requests too.
func (c *Crawler) UserAgent() string { return c.ua }

// Agent returns the crawler as rep answers for it: its product-token
// chain, whether it ignores the * group, its engine.
func (c *Crawler) Agent() *Agent { return c.agent }

// Engine returns whose rules the crawler follows.
func (c *Crawler) Engine() engine.Engine { return c.agent.Engine }

// Fetcher returns the robots.txt fetcher, for reports and statistics.
func (c *Crawler) Fetcher() *robotsfetch.Fetcher { return c.fetcher }

// Check decides whether the crawler may fetch rawurl, an absolute http or
// https URL, fetching its origin's robots.txt when it is not in the cache,
// and returns the Decision with its evidence. The error is non-nil only
// for a URL without an origin or when ctx ends before the robots.txt is
// known; the Decision is then "disallowed". (As in package robotstxt,
// Check returns a Decision and Allowed a bool.)
func (c *Crawler) Check(ctx context.Context, rawurl string) (Decision, error) {
	return Check(ctx, c.fetcher, c.agent, rawurl)
}

// Allowed reports whether the crawler may fetch rawurl: Check's verdict
// without its evidence.
func (c *Crawler) Allowed(ctx context.Context, rawurl string) (bool, error) {
	d, err := c.Check(ctx, rawurl)
	return d.Allowed, err
}

// Check is the one path every door of rep takes to answer for a crawler:
// it fetches rawurl's robots.txt with f (from f's cache while fresh),
// resolves the group a obeys and decides, with the fetch's own verdict
// when the file could not be used (RFC 9309 §2.3.1). The error is non-nil
// only for a URL without an origin or when ctx ends before the robots.txt
// is known; the Decision is then "disallowed".
func Check(ctx context.Context, f *robotsfetch.Fetcher, a *Agent, rawurl string) (Decision, error) {
	r, err := f.Get(ctx, rawurl)
	if err != nil {
		return Decision{URL: rawurl, Agent: a}, err
	}
	return a.DecideFetched(r, rawurl), nil
}

// Robots returns the robots.txt answer for rawurl's origin, fetching it
// when it is not cached: the parsed file (sitemaps, extensions, groups)
// and the fetch outcome.
func (c *Crawler) Robots(ctx context.Context, rawurl string) (*robotsfetch.Robots, error) {
	return c.fetcher.Get(ctx, rawurl)
}

// Wait blocks until the crawler may send its next request to rawurl's
// origin, and reserves that slot: concurrent callers for one origin are
// spaced by the delay, in the order they called. When ctx ends first it
// returns ctx's error and gives the slot back, unless a later caller has
// already reserved the one behind it.
func (c *Crawler) Wait(ctx context.Context, rawurl string) error {
	origin, err := robotsfetch.Origin(rawurl)
	if err != nil {
		return err
	}
	return c.waitOrigin(ctx, origin, rawurl)
}

// waitOrigin is Wait for rawurl, whose origin is known.
func (c *Crawler) waitOrigin(ctx context.Context, origin, rawurl string) error {
	d, _, err := c.Delay(ctx, rawurl)
	if err != nil {
		return err
	}
	return c.pace.wait(ctx, origin, c.now(), d)
}
