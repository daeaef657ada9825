package crawl

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/internal/netguard"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
)

// DefaultUserAgent is the User-Agent of the crawl: its product token,
// rep-crawl, and where to read about it.
const DefaultUserAgent = "rep-crawl/1.0 (+https://github.com/rep-toolkit/rep)"

// Defaults of Config.
const (
	DefaultMaxPages     = 10000
	DefaultConcurrency  = 4
	DefaultMaxBodyBytes = 5 << 20
	DefaultTimeout      = 30 * time.Second
	DefaultMaxSitemaps  = 1000
	// DefaultMaxSitemapBytes bounds the bytes read from all sitemaps of
	// a crawl, uncompressed.
	DefaultMaxSitemapBytes = 256 << 20
	DefaultMaxFindings     = 100000
)

// Config configures Run. Start is required; zero fields mean the
// defaults.
type Config struct {
	// Start is the site: an absolute http or https URL, usually its home
	// page. Pages on its host (any scheme) are crawled.
	Start string
	// Agents are the crawlers audited; nil means Googlebot and bingbot.
	Agents []*rep.Agent
	// UserAgent is the crawl's own User-Agent (DefaultUserAgent); its
	// product token selects the robots.txt group the crawl obeys.
	UserAgent string
	// MaxPages bounds the URLs crawled, sitemap entries and links alike.
	MaxPages int
	// Concurrency is how many requests are in flight to the site at once.
	Concurrency int
	// Delay is the least interval between two requests (0: none); the
	// site's Crawl-delay for rep-crawl lengthens it, up to a minute.
	Delay time.Duration
	// Include, when set, keeps only URLs it matches (the start URL is
	// always crawled); Exclude drops the URLs it matches.
	Include, Exclude *regexp.Regexp
	// Obey keeps the crawl out of URLs robots.txt disallows for any
	// audited agent: their noindex is then not read (noindex-unseen is
	// not reported).
	Obey bool
	// AllowPrivate lets the crawl connect to loopback, private and
	// link-local addresses (refused by default).
	AllowPrivate bool
	// Transport sends the requests; nil means a transport of its own
	// (guarded unless AllowPrivate). Tests inject one.
	Transport http.RoundTripper
	// Timeout bounds each request, body included.
	Timeout time.Duration
	// MaxBodyBytes is how much of each page is read.
	MaxBodyBytes int64
	// MaxSitemaps bounds the sitemap files queued and read, indexes
	// included, in total: entries of sitemap indexes past it are not
	// queued. MaxSitemapBytes bounds the bytes read from all sitemaps,
	// uncompressed. Reaching either sets Report.Truncated and adds a
	// sitemaps-truncated finding.
	MaxSitemaps     int
	MaxSitemapBytes int64
	// MaxFindings bounds the findings kept; the rest are counted.
	MaxFindings int
	// OnPage receives each page once it is audited, from one goroutine at
	// a time. The Page must not be kept past the call if memory matters.
	OnPage func(*Page)
	// Progress, when set, is called after each page with the counts so
	// far, from one goroutine at a time.
	Progress func(Progress)
	// Now is the clock for unavailable_after; nil means time.Now.
	Now func() time.Time
}

// Progress is how far a crawl is.
type Progress struct {
	Crawled, Queued, Findings int
}

// ErrStart is wrapped by the error Run returns for a Start URL it cannot
// crawl.
var ErrStart = errors.New("crawl: start URL must be an absolute http or https URL")

// StartError reports a Start URL Run cannot crawl.
type StartError struct {
	URL string
	Err error
}

// Error names the start URL and what is wrong with it.
func (e *StartError) Error() string { return fmt.Sprintf("crawl: start URL %q: %v", e.URL, e.Err) }

// Unwrap returns the cause.
func (e *StartError) Unwrap() error { return e.Err }

// crawler is one Run.
type crawler struct {
	cfg      Config
	ctx      context.Context
	own      *rep.Crawler
	pages    *http.Client  // no redirects followed
	follow   *http.Client  // redirects followed (sitemaps)
	fetchers *rep.Fetchers // one per way the audited engines parse
	tokens   []string      // lower-case product tokens of cfg.Agents
	host     string        // the site's host, lower case
	origin   string
	now      func() time.Time
	seed     maphash.Seed

	mu        sync.Mutex
	cond      *sync.Cond
	queue     []item
	head      int
	inflight  int
	seen      map[uint64]struct{} // URLs queued or crawled
	inSitemap map[uint64]sitemapRef
	reported  map[uint64]struct{} // (code, agent, url) already reported
	rep       *Report
	pageMu    sync.Mutex // serialises OnPage and Progress
	// robotsStatus is the status robots.txt answered for the crawl's own
	// fetch (0: no answer).
	robotsStatus int
	// onPurpose[i] is set when a group naming Agents[i] refuses it the
	// whole site: the owner keeps it out on purpose (see refusedOnPurpose).
	onPurpose []int8 // 0 not known yet, 1 yes, -1 no
}

