package robotsmeta

import (
	"strings"
	"testing"
)

// The element categories of the WHATWG tree-construction rules (HTML Living
// Standard §13.2.6), each checked through what a scan reports: whether a
// robots meta is in <head> or <body>, and where a data-nosnippet or
// robots-nocontent region ends. Each row's expectation is worked out by hand
// from the standard; checkScans also holds x/net/html's tree builder to it.

// each makes one case per element name: doc with every "X" replaced by it.
func each(doc, want string, names ...string) []scanCase {
	var cs []scanCase
	for _, n := range names {
		cs = append(cs, scanCase{strings.ReplaceAll(doc, "X", n), want})
	}
	return cs
}

// TestHeadContentKeepsHead: in "in head" (and "after head") base, basefont,
// bgsound, link, meta, noframes, script, style, template, title and
// noscript are head content; any other start tag or text ends the head.
// The raw-text ones keep their text from ending it.
func TestHeadContentKeepsHead(t *testing.T) {
	var cs []scanCase
	cs = append(cs, each(`<X>a</X><meta name=robots content=noindex>`, "head noindex",
		"script", "style", "title", "noscript", "noframes", "template")...)
	cs = append(cs, each(`<head></head><X>a</X><meta name=robots content=noindex>`, "head noindex",
		"script", "style", "title", "noframes", "template")...)
	cs = append(cs, each(`<X href=/b><meta name=robots content=noindex>`, "head noindex",
		"base", "basefont", "bgsound", "link")...)
	cs = append(cs, each(`<head></head><X href=/b><meta name=robots content=noindex>`, "head noindex",
		"base", "basefont", "bgsound", "link")...)
	cs = append(cs, scanCase{`<meta name=robots content=noindex><meta name=googlebot content=nofollow>`, "head noindex; head nofollow"})
	// Anything else opens the body.
	cs = append(cs, each(`<X></X><meta name=robots content=noindex>`, "body noindex",
		"div", "p", "span", "textarea", "iframe", "noembed", "xmp", "x-custom")...)
	cs = append(cs, each(`<head>X<meta name=robots content=noindex>`, "body noindex", "a", "&amp;")...)
	cs = append(cs, scanCase{"<head> \n<meta name=robots content=noindex>", "head noindex"})
	checkScans(t, cs)
}

// TestScopeBoundaries: "has an element in scope" stops at applet, caption,
// html, table, td, th, marquee, object, template, MathML mi, mo, mn, ms,
// mtext, annotation-xml and SVG foreignObject, desc, title; button scope
// adds button, list item scope ol and ul; table scope is html, table and
// template only. A <div> start tag closes a p only when the p is in button
// scope; an end tag such as </div> or </li> acts only on an element in
// scope.
func TestScopeBoundaries(t *testing.T) {
	var cs []scanCase
	// The <div> does not close the p outside the boundary: the region
	// holds all three letters.
	cs = append(cs, each(`<p><span data-nosnippet>a<svg><X><div>b</div></X></svg>c</span>d`, "[abc]",
		"desc", "title", "foreignObject")...)
	cs = append(cs, each(`<p><span data-nosnippet>a<math><X><div>b</div></X></math>c</span>d`, "[abc]",
		"mi", "mo", "mn", "ms", "mtext")...)
	cs = append(cs, each(`<p><span data-nosnippet>a<X><div>b</div></X>c</span>d`, "[abc]",
		"applet", "marquee", "object", "button")...)
	cs = append(cs, each(`<table><p><X><span data-nosnippet>a<div>b</div>c</span></X></table>`, "[abc]",
		"caption")...)
	cs = append(cs, each(`<table><p><tr><X><span data-nosnippet>a<div>b</div>c</span></X></tr></table>`, "[abc]",
		"td", "th")...)
	cs = append(cs, scanCase{`<p><span data-nosnippet>a<template><div>b</div></template>c</span>d`, "[ac]"})
	// An end tag in foreign content goes to the HTML rules, whose scope
	// check starts at the foreign element.
	cs = append(cs, scanCase{`<div data-nosnippet>a<math><annotation-xml></div>b</annotation-xml></math>c</div>d`, "[abc]"})
	cs = append(cs, scanCase{`<div data-nosnippet>a<math><mrow></div>b</mrow></math>c</div>d`, "[a]"})
	cs = append(cs, scanCase{`<div data-nosnippet>a<svg><g></div>b</g></svg>c</div>d`, "[a]"})
	// List item scope.
	cs = append(cs, scanCase{`<ul><li><span data-nosnippet>a<ol></li>b</ol>c</span></li></ul>d`, "[abc]"})
	cs = append(cs, scanCase{`<ol><li><span data-nosnippet>a<ul></li>b</ul>c</span></li></ol>d`, "[abc]"})
	cs = append(cs, scanCase{`<ul><li><span data-nosnippet>a<div></li>b</div>c</span></li></ul>d`, "[a]"})
	// Table scope: a table inside a cell hides the outer row from <tr>.
	cs = append(cs, scanCase{`<table><tr><td><div data-nosnippet>a<table><tr><td>b</td></tr></table>c</div></td></tr></table>d`, "[abc]"})
	// Table scope passes over applet: </table> in the cell closes it.
	cs = append(cs, scanCase{`<table><tr><td><applet><div data-nosnippet>a</table>b</div>c`, "[a]"})
	checkScans(t, cs)
}

