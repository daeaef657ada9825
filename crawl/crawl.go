package crawl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/internal/netguard"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotsmeta"
	"github.com/rep-toolkit/rep/robotstxt"
	"github.com/rep-toolkit/rep/sitemap"
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

// Page is one URL of the site as the crawl saw it.
type Page struct {
	URL    string `json:"url"`
	Status int    `json:"status"`
	// ContentType is the media type, parameters dropped.
	ContentType string `json:"content_type"`
	// Location is a redirect's target, resolved.
	Location string `json:"location,omitempty"`
	// InSitemap is set for a URL a sitemap lists.
	InSitemap bool `json:"in_sitemap,omitempty"`
	// Depth is the number of links from the start URL (0 for it and for
	// sitemap entries).
	Depth int `json:"depth"`
	// Skipped says why the page was not fetched: robots.txt's group for
	// rep-crawl, or Obey.
	Skipped string `json:"skipped,omitempty"`
	// Error is why the fetch failed.
	Error    string    `json:"error,omitempty"`
	Verdicts []Verdict `json:"verdicts"`
}

// Verdict is one page for one audited crawler.
type Verdict struct {
	Agent string `json:"agent"`
	// Kind is the crawler's kind (crawlers.Kind: search, ai-training,
	// control-token, ...), which decides the findings and the words.
	Kind string `json:"kind"`
	// Robots is robots.txt's answer, in the one verdict shape of rep.
	Robots rep.Decision `json:"robots"`
	// Directives are the page-level rules that reach the crawler, each
	// with its source, e.g. `noindex (X-Robots-Tag header (line 1))`.
	Directives []string `json:"directives,omitempty"`
	// Indexable: the crawler may fetch the page, it answered 2xx, and no
	// rule keeps it out of results.
	Indexable bool `json:"indexable"`
	// State is indexable, blocked (robots.txt), noindex, not-ok (a non-2xx
	// status or a redirect) or unknown (not fetched). For a crawler that
	// keeps no index (AI training, ads, fetchers, control tokens) it is
	// allowed or blocked, then not-ok or unknown as above: never
	// indexable or noindex.
	State string `json:"state"`
	// Why says it in words.
	Why string `json:"why"`
}

// Finding is one problem the crawl found.
type Finding struct {
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	// Agent is the audited crawler's name; empty for findings that hold
	// for every crawler (the sitemap's own problems).
	Agent   string `json:"agent"`
	URL     string `json:"url"`
	Message string `json:"message"`
	// Evidence is what the finding rests on: the robots.txt line, the
	// rule's source and position, the sitemap and its line, the page
	// linking to the URL or using it.
	Evidence string `json:"evidence"`
}

// SitemapInfo is one sitemap file read.
type SitemapInfo struct {
	URL    string         `json:"url"`
	Source sitemap.Source `json:"source"`
	Status int            `json:"status"`
	Kind   sitemap.Kind   `json:"kind"`
	Gzip   bool           `json:"gzip,omitempty"`
	// Entries counts the URLs (or sitemaps) it lists.
	Entries int    `json:"entries"`
	Error   string `json:"error,omitempty"`
}

// Report is what a crawl found, apart from the pages (see Config.OnPage).
type Report struct {
	Site      string    `json:"site"`
	Agents    []string  `json:"agents"`
	UserAgent string    `json:"user_agent"`
	Started   time.Time `json:"started"`
	Duration  float64   `json:"duration_seconds"`
	// Crawled counts the URLs audited (fetched or not); Fetched those
	// fetched; Skipped those not fetched (rep-crawl's group, Obey); Errors
	// those whose fetch failed.
	Crawled int `json:"crawled"`
	Fetched int `json:"fetched"`
	Skipped int `json:"skipped"`
	Errors  int `json:"errors"`
	// Truncated is set when a bound left URLs out: MaxPages, or
	// MaxSitemaps or MaxSitemapBytes (a sitemaps-truncated finding then
	// says which).
	Truncated bool          `json:"truncated"`
	Sitemaps  []SitemapInfo `json:"sitemaps"`
	Findings  []Finding     `json:"findings"`
	// DroppedFindings counts findings past MaxFindings.
	DroppedFindings int `json:"dropped_findings,omitempty"`
	// Unreachable is set when the site itself could not be read: its
	// robots.txt could not be fetched at all (no answer: refused address,
	// connection refused, timeout, DNS). Nothing was crawled then, and no
	// finding is reported: an unreachable site is not a disallowed one.
	Unreachable *SiteError `json:"unreachable,omitempty"`
}

