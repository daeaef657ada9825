package audit

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/accesslog"
)

// sumParts are two parts of a log with every count of a crawler set, and
// a crawler only the second part saw.
func sumParts() (a, b *Report) {
	day2 := day1.AddDate(0, 0, 1)
	a = &Report{Schema: SchemaVersion, Sources: []string{"a.log"}, Lines: 10, BadLines: 1, Requests: 8, Other: 1, OtherHost: 1, NoUserAgent: 1,
		First: day1, Last: day1.Add(time.Hour), Robots: []RobotsInfo{{Source: "robots.txt"}}, Grace: Duration(24 * time.Hour),
		Verify: "lists", VerifyErrors: 1, BadSamples: []accesslog.BadLine{{Source: "a.log", Line: 3, Error: "e", Text: "a3"}},
		Crawlers: []*Crawler{{
			Name: "Googlebot", Requests: 5, Bytes: 100, Verified: 1, Spoofed: 1, Unverifiable: 1, RDNSOnly: 1, Unchecked: 1,
			VerifiedBy: map[string]int64{"ranges": 1},
			Signatures: &Signatures{Verified: 1, Invalid: 1, Reasons: map[string]int64{"expired": 1},
				FirstInvalid: &SignatureProblem{Time: day1.Add(30 * time.Minute), IP: "192.0.2.1", Path: "/a", Error: "expired"}},
			SpoofedFrom: []IPCount{{IP: "192.0.2.1", Count: 1}},
			Status:      map[string]int64{"200": 4, "404": 1}, Days: map[string]int64{"2026-03-01": 5},
			RobotsFetches: 1, RobotsStatus: map[string]int64{"200": 1},
			FirstRequest: day1, FirstRobotsFetch: day1.Add(10 * time.Minute),
			DisallowedRequests: 2, SpoofedDisallowed: 1, GraceRequests: 1,
			Violations: []Violation{{Robots: "robots.txt", Rule: "Disallow: /p/", Line: 2, Count: 2, Example: "/p/1", First: day1.Add(20 * time.Minute)}},
			CrawlDelay: &DelayStats{Delay: 5, CheckedGaps: 2, TooFast: 1, Shortest: 3},
			TopPaths:   []PathCount{{Path: "/", Count: 3}, {Path: "/p/1", Count: 2}},
			Edges:      []Edge{{Host: "h", First: day1.UnixNano(), Last: day1.Add(time.Hour).UnixNano(), FirstDelay: int64(5 * time.Second)}},
		}},
	}
	b = &Report{Schema: SchemaVersion, Sources: []string{"b.log"}, Lines: 20, BadLines: 2, Requests: 18, Other: 2, OtherHost: 2, NoUserAgent: 2,
		First: day2, Last: day2.Add(2 * time.Hour), Robots: []RobotsInfo{{Source: "robots.txt"}}, Grace: Duration(24 * time.Hour),
		Verify: "dns+lists", VerifyErrors: 2, VerifyError: "lookup: timeout",
		BadSamples: []accesslog.BadLine{{Source: "b.log", Line: 1, Error: "e", Text: "b1"}, {Source: "b.log", Line: 2, Error: "e", Text: "b2"}},
		Crawlers: []*Crawler{{
			Name: "Googlebot", Requests: 10, Bytes: 200, Verified: 2, Spoofed: 2, Unverifiable: 2, RDNSOnly: 2, Unchecked: 2,
			VerifiedBy: map[string]int64{"ranges": 1, "fcrdns": 1},
			Signatures: &Signatures{Invalid: 1, Unverified: 2, Reasons: map[string]int64{"expired": 1, "authority unknown": 2},
				FirstInvalid: &SignatureProblem{Time: day2, IP: "192.0.2.2", Path: "/b", Error: "expired"}},
			SpoofedFrom: []IPCount{{IP: "192.0.2.1", Count: 1}, {IP: "192.0.2.2", Count: 1}},
			Status:      map[string]int64{"200": 10}, Days: map[string]int64{"2026-03-02": 10},
			RobotsFetches: 2, RobotsStatus: map[string]int64{"200": 1, "404": 1},
			FirstRequest: day2, FirstRobotsFetch: day2.Add(5 * time.Minute),
			DisallowedRequests: 3, SpoofedDisallowed: 1,
			Violations: []Violation{
				{Robots: "robots.txt", Rule: "Disallow: /p/", Line: 2, Count: 1, Example: "/p/2", First: day2},
				{Robots: "robots.txt", Rule: "Disallow: /q/", Line: 3, Count: 2, Example: "/q/1", First: day2.Add(time.Minute)},
			},
			CrawlDelay: &DelayStats{Delay: 10, CheckedGaps: 1, Shortest: 20},
			TopPaths:   []PathCount{{Path: "/", Count: 5}, {Path: "/b", Count: 5}},
			Edges: []Edge{{Host: "h", First: day2.UnixNano(), Last: day2.Add(2 * time.Hour).UnixNano(), FirstDelay: int64(10 * time.Second)},
				{Host: "g", First: day2.UnixNano(), Last: day2.UnixNano()}},
		}, {Name: "bingbot", Requests: 3, Status: map[string]int64{"200": 3}, Days: map[string]int64{"2026-03-02": 3}, FirstRequest: day2}},
	}
	return a, b
}

