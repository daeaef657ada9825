// Package robotsfetch fetches robots.txt files and turns each fetch into the
// rules a crawler must follow, as RFC 9309 §2.3–2.5 and Google's
// documentation ("How Google interprets the robots.txt specification",
// developers.google.com/search/docs/crawling-indexing/robots/robots_txt) say.
//
// One robots.txt governs one origin: scheme, host and port (RFC 9309 §2.3).
// Fetcher.Get takes any URL, fetches scheme://host[:port]/robots.txt once,
// and answers every later call for that origin from memory until the copy
// expires. Concurrent callers for the same origin share one request.
//
// # The status table
//
// Every fetch ends in exactly one Case, a row of this table, recorded in the
// Outcome with the status, redirects, bytes and times, and mapped to a
// fetch class (Class):
//
//	2xx                          Success           the rules in the body
//	3xx, up to 5 hops            (followed)        the final answer, applied to the original origin
//	3xx, a 6th hop               TooManyRedirects  allow all (RFC 9309 §2.3.1.2 MAY; Google: as a 404)
//	3xx not followable           BadRedirect       allow all (no Location, 300, 304 unasked)
//	4xx except 429               Unavailable       allow all (§2.3.1.3; Google: including 401, 403)
//	429, 5xx, other status,      Unreachable       disallow all (§2.3.1.4 MUST; Google: 429 too)
//	timeout, DNS, connect error
//	unreachable ≥ 30 days        OutageCopy        the last good copy (Google), or
//	                             OutageAllow       allow all when there is none (Google), or as
//	                                               configured by Options.AfterOutage (RFC MAY)
//	unreachable, stale copy      StaleCopy         only with Options.StaleIfUnreachable (§2.4)
//	address refused by the guard RefusedAddress    disallow all, however long: a refusal, never an outage
//
// # Caching
//
// A copy is reused for at most Options.MaxAge (24 h, RFC 9309 §2.4 and
// Google). Within that cap Cache-Control max-age (minus Age), no-cache and
// no-store, and Expires (against Date) shorten it; a result with no-store is
// never written to the Store. Every result is reused for at least
// Options.MinAge (1 minute) so that a server sending max-age=0 is not asked
// once per crawled URL. A refresh of a 2xx copy is a conditional request
// (If-None-Match, If-Modified-Since); a 304 renews the copy without a body.
// While the origin is unreachable the last good copy is kept, in memory and in
// the Store, for the 30-day rule; unreachable results are retried after
// Options.RetryInterval or the server's Retry-After, within the same bounds.
//
// # Limits
//
// The body is read up to Options.MaxBytes (500 KiB, §2.5) after gzip or
// deflate decoding, so a decompression bomb costs at most that much; reading
// stops there and the rules are parsed up to the last full line. Connect,
// response-header and body timeouts bound each attempt. A 200 response that
// is an HTML page is parsed as robots.txt, as Google does (it usually holds
// no rules, so everything is allowed), and the Outcome carries WarnHTML.
//
// # Addresses
//
// A crawler fetching its own frontier may reach any address, so the default
// transport dials anything, loopback included. A program that fetches for
// someone else (a web service that checks URLs its users type) must set
// Options.Guard, which refuses loopback, private, link-local and other
// special addresses (every entry of IANA's special-purpose address
// registries) at connect time for every redirect hop.
//
// # Stores
//
// The Fetcher keeps parsed copies of up to Options.MaxOrigins origins,
// evicting with the CLOCK approximation of least-recently-used (a hit takes
// only a read lock). A Store (MemoryStore here; boltstore for a file that
// survives restarts; redisstore for a fleet sharing one cache) holds the
// fetched Entry behind that layer, versioned so that an upgrade never misreads
// an old value. A Store that fails is reported in the Outcome and bypassed:
// the Fetcher then fetches the origin itself, and never answers "allowed"
// for an origin it could not read.
//
// Entries are keyed by origin and User-Agent header (StoreKey), since a
// server may answer crawlers differently: crawlers sharing a Store never
// read each other's file. A Store that is also a Leaser (all three here)
// lets Fetchers sharing it fetch a cold origin once: one takes a short
// lease and fetches, the others poll the Store for its entry, up to
// Options.LeaseWait.
//
// # Observability
//
// Options.Logger logs each fetch with log/slog; Options.OnFetch is called
// once per fetch from the network and per answer read from the Store;
// Fetcher.Stats returns counters (fetches by Case, memory hits and misses,
// Store hits and errors, lease waits) for a metrics endpoint.
package robotsfetch
