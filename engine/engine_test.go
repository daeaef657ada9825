package engine

import (
	"errors"
	"testing"

	"github.com/rep-toolkit/rep/internal/enum"
	"github.com/rep-toolkit/rep/robotstxt"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Engine
		err  bool
	}{
		{"", Auto, false}, {"auto", Auto, false}, {"google", Google, false}, {"GOOGLE", Google, false},
		{"bing", Bing, false}, {" Yandex ", Yandex, false}, {"rfc9309", RFC9309, false}, {"rfc", RFC9309, false},
		{"baidu", Auto, true}, {"google ,", Auto, true},
	} {
		got, err := Parse(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("Parse(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.err)
		}
		var pe *Error
		if tc.err && (!errors.As(err, &pe) || pe.Name != tc.in) {
			t.Errorf("Parse(%q): error %v is not an *Error naming the input", tc.in, err)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	for _, e := range append(All(), Auto) {
		b, _ := e.MarshalText()
		var back Engine
		if err := back.UnmarshalText(b); err != nil || back != e {
			t.Errorf("%v: round trip gives %v, %v", e, back, err)
		}
	}
	if len(All()) != 4 {
		t.Fatalf("All() = %v: want the four engines", All())
	}
}

func TestTraits(t *testing.T) {
	for _, tc := range []struct {
		e           Engine
		parser      robotstxt.Profile
		delay, rate bool
	}{
		{Google, robotstxt.Google, false, false},
		{Bing, robotstxt.Google, true, false},
		{Yandex, robotstxt.Google, true, true},
		{RFC9309, robotstxt.RFC9309, false, false},
	} {
		if tc.e.Parser() != tc.parser || tc.e.ReadsCrawlDelay() != tc.delay || tc.e.ReadsRequestRate() != tc.rate {
			t.Errorf("%v: parser %v delay %v rate %v", tc.e, tc.e.Parser(), tc.e.ReadsCrawlDelay(), tc.e.ReadsRequestRate())
		}
		// An engine that reads Crawl-delay groups by it.
		if o := tc.e.ParseOptions(); o != (robotstxt.Options{Profile: tc.parser, CrawlDelayEndsGroup: tc.delay}) {
			t.Errorf("%v: parse options %+v", tc.e, o)
		}
	}
	if Auto.Or(Bing) != Bing || Yandex.Or(Bing) != Yandex {
		t.Error("Or")
	}
}

// TestNames checks that the message list names every engine, in All's order.
func TestNames(t *testing.T) {
	var ns []string
	for _, e := range All() {
		ns = append(ns, e.String())
	}
	if got := enum.Or(ns); got != Names {
		t.Errorf("Names = %q, want %q", Names, got)
	}
	if Engine(9).String() != "engine(9)" {
		t.Errorf("out of range: %q", Engine(9).String())
	}
}
