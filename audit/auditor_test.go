package audit

import (
	"context"
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/accesslog"
	"github.com/rep-toolkit/rep/crawlers/identity"
	"github.com/rep-toolkit/rep/internal/testkit/dnstest"
	"github.com/rep-toolkit/rep/robotsfetch"
)

const bingUA = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"

// day0 is the time of the hand-made requests below.
var day0 = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

// hit is one hand-made request: by default bingbot asking for / from
// 192.0.2.1 with status 200, at day0 plus at.
type hit struct {
	at           time.Duration
	ua, ip, path string
	host         string
	status       int
	bytes        int64
	noUA         bool
}

func (h hit) record() *accesslog.Record {
	r := &accesslog.Record{Time: day0.Add(h.at).UnixNano(), UserAgent: []byte(h.ua), HasUserAgent: !h.noUA,
		IP: []byte(h.ip), Target: []byte(h.path), Host: []byte(h.host), Status: h.status, Bytes: h.bytes}
	if h.ua == "" && !h.noUA {
		r.UserAgent = []byte(bingUA)
	}
	if h.ip == "" {
		r.IP = []byte("192.0.2.1")
	}
	if h.path == "" {
		r.Target = []byte("/")
	}
	if h.status == 0 {
		r.Status = 200
	}
	return r
}

// auditHits adds hits to a new Auditor and returns its report and rows.
func auditHits(t *testing.T, opt Options, inline bool, hits ...hit) (*Report, []Row) {
	t.Helper()
	a := New(opt, inline)
	var rows []Row
	for _, h := range hits {
		rows = append(rows, a.Add(context.Background(), h.record()))
	}
	a.Finish(context.Background(), accesslog.Stats{Lines: int64(len(hits))}, "log")
	return a.Report(), rows
}

// TestVerifyModeDefault: the report names the verification as given, else
// "lists" with a Verifier and "off" without one.
func TestVerifyModeDefault(t *testing.T) {
	for _, c := range []struct {
		opt  Options
		want string
	}{
		{Options{}, "off"},
		{Options{Verifier: &identity.Verifier{}}, "lists"},
		{Options{Verifier: &identity.Verifier{}, VerifyMode: "dns+lists"}, "dns+lists"},
	} {
		if got := New(c.opt, false).Report().Verify; got != c.want {
			t.Errorf("%+v: verify %q, want %q", c.opt, got, c.want)
		}
	}
}

// TestTopKBound: a crawler's path list holds at most TopK paths (default
// 1000); past that, counts are Space-Saving estimates.
func TestTopKBound(t *testing.T) {
	many := func(n int) []hit {
		var hs []hit
		for i := range n {
			hs = append(hs, hit{at: time.Duration(i) * time.Second, path: fmt.Sprintf("/p%04d", i)})
		}
		return hs
	}
	for _, c := range []struct {
		name      string
		topK      int
		hits      []hit
		paths     int
		estimated int
	}{
		{"TopK 1, one path", 1, []hit{{path: "/a"}, {path: "/a"}}, 1, 0},
		{"TopK 1, two paths", 1, []hit{{path: "/a"}, {path: "/a"}, {path: "/b"}}, 1, 1},
		{"TopK 2, two paths", 2, []hit{{path: "/a"}, {path: "/a"}, {path: "/b"}}, 2, 0},
		{"default, 999 paths", 0, many(999), 999, 0},
		{"default, 1000 paths", 0, many(1000), 1000, 0},
		{"default, 1001 paths", 0, many(1001), 1000, 1},
	} {
		rep, _ := auditHits(t, Options{TopK: c.topK}, false, c.hits...)
		cr := rep.Crawler("bingbot")
		if cr == nil {
			t.Fatalf("%s: no bingbot", c.name)
		}
		est := 0
		for _, p := range cr.TopPaths {
			if p.Estimated {
				est++
			}
		}
		if len(cr.TopPaths) != c.paths || est != c.estimated {
			t.Errorf("%s: %d paths, %d estimated; want %d, %d", c.name, len(cr.TopPaths), est, c.paths, c.estimated)
		}
	}
	// The one slot of TopK 1 ends with the last new path, counting the
	// evicted one's requests as its error bound.
	rep, _ := auditHits(t, Options{TopK: 1}, false, hit{path: "/a"}, hit{path: "/a"}, hit{path: "/b"})
	if got := rep.Crawler("bingbot").TopPaths; len(got) != 1 || got[0] != (PathCount{Path: "/b", Count: 3, Error: 2, Estimated: true}) {
		t.Errorf("TopK 1: %+v", got)
	}
}

