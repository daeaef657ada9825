package robotstxt_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/robotstxt"
)

// TestExtensionValues: how each extension's value is read. A valid value
// fills the typed fields and leaves Err empty; an invalid one is kept with
// Err set and every typed field zero (Extension's documented contract).
// Formats: Crawl-delay is a non-negative number of seconds (at most 1e9);
// Request-rate is "n/t[s|m|h] [hhmm-hhmm]"; Visit-time is "hhmm-hhmm" or
// "hh:mm-hh:mm" with 2400 as the end of the day; Host is a host name or a
// URL; Clean-param is "p1&p2 [/path]" (Yandex); Content-Signal pairs take
// yes or no, Content-Usage pairs y or n, after an optional path.
func TestExtensionValues(t *testing.T) {
	w := func(from, to int) *robotstxt.Window { return &robotstxt.Window{From: from, To: to} }
	type want struct {
		bad      bool
		delay    time.Duration
		requests int
		per      time.Duration
		window   *robotstxt.Window
		params   []string
		path     string
		pairs    []robotstxt.Pair
	}
	for _, c := range []struct {
		line string
		want want
	}{
		// Crawl-delay: 0 and fractions are valid, below 0 is not; the
		// bound 1e9 seconds is valid, above it is not; NaN and infinity
		// (which ParseFloat accepts) are not numbers of seconds.
		{"Crawl-delay: 0", want{}},
		{"Crawl-delay: 0.5", want{delay: 500 * time.Millisecond}},
		{"Crawl-delay: 1", want{delay: time.Second}},
		{"Crawl-delay: -1", want{bad: true}},
		{"Crawl-delay: -0.001", want{bad: true}},
		{"Crawl-delay: 1000000000", want{delay: 1000000000 * time.Second}},
		{"Crawl-delay: 1000000001", want{bad: true}},
		{"Crawl-delay: NaN", want{bad: true}},
		{"Crawl-delay: Inf", want{bad: true}},
		{"Crawl-delay: ten", want{bad: true}},

		// Request-rate: the unit letter in either case; no unit is seconds.
		{"Request-rate: 1/10", want{requests: 1, per: 10 * time.Second}},
		{"Request-rate: 1/10s", want{requests: 1, per: 10 * time.Second}},
		{"Request-rate: 3/10S", want{requests: 3, per: 10 * time.Second}},
		{"Request-rate: 1/2m", want{requests: 1, per: 2 * time.Minute}},
		{"Request-rate: 1/2M", want{requests: 1, per: 2 * time.Minute}},
		{"Request-rate: 1/3h", want{requests: 1, per: 3 * time.Hour}},
		{"Request-rate: 1/3H", want{requests: 1, per: 3 * time.Hour}},
		{"Request-rate: 1/1s", want{requests: 1, per: time.Second}},
		{"Request-rate: 2/5m 0100-0230", want{requests: 2, per: 5 * time.Minute, window: w(60, 150)}},
		{"Request-rate:", want{bad: true}},
		{"Request-rate: 1/10s 0100-0200 x", want{bad: true}},
		{"Request-rate: 10s", want{bad: true}},
		{"Request-rate: x/10s", want{bad: true}},
		{"Request-rate: 0/10s", want{bad: true}},
		{"Request-rate: -1/10s", want{bad: true}},
		{"Request-rate: 1/0s", want{bad: true}},
		{"Request-rate: 1/xs", want{bad: true}},
		{"Request-rate: 1/10d", want{bad: true}},
		{"Request-rate: 1/s", want{bad: true}},
		{"Request-rate: 1/10s 0100", want{bad: true}},

		// Visit-time: hours up to 24, minutes up to 59, 24 only as 2400.
		{"Visit-time: 0100-0400", want{window: w(60, 240)}},
		{"Visit-time: 01:00-04:30", want{window: w(60, 270)}},
		{"Visit-time: 0000-2400", want{window: w(0, 1440)}},
		{"Visit-time: 2359-0059", want{window: w(1439, 59)}},
		{"Visit-time: 2401-0100", want{bad: true}},
		{"Visit-time: 2430-0100", want{bad: true}},
		{"Visit-time: 2500-0100", want{bad: true}},
		{"Visit-time: 0060-0100", want{bad: true}},
		{"Visit-time: 0100-0060", want{bad: true}},
		{"Visit-time: ab00-0100", want{bad: true}},
		{"Visit-time: 01ab-0100", want{bad: true}},
		{"Visit-time: 100-0400", want{bad: true}},
		{"Visit-time: 0100-400", want{bad: true}},
		{"Visit-time: 01::00-0400", want{bad: true}},
		{"Visit-time: 0100", want{bad: true}},

		// Host: a name, or a URL (whose "://" holds a '/'); not a path,
		// not blanks, not empty.
		{"Host: www.example.com", want{}},
		{"Host: https://www.example.com", want{}},
		{"Host:", want{bad: true}},
		{"Host: www.example.com/forum", want{bad: true}},
		{"Host: www example com", want{bad: true}},

		// Clean-param: one or two fields, the path starting with / or *.
		{"Clean-param: ref", want{params: []string{"ref"}}},
		{"Clean-param: ref&sid /forum", want{params: []string{"ref", "sid"}, path: "/forum"}},
		{"Clean-param: ref *.php", want{params: []string{"ref"}, path: "*.php"}},
		{"Clean-param:", want{bad: true}},
		{"Clean-param: ref /forum /other", want{bad: true}},
		{"Clean-param: ref forum", want{bad: true}},
		{"Clean-param: ref&&sid", want{bad: true}},

		// Content-Signal and Content-Usage pairs.
		{"Content-Signal: search=yes, ai-train=NO", want{pairs: []robotstxt.Pair{{Key: "search", Value: "yes"}, {Key: "ai-train", Value: "no"}}}},
		{"Content-Signal: =yes", want{bad: true}},
		{"Content-Signal: search", want{bad: true}},
		{"Content-Signal: search=y", want{bad: true}},
		{"Content-Signal: ,", want{bad: true}},
		{"Content-Usage: train-ai=n", want{pairs: []robotstxt.Pair{{Key: "train-ai", Value: "n"}}}},
		{"Content-Usage: /docs train-ai=y", want{path: "/docs", pairs: []robotstxt.Pair{{Key: "train-ai", Value: "y"}}}},
		{"Content-Usage: /docs", want{bad: true}},
		{"Content-Usage: train-ai=no", want{bad: true}},
	} {
		f := robotstxt.Parse([]byte("User-agent: *\n" + c.line + "\n"))
		exts := f.Extensions()
		if len(exts) != 1 {
			t.Errorf("%q: %d extensions, want 1", c.line, len(exts))
			continue
		}
		e := exts[0]
		got := want{bad: e.Err != "", delay: e.Delay, requests: e.Requests, per: e.Per,
			window: e.Window, params: e.Params, path: e.Path, pairs: e.Pairs}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %+v (err %q), want %+v", c.line, got, e.Err, c.want)
		}
		diag := false
		for _, d := range f.Diagnostics() {
			if d.Code == "invalid-value" && d.Line == 2 {
				diag = true
			}
		}
		if diag != c.want.bad {
			t.Errorf("%q: invalid-value diagnostic %v, want %v", c.line, diag, c.want.bad)
		}
	}
}

