package audit

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/accesslog"
)

var day1 = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

// fullReport has every section of the text report, with more entries
// than each section shows.
func fullReport() *Report {
	return &Report{
		Schema: SchemaVersion, Sources: []string{"a.log", "b.log"},
		Lines: 1234, Requests: 1000, Other: 5, OtherHost: 1, NoUserAgent: 1,
		First: day1, Last: day1.Add(36 * time.Hour),
		Robots: []RobotsInfo{{Source: "robots.txt"}, {Since: day1.Add(24 * time.Hour), Source: "new.txt"}}, MixedRobots: true,
		Grace: Duration(24 * time.Hour), Verify: "dns+lists", VerifyErrors: 1, VerifyError: "lookup 192.0.2.9: i/o timeout",
		Crawlers: []*Crawler{
			{
				Name: "Googlebot", ObeysRobots: "yes", Requests: 600, Bytes: 1536, Days: map[string]int64{"2026-03-01": 400, "2026-03-02": 200},
				Verified: 500, Spoofed: 90, Unverifiable: 7, RDNSOnly: 3,
				VerifiedBy: map[string]int64{"fcrdns": 200, "ranges": 300},
				Signatures: &Signatures{Verified: 3, Invalid: 2, Unverified: 1,
					Reasons:      map[string]int64{"expired": 1, "signature does not verify": 1, "authority unknown": 1},
					FirstInvalid: &SignatureProblem{Time: day1.Add(90 * time.Second), IP: "192.0.2.1", Path: "/s", Error: "expired: signature sig1"}},
				Status:        map[string]int64{"100": 1, "200": 500, "301": 50, "404": 40, "503": 9, "-": 3, "600": 7},
				RobotsFetches: 2, FirstRequest: day1, FirstRobotsFetch: day1.Add(time.Hour),
				DisallowedRequests: 21, SpoofedDisallowed: 2, GraceRequests: 1,
				Violations: []Violation{
					{Robots: "robots.txt", Rule: "Disallow: /a/", Line: 2, Count: 6, Example: "/a/1", First: day1.Add(time.Minute)},
					{Robots: "robots.txt", Rule: "Disallow: /b/", Line: 3, Count: 5, Example: "/b/1", First: day1.Add(2 * time.Minute)},
					{Robots: "new.txt", Since: day1.Add(24 * time.Hour), Rule: "Disallow: /c/", Line: 4, Count: 4, Example: "/c/1", First: day1.Add(25 * time.Hour)},
					{Robots: "new.txt", Since: day1.Add(24 * time.Hour), Rule: "Disallow: /d/", Line: 5, Count: 3, Example: "/d/1", First: day1.Add(26 * time.Hour)},
					{Robots: "new.txt", Since: day1.Add(24 * time.Hour), Rule: "Disallow: /e/", Line: 6, Count: 2, Example: "/e/1", First: day1.Add(27 * time.Hour)},
					{Robots: "new.txt", Since: day1.Add(24 * time.Hour), Rule: "Disallow: /f/", Line: 7, Count: 1, Example: "/f/1", First: day1.Add(28 * time.Hour)},
				},
				SpoofedFrom: []IPCount{{IP: "192.0.2.1", Count: 40}, {IP: "192.0.2.2", Count: 30, Error: 1, Estimated: true}, {IP: "192.0.2.3", Count: 15}, {IP: "192.0.2.4", Count: 5}},
				TopPaths:    []PathCount{{Path: "/", Count: 300}, {Path: "/a/1", Count: 100, Error: 2, Estimated: true}, {Path: "/x", Count: 50}, {Path: "/y", Count: 1}},
			},
			{
				Name: "bingbot", ObeysRobots: "partial", Requests: 200, Bytes: 1 << 20, Unverifiable: 200, Days: map[string]int64{"2026-03-02": 200},
				Status:             map[string]int64{"200": 200},
				DisallowedRequests: 1,
				Violations:         []Violation{{Robots: "robots.txt", Rule: "Disallow: /a/", Line: 2, Count: 1, Example: "/a/2", First: day1.Add(3 * time.Hour)}},
				CrawlDelay:         &DelayStats{Delay: 10, CheckedGaps: 1, Shortest: 12.5},
				FirstRequest:       day1,
				TopPaths:           []PathCount{{Path: "/b", Count: 200}},
			},
			{
				Name: "GPTBot", ObeysRobots: "no", Requests: 100, Bytes: 1<<30 + 1<<29, Verified: 1,
				VerifiedBy:         map[string]int64{"ranges": 1},
				Status:             map[string]int64{"200": 100},
				DisallowedRequests: 3,
				Violations:         []Violation{{Robots: "robots.txt", Rule: "Disallow: /b/", Line: 3, Count: 3, Example: "/b/2", First: day1.Add(4 * time.Hour)}},
				CrawlDelay:         &DelayStats{Delay: 1},
				RobotsFetches:      1, FirstRequest: day1.Add(time.Hour), FirstRobotsFetch: day1.Add(time.Hour),
				TopPaths: []PathCount{{Path: "/c", Count: 60}, {Path: "/d", Count: 40}},
			},
			{
				Name: "YandexBot", Requests: 50, Bytes: 1023, Spoofed: 1,
				Status:             map[string]int64{"200": 50},
				DisallowedRequests: 1, SpoofedDisallowed: 1,
				Violations:    []Violation{{Robots: "robots.txt", Rule: "Disallow: /a/", Line: 2, Count: 1, Example: "/a/3", First: day1.Add(5 * time.Hour)}},
				CrawlDelay:    &DelayStats{Delay: 2, CheckedGaps: 3, TooFast: 2, Shortest: 0.5},
				SpoofedFrom:   []IPCount{{IP: "198.51.100.1", Count: 1}},
				RobotsFetches: 1, FirstRequest: day1.Add(time.Hour), FirstRobotsFetch: day1.Add(time.Minute),
				TopPaths: []PathCount{{Path: "/e", Count: 50}},
			},
			{
				Name: "Applebot", Requests: 30, Bytes: 1024,
				Signatures:    &Signatures{Unverified: 2, Reasons: map[string]int64{"no key source": 2}},
				Status:        map[string]int64{"200": 30},
				RobotsFetches: 1, FirstRequest: day1,
				TopPaths: []PathCount{{Path: "/f", Count: 30}},
			},
			{
				Name: "DuckDuckBot", Requests: 1, Status: map[string]int64{"200": 1}, FirstRequest: day1,
				TopPaths: []PathCount{{Path: "/g", Count: 1}},
			},
			// A hand-made part of a merge can hold a crawler without
			// requests.
			{Name: "Slurp"},
		},
	}
}