// TestMergeSums: every count of two parts adds up, maps by key, the
// earliest first-times and examples win, the lists merge, and the gap
// across the seam is checked against the later part's Crawl-delay — in
// whichever order the parts are given.
func TestMergeSums(t *testing.T) {
	day2 := day1.AddDate(0, 0, 1)
	want := &Report{Schema: SchemaVersion, Sources: []string{"a.log", "b.log"}, Lines: 30, BadLines: 3, Requests: 26, Other: 3, OtherHost: 3, NoUserAgent: 3,
		First: day1, Last: day2.Add(2 * time.Hour), Robots: []RobotsInfo{{Source: "robots.txt"}}, Grace: Duration(24 * time.Hour),
		Verify: "mixed", VerifyErrors: 3, VerifyError: "lookup: timeout",
		BadSamples: []accesslog.BadLine{{Source: "a.log", Line: 3, Error: "e", Text: "a3"}, {Source: "b.log", Line: 1, Error: "e", Text: "b1"}, {Source: "b.log", Line: 2, Error: "e", Text: "b2"}},
		Crawlers: []*Crawler{{
			Name: "Googlebot", Requests: 15, Bytes: 300, Verified: 3, Spoofed: 3, Unverifiable: 3, RDNSOnly: 3, Unchecked: 3,
			VerifiedBy: map[string]int64{"ranges": 2, "fcrdns": 1},
			Signatures: &Signatures{Verified: 1, Invalid: 2, Unverified: 2, Reasons: map[string]int64{"expired": 2, "authority unknown": 2},
				FirstInvalid: &SignatureProblem{Time: day1.Add(30 * time.Minute), IP: "192.0.2.1", Path: "/a", Error: "expired"}},
			SpoofedFrom: []IPCount{{IP: "192.0.2.1", Count: 2}, {IP: "192.0.2.2", Count: 1}},
			Status:      map[string]int64{"200": 14, "404": 1}, Days: map[string]int64{"2026-03-01": 5, "2026-03-02": 10},
			RobotsFetches: 3, RobotsStatus: map[string]int64{"200": 2, "404": 1},
			FirstRequest: day1, FirstRobotsFetch: day1.Add(10 * time.Minute),
			DisallowedRequests: 5, SpoofedDisallowed: 2, GraceRequests: 1,
			Violations: []Violation{
				{Robots: "robots.txt", Rule: "Disallow: /p/", Line: 2, Count: 3, Example: "/p/1", First: day1.Add(20 * time.Minute)},
				{Robots: "robots.txt", Rule: "Disallow: /q/", Line: 3, Count: 2, Example: "/q/1", First: day2.Add(time.Minute)},
			},
			// The seam on h: 23 hours after a's last request, under b's
			// Crawl-delay of 10 s: one more gap, not too fast.
			CrawlDelay: &DelayStats{Delay: 10, CheckedGaps: 4, TooFast: 1, Shortest: 3},
			TopPaths:   []PathCount{{Path: "/", Count: 8}, {Path: "/b", Count: 5}, {Path: "/p/1", Count: 2}},
			Edges: []Edge{{Host: "g", First: day2.UnixNano(), Last: day2.UnixNano()},
				{Host: "h", First: day1.UnixNano(), Last: day2.Add(2 * time.Hour).UnixNano(), FirstDelay: int64(5 * time.Second)}},
		}, {Name: "bingbot", Requests: 3, Status: map[string]int64{"200": 3}, Days: map[string]int64{"2026-03-02": 3}, FirstRequest: day2}},
	}
	for _, order := range []string{"ab", "ba"} {
		a, b := sumParts()
		parts := []*Report{a, b}
		if order == "ba" {
			parts = []*Report{b, a}
		}
		got, err := Merge(0, parts...)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			g, _ := json.MarshalIndent(got, "", " ")
			w, _ := json.MarshalIndent(want, "", " ")
			t.Errorf("parts %s: merged report differs:\n%s", order, diff(string(w), string(g)))
		}
		// The parts are not changed.
		if a2, b2 := sumParts(); !reflect.DeepEqual(a, a2) || !reflect.DeepEqual(b, b2) {
			t.Errorf("parts %s: Merge changed its parts", order)
		}
	}
}