// TestStatusCodes: status codes 1 to 999 are counted by code, 0 (not
// logged) as "-"; anything outside is not a status and is not counted.
func TestStatusCodes(t *testing.T) {
	a := New(Options{}, false)
	for _, c := range []struct {
		path   string
		status int
	}{
		{"/", -1}, {"/", 0}, {"/", 1}, {"/", 99}, {"/", 100}, {"/", 404}, {"/", 999}, {"/", 1000},
		{"/robots.txt", 404}, {"/robots.txt", 200}, {"/robots.txt", 0},
	} {
		rec := hit{path: c.path}.record()
		rec.Status = c.status
		a.Add(context.Background(), rec)
	}
	c := a.Report().Crawler("bingbot")
	want := map[string]int64{"-": 2, "001": 1, "099": 1, "100": 1, "200": 1, "404": 2, "999": 1}
	if fmt.Sprint(c.Status) != fmt.Sprint(want) {
		t.Errorf("status %v, want %v", c.Status, want)
	}
	if want := map[string]int64{"-": 1, "200": 1, "404": 1}; fmt.Sprint(c.RobotsStatus) != fmt.Sprint(want) {
		t.Errorf("robots.txt status %v, want %v", c.RobotsStatus, want)
	}
	if c.Requests != 11 || c.RobotsFetches != 3 {
		t.Errorf("requests %d, robots.txt fetches %d; want 11, 3", c.Requests, c.RobotsFetches)
	}
}

// TestFetchDecided: a version whose fetch decided without a file (a 404:
// allow all; unreachable: disallow all) judges every path so, for every
// crawler, and sets no Crawl-delay.
func TestFetchDecided(t *testing.T) {
	change := day0.Add(12 * time.Hour)
	h, err := NewHistory(
		Version{Source: "404", Fetch: &robotsfetch.Outcome{Status: 404, Verdict: robotsfetch.AllowAll}},
		Version{Since: change, Source: "503", Fetch: &robotsfetch.Outcome{Status: 503, Verdict: robotsfetch.DisallowAll}},
	)
	if err != nil {
		t.Fatal(err)
	}
	const yandex = "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"
	// bingbot honours Crawl-delay, so its gaps are measured (against no
	// delay); YandexBot's are not.
	cases := []struct {
		hit    hit
		robots RobotsDecision
		gap    time.Duration
	}{
		{hit{path: "/a"}, RobotsAllowed, -1},
		{hit{at: time.Hour, path: "/b"}, RobotsAllowed, time.Hour},
		{hit{at: 2 * time.Hour, ua: yandex, path: "/a"}, RobotsAllowed, -1},
		{hit{at: 12 * time.Hour, path: "/a"}, RobotsGrace, 11 * time.Hour},
		{hit{at: 36*time.Hour + time.Second, path: "/a"}, RobotsDisallowed, 24*time.Hour + time.Second},
		{hit{at: 37 * time.Hour, ua: yandex, path: "/a"}, RobotsDisallowed, -1},
	}
	var hits []hit
	for _, c := range cases {
		hits = append(hits, c.hit)
	}
	for _, inline := range []bool{false, true} {
		rep, rows := auditHits(t, Options{Robots: h}, inline, hits...)
		for i, row := range rows {
			if c := cases[i]; row.Robots != c.robots || row.Delay != 0 || row.Gap != c.gap {
				t.Errorf("inline %v: request %d: %v, delay %v, gap %v; want %v, no delay, gap %v", inline, i+1, row.Robots, row.Delay, row.Gap, c.robots, c.gap)
			}
		}
		if c := rep.Crawler("bingbot"); c == nil || c.DisallowedRequests != 1 || c.GraceRequests != 1 || c.CrawlDelay != nil {
			t.Errorf("inline %v: bingbot %+v", inline, c)
		}
	}
}

