package htmlscan

// The element categories of the WHATWG tree-construction rules (HTML
// Living Standard §13.2.6) that the Scanner in scan.go applies.

import "golang.org/x/net/html/atom"

func rawText(a atom.Atom) bool {
	switch a {
	case atom.Script, atom.Style, atom.Title, atom.Textarea, atom.Noscript, atom.Iframe,
		atom.Noembed, atom.Noframes, atom.Xmp, atom.Plaintext:
		return true
	}
	return false
}

type scopeKind uint8

const (
	scopeDefault scopeKind = iota
	scopeButton
	scopeList
	scopeTable
)

func scopeBoundary(el elem, k scopeKind) bool {
	if el.ns == nsSVG {
		return k != scopeTable && svgIntegration(el)
	}
	if el.ns == nsMath {
		switch el.a {
		case atom.Mi, atom.Mo, atom.Mn, atom.Ms, atom.Mtext, atom.AnnotationXml:
			return k != scopeTable
		}
		return false
	}
	switch el.a {
	case atom.Html, atom.Table, atom.Template:
		return true
	case atom.Applet, atom.Caption, atom.Td, atom.Th, atom.Marquee, atom.Object:
		return k != scopeTable
	case atom.Button:
		return k == scopeButton
	case atom.Ol, atom.Ul:
		return k == scopeList
	}
	return false
}

// svgIntegration reports an SVG HTML integration point. The tokenizer
// lower-cases tag names: atom.Foreignobject, not atom.ForeignObject.
func svgIntegration(el elem) bool {
	return el.a == atom.Desc || el.a == atom.Title || el.a == atom.Foreignobject
}

func isHeading(a atom.Atom) bool {
	switch a {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	}
	return false
}

func headContent(a atom.Atom) bool {
	switch a {
	case atom.Base, atom.Basefont, atom.Bgsound, atom.Link, atom.Meta, atom.Noframes,
		atom.Script, atom.Style, atom.Template, atom.Title, atom.Noscript:
		return true
	}
	return false
}

func void(a atom.Atom) bool {
	switch a {
	case atom.Area, atom.Base, atom.Basefont, atom.Bgsound, atom.Br, atom.Col, atom.Embed,
		atom.Frame, atom.Hr, atom.Image, atom.Img, atom.Input, atom.Keygen, atom.Link,
		atom.Meta, atom.Param, atom.Source, atom.Track, atom.Wbr:
		return true
	}
	return false
}

// closesP lists the start tags that "close a p element" in the in-body
// insertion mode.
func closesP(a atom.Atom) bool {
	switch a {
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Center, atom.Details,
		atom.Dialog, atom.Dir, atom.Div, atom.Dl, atom.Fieldset, atom.Figcaption, atom.Figure,
		atom.Footer, atom.Header, atom.Hgroup, atom.Main, atom.Menu, atom.Nav, atom.Ol, atom.P,
		atom.Search, atom.Section, atom.Summary, atom.Ul, atom.H1, atom.H2, atom.H3, atom.H4,
		atom.H5, atom.H6, atom.Pre, atom.Listing, atom.Form, atom.Plaintext, atom.Table,
		atom.Hr, atom.Xmp, atom.Li, atom.Dd, atom.Dt:
		return true
	}
	return false
}

// blockEnd lists the end tags that close their element, with whatever is
// open inside it, when it is in scope: the "in body" block end tags, dd,
// dt, applet, marquee, object, and the table parts as the table insertion
// modes close them. </form> has its own rules (endForm); </colgroup> is
// left to the "any other end tag" steps, which close a colgroup only when
// it is the current node, as "in column group" does (nothing but a
// template can be open inside one).
func blockEnd(a atom.Atom) bool {
	switch a {
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Button, atom.Center,
		atom.Details, atom.Dialog, atom.Dir, atom.Div, atom.Dl, atom.Fieldset, atom.Figcaption,
		atom.Figure, atom.Footer, atom.Header, atom.Hgroup, atom.Listing, atom.Main, atom.Menu,
		atom.Nav, atom.Ol, atom.Pre, atom.Search, atom.Section, atom.Summary, atom.Ul,
		atom.Applet, atom.Marquee, atom.Object, atom.Table, atom.Caption,
		atom.Tbody, atom.Td, atom.Tfoot, atom.Th, atom.Thead, atom.Tr, atom.Dd, atom.Dt:
		return true
	}
	return false
}

// breakout lists the start tags that end foreign content.
func breakout(a atom.Atom) bool {
	switch a {
	case atom.B, atom.Big, atom.Blockquote, atom.Body, atom.Br, atom.Center, atom.Code,
		atom.Dd, atom.Div, atom.Dl, atom.Dt, atom.Em, atom.Embed, atom.H1, atom.H2, atom.H3,
		atom.H4, atom.H5, atom.H6, atom.Head, atom.Hr, atom.I, atom.Img, atom.Li, atom.Listing,
		atom.Menu, atom.Meta, atom.Nobr, atom.Ol, atom.P, atom.Pre, atom.Ruby, atom.S,
		atom.Small, atom.Span, atom.Strong, atom.Strike, atom.Sub, atom.Sup, atom.Table,
		atom.Tt, atom.U, atom.Ul, atom.Var:
		return true
	}
	return false
}

// special is the WHATWG "special" category (HTML part).
func special(el elem) bool {
	if el.ns != nsHTML {
		return scopeBoundary(el, scopeDefault)
	}
	switch el.a {
	case atom.Address, atom.Applet, atom.Area, atom.Article, atom.Aside, atom.Base,
		atom.Basefont, atom.Bgsound, atom.Blockquote, atom.Body, atom.Br, atom.Button,
		atom.Caption, atom.Center, atom.Col, atom.Colgroup, atom.Dd, atom.Details, atom.Dir,
		atom.Div, atom.Dl, atom.Dt, atom.Embed, atom.Fieldset, atom.Figcaption, atom.Figure,
		atom.Footer, atom.Form, atom.Frame, atom.Frameset, atom.H1, atom.H2, atom.H3, atom.H4,
		atom.H5, atom.H6, atom.Head, atom.Header, atom.Hgroup, atom.Hr, atom.Html, atom.Iframe,
		atom.Img, atom.Input, atom.Keygen, atom.Li, atom.Link, atom.Listing, atom.Main,
		atom.Marquee, atom.Menu, atom.Meta, atom.Nav, atom.Noembed, atom.Noframes,
		atom.Noscript, atom.Object, atom.Ol, atom.P, atom.Param, atom.Plaintext, atom.Pre,
		atom.Script, atom.Search, atom.Section, atom.Select, atom.Source, atom.Style,
		atom.Summary, atom.Table, atom.Tbody, atom.Td, atom.Template, atom.Textarea,
		atom.Tfoot, atom.Th, atom.Thead, atom.Title, atom.Tr, atom.Track, atom.Ul, atom.Wbr,
		atom.Xmp:
		return true
	}
	return false
}
