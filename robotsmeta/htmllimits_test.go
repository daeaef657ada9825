package robotsmeta

import (
	"errors"
	"io"
	"strings"
	"testing"
)

var errBodyRead = errors.New("connection reset")

// failingBody gives body, then fails.
type failingBody struct{ r io.Reader }

func (f *failingBody) Read(b []byte) (int, error) {
	n, err := f.r.Read(b)
	if errors.Is(err, io.EOF) {
		return n, errBodyRead
	}
	return n, err
}

// TestBodyReadError: a body that fails after the first kilobyte (past the
// charset sniffing) makes Parse return the reader's error, with what was
// read before it.
func TestBodyReadError(t *testing.T) {
	body := `<meta name=robots content=noindex>` + strings.Repeat("<p>filler</p>\n", 200)
	p, err := ParseLines(nil, &failingBody{strings.NewReader(body)}, Options{})
	if !errors.Is(err, errBodyRead) {
		t.Fatalf("error %v, want %v", err, errBodyRead)
	}
	if p == nil || len(p.Sources) != 1 || p.Sources[0].Value != "noindex" {
		t.Fatalf("page %+v", p)
	}
}

// TestTokenLimitDiagnostic: the limit-token diagnostic points where reading
// stopped (the tokenizer hands over the first MaxToken bytes of the text
// run, here 1,024 from column 43) and names no source.
func TestTokenLimitDiagnostic(t *testing.T) {
	doc := `<meta name="robots" content="nofollow"><p>` + strings.Repeat("x", 2<<10)
	p, err := ParseLines(nil, strings.NewReader(doc), Options{MaxToken: 1 << 10})
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, d := range p.Diagnostics {
		if d.Code != "limit-token" {
			continue
		}
		found = true
		if d.Line != 1 || d.Column != 1067 || d.Source != -1 || d.Severity != Warning {
			t.Errorf("limit-token %+v, want a warning at 1:1067 with Source -1", d)
		}
	}
	if !found {
		t.Errorf("no limit-token diagnostic in %v", p.Diagnostics)
	}
}

// TestDepthLimit: the open-element stack keeps 512 elements, Blink's
// parser depth limit; the 513th is counted, with one limit-depth
// diagnostic, and read as HTML whatever the elements it sits in: an SVG
// <style> within the limit is not raw text (the meta in it breaks out of
// the SVG and counts), beyond it is.
func TestDepthLimit(t *testing.T) {
	depthDiags := func(p *Page) int {
		n := 0
		for _, d := range p.Diagnostics {
			if d.Code == "limit-depth" {
				n++
				// At the 513th <div>, naming no source.
				if d.Line != 1 || d.Column != 512*5+1 || d.Source != -1 || d.Severity != Info {
					t.Errorf("limit-depth %+v, want info at 1:%d with Source -1", d, 512*5+1)
				}
			}
		}
		return n
	}
	for _, c := range []struct {
		divs  int
		diags int
		want  string
	}{
		{512, 0, ""},
		{513, 1, ""},
		{1000, 1, ""},
	} {
		doc := strings.Repeat("<div>", c.divs) + "x"
		p, err := ParseLines(nil, strings.NewReader(doc), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if n := depthDiags(p); n != c.diags {
			t.Errorf("%d nested divs: %d limit-depth diagnostics, want %d", c.divs, n, c.diags)
		}
	}
	// beyond: svg is the 512th element, g the 513th; within: style is the
	// 512th.
	beyond := strings.Repeat("<div>", 511) + `<svg><g><style><meta name=robots content=noindex></style>`
	within := strings.Repeat("<div>", 510) + `<svg><g><style><meta name=robots content=noindex></style>`
	for _, c := range []struct {
		doc  string
		want int
	}{{beyond, 0}, {within, 1}} {
		p, err := ParseLines(nil, strings.NewReader(c.doc), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Sources) != c.want {
			t.Errorf("%d elements before the svg: %d robots metas, want %d", strings.Count(c.doc, "<div>"), len(p.Sources), c.want)
		}
	}
}

// TestRegionTextCap: MaxRegionText caps a region's text in bytes: text of
// exactly that size is kept whole, a byte more is cut at a character
// boundary and marked truncated; the space between words counts.
func TestRegionTextCap(t *testing.T) {
	for _, c := range []struct {
		text      string
		max       int
		want      string
		truncated bool
	}{
		{"abcd", 5, "abcd", false},
		{"abcd", 4, "abcd", false},
		{"abcd", 3, "abc", true},
		{"ab  cd", 5, "ab cd", false},
		{"ab  cd", 4, "ab c", true},
		{"ab  cd", 3, "ab", true},
		{"ab  cd", 2, "ab", true},
		{"aéé", 5, "aéé", false},
		{"aéé", 4, "aé", true},
		{"aéé", 3, "aé", true},
		{"aéé", 2, "a", true},
		{" a ", 1, "a", false},
		{"aé<b>b</b>", 2, "a", true},
		{"abc<b>d</b>", 3, "abc", true},
	} {
		doc := `<div data-nosnippet>` + c.text + `</div>`
		p, err := ParseLines(nil, strings.NewReader(doc), Options{MaxRegionText: c.max})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.NoSnippet) != 1 {
			t.Fatalf("%q: regions %+v", c.text, p.NoSnippet)
		}
		if r := p.NoSnippet[0]; r.Text != c.want || r.Truncated != c.truncated {
			t.Errorf("%q under %d bytes: %q truncated=%v, want %q truncated=%v", c.text, c.max, r.Text, r.Truncated, c.want, c.truncated)
		}
	}
}

// TestDepthLimitRecovers: once the elements at the limit close, the ones
// counted beyond it close with them and the stack tracks elements again:
// a <div> that closes a p at the limit (with elements counted beyond it)
// is closed by its own </div>, and what follows is read.
func TestDepthLimitRecovers(t *testing.T) {
	at := strings.Repeat("<div>", 510) + // p is the 511th element, span the 512th, b the 513th
		`<p class=robots-nocontent>a<span><b>b<div class=robots-nocontent>c</div>d` +
		`<p><i><u>e<div>f<meta name=robots content=noindex>`
	if got, want := summary(streamed(t, at)), "body noindex; {ab}; {c}"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// After that, end tags close tracked elements again: the two </div>
	// close the inner div and then the region's.
	again := strings.Repeat("<div>", 509) + // the region's div is the 510th element, b the 513th
		`<div class=robots-nocontent><p><span><b><div>a</div></div>b`
	if got, want := summary(streamed(t, again)), "{a}"; got != want {
		t.Errorf("end tags after the limit: got %q, want %q", got, want)
	}
	// Beyond the limit (after 512 divs) an end tag closes the deepest
	// counted element; a counted template ends at its </template>, and
	// hides its contents until then.
	limit := strings.Repeat("<div>", 512)
	for _, c := range []struct{ doc, want string }{
		{`<b class=robots-nocontent>a</b>b`, "{a}"},
		{`<template><meta name=robots content=nofollow></template><meta name=robots content=noindex>`, "body noindex"},
		{`<template><b></b><meta name=robots content=nofollow></template><meta name=robots content=noindex>`, "body noindex"},
		{`<b></template><meta name=robots content=noindex>`, "body noindex"},
		{`<template></template><b></template><meta name=robots content=noindex>`, "body noindex"},
	} {
		if got := summary(streamed(t, limit+c.doc)); got != c.want {
			t.Errorf("512 divs and %s: got %q, want %q", c.doc, got, c.want)
		}
	}
}