// TestRowUnknown: a request Add cannot judge (for another host, without a
// User-Agent, from no known crawler, or with no robots.txt in force) gets
// the row of no version and no gap, and is counted where it belongs.
func TestRowUnknown(t *testing.T) {
	h, err := NewHistory(Version{Since: day0.Add(time.Hour), Source: "r", File: parseRobots("User-agent: *\nDisallow: /\n")})
	if err != nil {
		t.Fatal(err)
	}
	const human = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
	hits := []hit{
		{host: "other.example"},
		{host: "WWW.Example.COM", ua: human},
		{noUA: true},
		{ua: human},
		{at: time.Hour - time.Nanosecond}, // before the first version
	}
	rep, rows := auditHits(t, Options{Robots: h, Site: "www.example.com"}, false, hits...)
	for i, row := range rows {
		if row.Version != -1 || row.Gap != -1 || row.Robots != RobotsUnknown {
			t.Errorf("request %d: version %d, gap %v, robots %v; want -1, -1, unknown", i+1, row.Version, row.Gap, row.Robots)
		}
	}
	// Without a history, a crawler's requests have no version either.
	_, rows = auditHits(t, Options{}, false, hit{}, hit{ua: "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"})
	for i, row := range rows {
		if row.Crawler == nil || row.Version != -1 || row.Robots != RobotsUnknown {
			t.Errorf("no history, request %d: crawler %v, version %d, robots %v; want a crawler, -1, unknown", i+1, row.Crawler, row.Version, row.Robots)
		}
	}
	if rep.Requests != 5 || rep.OtherHost != 1 || rep.NoUserAgent != 1 || rep.Other != 2 || len(rep.Crawlers) != 1 {
		t.Errorf("requests %d, other host %d, no user agent %d, other %d, crawlers %d; want 5, 1, 1, 2, 1",
			rep.Requests, rep.OtherHost, rep.NoUserAgent, rep.Other, len(rep.Crawlers))
	}
}

// TestMaxIPs: MaxIPs bounds the addresses held for verification (deferred)
// or whose verdict is cached (inline); past it, each request is verified
// as it comes. A resolver that never answers makes every verification
// count in VerifyErrors, so the count shows how often each address was
// asked about: three addresses, two requests each.
func TestMaxIPs(t *testing.T) {
	const yandex = "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"
	var hits []hit
	for i, ip := range []string{"5.255.253.1", "5.255.253.2", "5.255.253.3", "5.255.253.1", "5.255.253.2", "5.255.253.3"} {
		hits = append(hits, hit{at: time.Duration(i) * time.Second, ua: yandex, ip: ip})
	}
	// rows counts the rows that carry a verdict: a request verified as it
	// comes (inline, or past the bound) has one in its row, a deferred one
	// not.
	for _, c := range []struct {
		maxIPs int
		inline bool
		errors int64
		rows   int
	}{
		{0, false, 3, 0}, // the default bound holds all three
		{1, false, 5, 4}, // one held, two asked about per request
		{2, false, 4, 2},
		{3, false, 3, 0},
		{0, true, 3, 6},
		{1, true, 5, 6},
		{2, true, 4, 6},
		{3, true, 3, 6},
	} {
		dead := &deadResolver{}
		opt := Options{Verifier: &identity.Verifier{Resolver: dead}, VerifyMode: "dns+lists", MaxIPs: c.maxIPs}
		rep, rows := auditHits(t, opt, c.inline, hits...)
		withVerdict := 0
		for _, r := range rows {
			if r.Identity != "" {
				withVerdict++
			}
		}
		if y := rep.Crawler("YandexBot"); rep.VerifyErrors != c.errors || withVerdict != c.rows || y == nil || y.Unverifiable != 6 {
			t.Errorf("MaxIPs %d, inline %v: %d verify errors, %d rows with a verdict, YandexBot %+v; want %d errors, %d rows, 6 unverifiable",
				c.maxIPs, c.inline, rep.VerifyErrors, withVerdict, y, c.errors, c.rows)
		}
	}
}

