// Package server is rep's web service: the robots.txt tester page that site
// owners lost when Google retired its tester, and a JSON API that answers
// "may this crawler fetch this URL?" for crawler fleets.
//
// The page is embedded (embed.FS: plain HTML, CSS and a little JavaScript,
// no external assets) and served at "/". The API lives under "/api/":
//
//	POST /api/check     {"robots","agent","urls"}  → verdicts in input order
//	POST /api/lint      {"robots"}                 → findings by line
//	POST /api/page      {"url"} or {"headers","html"} → page-level directives per crawler
//	POST /api/fetch     {"url"}                    → a site's robots.txt and the fetch outcome
//	GET  /api/allowed?url=&agent=                  → one verdict, robots.txt fetched and cached
//	POST /api/allowed   {"queries":[{"agent","url"}]} → verdicts in input order, each origin fetched once
//	GET  /api/crawlers                             → the known crawlers the page offers
//	GET  /healthz                                  → "ok"
//	GET  /metrics                                  → counters, Prometheus text format
//
// Every endpoint that names a crawler resolves it with rep.NewAgent (the
// registry's fallback chains, crawlers that ignore the * group, the engine
// the crawler follows) and takes "profile" (google, bing, yandex or
// rfc9309; empty follows the crawler) and "parser_only". Verdicts are
// rendered in the one shape of rep.Decision, fetch outcomes in that of
// robotsfetch.Outcome.
//
// Errors answer a 4xx or 5xx status with {"error": "message"}. Request bodies
// are capped at 8 MiB (a batch at 32 MiB).
//
// The rules applied are those of RFC 9309 (robots.txt, through package
// robotstxt) and of the robots meta tag and X-Robots-Tag documentation
// (through package robotsmeta). Endpoints that fetch on a client's behalf
// refuse loopback, private, link-local and unspecified addresses at connect
// time, so neither a redirect nor DNS rebinding reaches an internal host.
//
// Only outbound fetches are rate limited: per client (trusted networks
// exempt) and per target origin. Pure computation and answers from the
// cache never are, so a crawler fleet behind one address can lean on the
// API; a request that would need a fetch beyond a limit gets 429 with
// Retry-After.
package server
