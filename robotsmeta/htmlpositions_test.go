package robotsmeta

import (
	"strings"
	"testing"
)

// TestMetaPositions: a meta's line and column count from 1:1, and a token
// holding a newline (LF, CR or CRLF) restarts the column after its last
// one.
func TestMetaPositions(t *testing.T) {
	for _, c := range []struct {
		doc       string
		line, col int
	}{
		{`<meta name=robots content=noindex>`, 1, 1},
		{`<p>ab<meta name=robots content=noindex>`, 1, 6},
		{"<p>ab\n  <meta name=robots content=noindex>", 2, 3},
		{"<p>ab\r  <meta name=robots content=noindex>", 2, 3},
		{"<p>ab\r\n  <meta name=robots content=noindex>", 2, 3},
		{"<p>ab\n\rcd\r\n\nxyz<meta name=robots content=noindex>", 5, 4},
		{"<p\ntitle=\"a\r\nbcd\">e<meta name=robots content=noindex>", 3, 7},
	} {
		p, err := ParseLines(nil, strings.NewReader(c.doc), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Sources) != 1 {
			t.Fatalf("%q: sources %+v", c.doc, p.Sources)
		}
		if s := p.Sources[0]; s.Line != c.line || s.Column != c.col {
			t.Errorf("%q: meta at %d:%d, want %d:%d", c.doc, s.Line, s.Column, c.line, c.col)
		}
	}
}
