// Package rep is the one-call crawler API of the rep toolkit: everything a
// polite crawler needs to obey the Robots Exclusion Protocol.
//
//	c, _ := rep.New("ExampleBot/1.0 (+https://example.com/bot)")
//	client := c.Client() // robots.txt, pacing and the page verdict on every request
//	resp, err := client.Do(req)
//	if errors.Is(err, rep.ErrDisallowed) { ... } // errors.As: *rep.DisallowedError, its Kind and RetryAt
//	page := rep.PageVerdictOf(resp) // noindex, nofollow, links; the body stays whole
//
// The client asks robots.txt before every request and every redirect hop
// (http.DefaultClient would follow a redirect into a disallowed path),
// keeps each origin's pace and reads each page's robots rules. The same
// steps one at a time, for a crawler with its own HTTP stack:
//
//	d, _ := c.Check(ctx, url)              // robots.txt, fetched and cached per origin
//	c.Wait(ctx, url)                       // pacing per origin
//	page, _ := c.CheckResponse(ctx, resp)  // meta robots, X-Robots-Tag, links
//
// A URL is matched as it goes on the wire: "/café" and "/caf%C3%A9" get
// one answer, and a URL hiding an unreserved character behind an escape
// ("/%70rivate") is disallowed when either reading of it is (see
// Agent.Decide).
//
// Allowed fetches each origin's robots.txt once (RFC 9309 §2.3–2.5, with
// Google's reading of the status codes; see package robotsfetch), caches it
// for up to 24 hours and answers with the deciding rule, its line and how
// the file was fetched. An origin whose robots.txt cannot be read (5xx, 429,
// a timeout) is disallowed, as RFC 9309 §2.3.1.4 requires. Wait paces
// requests per origin, apart from the engine (see Politeness): at least 1 s
// between two requests, longer when the site's Crawl-delay or Request-rate
// asks for it (up to 1 minute) for a crawler the registry does not know,
// and as documented for a registry crawler (bingbot honours Crawl-delay,
// Googlebot does not). CheckResponse reads a fetched page's robots meta elements
// and X-Robots-Tag headers (package robotsmeta) and combines them with the
// robots.txt verdict: may crawl, may index, which links to follow, snippet
// limits.
//
// A Crawler is safe for concurrent use: create one and share it between the
// crawler's goroutines.
package rep

import (
	"log/slog"
	"time"

	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/robotsfetch"
)

// Defaults for pacing (see Politeness).
const (
	// DefaultDelay is the least interval between two requests to one
	// origin.
	DefaultDelay = time.Second
	// DefaultMaxDelay caps the interval a site's Crawl-delay or
	// Request-rate can ask for.
	DefaultMaxDelay = time.Minute
)

// Option configures New.
type Option func(*config)

type config struct {
	agents          []string
	agent           *Agent
	engine          engine.Engine
	parserOnly      bool
	fetcher         *robotsfetch.Fetcher
	fetch           robotsfetch.Options
	delay, maxDelay time.Duration
	perHost         int
	honour          Honour
	outageSet       bool
	logger          *slog.Logger
	onFetch         func(robotsfetch.Outcome)
}

// WithEngine selects whose rules apply: engine.Google, Bing, Yandex or
// RFC9309. The default, engine.Auto, follows the crawler: bing for
// Microsoft's crawlers, yandex for Yandex's, google for every other.
func WithEngine(e engine.Engine) Option { return func(c *config) { c.engine = e } }

// WithParserOnly answers with the bare parser: the crawler registry's
// fallback chains and "*" group exceptions are not applied.
func WithParserOnly() Option { return func(c *config) { c.parserOnly = true } }

// WithFetcher shares f, a robots.txt fetcher and its cache, with other
// Crawlers (a server answering for many crawlers fetches each origin
// once). The fetcher's own options then apply: its User-Agent and parser
// profile, whatever New is given.
func WithFetcher(f *robotsfetch.Fetcher) Option { return func(c *config) { c.fetcher = f } }

// WithAgents sets the product tokens matched against robots.txt user-agent
// lines, most specific first (e.g. "Googlebot-Image", "Googlebot"). The
// default is the product token of the User-Agent given to New, with the
// registry's fallback chain for a known crawler (see NewAgent).
func WithAgents(names ...string) Option {
	return func(c *config) { c.agents = append([]string(nil), names...) }
}

// WithAgent answers for a, an Agent from NewAgent, instead of the
// crawler New's User-Agent names.
func WithAgent(a *Agent) Option { return func(c *config) { c.agent = a } }

// WithStore keeps fetched robots.txt files in s behind the in-memory layer
// (robotsfetch/boltstore to survive restarts, robotsfetch/redisstore to share
// one cache across a fleet).
func WithStore(s robotsfetch.Store) Option { return func(c *config) { c.fetch.Store = s } }

// WithDelay sets Politeness.MinDelay and MaxDelay: the least interval
// between two requests to one origin (the interval when the site asks for
// none), and the cap on any interval a site asks for. Zero and negative
// values read as in Politeness, the same as WithPoliteness reads them: a
// min of 0 is DefaultDelay and a negative min no minimum; a max of 0 or
// less is DefaultMaxDelay; a max below min is raised to min.
func WithDelay(min, max time.Duration) Option {
	return func(c *config) { c.delay, c.maxDelay = min, max }
}

// WithFetchOptions sets the fetcher's options (timeouts, limits, Guard,
// Client, clock, outage rule...). UserAgent and Profile are always set from
// New's arguments; a Store set here is kept unless WithStore is also given.
func WithFetchOptions(o robotsfetch.Options) Option {
	return func(c *config) {
		st := c.fetch.Store
		c.fetch = o
		if o.Store == nil {
			c.fetch.Store = st
		}
		c.outageSet = o.AfterOutage != robotsfetch.OutageUseCopy
	}
}

// WithLogger logs the crawler's robots.txt fetches to l: each fetch from
// the network at Info (origin, case, status, duration, bytes, error), each
// answer read from the Store and each wait for another crawler's lease at
// Debug, each Store failure at Warn (see robotsfetch.Options.Logger).
// Answers from memory are not logged. With WithFetcher, the fetcher's own
// options apply instead.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// WithFetchHook calls fn once for every robots.txt fetch from the network
// and every answer read from the Store (robotsfetch.Options.OnFetch), for
// metrics or audit logs. fn is called concurrently from the fetcher's
// goroutines: it must be safe for concurrent use and return quickly. With
// WithFetcher, the fetcher's own options apply instead; the counters of
// Crawler.Fetcher().Stats() need no hook.
func WithFetchHook(fn func(robotsfetch.Outcome)) Option {
	return func(c *config) { c.onFetch = fn }
}
