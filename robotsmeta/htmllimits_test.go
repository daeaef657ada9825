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
