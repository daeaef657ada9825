package rep_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/lint"
	"github.com/rep-toolkit/rep/robotsmeta"
	"github.com/rep-toolkit/rep/robotstxt"
)

// The seeds are the five documents rep comes from (../shared/seeds):
//
//	000  Google, "Robots meta tag and X-Robots-Tag HTTP header specifications"
//	001  the same document in Thai (its examples are 000's, wrapped in
//	     <html><head>…</head><body>(…)</body></html>; each page case below
//	     runs both forms)
//	002  Google, "Controlling crawling and indexing"
//	003  "A Deeper Look at Robots.txt" (the guide to the REP by Google,
//	     Yahoo and Microsoft's conventions)
//	004  Google Webmaster Central Blog, "Improving on Robots Exclusion
//	     Protocol" (2008)
//
// Each case quotes the sentence it checks. Examples rep cannot express, and
// why:
//
//   - 000, 003: the Apache <Files> snippets ("Header set X-Robots-Tag ...")
//     are server configuration; what they send is an X-Robots-Tag header,
//     checked through the header cases.
//   - 002, 003: where robots.txt must live (the root of a host, a port, not a
//     subdirectory) is checked by robotsfetch's origin tests
//     (TestRobotsURL), not here.
//   - 003: "Sitemap" with no URL ("# Please take my sitemap and index
//     everything!"): the document's line lost its URL; Sitemap is checked
//     with 002's file.
//   - 003: "the robots.txt file is case sensitive ... /Files does not always
//     equal /files", "Authenticate the identity of the crawler": checked by
//     lint's case-mismatch case and crawlers/identity's verify cases.
//   - 003, 004: NOODP and NOPREVIEW are obsolete (the ODP closed in 2017,
//     Bing's hover preview is gone); rep reads them as no-ops, which the
//     NOODP case shows.
//   - 003, 004: removal requests, Webmaster Tools, server-log analysis and
//     "When Blocked Content Appears to be Indexed" describe the engines'
//     tools and index, not rules a file or a page states.
//   - 004's comments ("/abc/*/xyz/*.php" and others) are readers'
//     questions; the wildcard cases answer the one about "/product/sort/*".

// seedFile is a robots.txt case: the file, and for each agent and engine
// the URLs it may and may not fetch.
type seedFile struct {
	seed, quote string
	robots      string
	checks      []seedCheck
}

type seedCheck struct {
	agent     string
	eng       engine.Engine
	allowed   []string
	forbidden []string
}