// TestHeadingsCloseHeadings: a heading start tag pops a heading that is the
// current node, and any heading end tag closes the nearest open heading.
func TestHeadingsCloseHeadings(t *testing.T) {
	hs := []string{"h1", "h2", "h3", "h4", "h5", "h6"}
	var cs []scanCase
	for i, h := range hs {
		other := hs[(i+1)%len(hs)]
		cs = append(cs,
			scanCase{"<" + h + " class=robots-nocontent>a<" + other + ">b</" + other + ">c", "{a}"},
			scanCase{"<" + h + " class=robots-nocontent>a</" + other + ">b", "{a}"},
			scanCase{"<" + h + "><span class=robots-nocontent>a</" + other + ">b", "{a}"},
			scanCase{"<" + h + " class=robots-nocontent>a<span>b</" + other + ">c", "{ab}"},
		)
	}
	checkScans(t, cs)
}

// TestVoidElements: a void element has no end tag and no contents, so the
// heading before it is still the current node when the next heading starts.
// (In <body> col and frame are ignored and image is img.)
func TestVoidElements(t *testing.T) {
	checkScans(t, each(`<h1 class=robots-nocontent>a<X><h2>b</h2>c`, "{a}",
		"area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "image",
		"img", "input", "keygen", "link", "meta", "param", "source", "track", "wbr"))
}

// TestStartTagsCloseP: the start tags that "close a p element" in "in
// body". (table closes it only outside quirks mode, hence the doctype.)
func TestStartTagsCloseP(t *testing.T) {
	checkScans(t, each(`<!DOCTYPE html><p class=robots-nocontent>a<X>b`, "{a}",
		"address", "article", "aside", "blockquote", "center", "details", "dialog", "dir", "div",
		"dl", "fieldset", "figcaption", "figure", "footer", "header", "hgroup", "main", "menu",
		"nav", "ol", "p", "search", "section", "summary", "ul", "h1", "h2", "h3", "h4", "h5", "h6",
		"pre", "listing", "form", "plaintext", "table", "hr", "xmp", "li", "dd", "dt"))
}

