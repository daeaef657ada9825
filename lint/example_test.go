package lint_test

import (
	"fmt"
	"os"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/lint"
	"github.com/rep-toolkit/rep/robotsfetch"
)

// Run lints a robots.txt; print its findings like a compiler does.
func ExampleRun() {
	body := []byte(`User-agent: *
Disallow: /private/
Disallow: /tmp/

User-agent: Googlebot
Disallow: /search
Dissalow /drafts/
`)
	r := lint.Run(body, lint.Options{})
	r.WriteText(os.Stdout, "robots.txt", lint.Warning)
	// Output:
	// robots.txt:5:13: warning: [star-overridden] crawler 'Googlebot' obeys only the group on line 5 and ignores the * group, so it is no longer blocked by 'Disallow: /private/' (line 2), 'Disallow: /tmp/' (line 3)
	//     hint: repeat in this group the * rules that should apply to it too
	// robots.txt:7:1: warning: [misspelled-key] 'Dissalow' is read as Disallow by Google; other parsers may ignore it
	//     hint: spell it 'Disallow'
	// robots.txt:7:9: warning: [missing-colon] missing ':' after Dissalow; Google accepts it, other parsers may not
	//     hint: write 'Disallow: /drafts/'
	// robots.txt: 0 errors, 3 warnings, 1 info (1 below warning not shown)
}

// Walk the findings yourself, e.g. to fail a deploy on errors only.
func ExampleReport_Findings() {
	r := lint.Run([]byte("User-agent: *\nDisallow: /\n"), lint.Options{})
	for _, d := range r.Findings {
		fmt.Println(d.Severity, d.Code, d.Line)
	}
	fmt.Println("errors:", r.Count(lint.Error))
	// Output:
	// error disallow-all 2
	// errors: 1
}

// The documentation of a code, as `rep lint -explain` prints it.
func ExampleExplain() {
	c, _ := lint.Explain("shadowed-rule")
	fmt.Println(c.Code, c.Severity, "-", c.Title)
	// Output:
	// shadowed-rule warning - a rule that can never decide
}

// Check a file against Bing's reading, with the per-crawler view of
// bingbot: Bing honours Crawl-delay, and applies the * group's to bingbot.
func ExampleOptions_engine() {
	body := []byte("User-agent: *\nDisallow: /tmp/\nCrawl-delay: 5\nRequest-rate: 1/10s\n\nUser-agent: bingbot\nDisallow: /search\n")
	bingbot, _ := rep.NewAgent("bingbot", rep.AgentOptions{Engine: engine.Bing})
	r := lint.Run(body, lint.Options{Engine: engine.Bing, Agents: []*rep.Agent{bingbot}})
	for _, f := range r.Findings {
		fmt.Println(f)
	}
	a := r.Agents[0]
	fmt.Println(a.Name, "crawl-delay line", a.CrawlDelay, "inherited", a.CrawlDelayInherited)
	// Output:
	// 4:1: info: [ignored-directive] Bing ignores Request-rate (it honours Crawl-delay)
	// 6:13: info: [bing-crawl-delay] Bing applies the * group's Crawl-delay (line 3) to bingbot although it has its own group; other crawlers with their own group ignore it
	// 6:13: warning: [star-overridden] crawler 'bingbot' obeys only the group on line 6 and ignores the * group, so it is no longer blocked by 'Disallow: /tmp/' (line 2)
	// bingbot crawl-delay line 3 inherited true
}

// Lint a fetched file: the fetch outcome's findings (line 0) come first.
// When the status means crawlers do not read the body, only the fetch is
// reported.
func ExampleOptions_fetch() {
	o := &robotsfetch.Outcome{URL: "https://example.com/robots.txt", Status: 503}
	r := lint.Run([]byte("<html>Service Unavailable</html>"), lint.Options{Fetch: o})
	for _, f := range r.Findings {
		fmt.Println(f.Severity, f.Code)
	}
	// Output:
	// error fetch-status
}