var seedFiles = []seedFile{
	// 002: Google, "Controlling crawling and indexing".
	{"002", `No Googlebot crawlers should crawl the folder http://example.com/nogooglebot/ and all contained URLs. ... No other crawlers should crawl the folder http://example.com/onlygooglebot/`,
		"User-agent: Googlebot\nDisallow: /nogooglebot/\nUser-agent: *\nDisallow: /onlygooglebot/\nSitemap: http://www.example.com/sitemap.xml\n",
		[]seedCheck{
			{"Googlebot", engine.Auto, []string{"http://example.com/onlygooglebot/x"}, []string{"http://example.com/nogooglebot/", "http://example.com/nogooglebot/a/b.html"}},
			{"Googlebot-Image", engine.Auto, []string{"/onlygooglebot/x"}, []string{"/nogooglebot/x"}},
			{"bingbot", engine.Auto, []string{"/nogooglebot/x"}, []string{"/onlygooglebot/", "/onlygooglebot/x"}},
		}},
	{"002", "Allow crawling of all content: User-agent: * / Disallow:",
		"User-agent: *\nDisallow:\n", []seedCheck{{"AnyBot", engine.Auto, []string{"/", "/any/thing"}, nil}}},
	{"002", "or User-agent: * / Allow: /",
		"User-agent: *\nAllow: /\n", []seedCheck{{"AnyBot", engine.Auto, []string{"/", "/any/thing"}, nil}}},
	{"002", "Disallow crawling of the whole website",
		"User-agent: *\nDisallow: /\n", []seedCheck{{"AnyBot", engine.Auto, []string{"/robots.txt"}, []string{"/", "/a"}}}},
	{"002", "Disallow crawling of certain parts of the website",
		"User-agent: *\nDisallow: /calendar/\nDisallow: /junk/\n",
		[]seedCheck{{"AnyBot", engine.Auto, []string{"/", "/calendar", "/junkyard"}, []string{"/calendar/2024", "/junk/x"}}}},
	{"002", "Allowing access to a single crawler",
		"User-agent: Googlebot-news\nDisallow:\nUser-agent: *\nDisallow: /\n",
		[]seedCheck{
			{"Googlebot-News", engine.Auto, []string{"/", "/news/x"}, nil},
			{"Googlebot", engine.Auto, nil, []string{"/", "/news/x"}},
		}},
	{"002", "Allowing access to all but a single crawler",
		"User-agent: Unnecessarybot\nDisallow: /\nUser-agent: *\nDisallow:\n",
		[]seedCheck{
			{"Unnecessarybot", engine.Auto, nil, []string{"/", "/x"}},
			{"Googlebot", engine.Auto, []string{"/", "/x"}, nil},
		}},

	// 003: the guide.
	{"003", "A simple robots.txt file is shown below. User-agent: * / Disallow: /private",
		"User-agent: *\nDisallow: /private\n",
		[]seedCheck{{"AnyBot", engine.Auto, []string{"/public"}, []string{"/private", "/private/x", "/private.html"}}}},
	{"003", "Disallow: /images blocks access to /images/ , /images/image1.jpg, and /images10.",
		"User-agent: *\nDisallow: /images\n",
		[]seedCheck{{"AnyBot", engine.Auto, []string{"/image", "/Images/"}, []string{"/images/", "/images/image1.jpg", "/images10"}}}},
	{"003", "Block all robots ... # Disallow: * is not valid.",
		"# This keeps out all well-behaved robots.\n# Disallow: * is not valid.\nUser-agent: *\nDisallow: /\n",
		[]seedCheck{{"Googlebot", engine.Auto, nil, []string{"/", "/x"}}, {"bingbot", engine.Auto, nil, []string{"/"}}}},
	{"003", "Keep out all bots by default: Blocks all pages except those specified.",
		"# Stay out unless otherwise stated\nUser-agent: *\nDisallow: /\nAllow: /Public/\nAllow: /articles/\nAllow: /images/\n",
		[]seedCheck{{"AnyBot", engine.Auto, []string{"/Public/a", "/articles/b", "/images/c.png"}, []string{"/", "/public/a", "/other"}}}},
	{"003", "Block specific content: # Block access to the images folder",
		"# Block access to the images folder\nUser-agent: *\nDisallow: /images/\n",
		[]seedCheck{{"AnyBot", engine.Auto, []string{"/images", "/imagesx"}, []string{"/images/", "/images/a.jpg"}}}},
	{"003", "Block a folder, but allow access to selected pages in that folder.",
		"# Block everything in the images folder\n# Except allow images/image1.jpg\nUser-agent: *\nDisallow: /images/\nAllow: /images/image1.jpg\n",
		[]seedCheck{{"AnyBot", engine.Auto, []string{"/images/image1.jpg"}, []string{"/images/image2.jpg"}}}},
	{"003", "Block a class of robots (for instance, Googlebot), but allow a specific bot in that class (for instance, Googlebot-Mobile).",
		"# Block Googlebot access\n# Allow Googlebot-Mobile access\nUser-agent: Googlebot\nDisallow: /\nUser-agent: Googlebot-Mobile\nAllow: /\n",
		[]seedCheck{
			{"Googlebot", engine.Auto, nil, []string{"/", "/x"}},
			{"Googlebot-Mobile", engine.Auto, []string{"/", "/x"}, nil},
			// "if you block the major robot, all robots for that search
			// engine are blocked as well"
			{"Googlebot-Image", engine.Auto, nil, []string{"/x.png"}},
		}},
	{"003", "# Block access to all URLs that include an ampersand",
		"User-agent: *\nDisallow: /*&\n",
		[]seedCheck{{"AnyBot", engine.Auto, []string{"/a?b=1"}, []string{"/a?b=1&c=2", "/&"}}}},
	{"003", "# Block access to all URLs that end in .cgi",
		"User-agent: *\nDisallow: /*.cgi$\n",
		[]seedCheck{{"AnyBot", engine.Auto, []string{"/script.cgi?x=1", "/a.cgi/b"}, []string{"/script.cgi", "/a/b.cgi"}}}},
	{"003", "That directive blocks all URLs that contain ? except those that end in ?",
		"# Block access to URLs that contain ?\n# Allow access to URLs that end in ?\nUser-agent: *\nDisallow: /*?\nAllow: /*?$\n",
		[]seedCheck{{"AnyBot", engine.Auto, []string{"/page", "/page?"}, []string{"/page?id=1", "/page?a=b&c=d"}}}},
	{"003", "If you direct an entry at a particular robot, then it obeys that entry instead of any entries defined for user-agent: * (rather than in addition to those entries). ... Google will disregard all sections in the robots.txt file except the Googlebot section.",
		"# This keeps out all well-behaved robots\nUser-agent: *\nDisallow: /\n\n# This looks like it is giving Google access to only this directory, but since it is a\n# GoogleBot specific section, Google will disregard the previous section\n# and access the whole site.\nUser-agent: Googlebot\nAllow: /Content_For_Google/\n",
		[]seedCheck{
			{"Googlebot", engine.Auto, []string{"/", "/anything", "/Content_For_Google/x"}, nil},
			{"bingbot", engine.Auto, nil, []string{"/", "/Content_For_Google/x"}},
		}},
	{"003", "If conflicts exist in the file, the robot obeys the longest (and therefore generally more specific) line.",
		"User-agent: *\nAllow: /folder/page\nDisallow: /folder/\n",
		[]seedCheck{{"AnyBot", engine.Auto, []string{"/folder/page", "/folder/page2"}, []string{"/folder/other"}}}},

	// 004: the 2008 post. "$ Wildcard Support ... files with certain
	// filetypes that always have a certain extension, say pdf"; "*
	// Wildcard Support ... disallow URLs with session ids"; a reader's
	// "Disallow: /product/sort/*".
	{"004", "$ Wildcard Support: Tells a crawler to match everything from the end of a URL ... say pdf",
		"User-agent: *\nDisallow: /*.pdf$\n",
		[]seedCheck{{"AnyBot", engine.Auto, []string{"/a.pdf?page=2", "/a.pdfx"}, []string{"/a.pdf", "/docs/b.pdf"}}}},
	{"004", "* Wildcard Support: ... disallow URLs with session ids or other extraneous parameters",
		"User-agent: *\nDisallow: /*sessionid=\n",
		[]seedCheck{{"AnyBot", engine.Auto, []string{"/shop?item=1"}, []string{"/shop?sessionid=42", "/a/b?x=1&sessionid=9"}}}},
	{"004", "Disallow: /product/sort/* ... This would cause pages /product/sort/alpha/ and /product/sort/price/ to then not be indexed.",
		"User-agent: *\nDisallow: /product/sort/*\n",
		[]seedCheck{{"AnyBot", engine.Auto, []string{"/product/", "/product/sortx"}, []string{"/product/sort/alpha/", "/product/sort/price/"}}}},
	{"004", "Allow: ... a large section of a site is disallowed except for a small section within it",
		"User-agent: *\nDisallow: /archive/\nAllow: /archive/public/\n",
		[]seedCheck{{"AnyBot", engine.Auto, []string{"/archive/public/x"}, []string{"/archive/x"}}}},
}

