package crawlers_test

import (
	"fmt"

	"github.com/rep-toolkit/rep/crawlers"
)

func ExampleMatch() {
	for _, ua := range []string{
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot",
		"Mozilla/5.0 (compatible; Google-Extended/1.0)",
		"Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/140.0",
	} {
		c, ok := crawlers.Match(ua)
		switch {
		case !ok:
			fmt.Println("not a known crawler")
		case c.TokenOnly():
			fmt.Printf("%s (%s): robots.txt token only, so this request is forged\n", c.Name, c.Operator)
		case c.Source == crawlers.SourceDataSet:
			fmt.Printf("%s (%s, from %s)\n", c.Name, c.Purpose, c.Source)
		default:
			fmt.Printf("%s by %s, %s, robots.txt %s, verify by %s %v%v\n",
				c.Name, c.Operator, c.Purpose, c.RobotsTxt, c.Verify.Method, c.Verify.RDNS, c.Verify.Lists)
		}
	}
	// Output:
	// Googlebot by Google, search, robots.txt yes, verify by both [googlebot.com google.com][google-common]
	// GPTBot by OpenAI, ai-training, robots.txt yes, verify by ranges [][openai-gptbot]
	// Google-Extended (Google): robots.txt token only, so this request is forged
	// AhrefsBot (seo, from crawler-user-agents)
	// not a known crawler
}

func ExampleListByID() {
	l, _ := crawlers.ListByID("google-common")
	fmt.Println(l.URL)
	fmt.Println("replaces", l.Replaces[0])
	// Output:
	// https://developers.google.com/static/crawling/ipranges/common-crawlers.json
	// replaces https://developers.google.com/static/search/apis/ipranges/googlebot.json
}
