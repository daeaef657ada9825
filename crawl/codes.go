package crawl

import (
	"strings"

	"github.com/rep-toolkit/rep/robotstxt"
)

// Severity ranks a finding: the one severity of rep, robotstxt's, which
// lint, policy and robotsmeta use too.
type Severity = robotstxt.Severity

// Severities, from least to most serious. A crawl with any finding at
// Warning or above exits 1 from rep crawl.
const (
	Info    = robotstxt.Info
	Warning = robotstxt.Warning
	Error   = robotstxt.Error
)

// Code documents one kind of Finding. The table returned by Codes is the
// one place a code is explained: rep crawl -explain prints it and
// docs/crawl.md repeats it.
type Code struct {
	Code     string
	Severity Severity
	// PerAgent is set for codes reported once per audited crawler; the
	// others hold for every crawler and carry no agent.
	PerAgent bool
	Title    string
	// Doc explains what the finding means and how to fix it. Paragraphs
	// are separated by blank lines.
	Doc string
}

// The finding codes, stable: tools match them.
const (
	CodeBlockedResource        = "blocked-resource"
	CodeDisallowedLinked       = "disallowed-linked"
	CodeInternalNofollow       = "internal-nofollow"
	CodeMetaHeaderConflict     = "meta-header-conflict"
	CodeNoindexUnseen          = "noindex-unseen"
	CodeSitemapBadLastmod      = "sitemap-bad-lastmod"
	CodeSitemapBadURL          = "sitemap-bad-url"
	CodeSitemapDisallowed      = "sitemap-disallowed"
	CodeSitemapInvalid         = "sitemap-invalid"
	CodeSitemapNoindex         = "sitemap-noindex"
	CodeSitemapNotOK           = "sitemap-not-ok"
	CodeSitemapOtherHost       = "sitemap-other-host"
	CodeSitemapOutsidePath     = "sitemap-outside-path"
	CodeSitemapTooLarge        = "sitemap-too-large"
	CodeSitemapTooManyURLs     = "sitemap-too-many-urls"
	CodeSitemapUnreachable     = "sitemap-unreachable"
	CodeSitemapsTruncated      = "sitemaps-truncated"
	CodeUnavailableAfterPassed = "unavailable-after-passed"
)

// Codes returns every code a crawl can report, sorted by code. The slice
// is shared: do not modify it.
func Codes() []Code { return codes }

// Explain returns the documentation of a code.
func Explain(code string) (Code, bool) {
	code = strings.ToLower(strings.TrimSpace(code))
	for _, c := range codes {
		if c.Code == code {
			return c, true
		}
	}
	return Code{}, false
}

func codeOf(code string) Code {
	c, ok := Explain(code)
	if !ok {
		panic("crawl: undocumented code " + code)
	}
	return c
}