// TestSeedsRobotsTxt checks every robots.txt example of the seeds through
// the one path every door of rep takes: rep.NewAgent, the engine's parse
// options, Agent.Decide; under each engine that the case does not pin.
func TestSeedsRobotsTxt(t *testing.T) {
	for _, c := range seedFiles {
		for _, ck := range c.checks {
			engines := []engine.Engine{ck.eng}
			if ck.eng == engine.Auto {
				engines = []engine.Engine{engine.Auto, engine.Google, engine.Bing, engine.Yandex, engine.RFC9309}
			}
			for _, e := range engines {
				a, err := rep.NewAgent(ck.agent, rep.AgentOptions{Engine: e})
				if err != nil {
					t.Fatal(err)
				}
				f := robotstxt.ParseWith([]byte(c.robots), a.ParseOptions())
				for _, u := range ck.allowed {
					if d := a.Decide(f, u); !d.Allowed {
						t.Errorf("seed %s, %q:\n%s under %v: %s disallowed by %v", c.seed, c.quote, ck.agent, a.Engine, u, d.Rule)
					}
				}
				for _, u := range ck.forbidden {
					if d := a.Decide(f, u); d.Allowed {
						t.Errorf("seed %s, %q:\n%s under %v: %s allowed", c.seed, c.quote, ck.agent, a.Engine, u)
					}
				}
			}
		}
	}
}

