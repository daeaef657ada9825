package rep

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/rep-toolkit/rep/aipref"
	"github.com/rep-toolkit/rep/aipref/page"
	"github.com/rep-toolkit/rep/robotsmeta"
)

// PageVerdict is the combined robots verdict for one fetched page: the
// robots.txt decision for its URL and the page-level rules of its robots
// meta elements and X-Robots-Tag headers for this crawler.
type PageVerdict struct {
	// URL is the page's URL (after redirects, for CheckResponse).
	URL string
	// Crawl is the robots.txt decision for URL. A crawler should not have
	// fetched a disallowed page; the other fields still report what the
	// page says.
	Crawl Decision
	// Index: the page may appear in results (no noindex, no past
	// unavailable_after). Follow: its links may be followed.
	Index, Follow bool
	// Snippet: a text snippet may be shown; MaxSnippet (characters) and
	// MaxVideoPreview (seconds) have Set false when no rule limits them;
	// MaxImagePreview is PreviewUnset when no rule limits it.
	Snippet         bool
	MaxSnippet      robotsmeta.Limit
	MaxVideoPreview robotsmeta.Limit
	MaxImagePreview robotsmeta.ImagePreview
	// NoSnippet holds the texts of data-nosnippet regions, which must not
	// appear in snippets.
	NoSnippet []string
	// Links are the page's http and https links, resolved against the page
	// (or its <base>), fragments dropped, each URL once, in the order of
	// its first appearance. A URL linked several times is followed when
	// any of its links may be followed.
	Links []Link
	// Policy is the full page-level policy (archive, translate, AI-usage
	// signals, the rule and source behind each value).
	Policy robotsmeta.Policy
	// Blocked is set when the crawler did not fetch the page because it
	// was refused (FetchPage): robots.txt disallows it, or its robots.txt
	// could not be read, or its address is refused. Crawl says why. The
	// crawler then never sees the page's robots meta elements and
	// X-Robots-Tag headers: Index, Follow and Snippet are false and
	// nothing else is known (a search engine may still list the bare URL
	// from links to it).
	Blocked bool
	refusal Refusal // why a Blocked page was refused
	// Truncated is set when the body was cut at the read limit
	// (Transport.PagePrefix, or robotsmeta's default for CheckPage)
	// before its end: a robots meta element after the cut, a noindex
	// among them, is not in the verdict. Read the page whole (CheckPage
	// with the body) when that matters.
	Truncated bool
	// Usage is the usage-preference verdict for the page: robots.txt's
	// statements (Crawl.Usage) with the page's Content-Usage header,
	// TDMRep header or meta, and noai/noimageai (see PageUsage).
	Usage aipref.Usage
}

// PageUsage combines the usage statements about one page: robots.txt's
// for its URL (d.Usage), the page's own (its Content-Usage header, TDMRep
// header or meta, noai and noimageai, read from pol) and any more the
// caller has (aipref.TDMRep for the site's /.well-known/tdmrep.json). The
// most restrictive statement per category wins (aipref.Combine).
func PageUsage(d Decision, pol *robotsmeta.Policy, more ...[]aipref.Evidence) aipref.Usage {
	var robots []aipref.Evidence
	if d.Usage != nil {
		robots = d.Usage.Evidence
	}
	return aipref.Combine(append([][]aipref.Evidence{robots, page.Evidence(pol)}, more...)...)
}

// Link is one link of a page and whether the crawler may follow it.
type Link struct {
	URL string
	// Follow is false when the page is nofollow or the link has rel
	// nofollow, ugc or sponsored. Whether the target may be fetched is a
	// separate question: ask Allowed before fetching it.
	Follow bool
	Rel    robotsmeta.Rel
}

// FollowedLinks returns the URLs of the links the crawler may follow.
func (v *PageVerdict) FollowedLinks() []string {
	var out []string
	for _, l := range v.Links {
		if l.Follow {
			out = append(out, l.URL)
		}
	}
	return out
}

// CheckResponse evaluates a fetched page: it reads resp's headers and body
// (which it consumes but does not close) and returns the combined verdict.
// The page's URL is resp.Request.URL, where the response came from after
// redirects.
func (c *Crawler) CheckResponse(ctx context.Context, resp *http.Response) (*PageVerdict, error) {
	if resp == nil || resp.Request == nil || resp.Request.URL == nil {
		return nil, errors.New("rep: CheckResponse needs a response with its Request (as http.Client returns it)")
	}
	return c.CheckPage(ctx, resp.Request.URL.String(), resp.Header, resp.Body)
}

// CheckPage is CheckResponse for a page already read: its URL, response
// headers and body (nil for none).
func (c *Crawler) CheckPage(ctx context.Context, pageURL string, h http.Header, body io.Reader) (*PageVerdict, error) {
	base, err := url.Parse(pageURL)
	if err != nil {
		return nil, err
	}
	d, err := c.Check(ctx, pageURL)
	if err != nil {
		return nil, err
	}
	v := new(PageVerdict)
	if err := c.pageVerdict(v, base, d, h, body, 0, time.Time{}); err != nil {
		return nil, err
	}
	return v, nil
}

