package lint

import (
	"slices"
	"strconv"
	"strings"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/robotstxt"
)

// extensionChecks reports directives the engine ignores.
func (l *linter) extensionChecks() {
	groups := l.f.Groups()
	for _, e := range l.f.Extensions() {
		col := 1
		if t, ok := l.text[e.Line]; ok {
			col = strings.Index(t, e.Name) + 1
		}
		if e.Key == robotstxt.KeyCrawlDelay && e.Group >= 0 && e.Group < len(groups) {
			if ops := crawlDelayIgnoredBy(groups[e.Group]); ops != nil {
				who := strings.Join(ops, " and ") + " ignore"
				if len(ops) == 1 {
					who += "s"
				}
				l.add(e.Line, max(col, 1), Warning, "crawl-delay-ignored",
					"Crawl-delay in a group for "+tokenList(groups[e.Group].Agents)+" only: "+who+" Crawl-delay, so it does not slow them down",
					crawlDelayHint(ops))
				continue // says more than ignored-directive would
			}
		}
		why := ignoredBy(l.opts.Engine, e.Key)
		if why == "" {
			continue
		}
		l.add(e.Line, max(col, 1), Info, "ignored-directive", why, ignoredHint(l.opts.Engine, e.Key))
	}
}

// crawlDelayIgnoredBy returns the operators of the crawlers a group names
// when the crawler registry documents every one of them as ignoring
// Crawl-delay (Google's crawlers, Yandex's since 2018), else nil: a group
// that also names '*' or a crawler that may read it is not reported.
func crawlDelayIgnoredBy(g robotstxt.Group) []string {
	var ops []string
	for _, tok := range g.Tokens {
		c, ok := crawlers.ByName(tok)
		if !ok || c.CrawlDelay != crawlers.No || c.Operator == "" {
			return nil
		}
		if !slices.Contains(ops, c.Operator) {
			ops = append(ops, c.Operator)
		}
	}
	return ops
}

func crawlDelayHint(ops []string) string {
	switch {
	case len(ops) == 1 && ops[0] == "Google":
		return "Google sets its crawl rate by your server's responses (answer 500, 503 or 429 to slow it down for a while); delete the line, or move it to a group for crawlers that read it (bingbot)"
	case len(ops) == 1 && ops[0] == "Yandex":
		return "set the crawl rate in Yandex Webmaster; delete the line"
	}
	return "delete the line: no crawler of this group reads it"
}

func ignoredBy(p engine.Engine, k robotstxt.Key) string {
	switch p {
	case engine.Google:
		switch k {
		case robotstxt.KeyCrawlDelay, robotstxt.KeyRequestRate, robotstxt.KeyVisitTime, robotstxt.KeyHost, robotstxt.KeyCleanParam:
			return "Google ignores " + k.String() + ": it reads only User-agent, Allow, Disallow and Sitemap"
		}
	case engine.Bing:
		switch k {
		case robotstxt.KeyRequestRate, robotstxt.KeyVisitTime, robotstxt.KeyHost, robotstxt.KeyCleanParam:
			return "Bing ignores " + k.String() + " (it honours Crawl-delay)"
		}
	case engine.Yandex:
		switch k {
		case robotstxt.KeyCrawlDelay:
			return "Yandex has ignored Crawl-delay since 2018-02-22"
		case robotstxt.KeyHost:
			return "Yandex deprecated Host in 2018; it no longer picks the main mirror from it"
		case robotstxt.KeyRequestRate, robotstxt.KeyVisitTime:
			return "Yandex ignores " + k.String()
		}
	case engine.RFC9309:
		switch k {
		case robotstxt.KeyCrawlDelay, robotstxt.KeyRequestRate, robotstxt.KeyVisitTime, robotstxt.KeyHost, robotstxt.KeyCleanParam, robotstxt.KeyContentSignal, robotstxt.KeyContentUsage:
			return k.String() + " is not part of RFC 9309: crawlers may ignore it"
		}
	}
	return ""
}

func ignoredHint(p engine.Engine, k robotstxt.Key) string {
	switch {
	case p == engine.Yandex && k == robotstxt.KeyCrawlDelay:
		return "set the crawl rate in Yandex Webmaster; keep the line only for crawlers that read it (Bing)"
	case p == engine.Yandex && k == robotstxt.KeyHost:
		return "redirect the other mirrors to the main host with 301s; the line can go"
	case p == engine.Google && k == robotstxt.KeyCrawlDelay:
		return "Google adjusts its crawl rate to your server's responses; keep the line only for crawlers that read it (Bing)"
	}
	return "keep the line only if a crawler you care about reads it"
}

// bingCrawlDelay reports Bing's exception: a bingbot group without a
// Crawl-delay of its own keeps the * group's.
func (l *linter) bingCrawlDelay() {
	_, starLine, ok := l.f.Star().CrawlDelay()
	if !ok {
		return
	}
	for _, tok := range []string{"bingbot", "msnbot"} {
		b := l.f.MatcherExplicit(tok)
		if b.Group().Via == robotstxt.ViaNone {
			continue
		}
		if _, _, own := b.CrawlDelay(); own {
			continue
		}
		first := b.Group().Lines[0]
		l.add(first, l.valueCol(first), Info, "bing-crawl-delay",
			"Bing applies the * group's Crawl-delay (line "+strconv.Itoa(starLine)+") to "+tok+" although it has its own group; other crawlers with their own group ignore it",
			"write the Crawl-delay for "+tok+" in its own group to make it explicit")
	}
}
