package audit_test

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rep-toolkit/rep/accesslog"
	"github.com/rep-toolkit/rep/audit"
	"github.com/rep-toolkit/rep/robotstxt"
)

func Example() {
	// The site closed /drafts/ at noon on 2 March.
	change := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	h, _ := audit.NewHistory(
		audit.Version{Source: "old", File: robotstxt.Parse([]byte("User-agent: *\nDisallow: /private/\n"))},
		audit.Version{Since: change, Source: "new", File: robotstxt.Parse([]byte("User-agent: *\nDisallow: /private/\nDisallow: /drafts/\n"))},
	)
	const bing = `"-" "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"`
	log := strings.Join([]string{
		`157.55.39.1 - - [02/Mar/2026:13:00:00 +0000] "GET /drafts/a HTTP/1.1" 200 10 ` + bing, // within 24 h: grace
		`157.55.39.1 - - [03/Mar/2026:13:00:00 +0000] "GET /drafts/b HTTP/1.1" 200 10 ` + bing, // disallowed
		`157.55.39.1 - - [03/Mar/2026:13:00:09 +0000] "GET /ok HTTP/1.1" 200 10 ` + bing,
	}, "\n")
	r, _ := accesslog.NewReader(strings.NewReader(log), "access.log", nil, accesslog.Options{})
	a := audit.New(audit.Options{Robots: h}, false)
	ctx := context.Background()
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		row := a.Add(ctx, rec)
		fmt.Printf("%s %v %q\n", rec.Path(), row.Robots, row.Rule.String())
	}
	a.Finish(ctx, r.Stats(), "access.log")
	c := a.Report().Crawler("bingbot")
	fmt.Println(c.Requests, "requests,", c.DisallowedRequests, "disallowed,", c.GraceRequests, "in grace")
	// Output:
	// /drafts/a grace "Disallow: /drafts/"
	// /drafts/b disallow "Disallow: /drafts/"
	// /ok allow ""
	// 3 requests, 1 disallowed, 1 in grace
}

func ExampleMerge() {
	mk := func(lines ...string) *audit.Report {
		r, _ := accesslog.NewReader(strings.NewReader(strings.Join(lines, "\n")), "part", nil, accesslog.Options{})
		a := audit.New(audit.Options{}, false)
		for {
			rec, err := r.Next()
			if err != nil {
				break
			}
			a.Add(context.Background(), rec)
		}
		a.Finish(context.Background(), r.Stats(), "part")
		return a.Report()
	}
	const g = `"-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`
	p1 := mk(`66.249.66.1 - - [01/Mar/2026:00:00:00 +0000] "GET / HTTP/1.1" 200 5 ` + g)
	p2 := mk(`66.249.66.1 - - [02/Mar/2026:00:00:00 +0000] "GET /a HTTP/1.1" 404 5 `+g, "junk")
	m, _ := audit.Merge(0, p2, p1)
	c := m.Crawler("Googlebot")
	fmt.Println(m.Lines, m.BadLines, c.Requests, c.Status, c.Days)
	// Output:
	// 3 1 2 map[200:1 404:1] map[2026-03-01:1 2026-03-02:1]
}
