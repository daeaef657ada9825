package crawlers

import (
	"slices"
	"testing"

	"github.com/rep-toolkit/rep/engine"
)

// TestDocumented holds the registry to what each operator documents about
// how its crawler reads robots.txt. Each case quotes the sentence it checks
// and names the page (the entry's docs, or the page its note cites); for
// Google's token lists it quotes the tokens column, and "(paraphrase)"
// marks a statement taken from the operator's page as others report it.
func TestDocumented(t *testing.T) {
	for _, tc := range []struct {
		name        string
		chain       []string // RobotsAgents(): own tokens, then the fallback
		ignoresStar bool
		robotsTxt   Obeys
		crawlDelay  Obeys
		engine      engine.Engine
		retired     bool
		quote       string
	}{
		// developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers
		{"Googlebot", []string{"Googlebot"}, false, Yes, No, engine.Auto, false,
			"They always respect robots.txt rules for automatic crawls."},
		{"Googlebot-Image", []string{"Googlebot-Image", "Googlebot"}, false, Yes, No, engine.Auto, false,
			"User agent tokens: Googlebot-Image, Googlebot. Some crawlers have more than one user agent token; you need to match only one crawler token for a rule to apply."},
		{"Googlebot-Video", []string{"Googlebot-Video", "Googlebot"}, false, Yes, No, engine.Auto, false,
			"User agent tokens: Googlebot-Video, Googlebot."},
		{"Googlebot-News", []string{"Googlebot-News", "Googlebot"}, false, Yes, No, engine.Auto, false,
			"User agent tokens: Googlebot-News, Googlebot."},
		{"Google-InspectionTool", []string{"Google-InspectionTool", "Googlebot"}, false, Yes, No, engine.Auto, false,
			"User agent tokens: Google-InspectionTool, Googlebot."},
		{"Storebot-Google", []string{"Storebot-Google"}, false, Yes, No, engine.Auto, false,
			"User agent token: Storebot-Google."},
		{"GoogleOther", []string{"GoogleOther"}, false, Yes, No, engine.Auto, false,
			"User agent token: GoogleOther."},
		{"GoogleOther-Image", []string{"GoogleOther-Image", "GoogleOther"}, false, Yes, No, engine.Auto, false,
			"User agent tokens: GoogleOther-Image, GoogleOther."},
		{"GoogleOther-Video", []string{"GoogleOther-Video", "GoogleOther"}, false, Yes, No, engine.Auto, false,
			"User agent tokens: GoogleOther-Video, GoogleOther."},
		// developers.google.com/crawling/docs/crawlers-fetchers/google-special-case-crawlers
		{"AdsBot-Google", []string{"AdsBot-Google"}, true, Partial, No, engine.Auto, false,
			"The global user agent (*) is ignored."},
		{"AdsBot-Google-Mobile", []string{"AdsBot-Google-Mobile"}, true, Partial, No, engine.Auto, false,
			"The global user agent (*) is ignored."},
		{"Mediapartners-Google", []string{"Mediapartners-Google"}, true, Partial, No, engine.Auto, false,
			"The global user agent (*) is ignored."},
		{"APIs-Google", []string{"APIs-Google"}, true, Partial, No, engine.Auto, false,
			"The global user agent (*) is ignored."},
		// developers.google.com/crawling/docs/crawlers-fetchers/google-user-triggered-fetchers
		{"FeedFetcher-Google", []string{"FeedFetcher-Google"}, false, No, No, engine.Auto, false,
			"Because the fetch was requested by a user, these fetchers generally ignore robots.txt rules."},
		{"Google-Site-Verification", []string{"Google-Site-Verification"}, false, No, No, engine.Auto, false,
			"Because the fetch was requested by a user, these fetchers generally ignore robots.txt rules."},
		// blogs.bing.com/webmaster/June-2010/Bing-crawler-bingbot-on-the-horizon
		{"bingbot", []string{"bingbot", "msnbot"}, false, Yes, Yes, engine.Bing, false,
			"bingbot will still honor robots.txt directives written for msnbot ... if we detect separate sets of directives for bingbot and for any of the older versions of Microsoft search bots (such as msnbot) or a set of directives for all crawlers, the directives for bingbot will take precedence."},
		// blogs.bing.com/webmaster/September-2010/Bingbot-is-coming-to-town
		{"msnbot", []string{"msnbot"}, false, Yes, Yes, engine.Bing, true,
			"we published a blog post ... that announced our plans to retire our venerable web crawler, MSNBot ... Other MSNBot crawlers will be phased out shortly thereafter."},
		// help.yahoo.com/kb/search-for-desktop/SLN22600.html
		{"Slurp", []string{"Slurp"}, false, Yes, Yes, engine.Bing, false,
			"Slurp obeys the Robot Exclusion Standard. ... slowing the rate that Slurp crawls using a crawl-delay."},
		// yandex.com/support/webmaster/en/robot-workings/user-agent
		{"YandexBot", []string{"YandexBot", "Yandex"}, false, Yes, No, engine.Yandex, false,
			"User-agent: YandexBot # will be used only by the main indexing bot / User-agent: Yandex # will be used by all Yandex bots"},
		{"YandexImages", []string{"YandexImages", "Yandex"}, false, Yes, No, engine.Yandex, false,
			"If there are directives for a specific robot, directives User-agent: Yandex and User-agent: * aren't used."},
		// support.apple.com/en-us/119829
		{"Applebot", []string{"Applebot", "Googlebot"}, false, Yes, Unknown, engine.Auto, false,
			"If robots instructions don't mention Applebot but do mention Googlebot, the Apple robot will follow Googlebot instructions."},
		// developer.amazon.com/amazonbot
		{"Amazonbot", []string{"Amazonbot"}, false, Yes, No, engine.Auto, false,
			"Amazonbot does not currently support the crawl-delay directive"},
		// platform.openai.com/docs/bots
		{"ChatGPT-User", []string{"ChatGPT-User"}, false, No, Unknown, engine.Auto, false,
			"(paraphrase) user-initiated, so robots.txt rules may not apply"},
		// docs.perplexity.ai/guides/bots
		{"Perplexity-User", []string{"Perplexity-User"}, false, No, Unknown, engine.Auto, false,
			"(paraphrase) a user requested the fetch, so it generally ignores robots.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, ok := ByName(tc.name)
			if !ok {
				t.Fatalf("%s is not in the registry (%q)", tc.name, tc.quote)
			}
			if got := c.RobotsAgents(); !slices.Equal(got, tc.chain) {
				t.Errorf("chain %v, want %v: %q", got, tc.chain, tc.quote)
			}
			if c.IgnoresStar != tc.ignoresStar {
				t.Errorf("ignores_star %v, want %v: %q", c.IgnoresStar, tc.ignoresStar, tc.quote)
			}
			if c.RobotsTxt != tc.robotsTxt || c.CrawlDelay != tc.crawlDelay {
				t.Errorf("robots_txt %s, crawl_delay %s; want %s, %s: %q", c.RobotsTxt, c.CrawlDelay, tc.robotsTxt, tc.crawlDelay, tc.quote)
			}
			if c.Engine != tc.engine {
				t.Errorf("engine %v, want %v: %q", c.Engine, tc.engine, tc.quote)
			}
			if c.Retired != tc.retired {
				t.Errorf("retired %v, want %v: %q", c.Retired, tc.retired, tc.quote)
			}
		})
	}
}

// TestYandexGroup checks the group token every Yandex robot falls back to:
// "User-agent: Yandex # will be used by all Yandex bots" (Yandex, The
// User-agent directive).
func TestYandexGroup(t *testing.T) {
	i := slices.IndexFunc(Groups(), func(g *Group) bool { return g.Token == "Yandex" })
	if i < 0 || Groups()[i].Operator != "Yandex" {
		t.Fatalf("no Yandex group: %v", Groups())
	}
	if _, ok := ByName("Yandex"); ok {
		t.Errorf("Yandex is a group token, not a crawler: no robot sends it as its User-Agent")
	}
	for _, c := range All() {
		if c.Operator == "Yandex" && !slices.Contains(c.RobotsFallback, "Yandex") {
			t.Errorf("%s does not fall back to the Yandex group", c.Name)
		}
	}
}
