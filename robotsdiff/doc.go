// Package robotsdiff compares two versions of a robots.txt by what they
// mean to each crawler, not by their text: for every crawler (the
// registry's, a purpose's, or the agents given) it resolves the group
// before and after through the one verdict path (rep.Agent: the registry's
// fallback chains, crawlers that ignore the "*" group, the engine a crawler
// follows), and reports
//
//   - the rules in force that were added and removed, after normalisation
//     (the pattern escaped as the parser escapes it, empty rules dropped,
//     duplicates merged, order ignored: RFC 9309 §2.2.2 decides by the
//     longest match, so order never matters);
//   - the Crawl-delay and Request-rate the crawler's engine reads, the
//     Sitemap lines (file-wide), and the usage preferences
//     (Content-Usage, Content-Signal; draft-ietf-aipref-attach) that apply
//     to it;
//   - the URLs whose verdict flips, with the deciding line before and after:
//     the URLs given (a sample, a sitemap, the paths of an access log, the
//     pages a crawl reached) and witness paths derived from the patterns
//     of both files — each changed
//     rule's literal head, the boundaries around it (one byte shorter, the
//     parent directory, a slash or a word more) and the edges of its '*' and
//     '$' — so that "Disallow: /search now also blocks /search-x" is found
//     without any URL;
//   - how the file was fetched, when it was (RFC 9309 §2.3.1: a 200 turning
//     into a 5xx disallows everything; into a 404 allows everything; an HTML
//     page usually holds no rule).
//
// A change that alters nothing for any crawler — comments, blank lines,
// the order of lines or groups, the case of keys, duplicate rules — is "no
// change in meaning". When a crawler's normalised rules are the same before
// and after, no URL can flip for it, so no URL is checked for it; otherwise
// every witness and every URL given is decided on both sides.
//
// A Diff is an immutable value: the CLI (rep diff, rep watch) and the web
// tester's compare view render the same one, as text, JSON, Markdown (for
// a pull-request comment) or SARIF 2.1.0.
package robotsdiff