// oneReport has one entry in each section of the text report.
func oneReport() *Report {
	return &Report{
		Lines: 1, BadLines: 1, Requests: 1, First: day1, Last: day1,
		BadSamples: []accesslog.BadLine{{Source: "c.log", Line: 2, Error: "no request line", Text: "garbage"}},
		Robots:     []RobotsInfo{{Source: "robots.txt"}}, Grace: Duration(time.Hour), Verify: "off",
		Crawlers: []*Crawler{{
			Name: "Googlebot", Requests: 1, Bytes: 0, Verified: 1, Days: map[string]int64{"2026-03-01": 1},
			VerifiedBy: map[string]int64{"fcrdns+ranges": 1},
			Signatures: &Signatures{Invalid: 1, Reasons: map[string]int64{"expired": 1}},
			Status:     map[string]int64{"200": 1}, DisallowedRequests: 1,
			Violations: []Violation{
				{Robots: "robots.txt", Rule: "Disallow: /1", Line: 1, Count: 1, Example: "/1", First: day1},
				{Robots: "robots.txt", Rule: "Disallow: /2", Line: 2, Count: 1, Example: "/2", First: day1},
				{Robots: "robots.txt", Rule: "Disallow: /3", Line: 3, Count: 1, Example: "/3", First: day1},
				{Robots: "robots.txt", Rule: "Disallow: /4", Line: 4, Count: 1, Example: "/4", First: day1},
				{Robots: "robots.txt", Rule: "Disallow: /5", Line: 5, Count: 1, Example: "/5", First: day1},
			},
			CrawlDelay:   &DelayStats{Delay: 1, CheckedGaps: 1, TooFast: 1},
			SpoofedFrom:  []IPCount{{IP: "192.0.2.1", Count: 1}},
			FirstRequest: day1, TopPaths: []PathCount{{Path: "/1", Count: 1}, {Path: "/2", Count: 1}, {Path: "/3", Count: 1}},
		}},
	}
}

