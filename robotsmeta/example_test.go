package robotsmeta_test

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/rep-toolkit/rep/robotsmeta"
)

// A crawler evaluates one response for itself: headers and body in,
// policy, links and snippet regions out.
func Example() {
	header := http.Header{"X-Robots-Tag": {"googlebot: unavailable_after: 25 Jun 2030 15:00:00 PST", "otherbot: noindex"}}
	body := strings.NewReader(`<!DOCTYPE html><html><head>
<meta name="robots" content="max-snippet:50, nofollow">
</head><body>
<p>Public text. <span data-nosnippet>Subscriber text.</span></p>
<a href="/next">next</a> <a href="https://ads.example/" rel="sponsored">ad</a>
</body></html>`)
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	pol, err := robotsmeta.Evaluate(header, body, "googlebot", robotsmeta.Google, now, robotsmeta.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println("index:", pol.Index, "follow:", pol.Follow, "max-snippet:", pol.MaxSnippet.N)
	fmt.Println("unavailable after:", pol.UnavailableAfter.Format(time.RFC3339))
	if r, ok := pol.Why(robotsmeta.FieldFollow); ok {
		fmt.Println("follow decided by", r.Rule, "from", r.Source)
	}
	for _, l := range pol.Page().Links {
		fmt.Println("link", l.Href, "followed:", pol.Followed(l))
	}
	for _, r := range pol.Page().NoSnippet {
		fmt.Printf("not for snippets: %q\n", r.Text)
	}
	// Output:
	// index: true follow: false max-snippet: 50
	// unavailable after: 2030-06-25T23:00:00Z
	// follow decided by nofollow from <meta name="robots"> at 2:1
	// link /next followed: false
	// link https://ads.example/ followed: false
	// not for snippets: "Subscriber text."
}

// Parse once, then ask for several crawlers and engines: the same markup
// means different things to each.
func ExamplePage_Policy() {
	page, _ := robotsmeta.ParseLines(
		[]string{"X-Robots-Tag: googlebot: nofollow"},
		strings.NewReader(`<meta name="robots" content="all, noindex"><meta name="msnbot" content="noarchive">`),
		robotsmeta.Options{})
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	for _, q := range []struct {
		agent string
		prof  robotsmeta.Profile
	}{{"googlebot", robotsmeta.Google}, {"bingbot", robotsmeta.Bing}, {"yandex", robotsmeta.Yandex}} {
		pol := page.Policy(q.agent, q.prof, now)
		fmt.Printf("%-9s %-6s index=%v follow=%v archive=%v\n", q.agent, q.prof, pol.Index, pol.Follow, pol.Archive)
	}
	// Output:
	// googlebot google index=false follow=false archive=true
	// bingbot   bing   index=false follow=true archive=false
	// yandex    yandex index=true follow=true archive=true
}

// A crawler that only needs to know whether to keep the page and queue its
// links stops reading as soon as the answer is final.
func ExampleOptions_earlyStop() {
	body := strings.NewReader(`<head><meta name="robots" content="none"></head><body>` + strings.Repeat("<p>long page</p>", 10000))
	page, _ := robotsmeta.ParseLines(nil, body, robotsmeta.Options{Need: robotsmeta.NeedIndexing, Agent: "googlebot"})
	fmt.Println(page.Stop, page.BytesRead < 5000)
	// Output:
	// settled true
}
