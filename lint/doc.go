// Package lint checks a robots.txt for the mistakes that make crawlers read
// it differently from what its author meant, and explains each one.
//
// [Run] parses the file with package robotstxt, as the chosen engine's
// crawlers do (see package engine), and returns a [Report]: every
// [Finding] with its line, column, severity, stable code, message and a
// hint, the parser's own diagnostics among them, and on request a
// per-crawler view ([AgentView]: the group a crawler obeys, the rules in
// force, the rules it ignores, the Crawl-delay it honours). A fetched file
// is linted with its fetch outcome from package robotsfetch: the status,
// redirects and Content-Type become findings on line 0, and a body that
// crawlers would not read (an HTTP error, an unreachable host) is not
// linted.
//
// What the findings hold the file to:
//
//   - RFC 9309, the Robots Exclusion Protocol: groups and their merging
//     (§2.2.1), the longest match and Allow winning ties (§2.2.2), the
//     status codes (§2.3.1), UTF-8 text/plain (§2.3) and the size limit
//     (§2.5).
//   - Google's documentation of how it reads robots.txt
//     (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt)
//     and its open-source parser (github.com/google/robotstxt): accepted
//     misspellings, a missing colon, a NUL ending a line, the 16,663-byte
//     line cut, the directives Google ignores (Crawl-delay among them).
//   - Bing's and Yandex's documented differences: the directives each
//     reads, Bing's Crawl-delay inheritance.
//
// Every code is documented once, in the table [Codes] returns; [Explain]
// gives one code's text (what `rep lint -explain` prints), and
// docs/lint.md is generated from the same table. A report is written as
// compiler-style text ([Report.WriteText]), JSON ([Report.WriteJSON]) or
// SARIF 2.1.0 for code-scanning tools ([Report.WriteSARIF]).
//
// Run never fails and is safe for any input: cross-rule checks stop at a
// work limit on hostile files, and say so with a checks-incomplete finding.
package lint
