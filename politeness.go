package rep

import (
	"context"
	"fmt"
	"time"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/robotsfetch"
)

// Politeness is how hard a Crawler may press one origin: the interval kept
// between two requests, the requests in flight at once, and whether the
// site's Crawl-delay and Request-rate lengthen the interval. It is set
// apart from the engine: which engine's rules match robots.txt and pages
// (WithEngine) says nothing about pacing.
//
// Each field has one meaning for zero and one for negative values, the
// same in WithPoliteness and WithDelay:
//
//   - MinDelay: 0 means DefaultDelay (1 s); negative means no minimum.
//   - MaxDelay: 0 or negative means DefaultMaxDelay (1 minute): a cap is
//     always kept, so a site's Crawl-delay of a day cannot stall the
//     crawler. A MaxDelay below MinDelay is raised to MinDelay: the
//     interval is never shorter than the minimum.
//   - PerHost: 0 or negative means 1.
//   - CrawlDelay: HonourAuto (the zero value) resolves per crawler.
//
// Crawler.Politeness reports the values applied.
type Politeness struct {
	// MinDelay is the least interval between two requests to one origin:
	// the interval when the site asks for none, and the floor under a
	// shorter Crawl-delay or Request-rate.
	MinDelay time.Duration
	// MaxDelay caps any interval a site asks for: a Crawl-delay of an hour
	// is kept to MaxDelay.
	MaxDelay time.Duration
	// PerHost is how many requests the crawler's Transport has in flight
	// to one origin at once (from sending the request to closing the
	// response body).
	PerHost int
	// CrawlDelay says whether the site's Crawl-delay and Request-rate are
	// honoured.
	CrawlDelay Honour
}

// Honour says whether a Crawler honours the Crawl-delay and Request-rate
// lines of the group it obeys.
type Honour uint8

const (
	// HonourAuto, the default: a crawler the registry does not know
	// honours Crawl-delay and Request-rate; a registry crawler keeps its
	// documented behaviour (bingbot, ClaudeBot and CCBot honour
	// Crawl-delay; Googlebot and YandexBot do not), and one whose
	// behaviour is not documented follows its engine (bing, yandex read
	// it; google, rfc9309 do not).
	HonourAuto Honour = iota
	// HonourAlways reads Crawl-delay and Request-rate whatever the engine;
	// the longer interval wins.
	HonourAlways
	// HonourNever keeps MinDelay between requests whatever the site asks.
	HonourNever
	// HonourAsEngine reads what the engine's crawlers read: Crawl-delay
	// for bing and yandex, Request-rate for yandex, nothing for google and
	// rfc9309.
	HonourAsEngine
)

var honourNames = [...]string{HonourAuto: "auto", HonourAlways: "always", HonourNever: "never", HonourAsEngine: "as-engine"}

// String returns the setting's name: auto, always, never or as-engine.
func (h Honour) String() string {
	if int(h) < len(honourNames) {
		return honourNames[h]
	}
	return fmt.Sprintf("honour(%d)", uint8(h))
}

// WithPoliteness sets how the Crawler paces each origin (see Politeness
// for what zero and negative fields mean).
func WithPoliteness(p Politeness) Option {
	return func(c *config) {
		c.delay, c.maxDelay = p.MinDelay, p.MaxDelay
		c.perHost = p.PerHost
		c.honour = p.CrawlDelay
	}
}

// resolve applies Politeness's reading of zero and negative values to the
// settings given, so that the Crawler holds only values it applies.
func (p Politeness) resolve() Politeness {
	switch {
	case p.MinDelay == 0:
		p.MinDelay = DefaultDelay
	case p.MinDelay < 0:
		p.MinDelay = 0
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = DefaultMaxDelay
	}
	p.MaxDelay = max(p.MaxDelay, p.MinDelay)
	p.PerHost = max(p.PerHost, 1)
	return p
}

// pacing is the resolved Honour: which lines of the site's group lengthen
// the interval.
type pacing struct{ crawlDelay, requestRate bool }

// resolvePacing turns h into what a reads, for the agent's registry entry
// and engine.
func resolvePacing(h Honour, a *Agent) (pacing, Honour) {
	e := a.Engine
	asEngine := pacing{e.ReadsCrawlDelay(), e.ReadsRequestRate()}
	switch h {
	case HonourAlways:
		return pacing{true, true}, h
	case HonourNever:
		return pacing{}, h
	case HonourAsEngine:
		return asEngine, h
	}
	if a.Crawler == nil {
		return pacing{true, true}, HonourAlways
	}
	switch a.Crawler.CrawlDelay {
	case crawlers.Yes:
		return pacing{true, e.ReadsRequestRate()}, HonourAlways
	case crawlers.No:
		return pacing{}, HonourNever
	}
	return asEngine, HonourAsEngine
}

// Politeness returns how the crawler paces each origin, with the defaults
// filled in and HonourAuto resolved for its agent (to HonourAlways,
// HonourNever or HonourAsEngine).
func (c *Crawler) Politeness() Politeness {
	return Politeness{MinDelay: c.delay, MaxDelay: c.maxDelay, PerHost: c.perHost, CrawlDelay: c.honour}
}

// Delay returns the interval Wait keeps between two requests to rawurl's
// origin, and where it comes from: "default", "crawl-delay (line N)",
// "request-rate (line N)", with ", raised to the minimum" when the site
// asks for less than Politeness.MinDelay and ", capped" when it asks for
// more than MaxDelay. It reads the origin's robots.txt (fetching it when
// it is not cached) only when the crawler honours Crawl-delay.
func (c *Crawler) Delay(ctx context.Context, rawurl string) (time.Duration, string, error) {
	var r *robotsfetch.Robots
	if c.pacing.crawlDelay || c.pacing.requestRate {
		var err error
		if r, err = c.fetcher.Get(ctx, rawurl); err != nil {
			return 0, "", err
		}
	}
	d, src := c.delayIn(r, true)
	return d, src, nil
}

// delayIn is Delay with the origin's robots.txt answer in hand (nil when
// the crawler reads no Crawl-delay); src, its source, is written out only
// when explain is set (each request's pacing needs the delay alone).
func (c *Crawler) delayIn(r *robotsfetch.Robots, explain bool) (d time.Duration, src string) {
	d = c.delay
	if explain {
		src = "default"
	}
	if r != nil && (c.pacing.crawlDelay || c.pacing.requestRate) {
		var sd time.Duration
		var s string
		var ok bool
		if explain {
			sd, s, ok = c.agent.DelayFrom(r, c.pacing.crawlDelay, c.pacing.requestRate)
		} else {
			sd, ok = c.agent.Interval(r, c.pacing.crawlDelay, c.pacing.requestRate)
		}
		switch {
		case ok && sd < d:
			src = s + ", raised to the minimum"
		case ok:
			d, src = sd, s
		}
	}
	if d > c.maxDelay {
		d = c.maxDelay
		if explain {
			src += ", capped"
		}
	}
	return d, src
}