// TestFirstLast: the report spans the earliest to the latest request,
// whatever the order of the lines, and a crawler's first request and first
// robots.txt fetch are its earliest.
func TestFirstLast(t *testing.T) {
	const human = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
	s := time.Second
	epoch := -time.Duration(day0.UnixNano())
	for _, c := range []struct {
		name        string
		hits        []hit
		first, last time.Duration
		// bingbot's first request and first robots.txt fetch
		crawler, robots time.Duration
	}{
		{"in order", []hit{{at: 5 * s, path: "/robots.txt"}, {at: 10 * s}, {at: 20 * s}}, 5 * s, 20 * s, 5 * s, 5 * s},
		{"out of order", []hit{{at: 10 * s}, {at: 5 * s, ua: human}, {at: 20 * s, path: "/robots.txt"}, {at: 15 * s, path: "/robots.txt"}, {at: 8 * s}}, 5 * s, 20 * s, 8 * s, 15 * s},
		{"one request", []hit{{at: 7 * s, path: "/robots.txt"}}, 7 * s, 7 * s, 7 * s, 7 * s},
		// A log without times gives every request the time 0 (the Unix
		// epoch); a time that is as early as any.
		{"at the epoch", []hit{{at: epoch, path: "/robots.txt"}, {at: 7 * s, path: "/robots.txt"}}, epoch, 7 * s, epoch, epoch},
	} {
		rep, _ := auditHits(t, Options{}, false, c.hits...)
		b := rep.Crawler("bingbot")
		if !rep.First.Equal(day0.Add(c.first)) || !rep.Last.Equal(day0.Add(c.last)) ||
			!b.FirstRequest.Equal(day0.Add(c.crawler)) || !b.FirstRobotsFetch.Equal(day0.Add(c.robots)) {
			t.Errorf("%s: first %v, last %v, bingbot's first request %v, first robots.txt %v; want %v, %v, %v, %v", c.name,
				rep.First, rep.Last, b.FirstRequest, b.FirstRobotsFetch, day0.Add(c.first), day0.Add(c.last), day0.Add(c.crawler), day0.Add(c.robots))
		}
	}
}

// TestNoRequests: a log without requests has no first and last time.
func TestNoRequests(t *testing.T) {
	rep, _ := auditHits(t, Options{}, false)
	if !rep.First.IsZero() || !rep.Last.IsZero() || rep.Requests != 0 {
		t.Errorf("first %v, last %v, %d requests; want none", rep.First, rep.Last, rep.Requests)
	}
}

// TestSiteHost: with Site, requests logged for other hosts are not
// analysed, the host compared without regard to case, down to a
// one-letter host name.
func TestSiteHost(t *testing.T) {
	for _, c := range []struct {
		site  string
		hosts []string
		other int64
	}{
		{"h", []string{"h", "H", "hh", "", "g"}, 2},
		{"www.example.com", []string{"www.example.com", "WWW.EXAMPLE.COM", "example.com", ""}, 1},
		{"", []string{"a", "b", ""}, 0},
	} {
		var hits []hit
		for _, h := range c.hosts {
			hits = append(hits, hit{host: h})
		}
		rep, _ := auditHits(t, Options{Site: c.site}, false, hits...)
		b := rep.Crawler("bingbot")
		if rep.OtherHost != c.other || b == nil || b.Requests != int64(len(c.hosts))-c.other {
			t.Errorf("site %q: other host %d, bingbot %+v; want %d other", c.site, rep.OtherHost, b, c.other)
		}
	}
}

// TestBytes: a crawler's bytes add the logged sizes; a size not logged
// (-1) adds nothing.
func TestBytes(t *testing.T) {
	for _, c := range []struct {
		sizes []int64
		want  int64
	}{
		{[]int64{-1}, 0},
		{[]int64{0}, 0},
		{[]int64{1}, 1},
		{[]int64{-1, 1, 2, 0}, 3},
	} {
		var hits []hit
		for _, n := range c.sizes {
			hits = append(hits, hit{bytes: n})
		}
		rep, _ := auditHits(t, Options{}, false, hits...)
		if got := rep.Crawler("bingbot").Bytes; got != c.want {
			t.Errorf("sizes %v: %d bytes, want %d", c.sizes, got, c.want)
		}
	}
}

