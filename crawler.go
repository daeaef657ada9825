package rep

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
)

// Crawler answers a crawler's robots questions. Create it with New.
type Crawler struct {
	ua       string
	agents   []string
	token    string // lower-cased first agent, for page-level rules
	profile  Profile
	fetcher  *robotsfetch.Fetcher
	delay    time.Duration
	maxDelay time.Duration
	now      func() time.Time

	mu   sync.Mutex
	next map[string]time.Time // origin -> earliest next request
}

// New returns a Crawler for the given User-Agent header, which is sent with
// every robots.txt request and whose product token selects the robots.txt
// group (see WithAgents).
func New(userAgent string, opts ...Option) (*Crawler, error) {
	if strings.TrimSpace(userAgent) == "" {
		return nil, errors.New("rep: a User-Agent is required, e.g. \"ExampleBot/1.0 (+https://example.com/bot)\"")
	}
	cfg := config{delay: DefaultDelay, maxDelay: DefaultMaxDelay}
	for _, o := range opts {
		o(&cfg)
	}
	if len(cfg.agents) == 0 {
		cfg.agents = []string{robotstxt.ProductToken(userAgent)}
	}
	if cfg.agents[0] == "" {
		return nil, fmt.Errorf("rep: no product token in User-Agent %q: use WithAgents", userAgent)
	}
	fo := cfg.fetch
	fo.UserAgent = userAgent
	fo.Profile = cfg.profile.RobotsProfile()
	if cfg.profile == RFC9309 && !cfg.outageSet {
		fo.AfterOutage = robotsfetch.OutageAllowAll
	}
	f, err := robotsfetch.New(fo)
	if err != nil {
		return nil, err
	}
	now := fo.Now
	if now == nil {
		now = time.Now
	}
	return &Crawler{
		ua: userAgent, agents: cfg.agents, token: strings.ToLower(robotstxt.ProductToken(cfg.agents[0])),
		profile: cfg.profile, fetcher: f, delay: cfg.delay, maxDelay: cfg.maxDelay, now: now,
		next: make(map[string]time.Time),
	}, nil
}

// UserAgent returns the User-Agent header the crawler sends; send it with
// page requests too.
func (c *Crawler) UserAgent() string { return c.ua }

// Agents returns the product-token chain matched against robots.txt.
func (c *Crawler) Agents() []string { return append([]string(nil), c.agents...) }

// Profile returns the crawler's profile.
func (c *Crawler) Profile() Profile { return c.profile }

// Fetcher returns the robots.txt fetcher, for reports and statistics.
func (c *Crawler) Fetcher() *robotsfetch.Fetcher { return c.fetcher }

// Decision is the answer to "may I fetch this URL?": the robots.txt verdict
// with its evidence, and how the origin's robots.txt was fetched.
type Decision struct {
	// Decision is the verdict and its deciding rule (Line 0 when none);
	// when Fetch.Verdict is AllowAll or DisallowAll no rule was matched.
	robotstxt.Decision
	// URL is the URL asked about.
	URL string
	// Fetch is how the robots.txt in force was fetched and read. It is
	// shared and must not be modified.
	Fetch *robotsfetch.Outcome
}

// String explains the decision in one line, e.g.
// "disallowed by line 2: Disallow: /private (https://example.com/robots.txt: 200, success)".
func (d Decision) String() string {
	verdict := "allowed"
	if !d.Allowed {
		verdict = "disallowed"
	}
	var why string
	switch {
	case d.Fetch == nil:
		why = "no robots.txt"
	case d.Fetch.Verdict != robotsfetch.UseRules:
		why = d.Fetch.Case.Explain()
	case d.Rule.Line > 0:
		why = fmt.Sprintf("line %d: %s", d.Rule.Line, d.Rule)
	default:
		why = d.Reason.String()
	}
	s := verdict + ": " + why
	if d.Fetch != nil {
		s += " (" + d.Fetch.String() + ")"
	}
	return s
}

