// Package crawlers is the registry of known web crawlers: who operates each
// one, what it crawls for, whether it is documented to obey robots.txt and
// Crawl-delay, and how a request claiming to be it can be verified (reverse
// DNS suffixes, published IP-range lists, an AS number, or nothing).
//
// The registry is a readable JSON file embedded in the binary
// (data/registry.json). It covers the operators that document how to verify
// their crawlers (Google's three list families,
// Bing, Yandex, Baidu, Apple, DuckDuckGo, OpenAI, Anthropic, Common Crawl,
// Perplexity, Meta, Amazon, Mistral AI, ByteDance, Cohere, and Yahoo's Slurp) and the robots.txt
// control tokens Google-Extended and Applebot-Extended, which never crawl: a
// request carrying one of them is always forged.
//
// Each entry also says how the crawler reads robots.txt, as its operator
// documents it: whose rules it follows ([Crawler.Engine]), the tokens whose
// group it obeys when no group names it ([Crawler.RobotsFallback]:
// Googlebot-Image → Googlebot, bingbot → msnbot, Applebot → Googlebot,
// YandexBot → the Yandex group of [Groups]), whether it ignores the "*"
// group ([Crawler.IgnoresStar]: Google's AdsBot, Mediapartners-Google,
// APIs-Google), and whether it is retired ([Crawler.Retired]: msnbot). The
// registry is checked when it loads: a fallback naming nothing known, a
// fallback cycle, or an entry that ignores "*" yet is said to ignore
// robots.txt stops the program at start-up rather than giving wrong answers.
//
// User-Agents not in the registry are classified with the MIT-licensed
// crawler-user-agents data set (https://github.com/monperrus/crawler-user-agents,
// vendored in data/ with its licence; refresh it with go generate). Those
// crawlers have no operator or verification data.
//
// [Match] classifies a User-Agent header. Matching is by product token, as
// RFC 9309 section 2.2.1 asks crawlers to identify themselves: a token
// matches case-insensitively where it is not preceded or followed by a letter
// or digit, and the longest matching token wins, so "AdsBot-Google-Mobile"
// beats "AdsBot-Google" and "Applebot-Extended" beats "Applebot". The data
// set's regular expressions run only after a literal prefilter selects them,
// never as one alternation. Results are cached per distinct User-Agent string
// in a bounded, lock-free-read cache, so classifying every line of a large
// access log costs one map lookup per line.
//
// Every value returned by this package is shared and must not be modified.
package crawlers

//go:generate go run ./internal/cuagen -dir data
