package crawl

import (
	"fmt"
	"net/http"
	"time"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotsmeta"
	"github.com/rep-toolkit/rep/robotstxt"
)

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