// Causes of a SiteError.
const (
	CauseRefusedAddress    = "refused-address"    // the address guard refused it (loopback, private...)
	CauseConnectionRefused = "connection-refused" // nothing listens there
	CauseTimeout           = "timeout"            // no answer in time
	CauseDNS               = "dns"                // the host name does not resolve
	CauseOther             = "error"              // another network or TLS error
)

// SiteError says why the site could not be read. Run returns it as its
// error, with the report, when robots.txt got no answer.
type SiteError struct {
	URL     string `json:"url"`     // the URL whose fetch failed
	Cause   string `json:"cause"`   // one of the Cause constants
	Message string `json:"message"` // what happened, in words
	Hint    string `json:"hint,omitempty"`
	Err     error  `json:"-"`
}

// Error says what could not be read and why.
func (e *SiteError) Error() string {
	msg := "the site could not be read: " + e.Message
	if e.Hint != "" {
		msg += " (" + e.Hint + ")"
	}
	return msg
}

// Unwrap returns the fetch's error.
func (e *SiteError) Unwrap() error { return e.Err }

// innermost is the last error of err's chain: the cause in its own words.
func innermost(err error) error {
	for {
		u := errors.Unwrap(err)
		if u == nil {
			return err
		}
		err = u
	}
}

// siteError classifies a fetch that got no answer.
func siteError(u string, err error) *SiteError {
	e := &SiteError{URL: u, Cause: CauseOther, Err: err, Message: u + ": " + err.Error()}
	var dns *net.DNSError
	var ne net.Error
	switch {
	case errors.Is(err, robotsfetch.ErrRefused):
		e.Cause = CauseRefusedAddress
		e.Message = u + ": the crawl does not connect to loopback, private or link-local addresses (" + innermost(err).Error() + ")"
		e.Hint = "use -allow-private to crawl a local or staging server"
	case errors.Is(err, syscall.ECONNREFUSED):
		e.Cause = CauseConnectionRefused
		e.Message = u + ": connection refused: nothing answers on that host and port"
		e.Hint = "check that the server is running and the URL's scheme and port"
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout():
		e.Cause = CauseTimeout
		e.Message = u + ": no answer in time (timeout)"
		e.Hint = "check that the site is up, or give a longer -timeout"
	case errors.As(err, &dns):
		e.Cause = CauseDNS
		e.Message = u + ": the host name does not resolve (" + dns.Err + ")"
	}
	return e
}

