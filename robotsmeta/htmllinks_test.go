package robotsmeta

import (
	"fmt"
	"strings"
	"testing"
)

// TestLinkFields: a link keeps its href trimmed of ASCII whitespace and cut
// at 8,192 bytes, its rel as written, the nofollow, ugc and sponsored
// tokens in it (any case, any whitespace between), and where it starts.
func TestLinkFields(t *testing.T) {
	long := "/" + strings.Repeat("x", 8191)
	for _, c := range []struct {
		doc       string
		href      string
		rel       Rel
		line, col int
	}{
		{`<a href=/x>`, "/x", 0, 1, 1},
		{"<p>ab\n <a href=\" /x\t\">", "/x", 0, 2, 2},
		{`<area href=/y rel=nofollow>`, "/y", RelNoFollow, 1, 1},
		{`<a href=/x rel="NoFollow noopener">`, "/x", RelNoFollow, 1, 1},
		{"<a href=/x rel=\"noopener\tugc\">", "/x", RelUGC, 1, 1},
		{"<a href=/x rel=\"sponsored\nugc\rnofollow\">", "/x", RelNoFollow | RelUGC | RelSponsored, 1, 1},
		{"<a href=/x rel=\"external\fSPONSORED\">", "/x", RelSponsored, 1, 1},
		{`<a href=/x rel="nofollowed ugcs sponsor">`, "/x", 0, 1, 1},
		{`<a href=/x rel="">`, "/x", 0, 1, 1},
		{`<a href=/x rel=" ugc  nofollow ">`, "/x", RelUGC | RelNoFollow, 1, 1},
		{`<a href=` + long + `>`, long, 0, 1, 1},
		{`<a href=` + long + `y>`, long, 0, 1, 1},
	} {
		p, err := ParseLines(nil, strings.NewReader(c.doc), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Links) != 1 {
			t.Fatalf("%.60q: links %+v", c.doc, p.Links)
		}
		l := p.Links[0]
		i := strings.Index(c.doc, "rel=")
		relText := ""
		if i >= 0 {
			relText = strings.Trim(c.doc[i+4:strings.LastIndex(c.doc, ">")], `"`)
			// HTML's input stream turns a CR into LF.
			relText = strings.ReplaceAll(relText, "\r", "\n")
		}
		if l.Href != c.href || l.Rel != c.rel || l.RelText != relText || l.Line != c.line || l.Column != c.col {
			t.Errorf("%.60q: link %.60q rel %d %q at %d:%d, want %.60q rel %d %q at %d:%d",
				c.doc, l.Href, l.Rel, l.RelText, l.Line, l.Column, c.href, c.rel, relText, c.line, c.col)
		}
	}
}

// TestLinkAndRegionCaps: MaxLinks and MaxRegions keep that many and count
// the rest in a diagnostic.
func TestLinkAndRegionCaps(t *testing.T) {
	for _, c := range []struct {
		n, max int
		diag   string
	}{
		{2, 3, ""},
		{3, 3, ""},
		{4, 3, "1 links beyond the first 3 not kept"},
		{6, 3, "3 links beyond the first 3 not kept"},
	} {
		doc := strings.Repeat(`<a href=/x>x</a>`, c.n)
		p, err := ParseLines(nil, strings.NewReader(doc), Options{MaxLinks: c.max})
		if err != nil {
			t.Fatal(err)
		}
		checkCap(t, fmt.Sprintf("%d links under %d", c.n, c.max), len(p.Links), min(c.n, c.max), p.Diagnostics, "limit-links", c.diag)
	}
	for _, c := range []struct {
		n, max int
		diag   string
	}{
		{3, 3, ""},
		{4, 3, "1 snippet regions beyond the first 3 not kept"},
	} {
		doc := strings.Repeat(`<span data-nosnippet>x</span><b class=robots-nocontent>y</b>`, c.n)
		p, err := ParseLines(nil, strings.NewReader(doc), Options{MaxRegions: c.max})
		if err != nil {
			t.Fatal(err)
		}
		diag := c.diag
		if diag != "" {
			// Both kinds are capped, and counted together.
			diag = strings.Replace(diag, "1 snippet", "2 snippet", 1)
		}
		checkCap(t, fmt.Sprintf("%d regions under %d", c.n, c.max), len(p.NoSnippet), min(c.n, c.max), p.Diagnostics, "limit-regions", diag)
		if len(p.NoContent) != min(c.n, c.max) {
			t.Errorf("%d regions under %d: %d nocontent regions", c.n, c.max, len(p.NoContent))
		}
	}
}

func checkCap(t *testing.T, what string, got, want int, diags []Diagnostic, code, msg string) {
	t.Helper()
	if got != want {
		t.Errorf("%s: kept %d, want %d", what, got, want)
	}
	var found []string
	for _, d := range diags {
		if d.Code == code {
			found = append(found, d.Message)
		}
	}
	switch {
	case msg == "" && len(found) > 0:
		t.Errorf("%s: unexpected %s %q", what, code, found)
	case msg != "" && (len(found) != 1 || found[0] != msg):
		t.Errorf("%s: %s %q, want %q", what, code, found, msg)
	}
}
