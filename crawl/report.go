package crawl

import (
	"context"
	"errors"
	"net"
	"syscall"
	"time"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/sitemap"
)

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