// TestExtensionLookups: Host, Agent.Extension and Agent.Extensions give
// only valid lines of the asked kind, and Extension and Extensions only
// from the agent's own groups.
func TestExtensionLookups(t *testing.T) {
	f := robotstxt.Parse([]byte(`Host: www.example.com/bad
Crawl-delay: 7
Host: mirror.example.com
User-agent: a
Crawl-delay: slow
Clean-param: x&&y
Clean-param: ref
Crawl-delay: 4
Clean-param: sid /forum
Disallow: /a
User-agent: b
Request-rate: 1/10s
Clean-param: other
`))
	if h, ok := f.Host(); !ok || h.Value != "mirror.example.com" || h.Line != 3 {
		t.Errorf("Host() = %+v, %v; want line 3", h, ok)
	}
	a := f.Matcher("a")
	if d, line, ok := a.CrawlDelay(); !ok || d != 4*time.Second || line != 8 {
		t.Errorf("a: CrawlDelay() = %v, line %d, %v; want 4s, line 8", d, line, ok)
	}
	if e, ok := a.Extension(robotstxt.KeyRequestRate); ok {
		t.Errorf("a: Extension(Request-rate) = line %d, want none", e.Line)
	}
	if e, ok := a.Extension(robotstxt.KeyCleanParam); !ok || e.Line != 7 {
		t.Errorf("a: Extension(Clean-param) = line %d, %v; want line 7", e.Line, ok)
	}
	var lines []int
	for _, e := range a.Extensions(robotstxt.KeyCleanParam) {
		lines = append(lines, e.Line)
	}
	if !reflect.DeepEqual(lines, []int{7, 9}) {
		t.Errorf("a: Extensions(Clean-param) lines %v, want [7 9]", lines)
	}
	if got := a.Extensions(robotstxt.KeyVisitTime); got != nil {
		t.Errorf("a: Extensions(Visit-time) = %+v, want none", got)
	}
	if e, ok := f.Matcher("b").Extension(robotstxt.KeyRequestRate); !ok || e.Line != 12 {
		t.Errorf("b: Extension(Request-rate) = line %d, %v; want line 12", e.Line, ok)
	}
	if d, line, ok := f.Matcher("b").CrawlDelay(); ok {
		t.Errorf("b: CrawlDelay() = %v, line %d; want none (line 2 is in no group)", d, line)
	}
	// An agent that no group names, in a file without a "*" group.
	none := f.Matcher("c")
	if e, ok := none.Extension(robotstxt.KeyCrawlDelay); ok {
		t.Errorf("c: Extension(Crawl-delay) = line %d, want none", e.Line)
	}
	if got := none.Extensions(robotstxt.KeyCleanParam); got != nil {
		t.Errorf("c: Extensions(Clean-param) = %+v, want none", got)
	}
	noHost := robotstxt.Parse([]byte("Crawl-delay: 1\nHost: a b\nUser-agent: *\nCrawl-delay: 2\n"))
	if h, ok := noHost.Host(); ok {
		t.Errorf("Host() = line %d, want none", h.Line)
	}
}