// Run crawls the site and returns the report. The error is non-nil for a
// Start URL it cannot crawl, an agent it cannot resolve, or ctx ending
// (the report then holds what was found so far).
func Run(ctx context.Context, cfg Config) (*Report, error) {
	c, err := newCrawler(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return c.run()
}

func newCrawler(ctx context.Context, cfg Config) (*crawler, error) {
	u, err := url.Parse(cfg.Start)
	if err != nil {
		return nil, &StartError{URL: cfg.Start, Err: err}
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, &StartError{URL: cfg.Start, Err: ErrStart}
	}
	if u.Path == "" {
		u.Path = "/"
	}
	cfg.Start = u.String()
	if cfg.UserAgent == "" {
		cfg.UserAgent = DefaultUserAgent
	}
	if cfg.MaxPages <= 0 {
		cfg.MaxPages = DefaultMaxPages
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = DefaultConcurrency
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxSitemaps <= 0 {
		cfg.MaxSitemaps = DefaultMaxSitemaps
	}
	if cfg.MaxSitemapBytes <= 0 {
		cfg.MaxSitemapBytes = DefaultMaxSitemapBytes
	}
	if cfg.MaxFindings <= 0 {
		cfg.MaxFindings = DefaultMaxFindings
	}
	if cfg.Agents == nil {
		for _, n := range []string{"Googlebot", "bingbot"} {
			a, err := rep.NewAgent(n, rep.AgentOptions{})
			if err != nil {
				return nil, err
			}
			cfg.Agents = append(cfg.Agents, a)
		}
	}
	c := &crawler{
		cfg: cfg, ctx: ctx, host: strings.ToLower(u.Host), origin: u.Scheme + "://" + u.Host,
		seed: maphash.MakeSeed(),
		seen: map[uint64]struct{}{}, inSitemap: map[uint64]sitemapRef{}, reported: map[uint64]struct{}{},
		now: cfg.Now,
	}
	if c.now == nil {
		c.now = time.Now
	}
	c.cond = sync.NewCond(&c.mu)
	base := cfg.Transport
	if base == nil {
		// The one guarded client (internal/netguard): no proxy, every
		// address checked unless AllowPrivate.
		// Config.Timeout bounds each request, headers included.
		base = netguard.NewTransport(netguard.Options{AllowPrivate: cfg.AllowPrivate, MaxIdleConnsPerHost: cfg.Concurrency, HeaderTimeout: cfg.Timeout})
	}
	// robots.txt goes through the same transport as every other request.
	fo := robotsfetch.Options{UserAgent: cfg.UserAgent, Timeout: cfg.Timeout, BodyTimeout: cfg.Timeout, Now: cfg.Now,
		Client: &http.Client{Transport: base}}
	c.fetchers = rep.NewFetchers(fo)
	for _, a := range cfg.Agents {
		c.tokens = append(c.tokens, strings.ToLower(a.Token()))
		if _, err := c.fetchers.For(a); err != nil {
			return nil, err
		}
	}
	// The crawl's own identity obeys only a group naming it: the * group
	// is what it audits. NewAgent checks the name; the Agent is built
	// whole from its answer, never changed once made (Agents are shared
	// and immutable).
	named, err := rep.NewAgent(robotstxt.ProductToken(cfg.UserAgent), rep.AgentOptions{Engine: engine.Google, ParserOnly: true})
	if err != nil {
		return nil, err
	}
	self := &rep.Agent{Name: named.Name, Tokens: named.Tokens, Engine: named.Engine, ParserOnly: true, IgnoresStar: true}
	ownFetcher, err := c.fetchers.For(self)
	if err != nil {
		return nil, err
	}
	pol := rep.Politeness{MinDelay: cfg.Delay, PerHost: cfg.Concurrency, CrawlDelay: rep.HonourAlways}
	if cfg.Delay <= 0 {
		pol.MinDelay = -1
	}
	if c.own, err = rep.New(cfg.UserAgent, rep.WithAgent(self), rep.WithFetcher(ownFetcher), rep.WithPoliteness(pol)); err != nil {
		return nil, err
	}
	tr := c.own.Transport(base)
	tr.PagePrefix = -1 // pages are read here, for every audited agent
	c.pages = &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	// Sitemaps follow redirects by the guarded client's rule: 5 hops,
	// http and https only, each hop's address checked by the transport.
	c.follow = &http.Client{Transport: tr, CheckRedirect: netguard.Options{}.CheckRedirect}
	c.onPurpose = make([]int8, len(cfg.Agents))
	c.rep = &Report{Site: c.origin, UserAgent: cfg.UserAgent, Started: c.now()}
	for _, a := range cfg.Agents {
		c.rep.Agents = append(c.rep.Agents, a.Name)
	}
	return c, nil
}

func (c *crawler) fetcher(a *rep.Agent) *robotsfetch.Fetcher {
	f, _ := c.fetchers.For(a) // made for every agent at start
	return f
}

func (c *crawler) run() (*Report, error) {
	start := c.now()
	if se := c.readSitemaps(); se != nil {
		// Nothing can be read: no page, no sitemap, no finding.
		c.rep.Unreachable = se
		c.rep.Duration = c.now().Sub(start).Seconds()
		return c.rep, se
	}
	c.enqueue(item{url: c.cfg.Start})
	stop := context.AfterFunc(c.ctx, func() {
		c.mu.Lock()
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	defer stop()
	var wg sync.WaitGroup
	for range c.cfg.Concurrency {
		wg.Go(func() {
			for {
				it, ok := c.next()
				if !ok {
					return
				}
				c.visit(it)
				c.done()
			}
		})
	}
	wg.Wait()
	r := c.rep
	r.Duration = c.now().Sub(start).Seconds()
	sort.Slice(r.Findings, func(i, j int) bool {
		a, b := r.Findings[i], r.Findings[j]
		if a.Severity != b.Severity {
			return a.Severity > b.Severity
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		if a.URL != b.URL {
			return a.URL < b.URL
		}
		return a.Agent < b.Agent
	})
	return r, context.Cause(c.ctx)
}

// get fetches u with cl within the timeout; the caller closes the body
// and calls cancel.
func (c *crawler) get(cl *http.Client, u string) (*http.Response, context.CancelFunc, error) {
	ctx, cancel := context.WithTimeout(c.ctx, c.cfg.Timeout)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		cancel()
		return nil, nil, err
	}
	resp, err := cl.Do(req)
	if err != nil {
		cancel()
		return nil, nil, err
	}
	return resp, cancel, nil
}
