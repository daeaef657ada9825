package robotstxt_test

import (
	"fmt"
	"os"

	"github.com/rep-toolkit/rep/robotstxt"
)

// Lint a robots.txt and print its findings like a compiler does.
func ExampleLint() {
	body := []byte(`User-agent: *
Disallow: /private/
Disallow: /tmp/

User-agent: Googlebot
Disallow: /search
Dissalow /drafts/
`)
	r := robotstxt.Lint(body, robotstxt.LintOptions{})
	r.WriteText(os.Stdout, "robots.txt", robotstxt.Warning)
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
func ExampleLintReport_Diagnostics() {
	r := robotstxt.Lint([]byte("User-agent: *\nDisallow: /\n"), robotstxt.LintOptions{})
	for _, d := range r.Diagnostics {
		fmt.Println(d.Severity, d.Code, d.Line)
	}
	fmt.Println("errors:", r.Count(robotstxt.Error))
	// Output:
	// error disallow-all 2
	// errors: 1
}

// The documentation of a code, as `rep lint -explain` prints it.
func ExampleExplainLint() {
	c, _ := robotstxt.ExplainLint("shadowed-rule")
	fmt.Println(c.Code, c.Severity, "-", c.Title)
	// Output:
	// shadowed-rule warning - a rule that can never decide
}
