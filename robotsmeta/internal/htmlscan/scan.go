// Package htmlscan reads an HTML document as a stream of tokens and keeps
// the part of WHATWG tree construction (HTML Living Standard §13.2) that
// decides where elements end: the stack of open elements, head versus
// body, template contents, foreign content (SVG, MathML), tables and
// their scopes. It builds no tree, so memory does not grow with the
// document. It reports <meta>, <a>/<area> links, <base> and the text of
// snippet regions (data-nosnippet, robots-nocontent) to a Handler: it is
// the HTML reader of package robotsmeta, which decides what they mean.
package htmlscan

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// MaxDepth bounds the open-element stack. Browsers bound it too: Blink's
// parser stops nesting at 512 (kMaximumHTMLParserDOMTreeDepth). Deeper
// elements are counted, not kept, so memory stays bounded on hostile input.
const MaxDepth = 512

const (
	nsHTML uint8 = iota
	nsSVG
	nsMath
)

type elem struct {
	a    atom.Atom
	name string // only for tags without an atom (custom elements)
	ns   uint8
}

func (e elem) is(a atom.Atom) bool { return e.a == a && e.ns == nsHTML }

// insertion modes, reduced to what decides head versus body.
const (
	modeBeforeHead = iota
	modeInHead
	modeAfterHead
	modeInBody
)

type regionState struct {
	open      bool
	depth     int // stack length including the region's element
	tag       string
	line, col int
	buf       []byte
	space     bool
	truncated bool
}

// Scanner walks the token stream of x/net/html's tokenizer and keeps the
// part of WHATWG tree construction that decides what it reports:
// which elements are open (so that a data-nosnippet region ends where a
// browser ends it), whether we are in <head> or <body>, <template>
// contents (inert: skipped) and foreign content (<svg>, <math>), where
// <title> or <style> are not raw text and <meta> breaks out to HTML.
// Raw-text elements (script, style, textarea, title, noscript as with
// scripting enabled, iframe, noembed, noframes, xmp, plaintext) and comments
// hide their contents from it, as they do from a browser. It does not build
// a tree, so memory does not grow with the document.
type Scanner struct {
	h Handler
	o Options
	z *html.Tokenizer

	line, col   int // 1-based position of the current token
	stack       []elem
	overflow    int // elements nested beyond MaxDepth
	templates   int // open <template> elements: their contents are inert
	ovTemplates int // of which beyond MaxDepth
	mode        int
	explicit    bool   // <body> tag seen
	frameset    bool   // <frameset> before <body>: a frameset document
	closedBy    string // what opened the body implicitly
	closedAt    [2]int
	formOpen    bool // the WHATWG form element pointer is set

	dns, noc regionState
	kept     [2]int // regions of each Kind reported
	dropped  int    // regions past Options.MaxRegions
	stopped  bool
}

// span measures a token's raw bytes: the newlines in it (LF, CRLF or a
// lone CR, as HTML normalises them) and the bytes after the last one (-1:
// none). It must run before attributes are read: TagAttr rewrites the
// tokenizer's buffer in place (newline conversion, character references).
func span(raw []byte) (lines, tail int) {
	lines, tail = bytes.Count(raw, []byte{'\n'}), -1
	if bytes.IndexByte(raw, '\r') >= 0 {
		lines = 0
		for i, c := range raw {
			if c == '\n' || (c == '\r' && (i+1 == len(raw) || raw[i+1] != '\n')) {
				lines++
				tail = len(raw) - i - 1
			}
		}
		return lines, tail
	}
	if lines > 0 {
		tail = len(raw) - bytes.LastIndexByte(raw, '\n') - 1
	}
	return lines, tail
}

func (e *Scanner) advance(lines, tail, n int) {
	if lines > 0 {
		e.line += lines
		e.col = tail + 1
	} else {
		e.col += n
	}
}