// TestWriteText holds the text report of constructed Reports to the text
// it must print, section by section: each section appears when it has
// something to say, shows at most its bound of entries, and says how many
// it left out.
func TestWriteText(t *testing.T) {
	for _, tt := range []struct {
		name string
		r    *Report
		want string
	}{
		{"everything", fullReport(), `1,234 lines (0 bad), 1,000 requests, 2026-03-01 00:00 → 2026-03-02 12:00 UTC
robots.txt: MIXED: parts were audited against different histories: robots.txt, new.txt from 2026-03-02T00:00:00Z (24h0m0s grace after a change)
verification: dns+lists; failed for 1 address(es): lookup 192.0.2.9: i/o timeout
1 requests have no User-Agent in this log format: they cannot be attributed
1 requests for other hosts skipped

         crawler  requests    bytes  verified  spoofed  unverif.  disallowed  grace  robots.txt  2xx  3xx  4xx  5xx  too fast
       Googlebot       600  1.5 KiB       500       90        10          21      1           2  500   50   40    9         -
         bingbot       200  1.0 MiB         0        0       200           1      0           0  200    0    0    0         0
          GPTBot       100  1.5 GiB         1        0         0           3      0           1  100    0    0    0         -
       YandexBot        50   1023 B         0        1         0           1      0           1   50    0    0    0         2
        Applebot        30  1.0 KiB         0        0         0           0      0           1   30    0    0    0         -
     DuckDuckBot         1      0 B         0        0         0           0      0           0    1    0    0    0         -
           Slurp         0      0 B         0        0         0           0      0           0    0    0    0    0         -
  (not crawlers)         5

verified by:
  Googlebot: ranges (300), fcrdns (200)
  GPTBot: ranges (1)

Web Bot Auth signatures:
  Googlebot: 6 signed: 3 verified, 2 invalid, 1 unverified
    invalid: expired (1), signature does not verify (1)
    unverified: authority unknown (1)
    first invalid: 2026-03-01 00:01:30 192.0.2.1 /s: expired: signature sig1
  Applebot: 2 signed: 0 verified, 0 invalid, 2 unverified
    unverified: no key source (2)

requests to disallowed URLs:
  Googlebot: 21, 2 from spoofed addresses
         6  Disallow: /a/ (robots.txt line 2), first 2026-03-01 00:01:00 /a/1
         5  Disallow: /b/ (robots.txt line 3), first 2026-03-01 00:02:00 /b/1
         4  Disallow: /c/ (new.txt line 4), first 2026-03-02 01:00:00 /c/1
         3  Disallow: /d/ (new.txt line 5), first 2026-03-02 02:00:00 /d/1
         2  Disallow: /e/ (new.txt line 6), first 2026-03-02 03:00:00 /e/1
    … 1 more rules
  bingbot: 1 (documented to obey robots.txt only in part)
         1  Disallow: /a/ (robots.txt line 2), first 2026-03-01 03:00:00 /a/2
  GPTBot: 3, 0 from spoofed addresses (documented to ignore robots.txt)
         3  Disallow: /b/ (robots.txt line 3), first 2026-03-01 04:00:00 /b/2
  YandexBot: 1, 1 from spoofed addresses
         1  Disallow: /a/ (robots.txt line 2), first 2026-03-01 05:00:00 /a/3

Crawl-delay (crawlers documented to honour it):
  bingbot: 0 of 1 gaps shorter than 10s (shortest 12.5s)
  YandexBot: 2 of 3 gaps shorter than 2s (shortest 0.5s)

spoofed requests, top addresses:
  Googlebot: 192.0.2.1 (40), 192.0.2.2 (~30, at least 29), 192.0.2.3 (15)
  YandexBot: 198.51.100.1 (1)

never fetched robots.txt before crawling: Googlebot (fetched it only after crawling), bingbot, DuckDuckBot

top paths:
  Googlebot: / (300), /a/1 (~100, at least 98), /x (50)
  bingbot: /b (200)
  GPTBot: /c (60), /d (40)
  YandexBot: /e (50)
  Applebot: /f (30)
`},
		{"one of each", oneReport(), `1 lines (1 bad), 1 requests, 2026-03-01 00:00 → 2026-03-01 00:00 UTC
robots.txt: robots.txt (1h0m0s grace after a change)
verification: off (identities not checked: verified, spoofed and unverif. show -; rep audit -verify checks them)

         crawler  requests  bytes  verified  spoofed  unverif.  disallowed  grace  robots.txt  2xx  3xx  4xx  5xx  too fast
       Googlebot         1    0 B         -        -         -           1      0           0    1    0    0    0         1
  (not crawlers)         0

verified by:
  Googlebot: fcrdns+ranges (1)

Web Bot Auth signatures:
  Googlebot: 1 signed: 0 verified, 1 invalid, 0 unverified
    invalid: expired (1)

requests to disallowed URLs:
  Googlebot: 1, 0 from spoofed addresses
         1  Disallow: /1 (robots.txt line 1), first 2026-03-01 00:00:00 /1
         1  Disallow: /2 (robots.txt line 2), first 2026-03-01 00:00:00 /2
         1  Disallow: /3 (robots.txt line 3), first 2026-03-01 00:00:00 /3
         1  Disallow: /4 (robots.txt line 4), first 2026-03-01 00:00:00 /4
         1  Disallow: /5 (robots.txt line 5), first 2026-03-01 00:00:00 /5

Crawl-delay (crawlers documented to honour it):
  Googlebot: 1 of 1 gaps shorter than 1s (shortest 0s)

spoofed requests, top addresses:
  Googlebot: 192.0.2.1 (1)

never fetched robots.txt before crawling: Googlebot

top paths:
  Googlebot: /1 (1), /2 (1), /3 (1)

bad lines (1), first:
  c.log:2: no request line: "garbage"
`},
		{"nothing", &Report{Lines: 5, BadLines: 5, Verify: "lists", Other: 0, BadSamples: []accesslog.BadLine{
			{Source: "d.log", Line: 1, Error: "e1", Text: "a"}, {Source: "d.log", Line: 2, Error: "e2", Text: "b\x00"},
			{Source: "d.log", Line: 3, Error: "e3", Text: "c"}, {Source: "d.log", Line: 4, Error: "e4", Text: "d"}}}, `5 lines (5 bad), 0 requests
robots.txt: none given (-robots FILE[@TIME]); no compliance checks
verification: lists

no known crawlers; 0 other requests

bad lines (5), first:
  d.log:1: e1: "a"
  d.log:2: e2: "b\x00"
  d.log:3: e3: "c"
`},
		{"crawlers, nothing to say", &Report{Lines: 2, Requests: 2, First: day1, Last: day1.Add(time.Minute), Verify: "lists", Other: 1,
			Crawlers: []*Crawler{{Name: "bingbot", Requests: 1, Unverifiable: 1, Status: map[string]int64{"200": 1}, FirstRequest: day1,
				TopPaths: []PathCount{{Path: "/", Count: 1}}}}}, `2 lines (0 bad), 2 requests, 2026-03-01 00:00 → 2026-03-01 00:01 UTC
robots.txt: none given (-robots FILE[@TIME]); no compliance checks
verification: lists

         crawler  requests  bytes  verified  spoofed  unverif.  disallowed  grace  robots.txt  2xx  3xx  4xx  5xx  too fast
         bingbot         1    0 B         0        0         1           0      0           0    1    0    0    0         -
  (not crawlers)         1

top paths:
  bingbot: / (1)
`},
		{"robots.txt read first", &Report{Lines: 1, Requests: 1, First: day1, Last: day1, Robots: []RobotsInfo{{Source: "robots.txt"}},
			Grace: Duration(24 * time.Hour), Verify: "lists", Crawlers: []*Crawler{{Name: "bingbot", Requests: 1, Unverifiable: 1,
				Status: map[string]int64{"200": 1}, RobotsFetches: 1, FirstRequest: day1, FirstRobotsFetch: day1,
				TopPaths: []PathCount{{Path: "/robots.txt", Count: 1}}}}}, `1 lines (0 bad), 1 requests, 2026-03-01 00:00 → 2026-03-01 00:00 UTC
robots.txt: robots.txt (24h0m0s grace after a change)
verification: lists

         crawler  requests  bytes  verified  spoofed  unverif.  disallowed  grace  robots.txt  2xx  3xx  4xx  5xx  too fast
         bingbot         1    0 B         0        0         1           0      0           1    1    0    0    0         -
  (not crawlers)         0

top paths:
  bingbot: /robots.txt (1)
`},
	} {
		var b bytes.Buffer
		if err := WriteText(&b, tt.r); err != nil {
			t.Fatal(err)
		}
		if b.String() != tt.want {
			t.Errorf("%s:\n got:\n%s\nwant:\n%s", tt.name, b.String(), tt.want)
		}
	}
}