// TestMergeSeam: the first request of a later part is checked against
// the Crawl-delay in force then (FirstDelay) and the last request of the
// earlier part to the same host, at the delay, just under it and at a
// gap of 0; parts that overlap or had no Crawl-delay add no gap.
func TestMergeSeam(t *testing.T) {
	const delay = 10 * time.Second
	last := day1.Add(100 * time.Second)
	for _, tt := range []struct {
		name  string
		first time.Time // of the later part
		delay time.Duration
		want  *DelayStats
	}{
		{"at the delay", last.Add(delay), delay, &DelayStats{Delay: 10, CheckedGaps: 1, Shortest: 10}},
		{"just under", last.Add(delay - time.Millisecond), delay, &DelayStats{Delay: 10, CheckedGaps: 1, TooFast: 1, Shortest: 9.999}},
		{"no gap", last, delay, &DelayStats{Delay: 10, CheckedGaps: 1, TooFast: 1}},
		{"the shortest Crawl-delay", last.Add(time.Nanosecond), time.Nanosecond, &DelayStats{Delay: 1e-9, CheckedGaps: 1, Shortest: 1e-9}},
		{"overlapping", last.Add(-time.Second), delay, nil},
		{"no Crawl-delay", last.Add(time.Second), 0, nil},
	} {
		a := &Report{Schema: SchemaVersion, Lines: 1, Requests: 1, First: day1, Last: last,
			Crawlers: []*Crawler{{Name: "bingbot", Requests: 1, Edges: []Edge{{Host: "h", First: day1.UnixNano(), Last: last.UnixNano()}}}}}
		b := &Report{Schema: SchemaVersion, Lines: 2, Requests: 1, First: tt.first, Last: tt.first,
			Crawlers: []*Crawler{{Name: "bingbot", Requests: 1, Edges: []Edge{{Host: "h", First: tt.first.UnixNano(), Last: tt.first.UnixNano(), FirstDelay: int64(tt.delay)}}}}}
		m, err := Merge(0, b, a)
		if err != nil {
			t.Fatal(err)
		}
		c := m.Crawler("bingbot")
		if !reflect.DeepEqual(c.CrawlDelay, tt.want) {
			t.Errorf("%s: %s, want %s", tt.name, fmt.Sprint(c.CrawlDelay), fmt.Sprint(tt.want))
		}
		end := last // the later of the two parts' last requests
		if tt.first.After(last) {
			end = tt.first
		}
		if e := c.Edges; len(e) != 1 || e[0].First != day1.UnixNano() || e[0].Last != end.UnixNano() {
			t.Errorf("%s: edges %+v", tt.name, e)
		}
	}
}