// TestEmptyPath: a request whose target is empty (a malformed request
// line) counts, but adds no path to the top paths and gets no robots.txt
// verdict.
func TestEmptyPath(t *testing.T) {
	h, err := NewHistory(Version{Source: "r", File: parseRobots("User-agent: *\nDisallow: /\n")})
	if err != nil {
		t.Fatal(err)
	}
	a := New(Options{Robots: h}, false)
	for i, c := range []struct {
		target string
		robots RobotsDecision
	}{{"", RobotsUnknown}, {"/a", RobotsDisallowed}, {"", RobotsUnknown}} {
		rec := hit{}.record()
		rec.Target = []byte(c.target)
		if row := a.Add(context.Background(), rec); row.Robots != c.robots {
			t.Errorf("request %d (%q): %v, want %v", i+1, c.target, row.Robots, c.robots)
		}
	}
	c := a.Report().Crawler("bingbot")
	if c.Requests != 3 || c.DisallowedRequests != 1 || len(c.TopPaths) != 1 || c.TopPaths[0] != (PathCount{Path: "/a", Count: 1}) {
		t.Errorf("requests %d, disallowed %d, top paths %+v; want 3, 1, /a once", c.Requests, c.DisallowedRequests, c.TopPaths)
	}
}

// TestCrawlDelayGaps: bingbot's gaps between requests to one host are
// checked against the Crawl-delay in force: a gap of exactly the delay is
// not too fast, one a nanosecond shorter is; lines slightly out of order
// count the distance between them; each host is apart.
func TestCrawlDelayGaps(t *testing.T) {
	s := time.Second
	for _, c := range []struct {
		name  string
		delay string
		hits  []hit
		gaps  []time.Duration // per request, -1 for none
		want  *DelayStats     // nil: no Crawl-delay applied
		edges []Edge
	}{
		{"exactly the delay", "10", []hit{{at: 0}, {at: 10 * s}, {at: 20*s - 1}},
			[]time.Duration{-1, 10 * s, 10*s - 1}, &DelayStats{Delay: 10, CheckedGaps: 2, TooFast: 1, Shortest: 9.999999999},
			[]Edge{{Host: "h", First: 0, Last: 20*int64(s) - 1, FirstDelay: 10 * int64(s)}}},
		{"shortest gap first", "10", []hit{{at: 0}, {at: 2 * s}, {at: 30 * s}},
			[]time.Duration{-1, 2 * s, 28 * s}, &DelayStats{Delay: 10, CheckedGaps: 2, TooFast: 1, Shortest: 2},
			[]Edge{{Host: "h", First: 0, Last: 30 * int64(s), FirstDelay: 10 * int64(s)}}},
		{"out of order", "10", []hit{{at: 30 * s}, {at: 25 * s}, {at: 40 * s}},
			[]time.Duration{-1, 5 * s, 10 * s}, &DelayStats{Delay: 10, CheckedGaps: 2, TooFast: 1, Shortest: 5},
			[]Edge{{Host: "h", First: 25 * int64(s), Last: 40 * int64(s), FirstDelay: 10 * int64(s)}}},
		{"two hosts", "10", []hit{{at: 0}, {at: s, host: "g"}, {at: 12 * s}, {at: 13 * s, host: "g"}},
			[]time.Duration{-1, -1, 12 * s, 12 * s}, &DelayStats{Delay: 10, CheckedGaps: 2, Shortest: 12},
			[]Edge{{Host: "g", First: int64(s), Last: 13 * int64(s), FirstDelay: 10 * int64(s)}, {Host: "h", First: 0, Last: 12 * int64(s), FirstDelay: 10 * int64(s)}}},
		{"a nanosecond", "0.000000001", []hit{{at: 0}, {at: 0}, {at: 1}},
			[]time.Duration{-1, 0, 1}, &DelayStats{Delay: 1e-9, CheckedGaps: 2, TooFast: 1, Shortest: 0},
			[]Edge{{Host: "h", First: 0, Last: 1, FirstDelay: 1}}},
		{"no delay", "", []hit{{at: 0}, {at: s}},
			[]time.Duration{-1, s}, nil, []Edge{{Host: "h", First: 0, Last: int64(s)}}},
		// One request: no gap yet, but a Crawl-delay applied.
		{"one request", "10", []hit{{at: 0}}, []time.Duration{-1}, &DelayStats{},
			[]Edge{{Host: "h", First: 0, Last: 0, FirstDelay: 10 * int64(s)}}},
		{"one request, a nanosecond", "0.000000001", []hit{{at: 0}}, []time.Duration{-1}, &DelayStats{},
			[]Edge{{Host: "h", First: 0, Last: 0, FirstDelay: 1}}},
		{"one request, no delay", "", []hit{{at: 0}}, []time.Duration{-1}, nil,
			[]Edge{{Host: "h", First: 0, Last: 0}}},
	} {
		body := "User-agent: *\nDisallow: /private/\n"
		if c.delay != "" {
			body += "Crawl-delay: " + c.delay + "\n"
		}
		// The history starts at the Unix epoch, so the edges' times are
		// the hits' offsets.
		h, err := NewHistory(Version{Source: "r", File: parseRobots(body)})
		if err != nil {
			t.Fatal(err)
		}
		a := New(Options{Robots: h}, false)
		for i, x := range c.hits {
			if x.host == "" {
				x.host = "h"
			}
			rec := x.record()
			rec.Time = int64(x.at)
			if row := a.Add(context.Background(), rec); row.Gap != c.gaps[i] {
				t.Errorf("%s: request %d: gap %v, want %v", c.name, i+1, row.Gap, c.gaps[i])
			}
		}
		b := a.Report().Crawler("bingbot")
		if (b.CrawlDelay == nil) != (c.want == nil) || c.want != nil && *b.CrawlDelay != *c.want || fmt.Sprint(b.Edges) != fmt.Sprint(c.edges) {
			t.Errorf("%s: crawl delay %+v, edges %+v; want %+v, %+v", c.name, b.CrawlDelay, b.Edges, c.want, c.edges)
		}
	}
}

