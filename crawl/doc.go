// Package crawl audits one web site as each search crawler sees it:
// robots.txt, sitemaps and page-level directives joined per crawler.
//
// Run crawls a site from its home page and its sitemaps (package sitemap:
// robots.txt Sitemap lines, else /sitemap.xml), following the site's own
// links. For every page and every audited crawler (rep.Agent: Googlebot,
// bingbot, any registry crawler) it gives the robots.txt verdict with its
// line (rep.Check), the page-level rules that reach the crawler (package
// robotsmeta: robots meta elements and X-Robots-Tag headers, under the
// crawler's engine) and one final verdict: indexable or not, and why. What
// the three disagree on becomes a Finding with a stable code (Codes,
// Explain): a sitemap URL robots.txt disallows, a noindex no crawler can
// see, a stylesheet blocked for a crawlable page, and so on.
//
// The crawl is polite and identifies itself: its requests go through a
// rep.Crawler (User-Agent "rep-crawl/1.0 (+https://github.com/rep-toolkit/rep)"),
// which paces each host (a minimum delay, the Crawl-delay of the group it
// obeys, a bound on requests in flight) and obeys robots.txt for its own
// product token. It obeys only a group naming rep-crawl, not the "*"
// group: the rules of "*" are what it audits, and it fetches pages that
// are disallowed for the audited crawlers so that their noindex can be
// read (Config.Obey keeps it out of them). "User-agent: rep-crawl" with
// "Disallow: /" keeps it out of a site.
//
// Memory and work are bounded, in total: visited URLs are kept as 64-bit
// hashes, the frontier never holds more than Config.MaxPages URLs, the
// sitemap queue never more than Config.MaxSitemaps locations (entries of
// sitemap indexes past it are counted, not kept), all sitemaps together
// are read up to Config.MaxSitemapBytes, each page body is read up to
// Config.MaxBodyBytes, and pages reach the caller one at a time
// (Config.OnPage) instead of being kept. A sitemap bound reached sets
// Report.Truncated and adds a sitemaps-truncated finding. Requests go
// through the guarded transport of internal/netguard (no proxy; loopback,
// private and link-local addresses refused unless Config.AllowPrivate).
//
// Specifications: RFC 9309 and Google's robots.txt documentation (through
// package rep); Google's "Robots meta tag, data-nosnippet, and X-Robots-Tag
// specifications" and Bing's robots meta documentation (through package
// robotsmeta); the Sitemaps protocol (https://www.sitemaps.org/protocol.html)
// and Google's sitemap documentation (through package sitemap).
package crawl
