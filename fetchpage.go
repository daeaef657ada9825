package rep

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/rep-toolkit/rep/internal/netguard"
)

// PageOptions configure Crawler.FetchPage.
type PageOptions struct {
	// Base sends the requests. nil means the crawler's own transport, or,
	// when the crawler's robots.txt fetcher refuses special addresses
	// (robotsfetch.Options.Guard), a transport that refuses them too, so
	// the guard covers the page as it covers its robots.txt. A door that
	// fetches for someone else passes its guarded transport.
	Base http.RoundTripper
	// MaxRedirects is how many redirects are followed, each hop asked of
	// robots.txt and paced; 0 means 10, negative none.
	MaxRedirects int
	// MaxBytes is how much of an HTML body is read for the verdict
	// (Transport.PagePrefix); 0 means DefaultPagePrefix.
	MaxBytes int64
	// Now is the instant the page's rules are judged at
	// (unavailable_after); zero means the crawler's clock.
	Now time.Time
	// Header holds request headers to send beside the crawler's
	// User-Agent (Accept, for instance).
	Header http.Header
	// TDMRep also fetches the site's /.well-known/tdmrep.json (not for a
	// refused page), through Base but not asked of robots.txt (it is a
	// control file, as robots.txt is), and adds its statement to the
	// verdict's Usage.
	TDMRep bool
}

// PageFetch is one page fetched as the crawler fetches it: where it
// landed and its page verdict. It is what every door of rep shows for a
// fetched page (rep page, the server's /api/page).
type PageFetch struct {
	// URL is the URL asked for; FinalURL where the answer came from, or
	// the URL refused; Redirects the hops followed, in order.
	URL       string
	FinalURL  string
	Redirects []string
	// Status and ContentType are the final answer's; 0 and "" for a
	// refused page.
	Status      int
	ContentType string
	// Verdict is the page verdict; Verdict.Blocked when the page was
	// refused (then Refusal says why).
	Verdict *PageVerdict
	// Refusal is the refusal of URL or of a redirect hop; nil when the
	// page was fetched.
	Refusal *DisallowedError
	// TDMRep is the fetch of the site's tdmrep.json (PageOptions.TDMRep).
	TDMRep *TDMRepFetch
	// Duration is the time the fetch took, robots.txt included.
	Duration time.Duration
}

// FetchPage fetches rawurl through the crawler's robots-aware client (see
// Transport): robots.txt first, the page only when it allows it, every
// redirect hop asked and paced too, and returns the page verdict. A
// refusal (robots.txt, or an address the guard refuses) is no error: the
// PageFetch then says what the crawler does, with Verdict.Blocked set and
// the refusal. The error is for the rest: a URL that is not absolute
// http(s), too many redirects, a failed request, ctx ending.
func (c *Crawler) FetchPage(ctx context.Context, rawurl string, o PageOptions) (*PageFetch, error) {
	start := c.now()
	base := o.Base
	if base == nil {
		base = c.baseTransport()
	}
	maxRedirects := o.MaxRedirects
	switch {
	case maxRedirects == 0:
		maxRedirects = 10
	case maxRedirects < 0:
		maxRedirects = 0
	}
	pf := &PageFetch{URL: rawurl, FinalURL: rawurl}
	client := &http.Client{
		Transport: &Transport{Crawler: c, Base: base, PagePrefix: o.MaxBytes, now: o.Now},
		CheckRedirect: func(r *http.Request, via []*http.Request) error {
			if len(via) > maxRedirects {
				return fmt.Errorf("more than %d redirects", maxRedirects)
			}
			if r.URL.Scheme != "http" && r.URL.Scheme != "https" {
				return fmt.Errorf("redirect to %s: not http or https", r.URL.Redacted())
			}
			pf.Redirects = append(pf.Redirects, r.URL.String())
			return nil
		},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawurl, nil)
	if err != nil {
		return nil, err
	}
	if req.URL.Host == "" || (req.URL.Scheme != "http" && req.URL.Scheme != "https") {
		return nil, fmt.Errorf("rep: %q is not an absolute http(s) URL", rawurl)
	}
	for k, v := range o.Header {
		req.Header[k] = v
	}
	resp, err := client.Do(req)
	pf.Duration = c.now().Sub(start)
	var refused *DisallowedError
	if errors.As(err, &refused) {
		pf.Refusal, pf.FinalURL = refused, refused.URL
		pf.Verdict = &PageVerdict{URL: refused.URL, Crawl: refused.Decision, Blocked: true, refusal: refused.Kind}
		return pf, nil
	}
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	pf.FinalURL, pf.Status, pf.ContentType = resp.Request.URL.String(), resp.StatusCode, resp.Header.Get("Content-Type")
	pf.Verdict = PageVerdictOf(resp)
	if pf.Verdict == nil {
		return nil, fmt.Errorf("rep: no page verdict for %s", pf.FinalURL)
	}
	if o.TDMRep {
		// A failed fetch states nothing; its Note says why.
		t, _ := FetchTDMRep(ctx, &http.Client{Transport: uaRoundTripper{base, c.uaHeader}, CheckRedirect: client.CheckRedirect}, pf.FinalURL)
		pf.TDMRep = &t
		pf.Verdict.Usage = PageUsage(pf.Verdict.Crawl, &pf.Verdict.Policy, t.Evidence)
	}
	return pf, nil
}

