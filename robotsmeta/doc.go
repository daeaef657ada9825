// Package robotsmeta reads the page-level part of the Robots Exclusion
// Protocol: robots meta elements, X-Robots-Tag response headers, the
// Robots-Tag structured header (draft-illyes-repext-03), data-nosnippet
// regions, link rel values (nofollow, ugc, sponsored) and the
// AI-usage signals that travel with a page (noai, noimageai, TDMRep
// tdm-reservation/tdm-policy, IETF aipref Content-Usage). It turns one
// response into the effective policy for one crawler, under the combining
// rules of one engine.
//
// Specifications followed (details in docs/page.md; the conformance
// vectors in testdata/conformance/page-level.json):
//   - Google, "Robots meta tag, data-nosnippet, and X-Robots-Tag
//     specifications" (developers.google.com/search/docs/crawling-indexing/
//     robots-meta-tag, rev. 2026-03-24), and the 2007 posts on the robots
//     meta tag and unavailable_after;
//   - Bing Webmaster help "Which robots metatags does Bing support" and the
//     2020 and 2023 announcements (max-* rules; noarchive/nocache and chat);
//   - Yandex Webmaster "Robots meta tag and X-Robots-Tag HTTP header";
//   - WHATWG HTML (tree construction; rel as a set of space-separated
//     tokens);
//   - W3C TDMRep Final Community Group Report (2024-05-10);
//   - draft-ietf-aipref-attach and draft-ietf-aipref-vocab (HEAD
//     2026-08-19) over RFC 9651 Structured Fields;
//   - draft-illyes-repext-03, "Robots Exclusion Protocol Extension for URL
//     Level Control" (G. Illyes, 2026-04-18), for Robots-Tag.
//
// # Robots-Tag
//
// The Robots-Tag response header (draft-illyes-repext-03 section 3.1.1)
// is an RFC 9651 List; each member is a product token, as a Token or a
// String ("*" for every crawler), and its Parameters are the rules:
//
//	Robots-Tag: *;nosnippet, ExampleBot;noindex
//
// gives every crawler nosnippet and ExampleBot noindex and nosnippet. The
// package reads it so:
//
//   - Field lines join with ", " into one value before parsing (RFC 9651
//     section 4.2). A value that does not parse is ignored whole (RFC 9651
//     section 4.2), and so is one whose member is not a Token or String
//     naming "*" or an RFC 9309 section 2.2.1 product token (RFC 9651
//     section 2: violating a field's constraints should have the same
//     effect); a diagnostic says where. Parameter keys are lower case in
//     RFC 9651, so "*;NoIndex" fails, whatever section 3.1.3 says of case.
//   - Product tokens match the crawler's case-insensitively (RFC 9309
//     section 2.2.1). A token given twice, and "*" beside a specific
//     token, give the union of their rules (section 3.1.1).
//   - A parameter naming a rule of this package is that rule: bare (or
//     ?1) for the boolean rules; max-snippet=50, max-video-preview=-1,
//     max-image-preview=large (Token or String), unavailable_after as a
//     String date or an RFC 9651 Date (@seconds). The draft registers only
//     noindex and nosnippet (sections 3.1.3, 5.2) and lets implementors
//     support the other RFC 9309 section 2.2.4 rules; it defines no value
//     types, so a bad value voids only its rule, ?0 states no rule, and an
//     unknown rule is no instruction (section 3.1.1). Of duplicate
//     parameters the last value counts (RFC 9651 section 4.2.3.2).
//   - The parsing limit is RobotsTagLimit, 8 KiB, the least section 3.1.1
//     allows. A longer value is read up to it: the complete members before
//     it apply; the member that reaches it and everything after are
//     ignored. A syntax error before the limit still voids the field.
//   - Each member is one Source (Name "Robots-Tag", Value the member as
//     written, its line and column), and its rules enter the same
//     Page.Policy merge as X-Robots-Tag and meta rules: most restrictive
//     wins. The draft does not say how Robots-Tag and X-Robots-Tag
//     combine; all its rules are restrictive and combine as a union
//     (sections 3.1.1, 3.1.2), so the two fields are merged as one.
//   - Only the rfc9309 profile applies Robots-Tag rules (ReadsRobotsTag):
//     no search engine documents reading the header, and Google's robots
//     meta documentation (2026-03-24) lists X-Robots-Tag only. Under
//     google, bing and yandex the rules are still parsed, linted and
//     reported with their sources, and Page.Applies says they reach no
//     crawler.
//
// Parse once, query many: Parse reads the headers and the HTML into an
// immutable Page holding every rule with its source; Page.Policy answers for
// any crawler and profile without allocating. Evaluate does both for the
// common case of one crawler.
//
// # Sources
//
// Every robots meta element anywhere in the document counts, head or body,
// as Google reads body metas. The document is tokenized with
// golang.org/x/net/html and walked with the tree-construction decisions
// that matter here: <template> contents are inert; <noscript> is raw text,
// as in a browser with scripting enabled, so a meta inside it is not an
// element; comments, <script>, <textarea> and iframe srcdoc are not
// markup; of duplicate attributes the first wins; character references are
// decoded; <svg><meta> breaks out of foreign content into HTML. The body is
// decoded first per the BOM, the Content-Type charset or a <meta charset>
// (golang.org/x/net/html/charset).
//
// # Streaming and early stop
//
// The document is read as a stream and no tree is built: memory is bounded
// by Options (MaxBytes, MaxToken, MaxLinks, MaxSources, MaxRegions) and by
// an open-element stack capped at 512, whatever the document's size or
// nesting. Reading stops early only where the answer cannot change. Because
// Google reads robots metas in <body>, and a later TDMRep meta supersedes an
// earlier one, the full policy can change until the last byte, so
// NeedPolicy, NeedLinks and NeedNoSnippet read the whole document (up to
// MaxBytes, which is where an engine with that limit stops seeing rules
// too). With Need = NeedIndexing only, Parse stops as soon as Index and
// Follow are final: under Google and Bing, which only ever add restrictions,
// once noindex and nofollow both apply (possibly from the headers alone,
// before reading any body); under Yandex, where allow directives win, once
// index and follow (or all) apply.
//
// # Lint
//
// Parsing never fails on bad input: problems become Diagnostics with line
// and column — separators other than commas, unknown rules, invalid values
// and dates, dates already past, Robots-Tag fields ignored or cut, http-equiv="X-Robots-Tag",
// property="robots", name="robot" and name="google", metas pushed into
// <body> by a broken <head>, and the limits above when reached.
package robotsmeta