// TestGraceBoundary: the grace period ends exactly Grace after the change:
// a request a nanosecond before is in grace, one at the end is not.
func TestGraceBoundary(t *testing.T) {
	change := day0.Add(12 * time.Hour)
	h, err := NewHistory(
		Version{Source: "v1", File: parseRobots("User-agent: *\nDisallow: /a/\n")},
		Version{Since: change, Source: "v2", File: parseRobots("User-agent: *\nDisallow: /b/\n")},
	)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		grace time.Duration
		at    time.Duration
		want  RobotsDecision
	}{
		{0, 24*time.Hour - 1, RobotsGrace},
		{0, 24 * time.Hour, RobotsDisallowed},
		{time.Hour, time.Hour - 1, RobotsGrace},
		{time.Hour, time.Hour, RobotsDisallowed},
	} {
		_, rows := auditHits(t, Options{Robots: h, Grace: c.grace}, false, hit{at: 12*time.Hour + c.at, path: "/b/x"})
		if rows[0].Robots != c.want {
			t.Errorf("grace %v, %v after the change: %v, want %v", c.grace, c.at, rows[0].Robots, c.want)
		}
	}
}

// TestHostBound: a crawler's Crawl-delay gaps are tracked for at most
// 10,000 hosts; requests to further hosts get no gap and no edge.
func TestHostBound(t *testing.T) {
	h, err := NewHistory(Version{Source: "r", File: parseRobots("User-agent: *\nCrawl-delay: 1\n")})
	if err != nil {
		t.Fatal(err)
	}
	a := New(Options{Robots: h}, false)
	add := func(host string, at time.Duration) Row {
		return a.Add(context.Background(), hit{at: at, host: host}.record())
	}
	for i := range 9999 {
		add(fmt.Sprintf("h%05d", i), 0)
	}
	for i, c := range []struct {
		host string
		gap  time.Duration
	}{
		{"h10000", -1}, // the 10,000th host: tracked
		{"h10001", -1}, // the 10,001st: not
		{"h10000", 2 * time.Second},
		{"h10001", -1},
	} {
		if row := add(c.host, time.Duration(i+1)*time.Second); row.Gap != c.gap {
			t.Errorf("%s: gap %v, want %v", c.host, row.Gap, c.gap)
		}
	}
	if b := a.Report().Crawler("bingbot"); len(b.Edges) != 10000 || b.CrawlDelay.CheckedGaps != 1 {
		t.Errorf("%d edges, %d checked gaps; want 10000, 1", len(b.Edges), b.CrawlDelay.CheckedGaps)
	}
}