// failAfter fails every write after its first n bytes.
type failAfter struct{ n int }

var errFull = errors.New("disk full")

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		n := f.n
		f.n = 0
		return n, errFull
	}
	f.n -= len(p)
	return len(p), nil
}

// TestWriteTextError: a failed write is WriteText's error, whichever
// section it happens in.
func TestWriteTextError(t *testing.T) {
	for _, n := range []int{0, 10, 300, 1500} {
		if err := WriteText(&failAfter{n: n}, fullReport()); !errors.Is(err, errFull) {
			t.Errorf("failing after %d bytes: %v, want %v", n, err, errFull)
		}
	}
	var b bytes.Buffer
	if err := WriteText(&b, fullReport()); err != nil {
		t.Errorf("a writer that does not fail: %v", err)
	}
}

// TestTextNumbers: counts with thousands separators, sizes in binary
// units from each unit's first value, estimates with their lower bound.
func TestTextNumbers(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 1234: "1,234", 123456: "123,456",
		1234567: "1,234,567", -123: "-123", -1234: "-1234"} {
		if got := num(n); got != want {
			t.Errorf("num(%d) = %q, want %q", n, got, want)
		}
	}
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1536: "1.5 KiB", 1<<20 - 1: "1024.0 KiB",
		1 << 20: "1.0 MiB", 5 << 20: "5.0 MiB", 1<<30 - 1: "1024.0 MiB", 1 << 30: "1.0 GiB", 3 << 30: "3.0 GiB"} {
		if got := bytesize(n); got != want {
			t.Errorf("bytesize(%d) = %q, want %q", n, got, want)
		}
	}
	for _, tt := range []struct {
		count, err int64
		want       string
	}{{5, 0, "5"}, {5, 1, "~5, at least 4"}, {1500, 2, "~1,500, at least 1,498"}} {
		if got := estimate(tt.count, tt.err); got != tt.want {
			t.Errorf("estimate(%d, %d) = %q, want %q", tt.count, tt.err, got, tt.want)
		}
	}
}

// TestStatusClasses: three-digit codes from 100 to 599 count by their
// first digit; anything else ("-" for none logged) in no class.
func TestStatusClasses(t *testing.T) {
	m := map[string]int64{"100": 1, "199": 2, "200": 4, "301": 8, "404": 16, "503": 32, "599": 64,
		"600": 128, "099": 256, "20": 512, "2000": 1024, "-": 2048}
	if got, want := statusClasses(m), [6]int64{0, 3, 4, 8, 16, 96}; got != want {
		t.Errorf("statusClasses = %v, want %v", got, want)
	}
}

// TestCountList: most counted first, ties by name, filtered by keep.
func TestCountList(t *testing.T) {
	m := map[string]int64{"b": 2, "a": 2, "c": 5, "d": 1}
	for _, tt := range []struct {
		keep func(string) bool
		want string
	}{
		{nil, "c (5), a (2), b (2), d (1)"},
		{func(k string) bool { return k != "c" }, "a (2), b (2), d (1)"},
		{func(string) bool { return false }, ""},
	} {
		if got := countList(m, tt.keep); got != tt.want {
			t.Errorf("countList = %q, want %q", got, tt.want)
		}
	}
}