// TestMergeOrder: parts are taken in the order of their first request,
// parts without requests last in the order given; those add their lines
// and sources but no first or last time, and a part of one request does.
func TestMergeOrder(t *testing.T) {
	day2 := day1.AddDate(0, 0, 1)
	part := func(src string, lines, requests int64, first time.Time) *Report {
		r := &Report{Schema: SchemaVersion, Sources: []string{src}, Lines: lines, BadLines: lines - requests, Requests: requests, Verify: "lists"}
		if requests > 0 {
			r.First, r.Last = first, first.Add(time.Hour)
		}
		return r
	}
	m, err := Merge(0, part("e2.log", 2, 0, time.Time{}), part("b.log", 3, 3, day2), part("e1.log", 1, 0, time.Time{}), part("a.log", 2, 1, day1))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.log", "b.log", "e2.log", "e1.log"}; !reflect.DeepEqual(m.Sources, want) || m.Lines != 8 || m.Requests != 4 ||
		!m.First.Equal(day1) || !m.Last.Equal(day2.Add(time.Hour)) || m.Verify != "lists" {
		t.Errorf("sources %v, %d lines, %d requests, %s to %s, verify %q; want %v, 8, 4, %s to %s, lists", m.Sources, m.Lines, m.Requests, m.First, m.Last, m.Verify,
			want, day1, day2.Add(time.Hour))
	}
}

// TestMergeTopK: merged path lists keep TopK entries, 1000 by default.
func TestMergeTopK(t *testing.T) {
	part := func(src, prefix string, count int64, first time.Time) *Report {
		c := &Crawler{Name: "bingbot", Requests: 600 * count}
		for i := range 600 {
			c.TopPaths = append(c.TopPaths, PathCount{Path: fmt.Sprintf("%s%03d", prefix, i), Count: count})
		}
		return &Report{Schema: SchemaVersion, Sources: []string{src}, Lines: c.Requests, Requests: c.Requests, First: first, Last: first, Crawlers: []*Crawler{c}}
	}
	for _, tt := range []struct {
		topK     int
		n        int
		first    PathCount
		lastPath string
	}{
		{0, 1000, PathCount{Path: "/a000", Count: 2}, "/b399"},
		{1, 1, PathCount{Path: "/a000", Count: 2}, "/a000"},
		{2, 2, PathCount{Path: "/a000", Count: 2}, "/a001"},
	} {
		m, err := MergeWith(MergeOptions{TopK: tt.topK}, part("a.log", "/a", 2, day1), part("b.log", "/b", 1, day1.Add(time.Hour)))
		if err != nil {
			t.Fatal(err)
		}
		p := m.Crawler("bingbot").TopPaths
		if len(p) != tt.n || p[0] != tt.first || p[len(p)-1].Path != tt.lastPath {
			t.Errorf("TopK %d: %d paths from %+v to %+v; want %d from %+v to %s", tt.topK, len(p), p[0], p[len(p)-1], tt.n, tt.first, tt.lastPath)
		}
	}
}

// TestAddDelay: Crawl-delay statistics add up; the shortest gap is the
// shorter of the two parts' that checked any gap.
func TestAddDelay(t *testing.T) {
	for _, tt := range []struct {
		name string
		d, e DelayStats
		want DelayStats
	}{
		{"the other checked none", DelayStats{Delay: 5, CheckedGaps: 2, TooFast: 1, Shortest: 3}, DelayStats{Delay: 10}, DelayStats{Delay: 10, CheckedGaps: 2, TooFast: 1, Shortest: 3}},
		{"one shorter gap", DelayStats{Delay: 5, CheckedGaps: 2, TooFast: 1, Shortest: 3}, DelayStats{Delay: 1, CheckedGaps: 1, TooFast: 1, Shortest: 0.5}, DelayStats{Delay: 5, CheckedGaps: 3, TooFast: 2, Shortest: 0.5}},
		{"longer gaps", DelayStats{Delay: 5, CheckedGaps: 2, TooFast: 1, Shortest: 3}, DelayStats{Delay: 5, CheckedGaps: 4, Shortest: 6}, DelayStats{Delay: 5, CheckedGaps: 6, TooFast: 1, Shortest: 3}},
		{"this one checked none", DelayStats{Delay: 5}, DelayStats{Delay: 2, CheckedGaps: 1, Shortest: 7}, DelayStats{Delay: 5, CheckedGaps: 1, Shortest: 7}},
	} {
		d := tt.d
		addDelay(&d, &tt.e)
		if d != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, d, tt.want)
		}
	}
}
