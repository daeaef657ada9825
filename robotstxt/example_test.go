package robotstxt_test

import (
	"fmt"

	"github.com/rep-toolkit/rep/robotstxt"
)

func Example() {
	f := robotstxt.Parse([]byte(`User-agent: *
Disallow: /private
Allow: /private/press/

User-agent: Googlebot
Disallow: /search
`))
	// Resolve the crawler's group once, then check many URLs.
	a := f.Matcher("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")
	for _, u := range []string{"https://example.com/search?q=x", "https://example.com/private/"} {
		d := a.Check(u)
		fmt.Println(d.Allowed, d.Rule.Line, d.Rule, "|", d.Reason, "|", d.Group.Via)
	}
	// Output:
	// false 6 Disallow: /search | longest matching rule | groups naming the agent
	// true 0  | no rule matched | groups naming the agent
}

func ExampleFile_Matcher_fallback() {
	f := robotstxt.Parse([]byte("User-agent: Googlebot\nDisallow: /photos/\n"))
	// Googlebot-Image obeys Googlebot's group when it has none of its own.
	a := f.Matcher("Googlebot-Image", "Googlebot")
	d := a.Check("/photos/cat.jpg")
	fmt.Println(d.Allowed, d.Rule, "via", d.Group.Agent, "-", d.Group.Via)
	// Output: false Disallow: /photos/ via googlebot - groups naming a fallback agent
}

func ExampleParseWith_rfc9309() {
	body := []byte("User-agent: *\nDisallow: /path/file-with-a-%2A.html\n")
	for _, p := range []robotstxt.Profile{robotstxt.Google, robotstxt.RFC9309} {
		f := robotstxt.ParseWith(body, robotstxt.Options{Profile: p})
		fmt.Println(p, f.Check("bot", "https://example.com/path/file-with-a-*.html").Allowed)
	}
	// Output:
	// google true
	// rfc9309 false
}

func ExampleFile_Diagnostics() {
	f := robotstxt.Parse([]byte("Disallow: /tmp\nUser-agent: *\nDisalow /x\n"))
	for _, d := range f.Diagnostics() {
		fmt.Println(d)
	}
	// Output:
	// 1:1: warning: [rule-outside-group] rule before any user-agent line; crawlers ignore it (RFC 9309 §2.2.2)
	// 3:8: warning: [missing-colon] missing ':' after Disalow; Google accepts it, other parsers may not
	// 3:1: warning: [misspelled-key] 'Disalow' is read as Disallow by Google; other parsers may ignore it
}

func ExampleMatcher_CrawlDelay() {
	f := robotstxt.Parse([]byte("User-agent: bingbot\nCrawl-delay: 5\nDisallow: /x\n"))
	d, line, ok := f.Matcher("bingbot").CrawlDelay()
	fmt.Println(d, line, ok)
	// Output: 5s 2 true
}

// A crawler that needs only the verdict asks Allowed: the same rule decides
// as in Check, without the Decision around it.
func ExampleMatcher_Allowed() {
	f := robotstxt.Parse([]byte("User-agent: *\nDisallow: /private/\nAllow: /private/press/\n"))
	a := f.Matcher("ExampleBot")
	for _, u := range []string{"https://example.com/private/x", "https://example.com/private/press/1", "/public"} {
		fmt.Println(a.Allowed(u), u)
	}
	// Output:
	// false https://example.com/private/x
	// true https://example.com/private/press/1
	// true /public
}
