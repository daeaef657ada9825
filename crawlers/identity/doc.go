// Package identity verifies that a request claiming to come from a known
// crawler really does, by the two methods operators document:
//
//   - forward-confirmed reverse DNS (FCrDNS): the IP's PTR name must end in
//     one of the operator's domains at a dot boundary (googlebot.com matches
//     crawl-66-249-66-1.googlebot.com, not googlebot.com.evil.example), and
//     that name's A/AAAA records must contain the IP again, because anyone
//     can point a PTR record at a googlebot.com name (Google, "Verifying
//     Googlebot and other Google crawlers");
//   - IP-range membership in the operator's published list, all of which
//     share one JSON shape: {"creationTime": "...", "prefixes":
//     [{"ipv4Prefix": "66.249.64.0/27"}, {"ipv6Prefix": "2001:db8::/64"}]}.
//
// Lists move and rot (Google renamed its files in March 2026 and the old URLs
// answer 200 with no prefixes), so [ParseList] validates every list before
// it is used, [Updater] replaces the last good copy only with a valid one,
// and every list is kept by date: [Ranges.At] returns the list that was
// current at a given time, so an old log line is judged against the ranges
// of its own day. Snapshots of the lists found in public mirrors are embedded
// (snapshots/, provenance in snapshots/sources.json); see [Embedded].
//
// [Verifier] combines the crawler registry (package crawlers), the lists and
// DNS through an injectable resolver with timeouts and a TTL cache into a
// [Result]: verified (and how), spoofed (and why), unverifiable (the operator
// publishes nothing usable), rdns-only (Baidu, whose forward records are not
// reliable) or not a known crawler. A Verifier is safe for concurrent use and
// shares DNS answers between goroutines, so an access-log auditor can call
// it for every distinct client IP.
package identity
