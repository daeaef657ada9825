package robotstxt_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/robotstxt"
)

// TestKeyString: each key's canonical spelling, and "" for the kinds that
// have none and for values past the last key.
func TestKeyString(t *testing.T) {
	for k, want := range map[robotstxt.Key]string{
		robotstxt.KeyNone:          "",
		robotstxt.KeyInvalid:       "",
		robotstxt.KeyUserAgent:     "User-agent",
		robotstxt.KeyAllow:         "Allow",
		robotstxt.KeyDisallow:      "Disallow",
		robotstxt.KeySitemap:       "Sitemap",
		robotstxt.KeyCrawlDelay:    "Crawl-delay",
		robotstxt.KeyRequestRate:   "Request-rate",
		robotstxt.KeyVisitTime:     "Visit-time",
		robotstxt.KeyHost:          "Host",
		robotstxt.KeyCleanParam:    "Clean-param",
		robotstxt.KeyContentSignal: "Content-Signal",
		robotstxt.KeyContentUsage:  "Content-Usage",
		robotstxt.KeyUnknown:       "",
		robotstxt.KeyUnknown + 1:   "",
		255:                        "",
	} {
		if got := k.String(); got != want {
			t.Errorf("Key(%d).String() = %q, want %q", k, got, want)
		}
	}
}