func (e *Scanner) Run() error {
	e.line, e.col = 1, 1
	e.dns.depth, e.noc.depth = -1, -1
	for !e.stopped {
		tt := e.z.Next()
		raw := e.z.Raw()
		lines, tail := span(raw)
		n := len(raw)
		switch tt {
		case html.ErrorToken:
			err := e.z.Err()
			e.finish()
			if err == nil || errors.Is(err, io.EOF) {
				return nil
			}
			return err
		case html.TextToken:
			e.text()
		case html.StartTagToken, html.SelfClosingTagToken:
			e.startTag(raw, tt == html.SelfClosingTagToken)
		case html.EndTagToken:
			e.endTag(raw)
		}
		e.advance(lines, tail, n)
	}
	e.finish()
	return nil
}

func (e *Scanner) finish() {
	e.popTo(0)
}

func (e *Scanner) top() (elem, bool) {
	if len(e.stack) == 0 {
		return elem{}, false
	}
	return e.stack[len(e.stack)-1], true
}

// inForeign reports whether the current node is SVG or MathML content that
// is not an HTML integration point.
func (e *Scanner) inForeign() bool {
	t, ok := e.top()
	if !ok || t.ns == nsHTML || e.overflow > 0 {
		return false
	}
	if t.ns == nsSVG {
		return !svgIntegration(t)
	}
	switch t.a {
	case atom.Mi, atom.Mo, atom.Mn, atom.Ms, atom.Mtext:
		return false
	}
	return true
}

func (e *Scanner) text() {
	t := e.z.Text()
	// Text that is not blank ends a colgroup that is the current node and,
	// outside raw text and templates, opens <body>. In the body, where
	// most text is, neither applies and the text is not scanned for it.
	cur, ok := e.top()
	colgroup := ok && cur.is(atom.Colgroup)
	opensBody := e.mode != modeInBody && e.templates == 0 && (!ok || !rawText(cur.a))
	if (colgroup || opensBody) && len(bytes.TrimLeft(t, " \t\n\r\f")) > 0 {
		if colgroup {
			e.leaveColgroup()
		}
		if opensBody {
			e.openBody("text")
		}
	}
	if e.templates > 0 {
		return
	}
	if e.dns.open {
		e.addText(&e.dns, t)
	}
	if e.noc.open {
		e.addText(&e.noc, t)
	}
}

// addText appends t to the region with whitespace runs collapsed, as the
// vectors' nosnippet_text does.
func (e *Scanner) addText(r *regionState, t []byte) {
	for len(t) > 0 && !r.truncated {
		c, size := rune(t[0]), 1
		if c >= utf8.RuneSelf {
			c, size = utf8.DecodeRune(t)
		}
		if unicode.IsSpace(c) {
			r.space = true
		} else {
			sep := r.space && len(r.buf) > 0
			need := size
			if sep {
				need++
			}
			if len(r.buf)+need > e.o.MaxRegionText {
				r.truncated = true
				return
			}
			if sep {
				r.buf = append(r.buf, ' ')
			}
			r.space = false
			r.buf = append(r.buf, t[:size]...)
		}
		t = t[size:]
	}
}

func (e *Scanner) openBody(by string) {
	if e.mode == modeInBody {
		return
	}
	e.mode = modeInBody
	if by != "" {
		e.closedBy, e.closedAt = by, [2]int{e.line, e.col}
	}
}

// Attrs holds the attributes the Scanner reads; the tokenizer already
// keeps only the first of duplicate attributes and decodes references.
type Attrs struct {
	Name, Content, HTTPEquiv, Property, Href, Rel, Class string
	HasName, HasContent, HasHref, NoSnippet, FontBreak   bool
}

func (e *Scanner) readAttrs() Attrs {
	var a Attrs
	for {
		k, v, more := e.z.TagAttr()
		if k == nil && !more {
			break
		}
		switch string(k) {
		case "name":
			a.Name, a.HasName = string(v), true
		case "content":
			a.Content, a.HasContent = string(v), true
		case "http-equiv":
			a.HTTPEquiv = string(v)
		case "property":
			a.Property = string(v)
		case "href":
			a.Href, a.HasHref = string(v), true
		case "rel":
			a.Rel = string(v)
		case "class":
			a.Class = string(v)
		case "data-nosnippet":
			a.NoSnippet = true
		case "color", "face", "size":
			a.FontBreak = true
		}
		if !more {
			break
		}
	}
	return a
}