// pageVerdict reads into v the page at base, which robots.txt answered d
// for, from at most maxBytes of body (0: robotsmeta's default), at instant
// now (zero: the crawler's clock).
func (c *Crawler) pageVerdict(v *PageVerdict, base *url.URL, d Decision, h http.Header, body io.Reader, maxBytes int64, now time.Time) error {
	pageURL := d.URL
	if now.IsZero() {
		now = c.now()
	}
	pol, err := robotsmeta.EvaluateLines(headerLines(h, body != nil), body, c.token, c.agent.MetaProfile(), now, robotsmeta.Options{MaxBytes: maxBytes})
	if err != nil {
		return err
	}
	*v = PageVerdict{
		URL: pageURL, Crawl: d, Index: pol.Index, Follow: pol.Follow,
		Snippet: pol.Snippet, MaxSnippet: pol.MaxSnippet, MaxVideoPreview: pol.MaxVideoPreview,
		MaxImagePreview: pol.MaxImagePreview, Policy: pol,
		Truncated: pol.Page().Stop == robotsmeta.StopMaxBytes,
	}
	v.Usage = PageUsage(d, &v.Policy)
	pg := pol.Page()
	for _, r := range pg.NoSnippet {
		v.NoSnippet = append(v.NoSnippet, r.Text)
	}
	if pg.Base != "" {
		if b, err := base.Parse(pg.Base); err == nil {
			base = b
		}
	}
	var at map[string]int // URL -> index in v.Links
	var origin string
	if len(pg.Links) > 0 {
		origin = linkOrigin(base)
	}
	for _, l := range pg.Links {
		lu, ok := linkURL(base, origin, l.Href)
		if !ok {
			continue
		}
		link := Link{URL: lu, Follow: pol.Followed(l), Rel: l.Rel}
		if at == nil {
			at = make(map[string]int, len(pg.Links))
			v.Links = make([]Link, 0, len(pg.Links))
		}
		if i, dup := at[link.URL]; dup {
			if link.Follow && !v.Links[i].Follow {
				v.Links[i] = link
			}
			continue
		}
		at[link.URL] = len(v.Links)
		v.Links = append(v.Links, link)
	}
	return nil
}

// plainHeaders are response headers that carry no page-level signal
// robotsmeta reads (X-Robots-Tag, Robots-Tag, Content-Usage, the TDMRep
// headers, Content-Type): the ones nearly every response has.
var plainHeaders = map[string]bool{
	"Accept-Ranges": true, "Age": true, "Cache-Control": true, "Connection": true,
	"Content-Encoding": true, "Content-Length": true, "Date": true, "Etag": true,
	"Expires": true, "Keep-Alive": true, "Last-Modified": true, "Server": true,
	"Set-Cookie": true, "Strict-Transport-Security": true, "Transfer-Encoding": true,
	"Vary": true, "Via": true, "X-Content-Type-Options": true, "X-Frame-Options": true,
}

// headerLines returns the header lines robotsmeta reads for a response
// with headers h: robotsmeta.HeaderLines(h), or, when every header but
// Content-Type is a plain one, the Content-Type lines alone (none without
// a body), which robotsmeta reads to the same verdict without a line
// for each header. Any other header, or a name not in canonical form,
// takes the whole list: a header that is not known to be plain is read.
func headerLines(h http.Header, body bool) []string {
	for k := range h {
		if k != "Content-Type" && !plainHeaders[k] {
			return robotsmeta.HeaderLines(h)
		}
	}
	if !body {
		return nil
	}
	var lines []string
	for _, v := range h["Content-Type"] {
		lines = append(lines, "Content-Type: "+v)
	}
	return lines
}

// linkOrigin is how String writes base's scheme and host, the start of
// every link linkURL resolves on its short path; "" where base has none
// or carries user information (every link then takes the long path).
func linkOrigin(base *url.URL) string {
	if base == nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" || base.User != nil || base.Opaque != "" {
		return ""
	}
	return (&url.URL{Scheme: base.Scheme, Host: base.Host}).String()
}

// linkURL resolves href against base, drops its fragment and writes it
// out as base.Parse(href) and String do; ok is false when href does not
// parse or is not an http or https URL with a host. An absolute path made
// of plain characters (most links of most pages) is written straight
// after origin (linkOrigin(base)), without parsing; anything else takes
// url.Parse. FuzzLinkURL holds the two ways to one answer.
func linkURL(base *url.URL, origin, href string) (string, bool) {
	if origin != "" && plainPath(href) {
		end := len(href)
		if i := strings.IndexByte(href, '#'); i >= 0 {
			end = i
		}
		return origin + href[:end], true
	}
	u, err := base.Parse(href)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", false
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String(), true
}

// plainPath reports whether href is an absolute path ("/...", not
// "//host") of letters, digits and - _ ~ . /, with a query and a
// fragment of those and = &, and no empty or dot segment: resolving it
// against any http(s) base keeps it as it is.
func plainPath(href string) bool {
	if len(href) == 0 || href[0] != '/' {
		return false
	}
	part := 0 // 0 path, 1 query, 2 fragment
	for i := 0; i < len(href); i++ {
		c := href[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_', c == '~':
		case c == '/' || c == '.':
			// In the path, a segment may not be empty or start with a dot.
			if part == 0 && i > 0 && href[i-1] == '/' {
				return false
			}
		case c == '=' || c == '&':
			if part == 0 {
				return false
			}
		case c == '?' && part == 0:
			part = 1
		case c == '#' && part < 2:
			part = 2
		default:
			return false
		}
	}
	return true
}