// TestBlockEndTags: these end tags close their element when it is in scope,
// with whatever is open inside it, special or not; any other end tag stops
// at the first special element (here the <div>).
func TestBlockEndTags(t *testing.T) {
	var cs []scanCase
	cs = append(cs, each(`<X class=robots-nocontent>a<div>b</X>c`, "{ab}",
		"address", "article", "aside", "blockquote", "button", "center", "details", "dialog",
		"dir", "dl", "fieldset", "figcaption", "figure", "footer", "header", "hgroup", "listing",
		"main", "menu", "nav", "ol", "pre", "search", "section", "summary", "ul", "applet",
		"marquee", "object", "dd", "dt")...)
	cs = append(cs, scanCase{`<div class=robots-nocontent>a<section>b</div>c`, "{ab}"})
	cs = append(cs, scanCase{`<table class=robots-nocontent><tr><td>a<div>b</table>c`, "{ab}"})
	cs = append(cs, each(`<table><X class=robots-nocontent><tr><td>a<div>b</X>c</table>`, "{ab}",
		"tbody", "thead", "tfoot")...)
	cs = append(cs, scanCase{`<table><tr class=robots-nocontent><td>a<div>b</tr>c</table>`, "{ab}"})
	cs = append(cs, each(`<table><tr><X class=robots-nocontent>a<div>b</X>c</tr></table>`, "{ab}",
		"td", "th")...)
	cs = append(cs, scanCase{`<table><caption class=robots-nocontent>a<div>b</caption>c</table>`, "{ab}"})
	checkScans(t, cs)
}

// TestForeignBreakout: in <svg> or <math> these start tags leave foreign
// content, so a <style> after them is HTML raw text that hides the meta in
// it; after any other tag <style> is an SVG element and the meta in it
// breaks out and counts.
func TestForeignBreakout(t *testing.T) {
	var cs []scanCase
	cs = append(cs, each(`<svg><X><style><meta name=robots content=noindex></style>`, "",
		"b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em",
		"embed", "h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing",
		"menu", "meta", "nobr", "ol", "p", "pre", "ruby", "s", "small", "span", "strong",
		"strike", "sub", "sup", "table", "tt", "u", "ul", "var")...)
	cs = append(cs, each(`<svg><X><style><meta name=robots content=noindex></style>`, "body noindex",
		"g", "a", "font", "section", "x-custom")...)
	cs = append(cs, scanCase{`<math><mrow><style><meta name=robots content=noindex></style>`, "body noindex"})
	cs = append(cs, scanCase{`<math><mrow><dl><style><meta name=robots content=noindex></style>`, ""})
	checkScans(t, cs)
}

// TestSpecialElements: an end tag that matches nothing in the "in body"
// list walks up the open elements and gives up at the first special one,
// so </span> leaves the span (and its region) open.
func TestSpecialElements(t *testing.T) {
	var cs []scanCase
	cs = append(cs, each(`<span data-nosnippet>a<X>b</span>c`, "[abc]",
		"address", "applet", "article", "aside", "blockquote", "button", "center", "details",
		"dir", "div", "dl", "dd", "dt", "fieldset", "figcaption", "figure", "footer", "form",
		"h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "li", "listing", "main",
		"marquee", "menu", "nav", "object", "ol", "p", "pre", "section", "summary",
		"ul")...)
	cs = append(cs, scanCase{`<span data-nosnippet>a<search>b</span>c`, "[abc]"}) // see treeLags
	cs = append(cs, scanCase{`<span data-nosnippet>a<select>b</span>c</select>d`, "[abcd]"})
	cs = append(cs, scanCase{`<span data-nosnippet>a<table>b</span>c</table>d</span>e`, "[abcd]"})
	cs = append(cs, scanCase{`<span data-nosnippet>a<template>b</span>c</template>d</span>e`, "[ad]"})
	// A <b> in a table is foster-parented and the next table part
	// clears it from the open elements (the scan keeps it below): the
	// table part, being special, keeps </b> from reaching it.
	cs = append(cs, scanCase{`<table><b><tr class=robots-nocontent></b><td>a</td></tr></table>`, "{a}"})
	cs = append(cs, each(`<table><tr><b><X class=robots-nocontent></b>a</X></tr></table>`, "{a}",
		"td", "th")...)
	cs = append(cs, each(`<table><b><X class=robots-nocontent></b><tr><td>a</table>`, "{a}",
		"tbody", "thead", "tfoot")...)
	cs = append(cs, scanCase{`<table><b><caption class=robots-nocontent></b>a</caption></table>`, "{a}"})
	// Not special: the end tag closes the span through them.
	cs = append(cs, each(`<span data-nosnippet>a<X>b</span>c`, "[ab]",
		"x-custom", "abbr", "label", "q")...)
	checkScans(t, cs)
}
