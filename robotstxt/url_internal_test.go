package robotstxt

import "testing"

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
