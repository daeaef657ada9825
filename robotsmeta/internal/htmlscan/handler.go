package htmlscan

import "golang.org/x/net/html"

// Handler receives what a Scanner finds, in document order. Outside
// template contents only: a template's contents are inert.
type Handler interface {
	// Meta is called for a <meta> element; it returns true to stop the
	// scan (Run then returns nil and Stopped reports true).
	Meta(s *Scanner, a Attrs) (stop bool)
	// Link is called for an <a> or <area> with an href, when
	// Options.Links is set.
	Link(s *Scanner, a Attrs)
	// Base is called for a <base> with an href.
	Base(href string)
	// Region is called when a snippet region ends, at most
	// Options.MaxRegions times for each Kind; the rest are counted
	// (Dropped).
	Region(k Kind, r Region)
	// TooDeep is called at an element nested deeper than MaxDepth when
	// none was (once, unless the document comes back within the bound and
	// goes past it again): deeper elements are counted, not tracked, and
	// may close early.
	TooDeep(s *Scanner)
}

// Options configure a Scanner.
type Options struct {
	// Links asks for Handler.Link.
	Links bool
	// Snippets asks for the snippet regions (Handler.Region).
	Snippets bool
	// MaxRegions bounds the regions of each Kind reported.
	MaxRegions int
	// MaxRegionText bounds the bytes of text kept per region.
	MaxRegionText int
}

// Kind is the kind of a snippet region.
type Kind uint8

// The kinds of snippet regions.
const (
	NoSnippet Kind = iota // a span, div or section with data-nosnippet (Google)
	NoContent             // an element of class robots-nocontent (Yahoo)
)

// Region is an element whose text the page keeps out of snippets: the
// outermost of its Kind.
type Region struct {
	// Tag is the element name.
	Tag string
	// Text is the region's textContent with whitespace runs collapsed to
	// one space and trimmed, at most Options.MaxRegionText bytes.
	Text         string
	Line, Column int
	// Truncated is set when Text was cut at Options.MaxRegionText.
	Truncated bool
}

// New returns a Scanner reading z's tokens. The caller bounds z
// (Tokenizer.SetMaxBuf): Run returns html.ErrBufferExceeded for a token
// past that bound.
func New(z *html.Tokenizer, h Handler, o Options) *Scanner {
	return &Scanner{h: h, o: o, z: z}
}

// Pos is the 1-based line and column of the token being read.
func (e *Scanner) Pos() (line, col int) { return e.line, e.col }

// InBody reports whether the token being read is in <body>.
func (e *Scanner) InBody() bool { return e.mode == modeInBody }

// ImpliedBody says what opened <body> without a <body> tag, and where:
// "text", a start tag ("<div>") or an end tag ("</p>"); "" while the body
// is not open, or when a <body> tag was seen.
func (e *Scanner) ImpliedBody() (by string, line, col int) {
	if e.explicit {
		return "", 0, 0
	}
	return e.closedBy, e.closedAt[0], e.closedAt[1]
}

// Stopped reports whether Handler.Meta stopped the scan.
func (e *Scanner) Stopped() bool { return e.stopped }

// Dropped counts the regions not reported, past Options.MaxRegions.
func (e *Scanner) Dropped() int { return e.dropped }
