package crawlers

import (
	"slices"
	"testing"
)

func TestSuggest(t *testing.T) {
	for _, tc := range []struct {
		name string
		want []string // the first suggestions, in order; nil for none
	}{
		{"Googlebto", []string{"Googlebot"}}, // a transposition is one edit
		{"googlebot", nil},                   // known, whatever the case
		{"Googlebot-Imag", []string{"Googlebot-Image"}},
		{"bingbott", []string{"bingbot"}},
		{"GPTbott", []string{"GPTBot"}},
		{"ClaudBot", []string{"ClaudeBot"}},
		{"Yandex", nil},               // a group token the registry knows
		{"Yandx", []string{"Yandex"}}, // one edit from a group token
		{"*", nil},                    // the star is no crawler
		{"", nil},
		{"ExampleBot", nil}, // unknown, and close to nothing
		{"XBot", nil},       // short names: one edit at most
		{"Mozilla/5.0 (compatible; Googlebto/2.1; +http://www.google.com/bot.html) and more", nil}, // too long to be a token
	} {
		got := Suggest(tc.name)
		if tc.want == nil {
			if got != nil {
				t.Errorf("Suggest(%q) = %q, want none", tc.name, got)
			}
			continue
		}
		if len(got) < len(tc.want) || !slices.Equal(got[:len(tc.want)], tc.want) {
			t.Errorf("Suggest(%q) = %q, want it to start with %q", tc.name, got, tc.want)
		}
		if len(got) > 3 {
			t.Errorf("Suggest(%q) = %d names, want at most 3", tc.name, len(got))
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "abc", 0},
		{"", "abc", 3},
		{"googlebto", "googlebot", 1}, // adjacent transposition
		{"kitten", "sitting", 3},
		{"ab", "ba", 1},
		{"ca", "abc", 3}, // optimal string alignment, not Damerau: 3, not 2
		{string(make([]byte, 65)), "a", 1 << 30},
	} {
		if got := EditDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := EditDistance(tc.b, tc.a); got != tc.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d (symmetric)", tc.b, tc.a, got, tc.want)
		}
	}
}
