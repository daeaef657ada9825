package crawl

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/robotsmeta"
)

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
