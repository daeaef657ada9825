// Package robotstxt parses robots.txt files and answers whether a crawler may
// fetch a URL, exactly as Google's production parser does (the default
// profile) or as RFC 9309 specifies (the [RFC9309] profile).
//
// Parse once, query many times:
//
//	f := robotstxt.Parse(body)          // never fails; see f.Diagnostics()
//	m := f.Matcher("Googlebot-Image", "Googlebot") // fallback chain, then "*"
//	d := m.Check("https://example.com/private/x")
//	if !d.Allowed {
//		fmt.Println("blocked by line", d.Rule.Line, d.Rule) // Disallow: /private
//	}
//
// A parsed [File] is immutable and safe for concurrent use; [Matcher.Check]
// does not allocate for URLs up to 2 KiB, and [Matcher.Allowed] answers the
// verdict alone without building the Decision. The work that only some queries
// need is done on first use, once: a group's index when a Matcher first
// needs it, and the shared wildcard matcher (below) on the first long path.
//
// # What is implemented
//
//   - RFC 9309 §2.1–2.2: groups of one or more user-agent lines; groups
//     naming the same product token are merged (§2.2.1); a crawler obeys only
//     its own groups, else the "*" groups; allow/disallow rules with "*" and
//     a final "$" (§2.2.3); the longest match wins and allow wins a tie
//     (§2.2.2); "/robots.txt" itself is always allowed (§2.2.2).
//   - Google's leniency (google/robotstxt, robots.cc): a UTF-8 byte order
//     mark, even a partial one, skipped at the start; CR, LF and CRLF line
//     ends; lines cut at 16,664 bytes; a NUL byte ends a line; keys matched
//     case-insensitively by prefix with Google's accepted typos; a missing
//     colon accepted when the line has exactly two words; product tokens cut
//     at the first character outside [A-Za-z_-]; non-ASCII bytes in patterns
//     percent-encoded and %xx escapes upper-cased; "Allow: /x/index.html"
//     also allows "/x/".
//   - A size limit (default 500 KiB, RFC 9309 §2.5 and Google's documented
//     limit; at most [MaxParseBytes], 64 MiB) applied at a line boundary,
//     with a diagnostic.
//   - Extensions, typed and exposed with their line numbers without changing
//     allow/deny: Sitemap, Crawl-delay, Request-rate, Visit-time, Host,
//     Clean-param (Yandex), Content-Signal (Cloudflare) and Content-Usage
//     (IETF aipref). Other lines are kept as [Unknown] records.
//   - Groups as Google forms them: only an allow or disallow line ends a
//     run of user-agent lines, so a group holding only extension lines
//     joins the next one. [Options].CrawlDelayEndsGroup groups as the
//     engines that read Crawl-delay do (Bing, Yandex): a Crawl-delay line
//     ends the run too, and each crawler keeps its own delay.
//
// # Profiles
//
// [Google] (the default) answers as google/robotstxt does, line for line.
// [RFC9309] answers as the RFC says where Google departs from it:
//
//   - %-encoded unreserved octets in the URL and the pattern are decoded
//     (§2.2.2: "/%62%61%7A" matches "baz"); Google compares them as written.
//   - In the query, the gen-delims ":" "/" "?" "@" "[" "]" inside keys and
//     values are %-encoded before comparison (§2.2.2's example:
//     "?baz=https://foo.bar" is matched as "?baz=https%3A%2F%2Ffoo.bar").
//     The RFC does not say which reserved characters it means; encoding the
//     gen-delims but not "&" and "=", which give the query its structure, is
//     our reading of its one example.
//   - "%2A" and "%24" in a pattern match a literal "*" and "$" (§2.2.3);
//     Google treats them as plain text that never matches those characters.
//   - Non-ASCII bytes in the URL are %-encoded before comparison; Google
//     expects the caller to send an encoded URL.
//   - Google's "index.html" rule is not applied.
//
// # Linear time
//
// Matching never backtracks and uses no regular expressions. Literal rules
// are found by one binary search over their sorted prefixes and a short
// chain of prefix links, whatever the rule count. A wildcard rule is matched
// by a greedy leftmost search for each '*'-separated segment, which is exact
// for patterns made only of "*" and a final "$" and linear in the path, after
// a byte-mask filter that skips rules needing a byte the path lacks. A group
// with many wildcard rules (over 64) matches them together when rules × path
// length is large: one Aho–Corasick pass over the path finds every
// occurrence of every segment,
// and each rule is decided by binary searches in those lists, so 20,000
// distinct wildcard rules cost one pass instead of 20,000 scans. When
// segments occur too often for that (segments nested in each other, such as
// a, aa, aaa, over a run of a's) the check falls back to the per-rule
// search, which finds such segments at once. BenchmarkWorstCase measures the
// hostile inputs.
package robotstxt
