// Package verdict is rep's one path to a robots.txt verdict: a crawler's
// identity (Agent: its product tokens and fallback chain, whether it
// ignores the "*" group, whose engine's rules it follows, from the crawler
// registry), the group of a file it obeys, and the Decision for a URL with
// its evidence (the deciding rule and line, the group and why it applies,
// how the file was fetched) and its one JSON shape (DecisionJSON).
//
// It reads robots.txt as RFC 9309 and the engines' documentation do
// (packages robotstxt, engine, robotsfetch) and nothing else: no HTML, no
// HTTP client of its own. Every package that needs a verdict (lint, audit,
// policy, gate, the crawl, the server, the crawler SDK in package rep)
// gets it here, so each door gives the same answer. See ARCHITECTURE.md.
package verdict