// TestSeedsRobotsTxtExtras: the seeds' robots.txt lines that are not
// allow or deny.
func TestSeedsRobotsTxtExtras(t *testing.T) {
	// 002: "The site's Sitemap file is located at
	// http://www.example.com/sitemap.xml"
	f := robotstxt.Parse([]byte(seedFiles[0].robots))
	if s := f.Sitemaps(); len(s) != 1 || s[0].URL != "http://www.example.com/sitemap.xml" || s[0].Line != 5 {
		t.Errorf("002 sitemap: %+v", s)
	}
	// 003: "Note, user-agent does not apply to this directive": a Sitemap
	// inside a group is file-wide all the same.
	f = robotstxt.Parse([]byte("User-agent: Googlebot\nSitemap: https://example.com/s.xml\nDisallow: /x\n"))
	if s := f.Sitemaps(); len(s) != 1 {
		t.Errorf("003 sitemap in a group: %+v", s)
	}

	// 003: "# MSNBot, please wait 5 seconds in between visits ... # Yahoo's
	// Slurp, please wait 12 seconds in between visits" and "This only
	// works with Microsoft and Yahoo. For Google you'll need to specify a
	// slower crawling speed through their Webmaster Tools."
	const delays = "# MSNBot, please wait 5 seconds in between visits\nUser-agent: msnbot\nCrawl-delay: 5\n\n# Yahoo's Slurp, please wait 12 seconds in between visits\nUser-agent: slurp\nCrawl-delay: 12\n"
	for _, w := range []struct {
		agent string
		e     engine.Engine
		delay time.Duration
		line  int
		ok    bool
	}{
		{"msnbot", engine.Auto, 5 * time.Second, 3, true},
		{"slurp", engine.Auto, 12 * time.Second, 7, true},
		{"msnbot", engine.Yandex, 5 * time.Second, 3, true},
		{"slurp", engine.Yandex, 12 * time.Second, 7, true},
		{"slurp", engine.Google, 0, 0, false},
		{"Googlebot", engine.Auto, 0, 0, false},
	} {
		a, err := rep.NewAgent(w.agent, rep.AgentOptions{Engine: w.e})
		if err != nil {
			t.Fatal(err)
		}
		f := robotstxt.ParseWith([]byte(delays), a.ParseOptions())
		d, line, _, ok := a.CrawlDelay(f)
		if d != w.delay || line != w.line || ok != w.ok {
			t.Errorf("003 crawl-delay, %s under %v: %v (line %d, %v), want %v (line %d, %v)", w.agent, a.Engine, d, line, ok, w.delay, w.line, w.ok)
		}
	}
	// Under Google's groups the two User-agent lines are one group, which
	// rep lint reports (merged-group), naming both lines.
	var found bool
	for _, fd := range lint.Run([]byte(delays), lint.Options{}).Findings {
		if fd.Code == "merged-group" && fd.Line == 6 && strings.Contains(fd.Message, "(line 2) and 'User-agent: slurp' (line 6)") {
			found = true
		}
	}
	if !found {
		t.Errorf("003 crawl-delay: no merged-group finding for lines 2 and 6")
	}

	// 003: "Google – The primary search engine robot is Googlebot. Yahoo! –
	// The primary search engine robot is Slurp. Bing – The primary search
	// engine robots is MSNbot." and "Google, Yahoo and Microsoft all
	// support Reverse DNS authentication of their robots."; 004: "each of
	// our crawlers also supports Reverse DNS based authentication".
	for _, w := range []struct{ name, operator, rdns string }{
		{"Googlebot", "Google", "googlebot.com"}, {"Slurp", "Yahoo", "crawl.yahoo.net"}, {"msnbot", "Microsoft", "search.msn.com"},
	} {
		c, ok := crawlers.ByName(w.name)
		if !ok || c.Operator != w.operator || !slices.Contains(c.Verify.RDNS, w.rdns) {
			t.Errorf("003 %s: registry entry %+v", w.name, c)
		}
	}

	// 003: "If you want search engines to access all the content on your
	// site, you don't need a robots.txt file at all"; an empty file
	// allows everything, and rep lint says it has no rules.
	if d := robotstxt.Parse(nil).Check("Googlebot", "/any"); !d.Allowed {
		t.Errorf("003 no robots.txt: %+v", d)
	}
}

// seedPage is a page-level case: headers and HTML, the agent and engine,
// and what the policy must say.
type seedPage struct {
	seed, quote string
	headers     []string
	html        string
	agent       string
	prof        robotsmeta.Profile
	check       func(p *robotsmeta.Policy) bool
}

func noindex(p *robotsmeta.Policy) bool      { return !p.Index && p.Follow }
func indexable(p *robotsmeta.Policy) bool    { return p.Index && p.Follow && p.Archive && p.Snippet }
func noindexNofol(p *robotsmeta.Policy) bool { return !p.Index && !p.Follow }

