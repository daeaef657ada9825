package lint

import "strings"

// Code documents one finding of [Run]. The table returned by
// [Codes] is the single place a code is explained: `rep lint -explain`
// prints it and docs/lint.md is generated from it.
type Code struct {
	Code string
	// Severity is the usual severity; a few codes rank one case higher or
	// lower, and Doc says when.
	Severity Severity
	// Title is a one-line summary.
	Title string
	// Doc explains what the finding means for crawlers and how to fix it.
	// Paragraphs are separated by blank lines; an indented line is an
	// example.
	Doc string
}

// Codes returns every code Run can report, sorted by code. The slice
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

// codes is sorted by code; TestLintCodesSorted keeps it so.
var codes = []Code{
	{"allow-disallow-conflict", Warning, "an Allow and a Disallow with the same pattern",
		`Two rules for the same crawler have the same path pattern, one Allow and one Disallow. The longest matching rule decides, and when an Allow and a Disallow are equally long the least restrictive one, Allow, wins (RFC 9309 §2.2.2; Google does the same). The Disallow therefore never blocks anything.

    User-agent: *
    Disallow: /shop
    Allow: /shop          # wins: /shop is crawlable

Delete the rule you did not mean.`},
	{"binary-file", Error, "a file that is not text",
		`The body is not text: NUL bytes and other control bytes make up much of it, as in an image, an archive or a compiled file served in place of robots.txt (a misconfigured rewrite rule, a wrong file deployed). Crawlers do not refuse it: Google's parser reads any body, ends each line at a NUL byte, and ignores every line that is not a directive. Such a file yields no rule, so crawlers may fetch everything. Its lines are not reported one by one.

A robots.txt with a few NUL bytes but real rules is not a binary file: each NUL is reported as nul-byte on its line.

Serve the real robots.txt as UTF-8 text, or a 404 status when there is none.`},
	{"bing-crawl-delay", Info, "Bing keeps the * group's Crawl-delay for its own group",
		`A crawler that has a group of its own ignores every line of the * group, except in one documented case: Bing applies the * group's Crawl-delay to bingbot when bingbot's own group has none. Other crawlers with their own group (Yandex, Seznam, ...) do not.

    User-agent: *
    Crawl-delay: 10       # still slows bingbot down
    User-agent: bingbot
    Disallow: /search

Put the Crawl-delay you want for bingbot in its own group to make the intent explicit.`},
	{"bom-not-at-start", Warning, "a byte order mark in the middle of the file",
		`A UTF-8 byte order mark (U+FEFF, bytes EF BB BF) is skipped only at the very start of the file. Elsewhere, typically where two files were concatenated, it is part of the line: in front of a key it turns "User-agent" into an unknown key and the line is ignored.

Delete the invisible character (most editors show it as <feff> or not at all; 'grep -n $'\xEF\xBB\xBF'' finds it).`},
	{"case-mismatch", Warning, "a path with capitals where the rest of the file uses lower case",
		`Paths are case-sensitive: "Disallow: /Files" does not block /files. When every other rule of the file is in lower case, a rule with capitals is usually a typo and leaves the lower-case path open.

Write the path exactly as your URLs spell it, or add a rule for each spelling. The finding is not reported when the lower-case spelling has a rule too.`},
	{"checks-incomplete", Info, "the cross-rule checks stopped at their work limit",
		`Finding shadowed rules and the * rules a crawler's own group hides compares rules with each other. On a file with tens of thousands of wildcard rules that work grows fast, so the linter stops those two checks at a fixed limit and says so with this finding; every other check still covers the whole file. No file of the test corpus comes near the limit.

Split the rules into fewer, simpler patterns, or check the groups one at a time.`},
	{"crawl-delay-ignored", Warning, "Crawl-delay for crawlers that ignore it",
		`The group names only crawlers documented to ignore Crawl-delay (the crawler registry says which): Google's crawlers (Googlebot, Googlebot-Image, AdsBot-Google, ...) never read it, and Yandex's have ignored it since 2018-02-22. The line does not slow them down, whatever the site owner meant by it.

    User-agent: Googlebot
    Crawl-delay: 10       # Googlebot crawls as fast as before

Google sets its crawl rate by how the server answers: to slow it down for a while, answer 500, 503 or 429 (see Google's "Reduce the Google crawl rate"). Set Yandex's rate in Yandex Webmaster. Delete the line, or move it to a group for crawlers that read it (bingbot). A group that also names "*" or a crawler that may read Crawl-delay is not reported; under the google engine a Crawl-delay elsewhere is an ignored-directive info.`},
	{"disallow-all", Error, "Disallow: / for every crawler: the whole site is blocked",
		`The * group disallows "/" (or "/*", or "*"): every crawler without a group of its own may fetch nothing, and pages drop out of search results over time (their URLs can still be listed, without a description).

This is the classic staging-to-production accident. If you mean it, keep it; otherwise replace it with the paths you want to block, or with "Disallow:" (nothing) to allow everything. The finding is a warning instead of an error when Allow rules in the same group open parts of the site again, and info when groups naming crawlers let them in: the file is then an allow-list, and keeping every other crawler out is evidently meant.`},
	{"dollar-not-at-end", Info, "'$' in the middle of a pattern",
		`"$" anchors a pattern at the end of the URL only when it is the last character. Anywhere else Google and RFC 9309 read it as a literal "$". That is right for sites whose URLs contain "$" (some wikis do), and a mistake when the "$" was meant as an anchor:

    Disallow: /*.php$?print=1   # matches only URLs containing ".php$?print=1"

If you meant to anchor, end the pattern with "$". (Google compares "%24" as written, so it does not match a "$" in the URL.)`},
	{"duplicate-rule", Info, "the same rule twice for the same crawler",
		`The rule appears twice in the rules a crawler obeys (groups naming the same crawler are merged, RFC 9309 §2.2.1). The copy changes nothing; RFC 9309 allows crawlers to drop it.

Delete one copy; if the groups were meant to differ, check which crawler each is for.`},
	{"empty-file", Warning, "the file has no rules",
		`The file is empty or holds only comments and blank lines: every crawler may fetch everything. That is a valid robots.txt, but often an accident (a failed deploy, a template that was never filled in).

If you mean "allow everything", Google recommends serving no robots.txt at all (a 404), or say it explicitly:

    User-agent: *
    Disallow:`},
	{"empty-rule", Warning, "an empty Disallow or Allow next to other rules",
		`"Disallow:" with no path blocks nothing; it means "allow everything" only when it is the only rule of its group. Next to other rules it does nothing, and it often shows a misunderstanding (it does not cancel the group's other Disallow lines). "Allow:" with no path never does anything.

Delete the empty line, or the other rules if you meant to allow everything. An empty Disallow written before every other rule of its group is info: nothing suggests it was meant to cancel rules that come after it.`},
	{"extension-outside-group", Info, "a group directive before any User-agent line",
		`Crawl-delay, Request-rate, Visit-time, Clean-param and Content-Usage belong to the group they are written in. Before the first User-agent line they belong to no group, and crawlers that honour them per group ignore them.

Move the line below the User-agent line of the crawlers it is for.`},
	{"fetch-content-type", Warning, "robots.txt served with a type other than text/plain",
		`RFC 9309 §2.3 requires robots.txt to be UTF-8 text/plain. Most crawlers parse whatever they get, but a text/html type usually means an HTML page (an error or login page) was served in place of the file, and a charset other than UTF-8 can make rules with non-ASCII characters never match.

Serve the file as "Content-Type: text/plain; charset=utf-8".`},
	{"fetch-redirect", Info, "robots.txt is redirected",
		`The robots.txt URL answered with redirects. Crawlers follow at least five (RFC 9309 §2.3.1.2; Google follows five) and apply the file they reach to the host they started from, even when it is on another host. Redirects from http to https or to the www host are normal.

More than five redirects is an error: Google then treats robots.txt as not found, which means no restrictions at all. HTML, JavaScript and meta-refresh redirects are never followed.`},
	{"fetch-status", Warning, "robots.txt answered with an HTTP error",
		`The status code decides what crawlers do, whatever the body says (RFC 9309 §2.3.1; Google documents the same):

    2xx          the file is parsed and obeyed
    4xx but 429  "unavailable": crawlers may fetch everything (Google: 401 and 403 too)
    429, 5xx     "unreachable": crawlers assume everything is disallowed

A 4xx is a warning (your rules, if any, are not seen); 429 and 5xx are errors: after about 30 days of errors Google falls back to its cached copy or to no restrictions. Serve robots.txt with status 200, or a 404 if you want no rules.`},
	{"fetch-unreachable", Error, "robots.txt could not be fetched",
		`The connection failed (DNS, TCP, TLS or a timeout). RFC 9309 §2.3.1.4 tells crawlers to treat an unreachable robots.txt as "disallow everything"; Google does so for up to 30 days.

Check that the host resolves and serves /robots.txt over the scheme crawlers use.`},
	{"html-file", Error, "an HTML page served as robots.txt",
		`The body is HTML, typically a login, error or "page not found" page served with status 200. Crawlers parse it as robots.txt, find no valid rules and may fetch everything; the HTML lines are ignored one by one (their own findings are not listed).

Serve the real robots.txt, or a 404 status when there is none.`},
	{"ignored-directive", Info, "a directive the selected search engine ignores",
		`The line is valid, but the engine of the -engine flag does not read it:

    google   Crawl-delay, Request-rate, Visit-time, Host, Clean-param (Google reads only
             User-agent, Allow, Disallow and Sitemap)
    bing     Request-rate, Visit-time, Host, Clean-param
    yandex   Crawl-delay (ignored since 2018-02-22; set the rate in Yandex Webmaster),
             Host (deprecated in 2018; use a 301 redirect), Request-rate, Visit-time
    rfc9309  every extension: RFC 9309 defines only User-agent, Allow and Disallow

Keep the line if another crawler you care about reads it.`},
	{"invalid-agent", Warning, "a User-agent value that is not a product token",
		`A product token has only letters, "-" and "_" (RFC 9309 §2.2.1). Google cuts the value at the first other character and matches what is left: "Googlebot/2.1" is read as "Googlebot" (harmless for Google, but parsers that compare whole values never match it), "Google bot" as "Google" (no such crawler), "1bot" as an empty name that no crawler has.

Write the bare token: "User-agent: Googlebot".

The finding is a warning only when a crawler is misled: when the name Google reads is another crawler's ("Googlebot2" is obeyed by Googlebot), or when the value names a second crawler that no parser matches ("Googlebot, bingbot": bingbot does not obey the group). It is info, with the reason, when every crawler concerned reads it as meant: the name Google reads is the crawler meant and the rest is a version or a pattern ("Googlebot/2.1", "Mediapartners-Google*", "Baiduspider+"), or it is no crawler's name at all and the crawler named reads its own name whole ("MJ12bot", read by Google as "MJ"; "008").`},
	{"invalid-utf8", Warning, "bytes that are not UTF-8",
		`robots.txt must be UTF-8 (RFC 9309 §2.3). Other encodings (Latin-1, Windows-1252, UTF-16) turn non-ASCII paths into bytes that no URL, which crawlers %-encode from UTF-8, will ever match. The finding points at the first invalid byte.

Save the file as UTF-8.`},
	{"invalid-value", Warning, "an extension directive with a value that does not parse",
		`The value of Crawl-delay, Request-rate, Visit-time, Host, Clean-param, Content-Signal or Content-Usage has the wrong shape, so crawlers that honour the directive drop it. The forms are:

    Crawl-delay: 10                      seconds, a non-negative number
    Request-rate: 1/10s [0100-0600]      requests/period (s, m or h) and an optional UTC window
    Visit-time: 0100-0600                hhmm-hhmm, UTC
    Host: www.example.com                a host name (Yandex, deprecated)
    Clean-param: ref&utm_source /shop/   parameters joined by & and an optional path (Yandex)
    Content-Signal: search=yes, ai-train=no
    Content-Usage: train-ai=n            (IETF aipref; an optional path first)`},
	{"line-too-long", Warning, "a line longer than Google reads",
		`Google reads the first 16,663 bytes of a line (2083 × 8 − 1) and ignores the rest; a long rule is cut and matches something else than written.

Split the rule into several shorter ones.`},
	{"lone-cr", Warning, "lines ending in a bare carriage return",
		`Lines end with CR alone (old Mac OS style). Google and RFC 9309 accept it, but many tools and some parsers split lines on LF only and join such lines with the next one, or read the whole file as one line, which then holds no valid rule. (CR CR LF, a CRLF file converted twice, is harmless and not reported.)

Save the file with LF or CRLF line ends.`},
	{"merged-group", Warning, "a group of only ignored lines, merged by Google with the next",
		`Google's parser ends a run of User-agent lines only at an Allow or Disallow line (RFC 9309's grammar says the same). A group whose only lines are ones Google ignores (Crawl-delay, Request-rate, Host, unknown lines) is therefore no group of its own: the next User-agent lines join it, and every crawler named gets the rules written below the last of them. The Google guide's example, with a rule added:

    User-agent: msnbot
    Crawl-delay: 5

    User-agent: slurp
    Crawl-delay: 12
    Disallow: /cgi-bin/   # Google: for msnbot too

Bing and Yandex, which read Crawl-delay, take it as a group member and keep the two groups apart; Google, and every crawler that parses as Google does, does not. The finding names both User-agent lines, the crawlers and the rules they share.

End the first group with a rule of its own ('Disallow:' with an empty value allows everything), or, if the crawlers are meant to share the rules, put their User-agent lines together.`},
	{"missing-colon", Warning, "a directive without its colon",
		`"Disallow /private" has no ":" between key and value. Google accepts a missing colon when the line has exactly two words; RFC 9309 requires the colon and other parsers ignore the line.

Write "Disallow: /private".`},
	{"misspelled-key", Warning, "a misspelled key that Google accepts",
		`Google accepts some misspellings ("useragent", "user agent", "dissallow", "disalow", "site-map", ...) and any key that starts with a directive's name ("disallowed"). Other crawlers may not, and ignore the line.

Spell the key as the finding says.`},
	{"no-separator", Warning, "a line that is not a 'key: value' line",
		`The line has no ":" (and is not two words that Google would read as a key and a value). Every crawler ignores it. It is often prose that should be a comment, or a value that wrapped onto its own line.

Turn it into a comment with "#", or fix the directive.`},
	{"noindex-directive", Warning, "noindex, nofollow or noarchive in robots.txt",
		`"Noindex:", "Nofollow:", "Noarchive:" and similar lines were never part of the standard; Google stopped reading them on 2019-09-01 and no major engine reads them now. The pages they name stay indexable.

To keep a page out of search results, let crawlers fetch it and send "<meta name=\"robots\" content=\"noindex\">" or an "X-Robots-Tag: noindex" header. Do not also disallow the page: a crawler that may not fetch it never sees the noindex.`},
	{"nul-byte", Error, "a NUL byte",
		`Google keeps each line as a C string, so a NUL byte ends the line there and the rest of the line is ignored. A file full of NUL bytes is usually UTF-16.

Remove the NUL bytes; save the file as UTF-8.`},
	{"pattern-start", Warning, "a path pattern that does not start with '/' or '*'",
		`Crawlers match a pattern against the URL's path, which always starts with "/". A pattern such as "private/" or "https://example.com/private" therefore matches nothing (RFC 9309 §2.2.2; Yandex's validator rejects such rules).

Start the pattern with "/": "Disallow: /private/". To match anywhere, start with "*".`},
	{"private-path", Info, "a rule that reveals a private-looking path",
		`robots.txt is public and is no access control: anyone can read it, and "Disallow: /admin" points people (and bad crawlers, which ignore robots.txt) to /admin. Disallowed URLs can still be indexed from links, without a snippet.

Protect private areas with authentication, and keep them out of search with noindex. List paths in robots.txt only to save crawl budget.`},
	{"redundant-wildcard", Info, "a trailing '*' that changes nothing",
		`Every pattern already matches any URL that starts with it, so a trailing "*" adds nothing: "Disallow: /private*" blocks exactly what "Disallow: /private" blocks. It only makes the rule one character longer, which raises its priority against other rules by one.

That priority matters when an Allow and a Disallow both match a URL: the longer one decides, and Allow wins a tie (RFC 9309 §2.2.2). The finding is therefore given only when dropping the "*" changes no verdict for the crawlers that obey the rule: not for "Disallow: /a*" next to "Allow: /a", where "Disallow: /a" would tie with the Allow and lose, opening /a.

Remove the "*".`},
	{"rule-outside-group", Warning, "a rule before any User-agent line",
		`Allow and Disallow lines before the first User-agent line belong to no group, and crawlers ignore them (RFC 9309 §2.2.2; Google too). Some old parsers applied them to everyone.

Put "User-agent: *" (or the crawler's name) above them.`},
	{"shadowed-rule", Warning, "a rule that can never decide",
		`Another rule for the same crawlers matches every URL this rule matches and always wins: it is longer, or as long and an Allow (Allow wins a tie), or as long, of the same kind and earlier. This rule is never the deciding rule. When the other rule has the opposite kind, the outcome is probably not what was meant.

    User-agent: *
    Allow: /*.html        # 7 characters: wins for every /x.html URL
    Disallow: /x.html     # same length, loses the tie: never decides

Only proven cases are reported: a rule hidden by several rules together is not. The finding is a warning when the two rules are of opposite kinds (the hidden rule's verdict is lost), and info when they are of the same kind: every URL then gets the verdict meant, and the hidden rule is only dead weight.`},
	{"sitemap-other-host", Info, "a Sitemap on another host",
		`The Sitemap URL is on another host than the robots.txt. The Sitemaps protocol allows this cross-submission, but the sitemap may then list only URLs of the hosts whose robots.txt points to it, and typos in the host name go unnoticed.

Check that the host is the one you mean.`},
	{"sitemap-url", Warning, "a Sitemap that is not an absolute http(s) URL",
		`Sitemap lines must hold a fully-qualified URL ("https://www.example.com/sitemap.xml"); Google ignores relative paths and other schemes.

Write the full URL.`},
	{"size-limit", Error, "a file over 500 KiB",
		`Crawlers read at most 500 KiB of robots.txt (RFC 9309 §2.5 sets this as the minimum, Google documents exactly this limit) and ignore the rest. The finding names the first rule that is ignored.

Shorten the file: merge rules with "*" patterns, and drop rules for URLs that no longer exist.`},
	{"star-overridden", Warning, "a crawler's own group hides the * group's rules from it",
		`A crawler obeys only the group that names it and ignores the * group entirely (RFC 9309 §2.2.1; Google, Bing and others): the * rules are not inherited. A small "User-agent: Googlebot" group therefore lets Googlebot crawl everything the * group blocks. The finding names the * rules that this crawler is no longer blocked by (each shown to decide differently for a URL).

    User-agent: *
    Disallow: /private
    User-agent: Googlebot
    Disallow: /search     # Googlebot may now crawl /private

Repeat the * rules you want in the crawler's group.

The finding is left out, or is info with the reason, where no crawler reads the file differently from what its author evidently meant:

    AdsBot-Google, Mediapartners-Google, APIs-Google   ignore the * group anyway (Google documents it): not reported
    a group that only allows everything ("Disallow:")  the classic allow-list, written on purpose: info
    a control token (Google-Extended)                  never fetches; the crawlers that read it obey their own groups: info
    a retired crawler (msnbot)                         info, unless a live crawler obeys its group (bingbot without a group of its own)
    a * group that blocks the whole site               an allow-list: the groups naming crawlers are meant to differ: info`},
	{"unknown-directive", Warning, "an unknown directive",
		`The key is not one crawlers know, so the line is ignored. When it is close to a known directive ("Dissalow", "Usre-agent", "Crawl-dealy") the finding suggests it and is a warning; a key not close to any known directive is reported as info.

Fix the spelling, or make the line a comment.`},
	{"utf16-file", Error, "a UTF-16 file",
		`The file starts with a UTF-16 byte order mark. Crawlers read robots.txt as UTF-8 bytes: every character is followed or preceded by a NUL byte, and no line is read as written.

Save the file as UTF-8.`},
}
