package robotstxt

import (
	"bytes"
	"testing"
)

// FuzzQuickKey checks the shortcut for the common keys against the general
// path: when quickKey names a key, the line's first ':' is where it says
// and keyOf reads the same key, spelled exactly.
func FuzzQuickKey(f *testing.F) {
	for _, s := range []string{"Disallow: /x", "disallow:", "ALLOW:/", "allow :", "User-Agent: *", "user-agents: x",
		"disallowed: /", "Disallow /x", "dis:allow", "user\x0dagent:", "user-agenT:x", "allow"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.ContainsAny(line, "\r\n") {
			return // line ends never occur inside a line
		}
		k, n := quickKey(line)
		if k == KeyNone {
			return
		}
		if sep := bytes.IndexByte(line, ':'); sep != n {
			t.Fatalf("%q: quickKey says ':' at %d, first ':' is at %d", line, n, sep)
		}
		if gk, typo := keyOf(line[:n]); gk != k || typo {
			t.Fatalf("%q: quickKey %v, keyOf %v (typo %v)", line, k, gk, typo)
		}
	})
}