// codes is sorted by code; TestCodesSorted keeps it so.
var codes = []Code{
	{CodeBlockedResource, Warning, true, "a stylesheet, script or image of a crawlable page is disallowed",
		`A page the crawler may fetch uses a stylesheet (<link rel="stylesheet">), a script (<script src>) or an image (<img src>) that robots.txt disallows for it. Search engines render pages as a browser does; a blocked stylesheet or script can leave the page unstyled or empty for them, so its content or its mobile-friendliness is misread, and a blocked image is not indexed in image search. Google asks site owners not to block CSS and JavaScript files.

    User-agent: *
    Disallow: /assets/js/     # the pages' scripts: rendering breaks

The finding names the resource and the first page seen using it. Allow the resource for the crawler, or move it out of the disallowed path. Reported for crawlers that render pages (the registry's search and ads kinds, and names it does not know), never for one that a group naming it keeps out of the whole site.`},
	{CodeDisallowedLinked, Info, true, "a disallowed URL linked from crawlable pages",
		`A crawlable page links to a URL of the site that robots.txt disallows for the crawler. A disallowed URL is not fetched, but it can still be indexed from the links to it: it then appears in results without a description ("No information is available for this page"). robots.txt keeps crawlers out; it does not keep a URL out of the index.

The finding names the first crawlable page seen linking to it. When the URL must not appear in results, allow it and mark it noindex (meta robots or X-Robots-Tag); when it only wastes crawl budget (a cart, a login), nothing is wrong.`},
	{CodeInternalNofollow, Info, true, "links to pages of the site are not followed",
		`A crawlable page links to pages of its own site with rel="nofollow" (or ugc, sponsored), or says nofollow for the whole page (meta robots or X-Robots-Tag). The crawler is asked not to follow those links, nor to pass them credit: the site's own pages lose a path by which crawlers find them and a signal of their importance. Google treats nofollow as a hint, not a directive, since 2020-03-01.

The finding names the first such link and its position (line:column), and counts the others. Drop the rel value, or the page-level nofollow, on links to your own pages.`},
	{CodeMetaHeaderConflict, Warning, true, "the meta robots element and the X-Robots-Tag header disagree",
		`The page's robots meta elements and its X-Robots-Tag headers say opposite things to the crawler: one says noindex (or nofollow, or none) and the other index (or follow, or all). Google and Bing combine every rule that reaches them and the most restrictive wins, so the page is noindex (or nofollow) whichever the site owner meant; Yandex lets the permissive rule win. Two places that disagree are usually a template and a server configuration that drifted apart. Under the rfc9309 profile a Robots-Tag header (draft-illyes-repext) counts as a header too, and the finding names it.

The finding names both sources. Keep one place for the page's robots rules, or make both say the same.`},
	{CodeNoindexUnseen, Error, true, "a noindex page is disallowed, so its noindex is never seen",
		`The page says noindex for the crawler, but robots.txt disallows the URL for it, so the crawler never fetches the page and never reads the noindex. A disallowed URL can still be indexed from links to it, without its content: the page the site owner meant to keep out of results can appear in them. Google: "For the noindex rule to be effective, the page or resource must not be blocked by a robots.txt file."

rep crawl fetches the page anyway (unless -obey) to find exactly this. Allow the URL in robots.txt so the noindex is read; disallow it again only once it has left the index, if at all. Reported for crawlers that keep an index (the registry's search and AI search kinds, and names it does not know), never for one that a group naming it keeps out of the whole site.`},
	{CodeSitemapBadLastmod, Info, false, "a sitemap lastmod that is not a W3C datetime",
		`A <lastmod> (or an RSS pubDate, an Atom updated) cannot be read: the Sitemaps protocol asks for a W3C datetime, 2005-01-01 or 2004-12-23T18:00:15+00:00 (a time needs a time zone). Search engines ignore a date they cannot read, and Google ignores lastmod altogether on a site whose dates are not consistently accurate.

The finding names the sitemap, the line and the value. Write the date in W3C form, or leave lastmod out.`},
	{CodeSitemapBadURL, Warning, false, "a sitemap entry that is not an absolute URL",
		`An entry of a sitemap has no URL, a URL that is not absolute http or https (a bare path, a relative URL), or one of 2,048 characters or more. The Sitemaps protocol requires full URLs, protocol included; search engines drop the entry.

The finding names the sitemap and the line. Write the full URL, https://www.example.com/page, entity-escaped.`},
	{CodeSitemapDisallowed, Warning, true, "a sitemap URL is disallowed by robots.txt",
		`A URL listed in a sitemap is disallowed by robots.txt for the crawler. The sitemap asks for the URL to be crawled and indexed, robots.txt forbids fetching it: Search Console reports it as "Submitted URL blocked by robots.txt", and the URL may be indexed without its content.

The finding gives the deciding robots.txt line and the sitemap (and line) that lists the URL. Remove the URL from the sitemap, or allow it in robots.txt. Reported for crawlers that keep an index (the registry's search and AI search kinds, and names it does not know), never for one that a group naming it keeps out of the whole site.`},
	{CodeSitemapInvalid, Error, false, "a sitemap that cannot be read",
		`A sitemap is malformed XML, is not a sitemap at all (an HTML page, a root element other than urlset, sitemapindex, rss or feed), or declares an encoding other than UTF-8. Search engines stop reading at the error: entries after it are lost.

The finding names the sitemap and the line of the error. Generate the file with an XML library, entity-escape &, <, > and quotes in URLs, and serve it as UTF-8.`},
	{CodeSitemapNoindex, Warning, true, "a sitemap URL is noindex",
		`A URL listed in a sitemap says noindex to the crawler, in a robots meta element or an X-Robots-Tag header (a PDF or an image can only say it in the header). The sitemap asks for the URL to be indexed, the page refuses: Search Console reports "Submitted URL marked noindex".

The finding names the source of the noindex and the sitemap listing the URL. Remove the URL from the sitemap, or drop the noindex. Reported for crawlers that keep an index (the registry's search and AI search kinds, and names it does not know), never for one that a group naming it keeps out of the whole site.`},
	{CodeSitemapNotOK, Warning, false, "a sitemap URL does not answer 200",
		`A URL listed in a sitemap answers with a redirect, a client error (404, 410) or a server error instead of 2xx. Sitemaps should list canonical URLs that answer 200: a redirecting URL wastes a fetch and a missing one is reported by Search Console ("Submitted URL not found (404)").

The finding gives the status, the redirect's target and the sitemap listing the URL. List the final URL, or remove the entry.`},
	{CodeSitemapOtherHost, Warning, false, "a sitemap lists a URL of another host",
		`A sitemap lists a URL whose scheme or host differs from the sitemap's own (or, for a sitemap named in robots.txt, from that robots.txt's). The Sitemaps protocol requires a sitemap's URLs to be on its host; search engines drop the others. http and https, www and the bare domain, are different hosts.

Keep each host's URLs in a sitemap served by that host, or name the sitemap in the other host's robots.txt.`},
	{CodeSitemapOutsidePath, Warning, false, "a sitemap lists a URL outside its directory",
		`A sitemap lists a URL of its host that is not under the sitemap's own directory: a sitemap at /catalog/sitemap.xml may list /catalog/ URLs only (Sitemaps protocol, "Sitemap file location"). Search engines drop the others. A sitemap named in robots.txt may list any URL of the host; one listed in a sitemap index lies under the rule.

Move the sitemap to the site's root, or name it in robots.txt.`},
	{CodeSitemapTooLarge, Error, false, "a sitemap over 50 MB uncompressed",
		`A sitemap holds more than 50 MB (52,428,800 bytes) once uncompressed, the protocol's limit per file. Search engines stop reading at the limit (or reject the file): entries past it are lost. rep crawl stops reading there too.

Split the sitemap into files under the limit and list them in a sitemap index.`},
	{CodeSitemapTooManyURLs, Error, false, "a sitemap with more than 50,000 URLs",
		`A sitemap or sitemap index lists more than 50,000 entries, the protocol's limit per file. Search engines stop reading at the limit (or reject the file): entries past it are lost. rep crawl stops reading there too.

Split the sitemap into files of at most 50,000 URLs and list them in a sitemap index.`},
	{CodeSitemapUnreachable, Error, false, "a sitemap that cannot be fetched",
		`A sitemap named in robots.txt or in a sitemap index answers with an error status, cannot be fetched (network error, timeout, corrupt gzip), or is refused by a group of robots.txt naming rep-crawl. Search engines cannot read it either.

The finding gives the status or the error. Serve the file with status 200, or remove its Sitemap line or index entry.`},
	{CodeSitemapsTruncated, Info, false, "the crawl read part of the site's sitemaps",
		`The crawl bounds the work a site's sitemaps can give it, in total: at most Config.MaxSitemaps sitemap files queued and read (1,000 by default; 50 in the web tester), sitemap indexes included, and at most Config.MaxSitemapBytes read from all of them, uncompressed (256 MiB by default; 64 MiB in the web tester). The site's sitemaps go past a bound: the sitemap index entries and files past it were not read, so the URLs they list are neither crawled nor known to be in a sitemap, and findings about them are missing. The report says truncated.

Nothing is wrong with the site for that alone: the Sitemaps protocol allows 50,000 sitemaps per index. The finding names the bound and what was left out.`},
	{CodeUnavailableAfterPassed, Info, true, "the page's unavailable_after date has passed",
		`The page says unavailable_after with a date already past, in a robots meta element or an X-Robots-Tag header: for Google it is now noindex. That is what the site owner asked for when the date was set; it is reported so that an old date left in a template by mistake is found.

The finding gives the date and its source. Remove the rule, or move the date, if the page should stay in results.`},
}
