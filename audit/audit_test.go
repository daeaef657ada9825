package audit

import (
	"bytes"
	"context"
	"flag"
	"io"
	"strconv"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/accesslog"
	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/crawlers/identity"
	"github.com/rep-toolkit/rep/internal/testkit/loggen"
	"github.com/rep-toolkit/rep/robotstxt"
)

var update = flag.Bool("update", false, "rewrite golden files and docs/audit-report.png")

// history builds the robots.txt history a generated log was written under.
func history(t testing.TB, tr *loggen.Truth) *History {
	t.Helper()
	var vs []Version
	for i, v := range tr.Robots {
		vs = append(vs, Version{Since: v.Since, Source: "robots-" + strconv.Itoa(i+1) + ".txt", File: robotstxt.Parse([]byte(v.Body))})
	}
	h, err := NewHistory(vs...)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// generate writes a log and returns it with its truth.
func generate(t testing.TB, cfg loggen.Config) ([]byte, *loggen.Truth) {
	t.Helper()
	var buf bytes.Buffer
	tr, err := loggen.Generate(&buf, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), tr
}

func formatOf(f string) *accesslog.Format {
	if f == "nginx" {
		return accesslog.MustFormat("nginx:" + loggen.NginxFormat)
	}
	return nil
}

// auditBytes audits one in-memory log.
func auditBytes(t testing.TB, data []byte, format *accesslog.Format, opt Options) *Report {
	t.Helper()
	r, err := accesslog.NewReader(bytes.NewReader(data), "log", format, accesslog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := New(opt, false)
	ctx := context.Background()
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		a.Add(ctx, rec)
	}
	a.Finish(ctx, r.Stats(), "log")
	return a.Report()
}

// expectIdentity says how an offline (lists only) verifier judges the
// generator's genuine and forged requests for a crawler, from the
// registry's verification method.
func expectIdentity(t *testing.T, name string, e *loggen.Expect) (verified, spoofed, unverifiable int64) {
	c, ok := crawlers.ByName(name)
	if !ok {
		t.Fatalf("%s not in the registry", name)
	}
	switch {
	case c.Verify.Method == crawlers.MethodTokenOnly:
		return 0, e.Requests, 0
	case len(c.Verify.Lists) > 0:
		return e.Genuine, e.Forged, 0
	}
	return 0, 0, e.Requests
}

// TestExactCounts audits generated logs in every format and compares each
// crawler's counts with the generator's truth, which comes from its own
// table of disallowed path categories, not from package robotstxt. The
// robots.txt changes halfway through each log.
func TestExactCounts(t *testing.T) {
	for _, f := range loggen.Formats {
		if f == "common" {
			continue // no User-Agent: see TestCommonFormat
		}
		t.Run(f, func(t *testing.T) {
			data, tr := generate(t, loggen.Config{Seed: 42, Requests: 20000, Format: f})
			rep := auditBytes(t, data, formatOf(f), Options{Robots: history(t, tr), Verifier: &identity.Verifier{}})
			if rep.Lines != tr.Lines || rep.BadLines != tr.BadLines || rep.Requests != tr.Requests || rep.Other != tr.Humans {
				t.Errorf("lines %d bad %d requests %d other %d; want %d %d %d %d", rep.Lines, rep.BadLines, rep.Requests, rep.Other, tr.Lines, tr.BadLines, tr.Requests, tr.Humans)
			}
			if len(rep.Crawlers) != len(tr.Crawlers) {
				var names []string
				for _, c := range rep.Crawlers {
					names = append(names, c.Name)
				}
				t.Errorf("crawlers %v, want %v", names, tr.SortedCrawlers())
			}
			for _, name := range tr.SortedCrawlers() {
				e := tr.Crawlers[name]
				c := rep.Crawler(name)
				if c == nil {
					t.Errorf("%s: missing", name)
					continue
				}
				v, s, u := expectIdentity(t, name, e)
				tooFast := int64(0)
				if c.CrawlDelay != nil {
					tooFast = c.CrawlDelay.TooFast
				}
				got := [...]int64{c.Requests, c.Verified, c.Spoofed, c.Unverifiable, c.DisallowedRequests, c.GraceRequests, c.RobotsFetches, c.Bytes, tooFast}
				want := [...]int64{e.Requests, v, s, u, e.Disallowed, e.Grace, e.RobotsFetches, e.Bytes, e.TooFast}
				if got != want {
					t.Errorf("%s: requests, verified, spoofed, unverifiable, disallowed, grace, robots fetches, bytes, too fast =\n%v, want\n%v", name, got, want)
				}
				for code, n := range e.Status {
					if c.Status[strconv.Itoa(code)] != n {
						t.Errorf("%s: status %d: %d, want %d", name, code, c.Status[strconv.Itoa(code)], n)
					}
				}
				for day, n := range e.Days {
					if c.Days[day] != n {
						t.Errorf("%s: day %s: %d, want %d", name, day, c.Days[day], n)
					}
				}
			}
		})
	}
}

// TestCommonFormat: without a User-Agent no request can be attributed, and
// the report says so instead of guessing.
func TestCommonFormat(t *testing.T) {
	data, tr := generate(t, loggen.Config{Seed: 1, Requests: 2000, Format: "common"})
	rep := auditBytes(t, data, nil, Options{Robots: history(t, tr)})
	if rep.NoUserAgent != tr.Requests || len(rep.Crawlers) != 0 {
		t.Errorf("no-UA %d of %d requests, %d crawlers", rep.NoUserAgent, tr.Requests, len(rep.Crawlers))
	}
}

// TestGraceWindow pins the 24-hour rule on hand-made requests around a
// change at noon on 2 March.
func TestGraceWindow(t *testing.T) {
	change := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	h, err := NewHistory(
		Version{Source: "v1", File: robotstxt.Parse([]byte("User-agent: *\nDisallow: /a/\n"))},
		Version{Since: change, Source: "v2", File: robotstxt.Parse([]byte("User-agent: *\nDisallow: /b/\n"))},
	)
	if err != nil {
		t.Fatal(err)
	}
	a := New(Options{Robots: h}, false)
	ua := []byte("Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)")
	for _, c := range []struct {
		at   time.Time
		path string
		want RobotsDecision
		line int
	}{
		{change.Add(-time.Hour), "/a/x", RobotsDisallowed, 2},
		{change.Add(-time.Hour), "/b/x", RobotsAllowed, 0},
		{change, "/b/x", RobotsGrace, 2},
		{change.Add(23 * time.Hour), "/b/x", RobotsGrace, 2},
		{change.Add(24*time.Hour + time.Second), "/b/x", RobotsDisallowed, 2},
		{change.Add(time.Hour), "/a/x", RobotsAllowed, 0},
		{change.Add(time.Hour), "/robots.txt", RobotsAllowed, 0},
	} {
		rec := accesslog.Record{Time: c.at.UnixNano(), Target: []byte(c.path), UserAgent: ua, HasUserAgent: true, IP: []byte("1.2.3.4"), Status: 200}
		row := a.Add(context.Background(), &rec)
		if row.Robots != c.want || row.Rule.Line != c.line {
			t.Errorf("%s at %s: %v line %d, want %v line %d", c.path, c.at.Format(time.RFC3339), row.Robots, row.Rule.Line, c.want, c.line)
		}
	}
}

func TestHistoryErrors(t *testing.T) {
	f := robotstxt.Parse(nil)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := NewHistory(Version{Since: at, Source: "a", File: f}, Version{Since: at, Source: "b", File: f}); err == nil {
		t.Error("two versions at the same time accepted")
	}
	if _, err := NewHistory(Version{Source: "a"}); err == nil {
		t.Error("version without a file accepted")
	}
}

func detect(t testing.TB, data []byte) *accesslog.Format {
	t.Helper()
	f, err := accesslog.Detect(data[:min(len(data), 64<<10)])
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func parseRobots(s string) *robotstxt.File { return robotstxt.Parse([]byte(s)) }

func reader(t testing.TB, data []byte) *accesslog.Reader {
	t.Helper()
	r, err := accesslog.NewReader(bytes.NewReader(data), "log", nil, accesslog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestAgentGroups pins the group each crawler obeys: Googlebot-Image falls
// back to a Googlebot group, AdsBot ignores "*", others use "*".
func TestAgentGroups(t *testing.T) {
	h, err := NewHistory(Version{Source: "r", File: parseRobots("User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /g/\n")})
	if err != nil {
		t.Fatal(err)
	}
	a := New(Options{Robots: h}, false)
	for _, c := range []struct {
		ua, path string
		want     RobotsDecision
	}{
		{"Googlebot-Image/1.0", "/g/x.jpg", RobotsDisallowed},
		{"Googlebot-Image/1.0", "/x.jpg", RobotsAllowed},
		{"AdsBot-Google (+http://www.google.com/adsbot.html)", "/landing", RobotsAllowed},
		{"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "/landing", RobotsDisallowed},
	} {
		rec := accesslog.Record{Time: 1, Target: []byte(c.path), UserAgent: []byte(c.ua), HasUserAgent: true, IP: []byte("1.2.3.4")}
		if row := a.Add(context.Background(), &rec); row.Robots != c.want {
			t.Errorf("%s %s: %v, want %v", c.ua, c.path, row.Robots, c.want)
		}
	}
}

// TestCrawlDelayGroups: the Google guide's example, msnbot and Slurp
// each with a group of only a Crawl-delay. Both crawlers follow Bing's
// rules, which take Crawl-delay as a group member: given the body, each
// is held to its own delay, although the file was parsed with Google's
// groups (one group, the first delay).
func TestCrawlDelayGroups(t *testing.T) {
	body := []byte("User-agent: msnbot\nCrawl-delay: 5\n\nUser-agent: slurp\nCrawl-delay: 12\n")
	for _, tc := range []struct {
		withBody    bool
		msnb, slurp time.Duration
	}{{true, 5 * time.Second, 12 * time.Second}, {false, 5 * time.Second, 5 * time.Second}} {
		v := Version{Source: "r", File: robotstxt.Parse(body)}
		if tc.withBody {
			v.Body = body
		}
		h, err := NewHistory(v)
		if err != nil {
			t.Fatal(err)
		}
		a := New(Options{Robots: h}, false)
		for _, w := range []struct {
			name string
			want time.Duration
		}{{"msnbot", tc.msnb}, {"Slurp", tc.slurp}} {
			c, ok := crawlers.ByName(w.name)
			if !ok {
				t.Fatalf("%s is not in the registry", w.name)
			}
			if got := time.Duration(a.state(c).crawlDelay(h, 0)); got != w.want {
				t.Errorf("body %v: %s: crawl-delay %v, want %v", tc.withBody, w.name, got, w.want)
			}
		}
	}
}
