// Package robotsmeta reads the page-level part of the Robots Exclusion
// Protocol: robots meta elements, X-Robots-Tag response headers,
// data-nosnippet regions, link rel values (nofollow, ugc, sponsored) and the
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
//     2026-08-19) over RFC 9651 Structured Fields.
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
// and dates, dates already past, http-equiv="X-Robots-Tag",
// property="robots", name="robot" and name="google", metas pushed into
// <body> by a broken <head>, and the limits above when reached.
package robotsmeta