var seedPages = []seedPage{
	// 000 (and 001, its Thai translation).
	{"000", `<meta name="robots" content="noindex" /> ... instructs most search engines not to show the page in search results`,
		nil, `<!DOCTYPE html>` + "\n" + `<meta name="robots" content="noindex" />`, "Googlebot", robotsmeta.Google, noindex},
	{"000", `The value of the name attribute (robots) specifies that the directive applies to all crawlers.`,
		nil, `<meta name="robots" content="noindex" />`, "bingbot", robotsmeta.Bing, noindex},
	{"000", `<meta name="googlebot" content="noindex" /> This tag now instructs Google (but no other search engines) not to show this page`,
		nil, `<meta name="googlebot" content="noindex" />`, "Googlebot", robotsmeta.Google, noindex},
	{"000", `(but no other search engines)`,
		nil, `<meta name="googlebot" content="noindex" />`, "bingbot", robotsmeta.Bing, indexable},
	{"000", `Both the name and the content attributes are non-case sensitive.`,
		nil, `<META NAME="GoogleBot" CONTENT="NoIndex">`, "Googlebot", robotsmeta.Google, noindex},
	{"000", `to show a page in Google's web search results, but not in Google News, use the following meta tag: <meta name="googlebot-news" content="noindex" />`,
		nil, `<meta name="googlebot-news" content="noindex" />`, "Googlebot-News", robotsmeta.Google, noindex},
	{"000", `(but not in Google News): Googlebot still indexes it`,
		nil, `<meta name="googlebot-news" content="noindex" />`, "Googlebot", robotsmeta.Google, indexable},
	{"000", `it's okay to use multiple robots meta tags: <meta name="googlebot" content="noindex"> <meta name="googlebot-news" content="nosnippet">`,
		nil, `<meta name="googlebot" content="noindex">` + "\n" + `<meta name="googlebot-news" content="nosnippet">`, "Googlebot-News", robotsmeta.Google,
		func(p *robotsmeta.Policy) bool { return p.Index && !p.Snippet }},
	{"000", `(the same two tags, for Googlebot)`,
		nil, `<meta name="googlebot" content="noindex">` + "\n" + `<meta name="googlebot-news" content="nosnippet">`, "Googlebot", robotsmeta.Google,
		func(p *robotsmeta.Policy) bool { return !p.Index && p.Snippet }},
	{"000", `an HTTP response with an X-Robots-Tag instructing crawlers not to index a page: X-Robots-Tag: noindex`,
		[]string{"Date: Tue, 25 May 2010 21:42:43 GMT", "X-Robots-Tag: noindex"}, "", "Googlebot", robotsmeta.Google, noindex},
	{"000", `a noarchive X-Robots-Tag combined with an unavailable_after X-Robots-Tag`,
		[]string{"X-Robots-Tag: noarchive", "X-Robots-Tag: unavailable_after: 25 Jun 2010 15:00:00 PST"}, "", "Googlebot", robotsmeta.Google,
		func(p *robotsmeta.Policy) bool {
			return !p.Archive && p.UnavailableAfter.Equal(time.Date(2010, 6, 25, 23, 0, 0, 0, time.UTC)) && !p.Index // the date is past
		}},
	{"000", `X-Robots-Tag: googlebot: nofollow / X-Robots-Tag: otherbot: noindex, nofollow (for Googlebot)`,
		[]string{"X-Robots-Tag: googlebot: nofollow", "X-Robots-Tag: otherbot: noindex, nofollow"}, "", "Googlebot", robotsmeta.Google,
		func(p *robotsmeta.Policy) bool { return p.Index && !p.Follow }},
	{"000", `(the same headers, for otherbot)`,
		[]string{"X-Robots-Tag: googlebot: nofollow", "X-Robots-Tag: otherbot: noindex, nofollow"}, "", "otherbot", robotsmeta.Google, noindexNofol},
	{"000", `Directives specified without a user-agent are valid for all crawlers.`,
		[]string{"X-Robots-Tag: noindex"}, "", "otherbot", robotsmeta.Google, noindex},
	{"000", `all: There are no restrictions for indexing or serving.`,
		nil, `<meta name="robots" content="all">`, "Googlebot", robotsmeta.Google, indexable},
	{"000", `none: Equivalent to noindex, nofollow.`,
		nil, `<meta name="robots" content="none">`, "Googlebot", robotsmeta.Google, noindexNofol},
	{"000", `noindex: Do not show this page in search results and do not show a "Cached" link`,
		nil, `<meta name="robots" content="noindex">`, "Googlebot", robotsmeta.Google, noindex},
	{"000", `nosnippet: Do not show a text snippet or video preview`,
		nil, `<meta name="robots" content="nosnippet">`, "Googlebot", robotsmeta.Google,
		func(p *robotsmeta.Policy) bool { return p.Index && !p.Snippet }},
	{"000", `notranslate: Do not offer translation of this page`,
		nil, `<meta name="robots" content="notranslate">`, "Googlebot", robotsmeta.Google,
		func(p *robotsmeta.Policy) bool { return p.Index && !p.Translate }},
	{"000", `noimageindex: Do not index images on this page.`,
		nil, `<meta name="robots" content="noimageindex">`, "Googlebot", robotsmeta.Google,
		func(p *robotsmeta.Policy) bool { return p.Index && !p.ImageIndex }},
	{"000", `unavailable_after: [RFC-850 date/time] Do not show this page in search results after the specified date/time.`,
		// RFC 850's two-digit year, read with RFC 5322's window (10: 2010);
		// the date is past, so the page is out of the results.
		nil, `<meta name="robots" content="unavailable_after: Friday, 25-Jun-10 15:00:00 PST">`, "Googlebot", robotsmeta.Google,
		func(p *robotsmeta.Policy) bool {
			return !p.Index && p.UnavailableAfter.Equal(time.Date(2010, 6, 25, 23, 0, 0, 0, time.UTC))
		}},
	{"000", `<meta name="robots" content="noindex, nofollow"> instructs web crawlers to not index the page and to not crawl any of the links`,
		nil, `<meta name="robots" content="noindex, nofollow">`, "Googlebot", robotsmeta.Google, noindexNofol},
	{"000", `The page containing these meta tags will be interpreted as having a noindex, nofollow directive when crawled by Googlebot.`,
		nil, `<meta name="robots" content="nofollow">` + "\n" + `<meta name="googlebot" content="noindex">`, "Googlebot", robotsmeta.Google, noindexNofol},
	{"000", `If competing directives are encountered by our crawlers we will use the most restrictive directive we find.`,
		nil, `<meta name="robots" content="index">` + "\n" + `<meta name="robots" content="noindex">`, "Googlebot", robotsmeta.Google, noindex},
	{"000", `Header set X-Robots-Tag "noindex, nofollow" (what the Apache snippet sends for a PDF)`,
		[]string{"Content-Type: application/pdf", "X-Robots-Tag: noindex, nofollow"}, "", "Googlebot", robotsmeta.Google, noindexNofol},

	// 002.
	{"002", `$ curl -I ... HTTP/1.1 200 OK / X-Robots-Tag: noindex / Content-Type: text/html`,
		[]string{"X-Robots-Tag: noindex", "Content-Type: text/html; charset=UTF-8"}, "<p>results</p>", "Googlebot", robotsmeta.Google, noindex},
	// "<meta name="robots" value="noindex" /> ... specifying that no
	// search engines should index this particular page": the example
	// writes value= for content=, and Google reads only content; rep
	// reads the page as Google does (indexable) and its lint says why.
	{"002", `<meta name="robots" value="noindex" />`,
		nil, "<!DOCTYPE html>\n<html><head>\n<meta name=\"robots\" value=\"noindex\" />\n", "Googlebot", robotsmeta.Google,
		func(p *robotsmeta.Policy) bool {
			if !indexable(p) {
				return false
			}
			for _, d := range p.Page().Diagnostics {
				if strings.Contains(d.Message, "content") {
					return true
				}
			}
			return false
		}},

	// 003.
	{"003", `<meta name="ROBOTS" content="NOINDEX">`,
		nil, "<title>Your title here</title>\n<meta name=\"ROBOTS\" content=\"NOINDEX\">\n<body>Your page here</body>", "Slurp", robotsmeta.Bing, noindex},
	{"003", `<!-- ONLY GoogleBot --> <meta name="Googlebot" content="NOINDEX">`,
		nil, `<meta name="Googlebot" content="NOINDEX">`, "bingbot", robotsmeta.Bing, indexable},
	{"003", `<!-- ONLY Slurp (Yahoo) --> <meta name="Slurp" content="NOINDEX">`,
		nil, `<meta name="Slurp" content="NOINDEX">`, "Slurp", robotsmeta.Bing, noindex},
	{"003", `<!-- ONLY Slurp (Yahoo) --> (not Googlebot)`,
		nil, `<meta name="Slurp" content="NOINDEX">`, "Googlebot", robotsmeta.Google, indexable},
	{"003", `<!-- ONLY MSNBot (Microsoft) --> <meta name="MSNBot" content="NOINDEX">`,
		nil, `<meta name="MSNBot" content="NOINDEX">`, "bingbot", robotsmeta.Bing, noindex},
	{"003", `<!-- Do not show a description for this page --> NOSNIPPET`,
		nil, `<meta name="ROBOTS" content="NOSNIPPET">`, "bingbot", robotsmeta.Bing, func(p *robotsmeta.Policy) bool { return p.Index && !p.Snippet }},
	{"003", `<!-- Do not use to create a description --> NOODP (obsolete: a no-op)`,
		nil, `<meta name="ROBOTS" content="NOODP">`, "Googlebot", robotsmeta.Google, indexable},
	{"003", `<!-- Do not present a cached version of the document in a search result --> NOARCHIVE`,
		nil, `<meta name="ROBOTS" content="NOARCHIVE">`, "bingbot", robotsmeta.Bing, func(p *robotsmeta.Policy) bool { return p.Index && !p.Archive }},
	{"003", `NOCACHE ... was created by Microsoft, and is synonymous with NOARCHIVE`,
		nil, `<meta name="ROBOTS" content="NOCACHE">`, "bingbot", robotsmeta.Bing, func(p *robotsmeta.Policy) bool { return p.Index && !p.Archive }},
	{"003", `<!-- Do not trust links on this page --> NOFOLLOW`,
		nil, `<meta name="ROBOTS" content="NOFOLLOW"><a href="/x">x</a>`, "Googlebot", robotsmeta.Google,
		func(p *robotsmeta.Policy) bool { return p.Index && !p.Follow && len(p.Unfollowed()) == 1 }},
	{"003", `<meta name="GOOGLEBOT" content="NOIMAGEINDEX"> ... This is a Google Only tag.`,
		nil, `<meta name="GOOGLEBOT" content="NOIMAGEINDEX">`, "Googlebot", robotsmeta.Google, func(p *robotsmeta.Policy) bool { return p.Index && !p.ImageIndex }},
	{"003", `<!-- Do not translate this page into other languages--> NOTRANSLATE`,
		nil, `<meta name="ROBOTS" content="NOTRANSLATE">`, "Googlebot", robotsmeta.Google, func(p *robotsmeta.Policy) bool { return !p.Translate }},
	{"003", `<!-- NOT RECOMMENDED, there really isn't much point in using these --> FOLLOW`,
		nil, `<meta name="ROBOTS" content="FOLLOW">`, "Googlebot", robotsmeta.Google, indexable},
	// <meta name="ROBOT" content="UNAVAILABLE_AFTER">: no date, so nothing
	// to apply; "robot" is not "robots", so Google does not read the tag.
	{"003", `<meta name="ROBOT" content="UNAVAILABLE_AFTER">`,
		nil, `<meta name="ROBOT" content="UNAVAILABLE_AFTER">`, "Googlebot", robotsmeta.Google,
		func(p *robotsmeta.Policy) bool { return indexable(p) && p.UnavailableAfter.IsZero() }},
	{"003", `X-Robots-Tag: noindex, nosnippet (for a PowerPoint file)`,
		[]string{"Cache-Control: private", "Content-Type: application/octet-stream", "content-disposition: inline; filename=01 - The truth about SEO.ppt", "X-Robots-Tag: noindex, nosnippet"}, "", "bingbot", robotsmeta.Bing,
		func(p *robotsmeta.Policy) bool { return !p.Index && !p.Snippet }},
	{"003", `X-Robots-Tag: unavailable_after: 7 Jul 2007 16:30:00 GMT`,
		[]string{"X-Robots-Tag: unavailable_after: 7 Jul 2007 16:30:00 GMT"}, "", "Googlebot", robotsmeta.Google,
		func(p *robotsmeta.Policy) bool {
			return !p.Index && p.UnavailableAfter.Equal(time.Date(2007, 7, 7, 16, 30, 0, 0, time.UTC))
		}},
	{"003", `<a href="#" rel="NOFOLLOW">My Hyperlink</a>`,
		nil, `<a href="#" rel="NOFOLLOW">My Hyperlink</a><a href="/ok">ok</a>`, "Googlebot", robotsmeta.Google,
		func(p *robotsmeta.Policy) bool {
			u := p.Unfollowed()
			return p.Follow && len(u) == 1 && u[0].Href == "#"
		}},
	{"003", `in Yahoo Search you can specify which <div> elements on a page you would not like indexed using the class=robots-nocontent attribute`,
		nil, "<div class=\"robots-nocontent\">\nNo content for you! (or at least Yahoo!)", "Slurp", robotsmeta.Bing,
		func(p *robotsmeta.Policy) bool {
			nc := p.Page().NoContent
			return indexable(p) && len(nc) == 1 && nc[0].Tag == "div" && nc[0].Text == "No content for you! (or at least Yahoo!)" && nc[0].Line == 1
		}},

	// 004: the 2008 post's HTML META directives, "applicable for all forms
	// of content ... in the HTTP header for non-HTML content, e.g., PDF".
	{"004", `NOINDEX META Tag: Tells a crawler not to index a given page`,
		nil, `<meta name="robots" content="NOINDEX">`, "bingbot", robotsmeta.Bing, noindex},
	{"004", `NOFOLLOW META Tag: ... you are discounting all outgoing links from this page`,
		nil, `<meta name="robots" content="NOFOLLOW"><a href="/a">a</a><a href="/b">b</a>`, "Googlebot", robotsmeta.Google,
		func(p *robotsmeta.Policy) bool { return len(p.Unfollowed()) == 2 }},
	{"004", `NOSNIPPET META Tag: Tells a crawler not to display snippets`,
		nil, `<meta name="robots" content="NOSNIPPET">`, "Googlebot", robotsmeta.Google, func(p *robotsmeta.Policy) bool { return !p.Snippet }},
	{"004", `NOARCHIVE META Tag: Tells a search engine not to show a "cached" link`,
		nil, `<meta name="robots" content="NOARCHIVE">`, "Googlebot", robotsmeta.Google, func(p *robotsmeta.Policy) bool { return !p.Archive }},
	{"004", `They can be placed ... in the HTTP header for non-HTML content, e.g., PDF, video, etc. using an X-Robots-Tag.`,
		[]string{"Content-Type: application/pdf", "X-Robots-Tag: noarchive, nosnippet"}, "", "Googlebot", robotsmeta.Google,
		func(p *robotsmeta.Policy) bool { return p.Index && !p.Archive && !p.Snippet }},
	{"004", `UNAVAILABLE_AFTER Meta Tag - Tells a crawler when a page should "expire"`,
		nil, `<meta name="googlebot" content="unavailable_after: 2030-01-01T00:00:00Z">`, "Googlebot", robotsmeta.Google,
		func(p *robotsmeta.Policy) bool { return p.Index && p.UnavailableAfter.Year() == 2030 }},
}