// Worst returns the most serious severity among the findings, and false
// when there are none.
func (r *Report) Worst() (Severity, bool) {
	if len(r.Findings) == 0 {
		return Info, false
	}
	w := Info
	for _, f := range r.Findings {
		w = max(w, f.Severity)
	}
	return w, true
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

// item is one URL of the frontier.
type item struct {
	url   string
	depth int
	from  string // the page that linked to it
}

// sitemapRef says which sitemap and line listed a URL.
type sitemapRef struct {
	file int32 // index into crawler.sitemaps
	line int32
}

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

func (c *crawler) hash(parts ...string) uint64 {
	var h maphash.Hash
	h.SetSeed(c.seed)
	for _, p := range parts {
		h.WriteString(p)
		h.WriteByte(0)
	}
	return h.Sum64()
}

// sameSite reports whether u is on the crawled host.
func (c *crawler) sameSite(u *url.URL) bool {
	return (u.Scheme == "http" || u.Scheme == "https") && strings.EqualFold(u.Host, c.host)
}

// normalize drops the fragment; "" when u is not on the site or is
// filtered out.
func (c *crawler) normalize(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || !c.sameSite(u) {
		return "", false
	}
	u.Fragment, u.RawFragment = "", ""
	if u.Path == "" {
		u.Path = "/"
	}
	s := u.String()
	if c.cfg.Include != nil && !c.cfg.Include.MatchString(s) {
		return "", false
	}
	if c.cfg.Exclude != nil && c.cfg.Exclude.MatchString(s) {
		return "", false
	}
	return s, true
}

// enqueue adds a URL once; false when MaxPages is reached.
func (c *crawler) enqueue(it item) {
	h := c.hash(it.url)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, dup := c.seen[h]; dup {
		return
	}
	if len(c.seen) >= c.cfg.MaxPages {
		c.rep.Truncated = true
		return
	}
	c.seen[h] = struct{}{}
	c.queue = append(c.queue, it)
	c.cond.Signal()
}

// next returns the next URL, waiting while others are in flight; false
// when the crawl is over.
func (c *crawler) next() (item, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.head == len(c.queue) && c.inflight > 0 && c.ctx.Err() == nil {
		c.cond.Wait()
	}
	if c.head == len(c.queue) || c.ctx.Err() != nil {
		c.cond.Broadcast()
		return item{}, false
	}
	it := c.queue[c.head]
	c.queue[c.head] = item{}
	c.head++
	if c.head > 1024 && c.head*2 > len(c.queue) { // give the consumed half back
		c.queue = append(c.queue[:0:0], c.queue[c.head:]...)
		c.head = 0
	}
	c.inflight++
	return it, true
}

func (c *crawler) done() {
	c.mu.Lock()
	c.inflight--
	c.cond.Broadcast()
	c.mu.Unlock()
}

// report adds a finding once per code, agent and URL.
func (c *crawler) report(code, agent, u, msg, evidence string) {
	h := c.hash(code, agent, u)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, dup := c.reported[h]; dup {
		return
	}
	c.reported[h] = struct{}{}
	if len(c.rep.Findings) >= c.cfg.MaxFindings {
		c.rep.DroppedFindings++
		return
	}
	c.rep.Findings = append(c.rep.Findings, Finding{Code: code, Severity: codeOf(code).Severity, Agent: agent, URL: u, Message: msg, Evidence: evidence})
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

// sitemapQueue holds the sitemaps to read, first-in first-out, each URL
// once, and bounds them in total: at most max are ever queued, and what is
// left out is counted.
type sitemapQueue struct {
	todo    []sitemap.Location
	seen    map[string]bool
	max     int
	dropped int    // locations not queued for want of room
	from    string // the sitemap whose entry was dropped first
}

// add queues l once; false when there is no room for it.
func (q *sitemapQueue) add(l sitemap.Location, from string) bool {
	if q.seen[l.URL] {
		return true
	}
	if len(q.todo) >= q.max {
		if q.dropped == 0 {
			q.from = from
		}
		q.dropped++
		return false
	}
	q.seen[l.URL] = true
	q.todo = append(q.todo, l)
	return true
}

// readSitemaps reads the site's sitemaps, indexes first-in first-out,
// and queues their URLs, within MaxSitemaps files and MaxSitemapBytes in
// all. It returns why the site cannot be read when its robots.txt got no
// answer; nothing is read then.
func (c *crawler) readSitemaps() *SiteError {
	var f *robotstxt.File
	r, err := c.own.Robots(c.ctx, c.cfg.Start)
	if err == nil {
		if o := r.Outcome; o.Status == 0 && o.Error != "" {
			return siteError(o.URL, o.Err())
		}
		f = r.File
		c.robotsStatus = r.Outcome.Status
	}
	q := &sitemapQueue{seen: map[string]bool{}, max: c.cfg.MaxSitemaps}
	for _, l := range sitemap.Discover(f, c.origin) {
		q.add(l, c.origin+"/robots.txt")
	}
	budget := c.cfg.MaxSitemapBytes
	cut := "" // the sitemap the byte bound stopped in
	unread := 0
	for i := 0; i < len(q.todo) && c.ctx.Err() == nil; i++ {
		if budget <= 0 {
			unread = len(q.todo) - i
			break
		}
		n, stopped := c.readSitemap(q.todo[i], budget, q)
		budget -= n
		if stopped {
			cut = q.todo[i].URL
		}
	}
	if q.dropped == 0 && cut == "" {
		return nil
	}
	c.mu.Lock()
	c.rep.Truncated = true
	c.mu.Unlock()
	if q.dropped > 0 {
		c.report(CodeSitemapsTruncated, "", q.from,
			fmt.Sprintf("the crawl reads at most %d sitemaps in all (Config.MaxSitemaps): %d more sitemap entries were not queued nor read", c.cfg.MaxSitemaps, q.dropped),
			fmt.Sprintf("%s lists sitemaps past the bound", q.from))
	}
	if cut != "" {
		c.report(CodeSitemapsTruncated, "", cut,
			fmt.Sprintf("the crawl reads at most %d bytes of sitemaps in all, uncompressed (Config.MaxSitemapBytes): reading stopped in this sitemap, and %d queued sitemaps were not read", c.cfg.MaxSitemapBytes, unread),
			fmt.Sprintf("%d bytes read from %d sitemaps", c.cfg.MaxSitemapBytes, len(c.rep.Sitemaps)))
	}
	return nil
}

// readSitemap reads one sitemap file, at most budget bytes of it
// uncompressed, and queues the sitemaps it lists in q. It returns the bytes
// read and whether the budget stopped it.
func (c *crawler) readSitemap(loc sitemap.Location, budget int64, q *sitemapQueue) (read int64, stopped bool) {
	info := SitemapInfo{URL: loc.URL, Source: loc.Source}
	idx := int32(len(c.rep.Sitemaps))
	defer func() { c.rep.Sitemaps = append(c.rep.Sitemaps, info) }()
	where := "named in robots.txt"
	switch loc.Source {
	case sitemap.FromRobots:
		where = fmt.Sprintf("robots.txt line %d", loc.Line)
	case sitemap.FromIndex:
		where = "listed in a sitemap index"
	case sitemap.FromDefault:
		switch s := c.robotsStatus; {
		case s/100 == 2:
			where = "the default location (robots.txt names no sitemap)"
		case s/100 == 4 && s != http.StatusTooManyRequests:
			where = fmt.Sprintf("the default location (robots.txt answers %d: there is none to name a sitemap)", s)
		default:
			where = fmt.Sprintf("the default location (robots.txt could not be read: status %d)", s)
		}
	}
	resp, cancel, err := c.get(c.follow, loc.URL)
	if err != nil {
		info.Error = err.Error()
		msg := "cannot be fetched: " + err.Error()
		var de *rep.DisallowedError
		if errors.As(err, &de) {
			msg = "not fetched: robots.txt disallows it for " + robotstxt.ProductToken(c.cfg.UserAgent)
			if o := de.Decision.Fetch; o != nil && o.Verdict != robotsfetch.UseRules {
				// Not a rule: the file's fetch decided for every URL.
				msg = "not fetched: " + o.Case.Explain()
			}
		}
		c.report(CodeSitemapUnreachable, "", loc.URL, "the sitemap "+msg, where)
		return 0, false
	}
	defer cancel()
	defer resp.Body.Close()
	info.Status = resp.StatusCode
	if resp.StatusCode/100 != 2 {
		if loc.Source == sitemap.FromDefault && resp.StatusCode == http.StatusNotFound {
			info.Error = "none at the default location"
			return 0, false // no sitemap: nothing wrong
		}
		info.Error = fmt.Sprintf("status %d", resp.StatusCode)
		c.report(CodeSitemapUnreachable, "", loc.URL, fmt.Sprintf("the sitemap answers %d %s", resp.StatusCode, http.StatusText(resp.StatusCode)), where)
		return 0, false
	}
	limit := min(budget, sitemap.MaxBytes)
	res, err := sitemap.Parse(resp.Body, sitemap.Options{URL: loc.URL, Scope: loc.Scope, MaxBytes: limit}, func(e sitemap.Entry) error {
		if e.Sitemap {
			q.add(sitemap.Location{URL: e.Loc, Source: sitemap.FromIndex, Line: e.Line}, loc.URL)
			return nil
		}
		u, ok := c.normalize(e.Loc)
		if !ok {
			return nil
		}
		h := c.hash(u)
		c.mu.Lock()
		if _, dup := c.inSitemap[h]; !dup && len(c.inSitemap) < 4*c.cfg.MaxPages {
			c.inSitemap[h] = sitemapRef{file: idx, line: int32(e.Line)}
		}
		c.mu.Unlock()
		c.enqueue(item{url: u})
		return nil
	})
	info.Kind, info.Gzip, info.Entries = res.Kind, res.Gzip, res.Entries
	if err != nil {
		info.Error = err.Error()
		c.report(CodeSitemapUnreachable, "", loc.URL, "the sitemap cannot be read: "+err.Error(), where)
	}
	for _, f := range res.Findings {
		if f.Code == sitemap.TooLarge && limit < sitemap.MaxBytes {
			// The crawl's budget stopped it, not the protocol's limit.
			stopped = true
			continue
		}
		code := map[sitemap.Code]string{
			sitemap.TooManyURLs: CodeSitemapTooManyURLs, sitemap.TooLarge: CodeSitemapTooLarge,
			sitemap.OtherHost: CodeSitemapOtherHost, sitemap.OutsidePath: CodeSitemapOutsidePath,
			sitemap.BadLoc: CodeSitemapBadURL, sitemap.BadLastMod: CodeSitemapBadLastmod,
			sitemap.Syntax: CodeSitemapInvalid, sitemap.NotSitemap: CodeSitemapInvalid,
		}[f.Code]
		if code == "" {
			continue
		}
		u := f.Loc
		ev := loc.URL
		if f.Line > 0 {
			ev = fmt.Sprintf("%s line %d", loc.URL, f.Line)
		}
		if u == "" || code == CodeSitemapInvalid || code == CodeSitemapTooLarge || code == CodeSitemapTooManyURLs || code == CodeSitemapBadURL {
			u = loc.URL
		}
		c.report(code, "", u, f.Message, ev)
	}
	return res.Bytes, stopped
}

// sitemapEvidence says which sitemap lists u; "" when none does.
func (c *crawler) sitemapEvidence(u string) string {
	c.mu.Lock()
	ref, ok := c.inSitemap[c.hash(u)]
	c.mu.Unlock()
	if !ok {
		return ""
	}
	return fmt.Sprintf("listed in %s line %d", c.rep.Sitemaps[ref.file].URL, ref.line)
}

// visit audits one URL.
func (c *crawler) visit(it item) {
	p := &Page{URL: it.url, Depth: it.depth}
	inSitemap := c.sitemapEvidence(it.url)
	p.InSitemap = inSitemap != ""
	decisions := make([]rep.Decision, len(c.cfg.Agents))
	for i, a := range c.cfg.Agents {
		d, err := rep.Check(c.ctx, c.fetcher(a), a, it.url)
		if err != nil {
			p.Error = err.Error()
		}
		decisions[i] = d
		if !d.Allowed && p.InSitemap && c.concerns(i, crawlers.ConcernIndexing) && !c.refusedOnPurpose(i) {
			c.report(CodeSitemapDisallowed, a.Name, it.url, fmt.Sprintf("listed in a sitemap but disallowed for %s by robots.txt", a.Name), robotsEvidence(d)+"; "+inSitemap)
		}
	}
	var skip []string
	if c.cfg.Obey {
		for i, d := range decisions {
			if !d.Allowed {
				skip = append(skip, c.cfg.Agents[i].Name)
			}
		}
	}
	var (
		resp *http.Response
		body []byte
		pg   *robotsmeta.Page
	)
	switch {
	case len(skip) > 0:
		p.Skipped = "-obey: disallowed for " + strings.Join(skip, ", ")
	case p.Error != "":
	default:
		r, cancel, err := c.get(c.pages, it.url)
		var de *rep.DisallowedError
		switch {
		case errors.As(err, &de):
			p.Skipped = "robots.txt: " + de.Decision.String()
		case err != nil:
			p.Error = err.Error()
		default:
			defer cancel()
			resp = r
			body, pg, err = c.read(resp, it.url)
			if err != nil {
				p.Error = err.Error()
			}
		}
	}
	if resp != nil {
		p.Status = resp.StatusCode
		p.ContentType, _, _ = mime.ParseMediaType(resp.Header.Get("Content-Type"))
		if loc := resp.Header.Get("Location"); loc != "" && resp.StatusCode/100 == 3 {
			if u, err := resp.Request.URL.Parse(loc); err == nil {
				p.Location = u.String()
				if n, ok := c.normalize(p.Location); ok {
					c.enqueue(item{url: n, depth: it.depth + 1, from: it.url})
				}
			}
		}
		if p.InSitemap && resp.StatusCode/100 != 2 {
			msg := fmt.Sprintf("listed in a sitemap but answers %d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
			if p.Location != "" {
				msg += ", redirecting to " + p.Location
			}
			c.report(CodeSitemapNotOK, "", it.url, msg, inSitemap)
		}
	}
	ok := resp != nil && resp.StatusCode/100 == 2
	var links []string
	var res []resource
	if ok && pg != nil {
		links = c.links(it.url, pg)
		if isHTML(p.ContentType) {
			res = resources(body, it.url, pg.Base)
		}
	}
	for i, a := range c.cfg.Agents {
		v := c.verdict(i, decisions[i], p, pg, ok, inSitemap)
		p.Verdicts = append(p.Verdicts, v)
		if !ok || !decisions[i].Allowed || pg == nil {
			continue
		}
		if c.concerns(i, crawlers.ConcernIndexing) && c.concerns(i, crawlers.ConcernPageDirectives) {
			c.checkLinks(a, it.url, pg, c.tokens[i])
		}
		for _, l := range links {
			if !c.concerns(i, crawlers.ConcernIndexing) {
				break
			}
			d, err := rep.Check(c.ctx, c.fetcher(a), a, l)
			if err == nil && !d.Allowed {
				c.report(CodeDisallowedLinked, a.Name, l, fmt.Sprintf("disallowed for %s but linked from a crawlable page: it can be indexed without its content", a.Name), "linked from "+it.url+"; "+robotsEvidence(d))
			}
		}
		for _, r := range res {
			if !c.concerns(i, crawlers.ConcernRendering) || c.refusedOnPurpose(i) {
				break
			}
			d, err := rep.Check(c.ctx, c.fetcher(a), a, r.url)
			if err == nil && !d.Allowed {
				c.report(CodeBlockedResource, a.Name, r.url, fmt.Sprintf("a %s of a crawlable page, disallowed for %s: the page may not render for it", r.kind, a.Name), fmt.Sprintf("used by %s at %d:%d; %s", it.url, r.line, r.col, robotsEvidence(d)))
			}
		}
	}
	for _, l := range links {
		c.enqueue(item{url: l, depth: it.depth + 1, from: it.url})
	}
	body = nil
	c.mu.Lock()
	c.rep.Crawled++
	switch {
	case p.Skipped != "":
		c.rep.Skipped++
	case p.Error != "":
		c.rep.Errors++
	default:
		c.rep.Fetched++
	}
	pr := Progress{Crawled: c.rep.Crawled, Queued: len(c.queue) - c.head, Findings: len(c.rep.Findings)}
	c.mu.Unlock()
	if c.cfg.OnPage != nil || c.cfg.Progress != nil {
		c.pageMu.Lock()
		if c.cfg.OnPage != nil {
			c.cfg.OnPage(p)
		}
		if c.cfg.Progress != nil {
			c.cfg.Progress(pr)
		}
		c.pageMu.Unlock()
	}
}

// read reads the page's body (HTML only, up to MaxBodyBytes) and its
// robots rules.
func (c *crawler) read(resp *http.Response, u string) ([]byte, *robotsmeta.Page, error) {
	defer resp.Body.Close()
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	var body []byte
	var err error
	if resp.StatusCode/100 == 2 && isHTML(ct) {
		body, err = io.ReadAll(io.LimitReader(resp.Body, c.cfg.MaxBodyBytes))
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // let the connection be reused
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	pg, perr := robotsmeta.Parse(resp.Header, r, robotsmeta.Options{MaxBytes: c.cfg.MaxBodyBytes, Now: c.now()})
	if err == nil {
		err = perr
	}
	if err != nil {
		err = fmt.Errorf("reading %s: %w", u, err)
	}
	return body, pg, err
}

func isHTML(ct string) bool { return ct == "text/html" || ct == "application/xhtml+xml" || ct == "" }

// links returns the page's links on the site, normalised, each once.
func (c *crawler) links(pageURL string, pg *robotsmeta.Page) []string {
	base := pageBase(pageURL, pg)
	if base == nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, l := range pg.Links {
		u, err := base.Parse(strings.TrimSpace(l.Href))
		if err != nil {
			continue
		}
		if n, ok := c.normalize(u.String()); ok && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// pageBase is the URL the page's links resolve against: its <base href>,
// else its own URL; nil when pageURL does not parse.
func pageBase(pageURL string, pg *robotsmeta.Page) *url.URL {
	base, err := url.Parse(pageURL)
	if err != nil {
		return nil
	}
	if pg.Base != "" {
		if b, err := base.Parse(pg.Base); err == nil {
			base = b
		}
	}
	return base
}

// robotsEvidence names the robots.txt line behind d.
func robotsEvidence(d rep.Decision) string {
	return "robots.txt: " + d.Why()
}

// concerns reports whether advice about cn matters for Agents[i], by the
// registry's kind of crawler (crawlers.Kind.Concerns): noindex means
// nothing to an AI training crawler, and only usage to a control token.
func (c *crawler) concerns(i int, cn crawlers.Concern) bool {
	return crawlers.KindOf(c.cfg.Agents[i].Crawler).Concerns(cn)
}

// refusedOnPurpose reports whether a group naming Agents[i] (not the *
// group) disallows it the whole site, with no Allow line opening a part: the owner keeps it out on purpose,
// and advice that would have it fetch a page (to see a noindex, to read a
// sitemap URL, to render a stylesheet) asks the owner to undo that.
func (c *crawler) refusedOnPurpose(i int) bool {
	c.mu.Lock()
	v := c.onPurpose[i]
	c.mu.Unlock()
	if v != 0 {
		return v > 0
	}
	a := c.cfg.Agents[i]
	d, err := rep.Check(c.ctx, c.fetcher(a), a, c.origin+"/")
	yes := err == nil && !d.Allowed && d.Rule.Line > 0 &&
		(d.Group.Via == robotstxt.ViaToken || d.Group.Via == robotstxt.ViaFallback) &&
		(d.Rule.Pattern == "/" || d.Rule.Pattern == "/*" || d.Rule.Pattern == "*")
	if yes {
		// An Allow line opening a part of the site lets it in there: then
		// it is not kept out of the whole site.
		if r, err := c.fetcher(a).Get(c.ctx, c.origin+"/"); err == nil && r.File != nil {
			f := r.FileFor(a.ParseOptions())
			for _, ru := range a.Group(f).Rules() {
				if ru.Allow && ru.Pattern != "" {
					yes = false
				}
			}
		}
	}
	v = -1
	if yes {
		v = 1
	}
	c.mu.Lock()
	c.onPurpose[i] = v
	c.mu.Unlock()
	return yes
}

// verdict is the page's final verdict for Agents[i], with the findings
// that rest on page-level rules, worded for the crawler's kind.
func (c *crawler) verdict(i int, d rep.Decision, p *Page, pg *robotsmeta.Page, ok bool, inSitemap string) Verdict {
	a, token := c.cfg.Agents[i], c.tokens[i]
	if d.Fetch != nil && d.Fetch.Verdict == robotsfetch.UseRules {
		d.Fetch = nil // the rule says it all; keep the JSON short
	}
	kind := crawlers.KindOf(a.Crawler)
	v := Verdict{Agent: a.Name, Kind: string(kind), Robots: d}
	if !kind.Concerns(crawlers.ConcernIndexing) {
		return c.useVerdict(v, a, kind, d, p, ok)
	}
	onPurpose := c.refusedOnPurpose(i)
	directives := kind.Concerns(crawlers.ConcernPageDirectives)
	var pol robotsmeta.Policy
	if pg != nil {
		pol = pg.Policy(token, a.MetaProfile(), c.now())
		prof := a.MetaProfile()
		for i := range pg.Rules {
			r := &pg.Rules[i]
			if pg.Applies(r, token, prof) {
				v.Directives = append(v.Directives, r.String()+" ("+pg.Sources[r.Source].String()+")")
			}
		}
	}
	noindex, why := false, ""
	expired := !pol.UnavailableAfter.IsZero() && !c.now().Before(pol.UnavailableAfter)
	if pg != nil && !pol.Index {
		if r, has := pol.Why(robotsmeta.FieldIndex); has {
			why = r.Rule.String() + " (" + r.Source.String() + ")"
			noindex = r.Rule.Directive != robotsmeta.UnavailableAfter
		} else {
			noindex, why = true, "noindex"
		}
	}
	switch {
	case !d.Allowed:
		v.State = "blocked"
		v.Why = "disallowed by robots.txt (" + d.Why() + "): it can still be indexed from links, without its content"
		if onPurpose {
			v.Why = "disallowed by robots.txt (" + d.Why() + "): the site keeps " + a.Name + " out of every URL"
		}
		if noindex && ok && directives && !onPurpose {
			v.Why = "disallowed by robots.txt (" + d.Why() + "), so its " + why + " is never seen: it can still be indexed from links"
			c.report(CodeNoindexUnseen, a.Name, p.URL, fmt.Sprintf("noindex for %s, but robots.txt disallows it, so %s never reads the noindex", a.Name, a.Name), why+"; "+robotsEvidence(d))
		}
	case !ok || p.Skipped != "" || p.Error != "":
		v.State, v.Why = notOK(p)
	case noindex:
		v.State, v.Why = "noindex", why
		if inSitemap != "" && directives {
			c.report(CodeSitemapNoindex, a.Name, p.URL, fmt.Sprintf("listed in a sitemap but noindex for %s", a.Name), why+"; "+inSitemap)
		}
	case expired:
		v.State, v.Why = "noindex", why+": the date has passed"
	default:
		v.State, v.Indexable, v.Why = "indexable", true, "crawlable, answers 200, no rule keeps it out of results"
	}
	if d.Allowed && ok && expired && directives {
		c.report(CodeUnavailableAfterPassed, a.Name, p.URL, fmt.Sprintf("unavailable_after %s has passed: the page is noindex for %s", pol.UnavailableAfter.Format(time.RFC3339), a.Name), why)
	}
	if d.Allowed && ok && pg != nil && directives {
		c.checkConflict(a, token, p.URL, pg)
	}
	return v
}

// notOK is the state of a page that did not answer 2xx: unknown (not
// fetched) or not-ok (a redirect or an error status), and why.
func notOK(p *Page) (state, why string) {
	switch {
	case p.Skipped != "":
		return "unknown", "not fetched: " + p.Skipped
	case p.Error != "":
		return "unknown", "not fetched: " + p.Error
	case p.Status == 0:
		return "unknown", "not fetched"
	case p.Status/100 == 3:
		return "not-ok", fmt.Sprintf("redirects (%d) to %s", p.Status, p.Location)
	}
	return "not-ok", fmt.Sprintf("answers %d %s", p.Status, http.StatusText(p.Status))
}

// useVerdict is the verdict for a crawler that keeps no index (an AI
// training crawler, a control token, an ads crawler, a fetcher): what
// robots.txt lets it fetch or use, in its kind's words, never "indexable".
func (c *crawler) useVerdict(v Verdict, a *rep.Agent, kind crawlers.Kind, d rep.Decision, p *Page, ok bool) Verdict {
	what := kind.Noun() + " " + a.Name
	controls := ""
	if a.Crawler != nil && a.Crawler.Controls != "" {
		controls = " (it decides " + a.Crawler.Controls + ")"
	}
	switch {
	case !d.Allowed:
		v.State = "blocked"
		v.Why = "disallowed by robots.txt (" + d.Why() + "): the " + what + " " + kind.Refused() + controls
	case kind == crawlers.KindControlToken:
		v.State, v.Why = "allowed", "allowed by robots.txt: the "+what+" "+kind.Allowed()+controls
	case !ok || p.Skipped != "" || p.Error != "":
		v.State, v.Why = notOK(p)
	default:
		v.State, v.Why = "allowed", "allowed by robots.txt: the "+what+" "+kind.Allowed()
	}
	return v
}

// checkConflict reports meta and header rules that say opposite things
// about indexing or following.
func (c *crawler) checkConflict(a *rep.Agent, token, u string, pg *robotsmeta.Page) {
	prof := a.MetaProfile()
	// [kind][0: restrictive, 1: permissive] for index and follow.
	var idx, fol [2][2]*robotsmeta.Rule
	for i := range pg.Rules {
		r := &pg.Rules[i]
		if !pg.Applies(r, token, prof) {
			continue
		}
		k := 0
		if pg.Sources[r.Source].Kind == robotsmeta.FromMeta {
			k = 1
		}
		set := func(t *[2][2]*robotsmeta.Rule, j int) {
			if t[k][j] == nil {
				t[k][j] = r
			}
		}
		switch r.Directive {
		case robotsmeta.NoIndex:
			set(&idx, 0)
		case robotsmeta.None:
			set(&idx, 0)
			set(&fol, 0)
		case robotsmeta.Index:
			set(&idx, 1)
		case robotsmeta.NoFollow:
			set(&fol, 0)
		case robotsmeta.Follow:
			set(&fol, 1)
		case robotsmeta.All:
			set(&idx, 1)
			set(&fol, 1)
		}
	}
	for _, t := range [][2][2]*robotsmeta.Rule{idx, fol} {
		for k := range 2 {
			no, yes := t[k][0], t[1-k][1]
			if no == nil || yes == nil {
				continue
			}
			src := func(r *robotsmeta.Rule) string { return r.String() + " (" + pg.Sources[r.Source].String() + ")" }
			// The header side names its own field: X-Robots-Tag, or
			// Robots-Tag where the engine reads it.
			hdr := no
			if k == 1 {
				hdr = yes
			}
			c.report(CodeMetaHeaderConflict, a.Name, u, fmt.Sprintf("the robots meta elements and the %s headers disagree for %s: %s against %s", pg.Sources[hdr.Source].Name, a.Name, no, yes), src(no)+" against "+src(yes))
			return
		}
	}
}

// checkLinks reports links to the site's own pages that the agent is
// asked not to follow.
func (c *crawler) checkLinks(a *rep.Agent, pageURL string, pg *robotsmeta.Page, token string) {
	pol := pg.Policy(token, a.MetaProfile(), c.now())
	base := pageBase(pageURL, pg)
	if base == nil {
		return
	}
	var first *robotsmeta.Link
	n := 0
	for i := range pg.Links {
		l := &pg.Links[i]
		u, err := base.Parse(strings.TrimSpace(l.Href))
		if err != nil || !c.sameSite(u) || pol.Followed(*l) {
			continue
		}
		if first == nil {
			first = l
		}
		n++
	}
	if first == nil {
		return
	}
	ev := fmt.Sprintf("<a href=%q rel=%q> at %d:%d", first.Href, first.RelText, first.Line, first.Column)
	if !pol.Follow {
		if r, ok := pol.Why(robotsmeta.FieldFollow); ok {
			ev = r.Rule.String() + " (" + r.Source.String() + ")"
		}
	}
	msg := fmt.Sprintf("%d link(s) to pages of the site are not followed by %s", n, a.Name)
	c.report(CodeInternalNofollow, a.Name, pageURL, msg, ev)
}