// TestLines: every field of the lines Lines reports, for each kind of
// line end, blank and comment-only lines, a missing colon, a typo, a NUL,
// a cut line and a byte order mark.
func TestLines(t *testing.T) {
	long := "Disallow: /" + strings.Repeat("a", 17000)
	for _, c := range []struct {
		name string
		in   string
		want []robotstxt.Line
	}{
		{"mixed", "# top\nUser-agent: a # bot\r\n  Disallow:  /x\rallow /y\n\nnonsense\nDissalow: /z\nHost: h\x00tail", []robotstxt.Line{
			{Num: 1, Offset: 0, Text: "# top", Key: robotstxt.KeyNone, Comment: " top", End: "\n"},
			{Num: 2, Offset: 6, Text: "User-agent: a # bot", Key: robotstxt.KeyUserAgent, KeyText: "User-agent", Value: "a",
				KeyCol: 1, ValueCol: 13, Comment: " bot", End: "\r\n"},
			{Num: 3, Offset: 27, Text: "  Disallow:  /x", Key: robotstxt.KeyDisallow, KeyText: "Disallow", Value: "/x",
				KeyCol: 3, ValueCol: 14, End: "\r"},
			{Num: 4, Offset: 43, Text: "allow /y", Key: robotstxt.KeyAllow, KeyText: "allow", Value: "/y",
				KeyCol: 1, ValueCol: 7, NoColon: true, End: "\n"},
			{Num: 5, Offset: 52, Text: "", Key: robotstxt.KeyNone, End: "\n"},
			{Num: 6, Offset: 53, Text: "nonsense", Key: robotstxt.KeyInvalid, End: "\n"},
			{Num: 7, Offset: 62, Text: "Dissalow: /z", Key: robotstxt.KeyDisallow, KeyText: "Dissalow", Value: "/z",
				KeyCol: 1, ValueCol: 11, Typo: true, End: "\n"},
			{Num: 8, Offset: 75, Text: "Host: h", Key: robotstxt.KeyHost, KeyText: "Host", Value: "h",
				KeyCol: 1, ValueCol: 7, NUL: true, End: ""},
		}},
		// A line that starts with ':' has no key; a tab stands in for the
		// colon as a space does; blanks before the colon are not the key's.
		{"separators", ": x\n  : y\nDisallow\t/x\nDisallow :/y\n", []robotstxt.Line{
			{Num: 1, Offset: 0, Text: ": x", Key: robotstxt.KeyInvalid, End: "\n"},
			{Num: 2, Offset: 4, Text: "  : y", Key: robotstxt.KeyInvalid, End: "\n"},
			{Num: 3, Offset: 10, Text: "Disallow\t/x", Key: robotstxt.KeyDisallow, KeyText: "Disallow", Value: "/x",
				KeyCol: 1, ValueCol: 10, NoColon: true, End: "\n"},
			{Num: 4, Offset: 22, Text: "Disallow :/y", Key: robotstxt.KeyDisallow, KeyText: "Disallow", Value: "/y",
				KeyCol: 1, ValueCol: 11, End: "\n"},
			{Num: 5, Offset: 35, Text: "", End: ""},
		}},
		// Keys Google reads by prefix or with its accepted misspellings
		// are typos; the extensions' variants too, but for their exact
		// names; an unknown key is no typo.
		{"keys", "Disallowed: /a\nDisallows: /b\nAllows: /c\nAllow-ment: /d\n" +
			"site-map: s\nSitemaps: t\nUser-agents: x\nUseragent: y\n" +
			"User agent: z\ncrawldelay: 1\ncrawl delay: 2\ncrawl_delay: 3\n" +
			"Crawl-delay: 4\nNoindex: /e\n", []robotstxt.Line{
			{Num: 1, Offset: 0, Text: "Disallowed: /a", Key: robotstxt.KeyDisallow, KeyText: "Disallowed", Value: "/a", KeyCol: 1, ValueCol: 13, Typo: true, End: "\n"},
			{Num: 2, Offset: 15, Text: "Disallows: /b", Key: robotstxt.KeyDisallow, KeyText: "Disallows", Value: "/b", KeyCol: 1, ValueCol: 12, Typo: true, End: "\n"},
			{Num: 3, Offset: 29, Text: "Allows: /c", Key: robotstxt.KeyAllow, KeyText: "Allows", Value: "/c", KeyCol: 1, ValueCol: 9, Typo: true, End: "\n"},
			{Num: 4, Offset: 40, Text: "Allow-ment: /d", Key: robotstxt.KeyAllow, KeyText: "Allow-ment", Value: "/d", KeyCol: 1, ValueCol: 13, Typo: true, End: "\n"},
			{Num: 5, Offset: 55, Text: "site-map: s", Key: robotstxt.KeySitemap, KeyText: "site-map", Value: "s", KeyCol: 1, ValueCol: 11, Typo: true, End: "\n"},
			{Num: 6, Offset: 67, Text: "Sitemaps: t", Key: robotstxt.KeySitemap, KeyText: "Sitemaps", Value: "t", KeyCol: 1, ValueCol: 11, Typo: true, End: "\n"},
			{Num: 7, Offset: 79, Text: "User-agents: x", Key: robotstxt.KeyUserAgent, KeyText: "User-agents", Value: "x", KeyCol: 1, ValueCol: 14, Typo: true, End: "\n"},
			{Num: 8, Offset: 94, Text: "Useragent: y", Key: robotstxt.KeyUserAgent, KeyText: "Useragent", Value: "y", KeyCol: 1, ValueCol: 12, Typo: true, End: "\n"},
			{Num: 9, Offset: 107, Text: "User agent: z", Key: robotstxt.KeyUserAgent, KeyText: "User agent", Value: "z", KeyCol: 1, ValueCol: 13, Typo: true, End: "\n"},
			{Num: 10, Offset: 121, Text: "crawldelay: 1", Key: robotstxt.KeyCrawlDelay, KeyText: "crawldelay", Value: "1", KeyCol: 1, ValueCol: 13, Typo: true, End: "\n"},
			{Num: 11, Offset: 135, Text: "crawl delay: 2", Key: robotstxt.KeyCrawlDelay, KeyText: "crawl delay", Value: "2", KeyCol: 1, ValueCol: 14, Typo: true, End: "\n"},
			{Num: 12, Offset: 150, Text: "crawl_delay: 3", Key: robotstxt.KeyCrawlDelay, KeyText: "crawl_delay", Value: "3", KeyCol: 1, ValueCol: 14, Typo: true, End: "\n"},
			{Num: 13, Offset: 165, Text: "Crawl-delay: 4", Key: robotstxt.KeyCrawlDelay, KeyText: "Crawl-delay", Value: "4", KeyCol: 1, ValueCol: 14, End: "\n"},
			{Num: 14, Offset: 180, Text: "Noindex: /e", Key: robotstxt.KeyUnknown, KeyText: "Noindex", Value: "/e", KeyCol: 1, ValueCol: 10, End: "\n"},
			{Num: 15, Offset: 192, Text: "", End: ""},
		}},
		// A CRLF that ends the input is one line end.
		{"final CRLF", "User-agent: a\r\n", []robotstxt.Line{
			{Num: 1, Offset: 0, Text: "User-agent: a", Key: robotstxt.KeyUserAgent, KeyText: "User-agent", Value: "a",
				KeyCol: 1, ValueCol: 13, End: "\r\n"},
			{Num: 2, Offset: 15, Text: "", End: ""},
		}},
		// A CR as the very first byte ends an empty first line.
		{"leading CR", "\rUser-agent: a\rDisallow: /x", []robotstxt.Line{
			{Num: 1, Offset: 0, Text: "", End: "\r"},
			{Num: 2, Offset: 1, Text: "User-agent: a", Key: robotstxt.KeyUserAgent, KeyText: "User-agent", Value: "a",
				KeyCol: 1, ValueCol: 13, End: "\r"},
			{Num: 3, Offset: 15, Text: "Disallow: /x", Key: robotstxt.KeyDisallow, KeyText: "Disallow", Value: "/x",
				KeyCol: 1, ValueCol: 11, End: ""},
		}},
		// The three BOM bytes are skipped, and nothing after them.
		{"BOM then NUL", "\xef\xbb\xbf\x00Host: h\n", []robotstxt.Line{
			{Num: 1, Offset: 3, Text: "", NUL: true, End: "\n"},
			{Num: 2, Offset: 12, Text: "", End: ""},
		}},
		// A line is cut after 16663 bytes (robots.cc's 2083*8-1).
		{"cut", long + "\n", []robotstxt.Line{
			{Num: 1, Offset: 0, Text: long[:16663], Key: robotstxt.KeyDisallow, KeyText: "Disallow", Value: long[10:16663],
				KeyCol: 1, ValueCol: 11, Cut: true, End: "\n"},
			{Num: 2, Offset: 17012, Text: "", End: ""},
		}},
	} {
		got := slices.Collect(robotstxt.Lines([]byte(c.in), robotstxt.Options{}))
		if len(got) != len(c.want) {
			t.Errorf("%s: %d lines, want %d: %+v", c.name, len(got), len(c.want), got)
			continue
		}
		for i := range got {
			if !reflect.DeepEqual(got[i], c.want[i]) {
				t.Errorf("%s: line %d:\n got %+v\nwant %+v", c.name, i+1, got[i], c.want[i])
			}
		}
	}
}

