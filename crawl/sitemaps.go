package crawl

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
	"github.com/rep-toolkit/rep/sitemap"
)

// sitemapRef says which sitemap and line listed a URL.
type sitemapRef struct {
	file int32 // index into crawler.sitemaps
	line int32
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