// Allowed decides whether the crawler may fetch rawurl, an absolute http or
// https URL, fetching its origin's robots.txt when it is not in the cache.
// The error is non-nil only for a URL without an origin or when ctx ends
// before the robots.txt is known; the Decision is then "disallowed".
func (c *Crawler) Allowed(ctx context.Context, rawurl string) (Decision, error) {
	r, err := c.fetcher.Get(ctx, rawurl)
	if err != nil {
		return Decision{URL: rawurl}, err
	}
	return Decision{Decision: r.Check(rawurl, c.agents...), URL: rawurl, Fetch: &r.Outcome}, nil
}

// Robots returns the robots.txt answer for rawurl's origin, fetching it
// when it is not cached: the parsed file (sitemaps, extensions, groups)
// and the fetch outcome.
func (c *Crawler) Robots(ctx context.Context, rawurl string) (*robotsfetch.Robots, error) {
	return c.fetcher.Get(ctx, rawurl)
}

// Delay returns the interval Wait keeps between two requests to rawurl's
// origin, and where it comes from: "default", "crawl-delay (line N)",
// "request-rate (line N)", with "capped" when over the maximum.
func (c *Crawler) Delay(ctx context.Context, rawurl string) (time.Duration, string, error) {
	d, src := c.delay, "default"
	if c.profile.HonoursDelay() {
		r, err := c.fetcher.Get(ctx, rawurl)
		if err != nil {
			return 0, "", err
		}
		if sd, s, ok := siteDelay(r, c.agents, c.profile); ok {
			d, src = sd, s
		}
	}
	if d > c.maxDelay {
		d, src = c.maxDelay, src+", capped"
	}
	return d, src, nil
}

// siteDelay reads Crawl-delay and Request-rate for the agent; the longer
// interval wins.
func siteDelay(r *robotsfetch.Robots, agents []string, p Profile) (time.Duration, string, bool) {
	a := r.Agent(agents...)
	if a == nil {
		return 0, "", false
	}
	var d time.Duration
	src, ok := "", false
	if cd, line, has := a.CrawlDelay(); has {
		d, src, ok = cd, fmt.Sprintf("crawl-delay (line %d)", line), true
	} else if p == Bing && a.Group().Via != robotstxt.ViaStar {
		// Bing: a bingbot group without Crawl-delay inherits the "*" group's.
		if cd, line, has := r.File.Star().CrawlDelay(); has {
			d, src, ok = cd, fmt.Sprintf("crawl-delay (line %d, * group)", line), true
		}
	}
	if p == Yandex {
		if e, has := a.Extension(robotstxt.KeyRequestRate); has && e.Requests > 0 {
			if rd := e.Per / time.Duration(e.Requests); !ok || rd > d {
				d, src, ok = rd, fmt.Sprintf("request-rate (line %d)", e.Line), true
			}
		}
	}
	return d, src, ok
}

// Wait blocks until the crawler may send its next request to rawurl's
// origin, and reserves that slot: concurrent callers for one origin are
// spaced by the delay, in the order they called. It returns early with
// ctx's error (the slot stays reserved, which errs on the polite side).
func (c *Crawler) Wait(ctx context.Context, rawurl string) error {
	origin, err := robotsfetch.Origin(rawurl)
	if err != nil {
		return err
	}
	d, _, err := c.Delay(ctx, rawurl)
	if err != nil {
		return err
	}
	c.mu.Lock()
	now := c.now()
	at := c.next[origin]
	if at.Before(now) {
		at = now
	}
	c.next[origin] = at.Add(d)
	if len(c.next) > 4*robotsfetch.DefaultMaxOrigins {
		for o, t := range c.next { // forget origins whose slot has passed
			if t.Before(now) {
				delete(c.next, o)
			}
		}
	}
	c.mu.Unlock()
	wait := at.Sub(now)
	if wait <= 0 {
		return nil
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
