package robotstxt

import "testing"

// FuzzByteMask checks the 8-bytes-a-round mask against the byte loop.
func FuzzByteMask(f *testing.F) {
	for _, s := range []string{"", "/", "/abcdefg", "/abcdefgh", "/abcdefghi?x=1&y=_", "\xff\x00\x1f\x20\x3f\x5f\x7f\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want uint32
		for i := 0; i < len(s); i++ {
			want |= 1 << (s[i] & 31)
		}
		if got := byteMask(s); got != want {
			t.Fatalf("byteMask(%q) = %#x, want %#x", s, got, want)
		}
	})
}