// baseTransport is the transport of the crawler's Client and FetchPage
// when none is given: the one transport constructor's (internal/netguard),
// with its timeouts, the crawler's User-Agent and no cap on the body the
// caller reads. When the robots.txt fetcher has a guard, it refuses what
// the guard refuses and takes no proxy; else every address is allowed and
// the environment's proxy is used, as net/http's default transport does.
func (c *Crawler) baseTransport() http.RoundTripper {
	c.baseOnce.Do(func() {
		o := netguard.Options{AllowPrivate: !c.guard, UserAgent: c.ua, MaxBodyBytes: -1}
		if !c.guard {
			o.Proxy = http.ProxyFromEnvironment
		}
		c.base = netguard.NewTransport(o)
	})
	return c.base
}

// uaRoundTripper sends each request with the crawler's User-Agent.
type uaRoundTripper struct {
	base http.RoundTripper
	ua   []string
}

func (t uaRoundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	out := r.WithContext(r.Context())
	out.Header = r.Header.Clone()
	if out.Header == nil {
		out.Header = http.Header{}
	}
	out.Header["User-Agent"] = t.ua
	return t.base.RoundTrip(out)
}

// Action says in one line what the crawler does with the page: for a
// blocked page, that it does not fetch it and why (every door shows a
// blocked URL with these words, not with the default values of rules it
// never reads); else whether it indexes the page and follows its links.
func (v *PageVerdict) Action() string {
	if v.Blocked {
		why := "robots.txt disallows it (" + v.Crawl.Why() + ")"
		switch {
		case v.Crawl.FromFetch() && v.Crawl.Fetch.Refused:
			why = "its address is loopback, private or link-local, which this crawler refuses"
		case v.Crawl.FromFetch():
			why = "its robots.txt could not be read, so every URL of the site is disallowed (" + v.Crawl.Why() + ")"
		case v.refusal == RefusedAddress:
			why = "its address is loopback, private or link-local, which this crawler refuses"
		}
		return "does not fetch it: " + why + "; its robots meta tags and X-Robots-Tag headers are never seen"
	}
	s := "fetches it; "
	if v.Index {
		s += "may index it; "
	} else {
		s += "does not index it; "
	}
	if v.Follow {
		return s + "may follow its links"
	}
	return s + "does not follow its links"
}

// Refusal is the kind of refusal of a blocked page (see Blocked): by a
// rule, robots.txt unreachable, or the address refused. For a page that
// was not blocked it is RefusedByRule and means nothing.
func (v *PageVerdict) Refusal() Refusal { return v.refusal }

// BlockedVerdict is the page verdict of a URL the crawler does not fetch
// because robots.txt answered d for it (a rule, or a robots.txt that
// could not be read): Blocked set, nothing read from the page. A door
// that asks robots.txt for several crawlers shows the ones it refuses
// with it.
func BlockedVerdict(d Decision) *PageVerdict {
	return &PageVerdict{URL: d.URL, Crawl: d, Blocked: true, refusal: refusalOf(d.URL, d).Kind}
}
