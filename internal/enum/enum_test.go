package enum

import (
	"encoding/json"
	"errors"
	"testing"
)

type color uint8

const (
	none color = iota
	red
	green
	blue
)

var colorNames = New[color]("color", "", "red", "green", "blue")

func (c color) String() string                { return colorNames.String(c) }
func (c color) MarshalText() ([]byte, error)  { return colorNames.Marshal(c) }
func (c *color) UnmarshalText(b []byte) error { return colorNames.Unmarshal(b, c) }

type level int8

var levelNames = New[level]("level", "low", "high")

func TestString(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{red.String(), "red"}, {blue.String(), "blue"}, {none.String(), ""},
		{color(9).String(), "color(9)"},
		{levelNames.String(1), "high"}, {levelNames.String(-1), "level(-1)"}, {levelNames.String(2), "level(2)"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestHas(t *testing.T) {
	for c, want := range map[color]bool{none: false, red: true, blue: true, color(4): false, color(255): false} {
		if colorNames.Has(c) != want {
			t.Errorf("Has(%d) = %v, want %v", c, !want, want)
		}
	}
	if levelNames.Has(-1) || !levelNames.Has(0) {
		t.Error("Has on a signed enum")
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want color
		ok   bool
	}{
		{"red", red, true}, {"green", green, true}, {"blue", blue, true},
		{"", none, false}, // an empty name is never parsed
		{"Red", none, false}, {"red ", none, false}, {"color(9)", none, false}, {"purple", none, false},
	} {
		got, err := colorNames.Parse(tc.in)
		if got != tc.want || (err == nil) != tc.ok {
			t.Errorf("Parse(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
		var e *Error
		if !tc.ok && (!errors.As(err, &e) || e.Kind != "color" || e.Text != tc.in) {
			t.Errorf("Parse(%q): error %#v is not an *Error naming the kind and the text", tc.in, err)
		}
	}
	_, err := colorNames.Parse("purple")
	if want := `unknown color "purple": use red, green or blue`; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	in := map[string]color{"a": red, "b": green, "c": blue}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"a":"red","b":"green","c":"blue"}` {
		t.Fatalf("marshal: %s", b)
	}
	var out map[string]color
	if err := json.Unmarshal(b, &out); err != nil || len(out) != 3 || out["a"] != red || out["b"] != green || out["c"] != blue {
		t.Fatalf("unmarshal: %v, %v", out, err)
	}
	c := green
	var e *Error
	if err := json.Unmarshal([]byte(`"purple"`), &c); !errors.As(err, &e) || c != green {
		t.Errorf("bad text: %v, value %v (want an *Error and the value unchanged)", err, c)
	}
}

func TestOr(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
	}{
		{nil, ""}, {[]string{"a"}, "a"}, {[]string{"a", "b"}, "a or b"}, {[]string{"a", "b", "c"}, "a, b or c"},
	} {
		if got := Or(tc.in); got != tc.want {
			t.Errorf("Or(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzParse checks that a text parses only to the value whose String it
// is, and that every value's String parses back to it.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "red", "green", "blue", "color(1)", "RED"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := colorNames.Parse(s)
		if err == nil && v.String() != s {
			t.Fatalf("Parse(%q) = %v, whose String differs", s, v)
		}
		for c := red; c <= blue; c++ {
			if back, err := colorNames.Parse(c.String()); err != nil || back != c {
				t.Fatalf("%v does not parse back: %v, %v", c, back, err)
			}
		}
	})
}