// tagName reads the current tag's name from its raw bytes, lower-cased
// into buf, without the allocation Tokenizer.TagName makes. Names with a
// NUL (which the tokenizer maps to U+FFFD) or longer than buf fall back to
// TagName.
func (e *Scanner) tagName(raw []byte, buf *[32]byte) []byte {
	i := 1
	if i < len(raw) && raw[i] == '/' {
		i++
	}
	n := 0
	for ; i < len(raw); i++ {
		c := raw[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '/' || c == '>' {
			break
		}
		if c == 0 || n == len(buf) {
			name, _ := e.z.TagName()
			return name
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[n] = c
		n++
	}
	return buf[:n]
}

// containsFold reports whether b contains the lower-case ASCII word w,
// ignoring case.
func containsFold(b []byte, w string) bool {
	for i := 0; i+len(w) <= len(b); i++ {
		j := 0
		for ; j < len(w); j++ {
			c := b[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != w[j] {
				break
			}
		}
		if j == len(w) {
			return true
		}
	}
	return false
}

func (e *Scanner) startTag(raw []byte, selfClosing bool) {
	var buf [32]byte
	nameB := e.tagName(raw, &buf)
	a := atom.Lookup(nameB)
	var at Attrs
	switch {
	case a == atom.Meta, a == atom.A, a == atom.Area, a == atom.Base, a == atom.Font,
		e.o.Snippets && (containsFold(raw, "data-nosnippet") || containsFold(raw, "robots-nocontent")):
		// Reading attributes allocates; most elements need none of them.
		at = e.readAttrs()
	}
	if e.inForeign() {
		if !breakout(a) && !(a == atom.Font && at.FontBreak) {
			ns := e.stack[len(e.stack)-1].ns
			if !selfClosing {
				e.push(elem{a: a, name: tagName(a, nameB), ns: ns}, at)
			}
			e.z.NextIsNotRawText()
			return
		}
		for len(e.stack) > 0 && e.inForeign() {
			e.popTo(len(e.stack) - 1)
		}
	}
	// Head / body bookkeeping.
	if e.frameset {
		// In a frameset document only frames exist: no metas, no body.
		return
	}
	if e.templates > 0 {
		// Template contents are inert: a template in <head> neither ends it
		// nor opens <body>, and html, head, body and frameset tags in it are
		// ignored (WHATWG "in template", then "in body").
		if a == atom.Html || a == atom.Body || a == atom.Head || a == atom.Frameset {
			return
		}
	} else if e.mode != modeInBody {
		switch {
		case a == atom.Frameset:
			e.frameset = true
			return
		case a == atom.Html:
			return
		case a == atom.Head:
			if e.mode == modeBeforeHead {
				e.mode = modeInHead
			}
			return
		case a == atom.Body:
			e.mode, e.explicit = modeInBody, true
			return
		case headContent(a) && !(a == atom.Noscript && e.mode == modeAfterHead):
			// After </head>, noscript is not head content (WHATWG "after
			// head"): it opens the body.
			if e.mode == modeBeforeHead {
				e.mode = modeInHead
			}
		default:
			e.openBody("<" + string(nameB) + ">")
		}
	} else if a == atom.Html || a == atom.Body || a == atom.Head || a == atom.Frameset {
		if a == atom.Body {
			e.explicit = true
		}
		return
	}

	if a != atom.Col && a != atom.Template {
		e.leaveColgroup()
	}
	switch a {
	case atom.Caption, atom.Colgroup, atom.Tbody, atom.Td, atom.Tfoot, atom.Th, atom.Thead, atom.Tr:
		// Outside a table (or template) "in body" ignores these.
		if !e.inTable() {
			return
		}
	}
	switch a {
	case atom.Svg:
		if !selfClosing {
			e.push(elem{a: a, ns: nsSVG}, at)
		}
		return
	case atom.Math:
		if !selfClosing {
			e.push(elem{a: a, ns: nsMath}, at)
		}
		return
	}
	if a == atom.Form && e.templates == 0 {
		// A form inside a form is ignored while the form element pointer is
		// set (until </form>, even if the form was closed by another end tag).
		if e.formOpen {
			return
		}
		e.formOpen = true
	}
	if closesP(a) && e.inScope(atom.P, scopeButton) {
		e.popThrough(atom.P)
	}
	switch a {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		if t, ok := e.top(); ok && t.ns == nsHTML && isHeading(t.a) {
			e.popTo(len(e.stack) - 1)
		}
	case atom.Li:
		e.closeListItem(atom.Li, atom.Li)
	case atom.Dd, atom.Dt:
		e.closeListItem(atom.Dd, atom.Dt)
	case atom.Td, atom.Th:
		e.closeCell()
	case atom.Tr:
		e.closeCell()
		if e.inScope(atom.Tr, scopeTable) {
			e.popThrough(atom.Tr)
		}
	case atom.Tbody, atom.Thead, atom.Tfoot:
		e.closeCell()
		if e.inScope(atom.Tr, scopeTable) {
			e.popThrough(atom.Tr)
		}
		for _, s := range [...]atom.Atom{atom.Tbody, atom.Thead, atom.Tfoot} {
			if e.inScope(s, scopeTable) {
				e.popThrough(s)
			}
		}
	case atom.Option:
		if t, ok := e.top(); ok && t.is(atom.Option) {
			e.popTo(len(e.stack) - 1)
		}
	case atom.Optgroup:
		// An optgroup closes an option, and in a select an optgroup ("in
		// body" only closes an option).
		if t, ok := e.top(); ok && t.is(atom.Option) {
			e.popTo(len(e.stack) - 1)
		}
		if t, ok := e.top(); ok && t.is(atom.Optgroup) && e.open(atom.Select) {
			e.popTo(len(e.stack) - 1)
		}
	case atom.A:
		// A nested <a> closes the open one (adoption agency); only when no
		// special element sits between, where the real algorithm would
		// move elements instead.
		for i := len(e.stack) - 1; i >= 0; i-- {
			if e.stack[i].is(atom.A) {
				e.popTo(i)
				break
			}
			if special(e.stack[i]) {
				break
			}
		}
	}
	if e.templates == 0 {
		switch a {
		case atom.Meta:
			if e.h.Meta(e, at) {
				e.stopped = true
			}
		case atom.A, atom.Area:
			if at.HasHref && e.o.Links {
				e.h.Link(e, at)
			}
		case atom.Base:
			if at.HasHref {
				e.h.Base(at.Href)
			}
		}
	}
	if void(a) {
		return
	}
	e.push(elem{a: a, name: tagName(a, nameB)}, at)
}

func tagName(a atom.Atom, b []byte) string {
	if a != 0 {
		return ""
	}
	return string(b)
}

func (e *Scanner) push(el elem, at Attrs) {
	if len(e.stack) >= MaxDepth {
		if e.overflow == 0 {
			e.h.TooDeep(e)
		}
		e.overflow++
		if el.is(atom.Template) {
			e.templates++
			e.ovTemplates++
		}
	} else {
		e.stack = append(e.stack, el)
		if el.is(atom.Template) {
			e.templates++
		}
	}
	if !e.o.Snippets || e.templates > 0 {
		return
	}
	if !e.dns.open && at.NoSnippet && el.ns == nsHTML && (el.a == atom.Span || el.a == atom.Div || el.a == atom.Section) {
		e.openRegion(&e.dns, el)
	}
	if !e.noc.open && at.Class != "" && HasToken(at.Class, "robots-nocontent") {
		e.openRegion(&e.noc, el)
	}
}

// depth is the nesting depth, counting elements beyond MaxDepth.
func (e *Scanner) depth() int { return len(e.stack) + e.overflow }

// closeRegionsAbove closes the regions whose element is deeper than d.
func (e *Scanner) closeRegionsAbove(d int) {
	if e.dns.open && e.dns.depth > d {
		e.closeRegion(&e.dns, NoSnippet)
	}
	if e.noc.open && e.noc.depth > d {
		e.closeRegion(&e.noc, NoContent)
	}
}

func (e *Scanner) openRegion(r *regionState, el elem) {
	tag := el.name
	if el.a != 0 {
		tag = el.a.String()
	}
	*r = regionState{open: true, depth: e.depth(), tag: tag, line: e.line, col: e.col, buf: r.buf[:0]}
}

func (e *Scanner) closeRegion(r *regionState, k Kind) {
	r.open = false
	if e.kept[k] >= e.o.MaxRegions {
		e.dropped++
		return
	}
	e.kept[k]++
	e.h.Region(k, Region{Tag: r.tag, Text: string(r.buf), Line: r.line, Column: r.col, Truncated: r.truncated})
}

// popTo shrinks the stack to n elements, closing regions that end.
func (e *Scanner) popTo(n int) {
	if n < len(e.stack) && e.overflow > 0 {
		// Everything beyond MaxDepth was inside the popped elements.
		e.templates -= e.ovTemplates
		e.overflow, e.ovTemplates = 0, 0
	}
	for len(e.stack) > n {
		el := e.stack[len(e.stack)-1]
		if el.is(atom.Template) && e.templates > 0 {
			e.templates--
		}
		e.closeRegionsAbove(len(e.stack) - 1)
		e.stack = e.stack[:len(e.stack)-1]
		if n == len(e.stack) && n > 0 && e.stack[n-1] == (elem{}) {
			// A form </form> removed: it ends with its last open child.
			n--
		}
	}
}

// popThrough pops up to and including the topmost HTML element a.
func (e *Scanner) popThrough(a atom.Atom) {
	for i := len(e.stack) - 1; i >= 0; i-- {
		if e.stack[i].is(a) {
			e.popTo(i)
			return
		}
	}
}

// inScope implements "has an element in (button, list item, table) scope".
func (e *Scanner) inScope(a atom.Atom, k scopeKind) bool {
	for i := len(e.stack) - 1; i >= 0; i-- {
		el := e.stack[i]
		if el.is(a) {
			return true
		}
		if scopeBoundary(el, k) {
			return false
		}
	}
	return false
}

func (e *Scanner) closeListItem(a, b atom.Atom) {
	for i := len(e.stack) - 1; i >= 0; i-- {
		el := e.stack[i]
		if el.is(a) || el.is(b) {
			e.popTo(i)
			return
		}
		if special(el) && !el.is(atom.Address) && !el.is(atom.Div) && !el.is(atom.P) {
			return
		}
	}
}

func (e *Scanner) closeCell() {
	for i := len(e.stack) - 1; i >= 0; i-- {
		el := e.stack[i]
		if el.is(atom.Td) || el.is(atom.Th) {
			e.popTo(i)
			return
		}
		if el.is(atom.Table) || el.is(atom.Html) || el.is(atom.Template) {
			return
		}
	}
}

func (e *Scanner) endTag(raw []byte) {
	var buf [32]byte
	nameB := e.tagName(raw, &buf)
	a := atom.Lookup(nameB)
	if e.overflow > 0 {
		// Beyond MaxDepth, an end tag closes the deepest counted element.
		if a == atom.Template && e.ovTemplates > 0 {
			e.ovTemplates--
			e.templates--
		}
		e.overflow--
		e.closeRegionsAbove(e.depth())
		return
	}
	// Foreign content: an end tag closes the nearest foreign element of that
	// name above the first HTML element.
	for i := len(e.stack) - 1; i >= 0 && e.stack[i].ns != nsHTML; i-- {
		el := e.stack[i]
		if (el.a != 0 && el.a == a) || (el.a == 0 && el.name == string(nameB)) {
			e.popTo(i)
			return
		}
	}
	if a != atom.Colgroup && a != atom.Col && a != atom.Template {
		e.leaveColgroup()
	}
	switch a {
	case atom.Body, atom.Html, atom.Br:
		// Before <body>, these end tags imply it (WHATWG "anything else"),
		// but not in template contents, where they are ignored.
		if e.templates == 0 {
			e.openBody("</" + string(nameB) + ">")
		}
		return
	case atom.Head:
		if e.templates == 0 && (e.mode == modeInHead || e.mode == modeBeforeHead) {
			e.mode = modeAfterHead
		}
		return
	case atom.P:
		if e.inScope(atom.P, scopeButton) {
			e.popThrough(atom.P)
		}
		return
	case atom.Li:
		if e.inScope(atom.Li, scopeList) {
			e.popThrough(atom.Li)
		}
		return
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		for i := len(e.stack) - 1; i >= 0; i-- {
			if e.stack[i].ns == nsHTML && isHeading(e.stack[i].a) {
				e.popTo(i)
				return
			}
			if scopeBoundary(e.stack[i], scopeDefault) {
				return
			}
		}
		return
	case atom.Template:
		if e.templates > 0 {
			e.popThrough(atom.Template)
		}
		return
	case atom.Form:
		e.endForm()
		return
	}
	if blockEnd(a) {
		k := scopeDefault
		switch a {
		case atom.Table, atom.Tbody, atom.Thead, atom.Tfoot, atom.Tr, atom.Td, atom.Th, atom.Caption:
			// The table insertion modes look for these in table scope.
			k = scopeTable
		}
		if e.inScope(a, k) {
			e.popThrough(a)
		}
		return
	}
	name := string(nameB)
	for i := len(e.stack) - 1; i >= 0; i-- {
		el := e.stack[i]
		if el.ns == nsHTML && ((a != 0 && el.a == a) || (a == 0 && el.a == 0 && el.name == name)) {
			e.popTo(i)
			return
		}
		if special(el) {
			return
		}
	}
}

// inTable reports whether a table or template element is open.
func (e *Scanner) inTable() bool {
	return e.open(atom.Table) || e.open(atom.Template)
}

// open reports whether an HTML element a is open.
func (e *Scanner) open(a atom.Atom) bool {
	for i := len(e.stack) - 1; i >= 0; i-- {
		if e.stack[i].is(a) {
			return true
		}
	}
	return false
}

// leaveColgroup closes a colgroup that is the current node: it holds only
// col, template and whitespace, and anything else ends it (WHATWG "in
// column group", "anything else").
func (e *Scanner) leaveColgroup() {
	if t, ok := e.top(); ok && t.is(atom.Colgroup) {
		e.popTo(len(e.stack) - 1)
	}
}

// endForm handles </form> as WHATWG "in body" does. Outside templates it
// removes the form from the open elements without closing what is open
// inside it: later content still goes into the form's open descendants, so
// the form stays in the stack as an anonymous element that no rule matches,
// and a region on it ends when those descendants close.
func (e *Scanner) endForm() {
	if e.templates == 0 {
		if !e.formOpen {
			return
		}
		e.formOpen = false
	}
	if !e.inScope(atom.Form, scopeDefault) {
		return
	}
	e.impliedEndTags()
	if t, _ := e.top(); t.is(atom.Form) || e.templates > 0 {
		e.popThrough(atom.Form)
		return
	}
	for i := len(e.stack) - 1; i >= 0; i-- {
		if e.stack[i].is(atom.Form) {
			e.stack[i] = elem{}
			return
		}
	}
}

// impliedEndTags pops the elements WHATWG "generate implied end tags"
// closes.
func (e *Scanner) impliedEndTags() {
	for {
		t, ok := e.top()
		if !ok || t.ns != nsHTML {
			return
		}
		switch t.a {
		case atom.Dd, atom.Dt, atom.Li, atom.Optgroup, atom.Option, atom.P, atom.Rb, atom.Rp, atom.Rt, atom.Rtc:
			e.popTo(len(e.stack) - 1)
		default:
			return
		}
	}
}

// HasToken reports whether the space-separated list s holds tok, ignoring
// ASCII case.
func HasToken(s, tok string) bool {
	for len(s) > 0 {
		i := strings.IndexAny(s, " \t\n\r\f")
		w := s
		if i >= 0 {
			w, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		if strings.EqualFold(w, tok) {
			return true
		}
	}
	return false
}