// TestParsedBytesAtSmallLimits: a file longer than MaxBytes is read up to
// its last line end (CR or LF) within the limit, which may be its very
// first byte, or nothing at all when no line ends there; a BOM the limit
// cuts into is still skipped.
func TestParsedBytesAtSmallLimits(t *testing.T) {
	for _, c := range []struct {
		in        string
		max       int
		parsed    int
		truncated bool
		lines     int // as Lines reports them, with the empty one after a final line end
	}{
		{"User-agent: *\n", 14, 14, false, 2},
		{"User-agent: *\n", 13, 0, true, 1},
		{"User-agent: *\nDisallow: /\n", 15, 14, true, 2},
		{"\nUser-agent: *\nDisallow: /\n", 5, 1, true, 2},
		{"\rUser-agent: *\nDisallow: /\n", 5, 1, true, 2},
		{"a: b\rc: d\r\n", 6, 5, true, 2},
		{"\xef\xbb\xbfUser-agent: *\n", 5, 3, true, 1},
	} {
		f := robotstxt.ParseWith([]byte(c.in), robotstxt.Options{MaxBytes: c.max})
		if f.ParsedBytes() != c.parsed || f.Truncated() != c.truncated {
			t.Errorf("%q, MaxBytes %d: ParsedBytes %d, Truncated %v; want %d, %v",
				c.in, c.max, f.ParsedBytes(), f.Truncated(), c.parsed, c.truncated)
		}
		n := 0
		for range robotstxt.Lines([]byte(c.in), robotstxt.Options{MaxBytes: c.max}) {
			n++
		}
		if n != c.lines {
			t.Errorf("%q, MaxBytes %d: %d lines, want %d", c.in, c.max, n, c.lines)
		}
	}
}
