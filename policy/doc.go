// Package policy reads a site's crawler policy, one TOML file saying what
// crawlers may do, and turns it into what enforces it: the robots.txt
// (Policy.RobotsTxt), the response headers per path (Policy.HeadersFor:
// X-Robots-Tag, Content-Usage), the site-wide usage preferences
// (Content-Signal and Content-Usage lines), and configurations for nginx,
// Apache, Caddy and HAProxy (Policy.Config) that set the same headers and
// refuse the crawlers the policy shuts out entirely.
//
// A policy names crawlers by product token or by purpose: a group with
// categories = ["ai-training"] names every crawler of the registry
// (package crawlers) with that purpose. The registry also says how each
// crawler reads robots.txt (its fallback chain, whether it ignores the "*"
// group, whose rules it follows), and the generated file is written for
// that: a crawler that ignores the "*" group is named in it, so "*" in a
// policy means every crawler no other group names, as a publisher expects.
//
// RoundTrip holds the generated robots.txt to the policy: for every
// registry crawler and every path the policy names, the verdict rep's own
// engine gives (rep.Agent.Decide, with the crawler's documented behaviour)
// must be the policy's intent. Check lints a policy: unknown agents and
// categories, crawlers named by several groups, Crawl-delay for crawlers
// that ignore it, malformed usage preferences.
//
// docs/policy.md documents every key of the file.
package policy