// TestVerifyPerDay: an address is verified once per UTC day it sent
// requests on (the IP lists are dated), deferred or inline: two requests
// an hour either side of midnight are two verifications, two on one day
// one. A resolver that never answers counts them in VerifyErrors.
func TestVerifyPerDay(t *testing.T) {
	const yandex = "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"
	for _, c := range []struct {
		at     []time.Duration
		errors int64
	}{
		{[]time.Duration{-time.Hour, time.Hour}, 2},
		{[]time.Duration{-time.Nanosecond, 0}, 2},
		{[]time.Duration{time.Hour, 23 * time.Hour}, 1},
		{[]time.Duration{0, 24*time.Hour - time.Nanosecond}, 1},
	} {
		for _, inline := range []bool{false, true} {
			var hits []hit
			for _, at := range c.at {
				hits = append(hits, hit{at: at, ua: yandex, ip: "5.255.253.1"})
			}
			opt := Options{Verifier: &identity.Verifier{Resolver: &deadResolver{}}, VerifyMode: "dns+lists"}
			rep, _ := auditHits(t, opt, inline, hits...)
			if rep.VerifyErrors != c.errors {
				t.Errorf("requests at %v, inline %v: %d verify errors, want %d", c.at, inline, rep.VerifyErrors, c.errors)
			}
		}
	}
}

// TestUnchecked: without a Verifier every crawler request is unchecked.
func TestUnchecked(t *testing.T) {
	for _, inline := range []bool{false, true} {
		rep, _ := auditHits(t, Options{}, inline, hit{}, hit{at: time.Second})
		if b := rep.Crawler("bingbot"); b.Unchecked != 2 || b.Verified+b.Spoofed+b.Unverifiable+b.RDNSOnly != 0 {
			t.Errorf("inline %v: %+v; want 2 unchecked", inline, b)
		}
	}
}

