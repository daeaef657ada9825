// Package survey reads robots.txt captures by the million — a directory
// of files, JSONL, CSV or TSV rows, WARC response records as Common Crawl
// publishes them — and answers, for each capture and each crawler asked
// about, what the site asks of that crawler: one Row per capture × crawler.
// Report aggregates rows into the share of hosts restricting each crawler
// and purpose, per month when the captures span months.
//
// Every verdict goes through rep's one verdict path (rep.Agent,
// DecideFetched), so a row says what rep check says for the same file and
// crawler: the registry's fallback chains and "*" exceptions, the crawler's
// engine, usage preferences (package aipref).
//
// # Fetch class
//
// A capture is read as a crawler reads a fetch (RFC 9309 §2.3.1 and
// Google's rules, robotsfetch.StatusCase): 2xx is ClassRules (the body's
// rules apply), 4xx but 429 is ClassAllowAll (no robots.txt: no
// restriction), 429, 5xx and a recorded failure (status 0) are
// ClassDisallowAll. A 3xx whose Location is another robots.txt captured in
// the same input is followed, up to 5 hops (RFC 9309 §2.3.1.2); a 6th hop
// or an unfollowable 3xx is ClassAllowAll; a redirect whose target was not
// captured is ClassMissing: the capture does not say what a crawler got.
//
// # Restriction
//
// Restriction summarises, per crawler, how much of the site the file closes
// to it. With R the rules of the group the crawler obeys and the samples
// of a pattern p the path it names most plainly (each '*' matching
// nothing, a final '$' dropped, a leading '/' added) and that path with
// one more byte (which a '$'-anchored rule no longer matches), every
// verdict decided by Agent:
//
//   - Full: "/" is disallowed and, for every non-empty Allow pattern p of R,
//     both samples of p are disallowed too — nothing the group names is
//     reopened. ClassDisallowAll is Full.
//   - Partial: not Full, and "/" is disallowed or, for some non-empty
//     Disallow pattern p of R, a sample of p is disallowed.
//   - None: neither; ClassAllowAll is None (a file with only Crawl-delay
//     or usage lines for the crawler restricts nothing).
//   - Unknown: ClassMissing.
//
// This is the classification of the Data Provenance Initiative's "Consent
// in Crisis" study (full / partial / none), made precise.
//
// # Schema
//
// Rows carry SchemaVersion in the "schema" column (JSONL, CSV) and the
// Parquet key-value metadata "rep.survey.schema"; a reader refuses a
// version it does not know. New columns raise the version.
package survey
