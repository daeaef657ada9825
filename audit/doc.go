// Package audit reads access logs and reports, per crawler, what it
// fetched, whether it was who it claimed to be, and whether it obeyed the
// robots.txt that was live when it made each request.
//
// Each request is classified by its User-Agent with the crawler registry
// (package crawlers), optionally verified by IP list and forward-confirmed
// reverse DNS (package crawlers/identity), and checked against a History of
// robots.txt files. RFC 9309 §2.4 lets a crawler use a cached robots.txt for
// up to 24 hours, so after a change a request counts as disallowed only if
// every version it could still have been using disallows it; requests that
// only the new version forbids are reported separately as "grace".
// Crawl-delay compliance is measured from the gaps between consecutive
// requests of a crawler to a host, for crawlers documented to honour it.
//
// Aggregates are mergeable: a Report holds counts, per-day and per-status
// maps, a bounded top-k of paths (Space-Saving, Metwally et al. 2005) and
// the first and last request per crawler and host, so the Reports of the
// time-ordered parts of a log Merge into the Report of the whole. That is
// what lets "rep audit merge" combine shards processed anywhere.
package audit