// TestDatedLists: a request is judged against the IP list of its own day,
// up to the last instant of the day: an address Google listed only from 2
// March is not Googlebot's on 1 March.
func TestDatedLists(t *testing.T) {
	list := func(date, prefix string) *identity.List {
		l, err := identity.ParseList("google-common", date, []byte(`{"creationTime":"`+date+`T12:00:00Z","prefixes":[{"ipv4Prefix":"`+prefix+`"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	ranges := identity.NewRanges(list("2026-03-01", "192.0.2.0/24"), list("2026-03-02", "198.51.100.0/24"))
	const googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	for _, c := range []struct {
		at       time.Duration
		ip       string
		verified int64
	}{
		{24*time.Hour - time.Second/2, "198.51.100.5", 0},
		{24*time.Hour - time.Second/2, "192.0.2.5", 1},
		{24 * time.Hour, "198.51.100.5", 1},
		{24 * time.Hour, "192.0.2.5", 0},
	} {
		for _, inline := range []bool{false, true} {
			rep, _ := auditHits(t, Options{Verifier: &identity.Verifier{Ranges: ranges}}, inline, hit{at: c.at, ua: googlebot, ip: c.ip})
			if g := rep.Crawler("Googlebot"); g == nil || g.Verified != c.verified || g.Requests != 1 {
				t.Errorf("%s at %v, inline %v: %+v; want %d verified", c.ip, day0.Add(c.at), inline, g, c.verified)
			}
		}
	}
}

// partResolver answers for addresses under 5.255.254.0/24 (with a host
// name outside Yandex's domains) and gives no answer for the others.
type partResolver struct{ deadResolver }

func (p *partResolver) LookupAddr(ctx context.Context, addr string) ([]string, error) {
	if strings.HasPrefix(addr, "5.255.254.") {
		return []string{"host.example.net."}, nil
	}
	return p.deadResolver.LookupAddr(ctx, addr)
}

// TestDNSBreakerInARow: the breaker counts DNS failures in a row: an
// answer in between starts the count again, so 49 failures, an answer,
// 49 failures, an answer and 49 failures never stop verification.
func TestDNSBreakerInARow(t *testing.T) {
	const yandex = "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"
	for _, c := range []struct {
		runs    []int // failures between answers
		stopped bool
	}{
		{[]int{49, 49, 49}, false},
		{[]int{49, 50}, true},
		{[]int{50}, true},
	} {
		var hits []hit
		n := 0
		for i, run := range c.runs {
			if i > 0 {
				hits = append(hits, hit{ua: yandex, ip: fmt.Sprintf("5.255.254.%d", i)})
			}
			for range run {
				n++
				hits = append(hits, hit{ua: yandex, ip: fmt.Sprintf("5.255.%d.%d", n/200, n%200)})
			}
		}
		res := &partResolver{}
		rep, _ := auditHits(t, Options{Verifier: &identity.Verifier{Resolver: res}, VerifyMode: "dns+lists"}, true, hits...)
		if got := strings.Contains(rep.VerifyError, "DNS verification stopped after 50 failures in a row"); got != c.stopped || rep.VerifyErrors != int64(n) {
			t.Errorf("runs %v: %d verify errors, %q; want %d, stopped %v", c.runs, rep.VerifyErrors, rep.VerifyError, n, c.stopped)
		}
	}
}

// TestRDNSOnly: a crawler whose operator documents only the reverse
// lookup (Baiduspider) is counted rdns-only when its PTR name is in the
// operator's domain, deferred and inline.
func TestRDNSOnly(t *testing.T) {
	ip := netip.MustParseAddr("180.76.15.5")
	srv, err := dnstest.Start(dnstest.Zone{PTR: map[netip.Addr][]string{ip: {"baiduspider-180-76-15-5.crawl.baidu.com."}}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	const baidu = "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)"
	for _, inline := range []bool{false, true} {
		opt := Options{Verifier: &identity.Verifier{Resolver: dnstest.Resolver(srv)}, VerifyMode: "dns+lists"}
		rep, rows := auditHits(t, opt, inline, hit{ua: baidu, ip: ip.String()}, hit{at: time.Second, ua: baidu, ip: ip.String()})
		b := rep.Crawler("Baiduspider")
		if b == nil || b.RDNSOnly != 2 || b.Verified+b.Spoofed+b.Unverifiable+b.Unchecked != 0 {
			t.Errorf("inline %v: %+v; want 2 rdns-only", inline, b)
		}
		if inline && (rows[0].Identity != identity.RDNSOnly || rows[1].Identity != identity.RDNSOnly) {
			t.Errorf("rows %s, %s; want rdns-only", rows[0].Identity, rows[1].Identity)
		}
	}
}

// TestBadSamples: the report keeps the first 10 bad lines as samples
// (accesslog.MaxSamples), however many the reader's Stats hold.
func TestBadSamples(t *testing.T) {
	for _, c := range []struct{ given, kept int }{{9, 9}, {10, 10}, {11, 10}} {
		var st accesslog.Stats
		for i := range c.given {
			st.Samples = append(st.Samples, accesslog.BadLine{Line: int64(i + 1)})
		}
		st.Bad, st.Lines = int64(c.given), int64(c.given)
		a := New(Options{}, false)
		a.Finish(context.Background(), st, "log")
		if r := a.Report(); len(r.BadSamples) != c.kept || r.BadLines != int64(c.given) {
			t.Errorf("%d samples given: %d kept, %d bad lines; want %d, %d", c.given, len(r.BadSamples), r.BadLines, c.kept, c.given)
		}
	}
}
