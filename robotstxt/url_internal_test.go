package robotstxt

import (
	"bytes"
	"testing"
)

// FuzzAuthorityLen checks the 8-bytes-at-a-time authority scan against the
// byte loop it replaces.
func FuzzAuthorityLen(f *testing.F) {
	for _, s := range []string{"", "a", "example.com/x", "exa?mple", "abcdefgh/", "abcdefghij;k", "abcdefghijklmnop#", "12345678", "ä€/x", "\xff\xfe/\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := 0
		for want < len(s) && !authorityEnd[s[want]] {
			want++
		}
		if got := authorityLen(s); got != want {
			t.Fatalf("authorityLen(%q) = %d, want %d", s, got, want)
		}
	})
}

// FuzzPlainPattern checks the 8-bytes-at-a-time scan against the plain
// definition: no '%', no byte ≥ 0x80, and the first '*'.
func FuzzPlainPattern(f *testing.F) {
	for _, s := range []string{"", "/", "/a*b", "/abcdefg*", "/abcdefgh*", "/%41", "/ä*", "********", "/abcdefghijklmno%"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		plain, star := plainPattern(v)
		wantPlain := bytes.IndexByte(v, '%') < 0
		for _, c := range v {
			if c >= 0x80 {
				wantPlain = false
			}
		}
		if plain != wantPlain {
			t.Fatalf("%q: plain %v, want %v", v, plain, wantPlain)
		}
		if plain && star != bytes.IndexByte(v, '*') {
			t.Fatalf("%q: star %d, want %d", v, star, bytes.IndexByte(v, '*'))
		}
	})
}
