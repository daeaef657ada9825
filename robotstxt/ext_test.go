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
		// An invalid value leaves every typed field zero, even those read
		// before the error.
		{"Request-rate: 1/10s 0100", want{bad: true}},
		{"Clean-param: ref forum", want{bad: true}},
		{"Clean-param: ref&&sid", want{bad: true}},
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
