// Package rep is the one-call crawler API of the rep toolkit: everything a
// polite crawler needs to obey the Robots Exclusion Protocol.
//
//	c, _ := rep.New("ExampleBot/1.0 (+https://example.com/bot)")
//	d, _ := c.Allowed(ctx, url)   // robots.txt, fetched and cached per origin
//	c.Wait(ctx, url)              // pacing per origin
//	page, _ := c.CheckResponse(ctx, resp) // meta robots, X-Robots-Tag, links
//
// Allowed fetches each origin's robots.txt once (RFC 9309 §2.3–2.5, with
// Google's reading of the status codes; see package robotsfetch), caches it
// for up to 24 hours and answers with the deciding rule, its line and how
// the file was fetched. An origin whose robots.txt cannot be read (5xx, 429,
// a timeout) is disallowed, as RFC 9309 §2.3.1.4 requires. Wait paces
// requests per origin: a default delay for every profile, and the site's
// Crawl-delay or Request-rate for the profiles whose engines honour them
// (Bing, Yandex). CheckResponse reads a fetched page's robots meta elements
// and X-Robots-Tag headers (package robotsmeta) and combines them with the
// robots.txt verdict: may crawl, may index, which links to follow, snippet
// limits.
//
// A Crawler is safe for concurrent use: create one and share it between the
// crawler's goroutines.
package rep

import (
	"fmt"
	"strings"
	"time"

	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
)

// Profile is whose documented behaviour the crawler follows.
type Profile uint8

const (
	// Google: Google's robots.txt parser, no Crawl-delay, and its page-level
	// combining rules. The default.
	Google Profile = iota
	// Bing: Google's parser (Bing documents the same matching), Crawl-delay
	// honoured, with Bing's rule that a crawler's own group without a
	// Crawl-delay inherits the "*" group's; Bing's page-level rules.
	Bing
	// Yandex: Google's parser, Crawl-delay and Request-rate honoured (Yandex
	// dropped Crawl-delay in 2018; the profile keeps the older, more polite
	// reading); Yandex's page-level rules, where allow directives win.
	Yandex
	// RFC9309: the RFC's parser (percent-decoding, "%2A" literals), no
	// Crawl-delay, and after 30 days of unreachability the file is treated
	// as unavailable (the RFC's first MAY); Google's page-level rules, as the
	// RFC says nothing about pages.
	RFC9309
)

var profileNames = [...]string{"google", "bing", "yandex", "rfc9309"}

// String returns the profile's name as used on the command line.
func (p Profile) String() string {
	if int(p) < len(profileNames) {
		return profileNames[p]
	}
	return fmt.Sprintf("profile(%d)", uint8(p))
}

// ParseProfile returns the profile named s (any case).
func ParseProfile(s string) (Profile, bool) {
	for i, n := range profileNames {
		if strings.EqualFold(s, n) {
			return Profile(i), true
		}
	}
	return 0, false
}

// RobotsProfile is the robots.txt parsing profile used by p.
func (p Profile) RobotsProfile() robotstxt.Profile {
	if p == RFC9309 {
		return robotstxt.RFC9309
	}
	return robotstxt.Google
}

// HonoursDelay reports whether p reads Crawl-delay and Request-rate.
func (p Profile) HonoursDelay() bool { return p == Bing || p == Yandex }

// Defaults for pacing.
const (
	DefaultDelay    = time.Second
	DefaultMaxDelay = time.Minute
)

// Option configures New.
type Option func(*config)

type config struct {
	agents          []string
	profile         Profile
	fetch           robotsfetch.Options
	delay, maxDelay time.Duration
	outageSet       bool
}

// WithProfile selects the profile (default Google).
func WithProfile(p Profile) Option { return func(c *config) { c.profile = p } }

// WithAgents sets the product tokens matched against robots.txt user-agent
// lines, most specific first (e.g. "Googlebot-Image", "Googlebot"). The
// default is the product token of the User-Agent given to New.
func WithAgents(names ...string) Option {
	return func(c *config) { c.agents = append([]string(nil), names...) }
}

// WithStore keeps fetched robots.txt files in s behind the in-memory layer
// (robotsfetch/boltstore to survive restarts, robotsfetch/redisstore to share
// one cache across a fleet).
func WithStore(s robotsfetch.Store) Option { return func(c *config) { c.fetch.Store = s } }

// WithDelay sets the per-origin delay used when robots.txt gives none (or
// the profile ignores it), and the cap on any delay a site asks for.
func WithDelay(def, max time.Duration) Option {
	return func(c *config) { c.delay, c.maxDelay = max0(def), max0(max) }
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

func max0(d time.Duration) time.Duration { return max(d, 0) }