// seedNow is the instant the page cases are evaluated at.
var seedNow = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)

// TestSeedsPages checks every meta tag and X-Robots-Tag example of the
// seeds through robotsmeta; 000's examples also as 001 writes them.
func TestSeedsPages(t *testing.T) {
	for _, c := range seedPages {
		forms := []string{c.html}
		if c.seed == "000" && c.html != "" {
			forms = append(forms, "<!DOCTYPE html>\n<html><head>\n"+strings.TrimPrefix(c.html, "<!DOCTYPE html>\n")+"\n</head>\n<body>(…)</body>\n</html>")
		}
		for i, html := range forms {
			h := http.Header{}
			for _, l := range c.headers {
				k, v, _ := strings.Cut(l, ":")
				h.Add(k, strings.TrimSpace(v))
			}
			pol, err := robotsmeta.Evaluate(h, strings.NewReader(html), c.agent, c.prof, seedNow, robotsmeta.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !c.check(&pol) {
				seed := c.seed
				if i == 1 {
					seed = "001"
				}
				t.Errorf("seed %s, %q:\n%s (%v): %+v\ndiagnostics: %v", seed, c.quote, c.agent, c.prof, pol.Summary(), pol.Page().Diagnostics)
			}
		}
	}
}

// TestSeedsCrawlBeforeIndex: 000 "If a page is disallowed from crawling
// through the robots.txt file, then any information about indexing or
// serving directives will not be found and will therefore be ignored";
// 002 "in order for a crawler to find a meta tag or HTTP header element,
// the crawler must be able to crawl the page". rep.Crawler.CheckResponse
// is never reached for a disallowed URL: Allowed says no first.
func TestSeedsCrawlBeforeIndex(t *testing.T) {
	a, err := rep.NewAgent("Googlebot", rep.AgentOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f := robotstxt.ParseWith([]byte("User-agent: *\nDisallow: /private/\n"), a.ParseOptions())
	if d := a.Decide(f, "https://example.com/private/page.html"); d.Allowed {
		t.Errorf("a disallowed page must not be fetched, so its noindex is never read: %+v", d)
	}
}
