package robotstxt

import (
	"testing"
	"unsafe"
)

// TestSmallMatcher: a Matcher whose group is short holds its index and, when
// nothing reads the rules by their place in the file, their text; its
// answers (verdict, line, pattern as written) are those of the Matcher that
// reads the file's own arrays.
func TestSmallMatcher(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		ownText    bool
	}{
		{"plain", "User-agent: *\nDisallow: /private/\nAllow: /private/ok\nDisallow: /*.pdf$\n\nUser-agent: b\nDisallow: /\n", true},
		{"rewritten pattern", "User-agent: *\nDisallow: /caf\u00e9\nAllow: /x\n", false},
		{"index.html", "User-agent: *\nDisallow: /dir/\nAllow: /dir/index.html\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Parse([]byte(tc.body))
			a := f.Matcher("bot")
			if len(a.ix.keys) == 0 || len(a.ix.keys) > smallIndex {
				t.Fatalf("%d keys: not a small group", len(a.ix.keys))
			}
			s := (*smallMatcher)(unsafe.Pointer(a))
			if &a.ix.keys[0] != &s.keys[0] {
				t.Error("keys not held by the Matcher")
			}
			if owned := unsafe.StringData(a.arena) == &s.text[0]; owned != tc.ownText {
				t.Errorf("text held: %v, want %v", owned, tc.ownText)
			}
			for _, p := range []string{"/", "/private/x", "/private/ok", "/a.pdf", "/a.pdf?x", "/caf%C3%A9", "/café", "/x", "/dir/", "/dir/index.html", "/dir/a", "/robots.txt"} {
				got, want := a.Check(p), f.Check("bot", p)
				if got.Allowed != want.Allowed || got.Rule != want.Rule || got.Reason != want.Reason {
					t.Errorf("%s: small Matcher %+v, file %+v", p, got, want)
				}
			}
		})
	}
}
