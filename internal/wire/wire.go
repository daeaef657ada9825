// Package wire holds the one URL form rep matches against robots.txt.
package wire

import (
	"strings"

	"github.com/rep-toolkit/rep/robotstxt"
)

// The one URL form. A URL is matched against robots.txt the way it goes
// on the wire, whichever door asks (Check, the Transport, the page
// verdict, rep check) and whether it is given as "/café" or as
// "/caf%C3%A9":
//
//   - bytes a request target cannot carry as they are (non-ASCII, space,
//     controls, and " < > \ ^ ` { | }) are percent-encoded, as UTF-8, the
//     way net/url encodes a path for the request line;
//   - the hex digits of escapes are upper-cased (%c3 is %C3), as Google's
//     parser writes the escapes of patterns;
//   - a '%' that starts no escape is left as it is, as crawlers send it
//     and as Google's parser keeps it in patterns.
//
// Google's matcher (robots.cc) stops there: it does not decode an escape,
// so under its reading "/%70rivate" gets past "Disallow: /p", although
// RFC 3986 §6.2.2.2 makes the two URLs one and servers answer both with
// the same page. RFC 9309 §2.2.2 decodes escapes of unreserved characters
// before matching. rep fails closed: when a URL holds an escape of an
// unreserved character (ALPHA, DIGIT, "-", ".", "_", "~"), it is matched
// both as written and with those escapes decoded, and it is disallowed
// when either reading is. A pattern written with the escape
// ("Disallow: /%7Euser") still matches the URL written so.

// wireOK marks the bytes a URL keeps as they are in its wire form.
var wireOK = func() (t [256]bool) {
	for c := 0x21; c < 0x7f; c++ {
		t[c] = true
	}
	for _, c := range "\"<>\\^`{|}%#" {
		t[c] = false
	}
	return t
}()

// authorityEnds marks the bytes that end a URL's authority.
var authorityEnds = [256]bool{'/': true, '?': true, '#': true}

// Form returns rawurl in its wire form (see above), and, when it
// holds escapes of unreserved characters, the same with them decoded
// (else ""). It returns rawurl itself, without allocating, when nothing
// changes, as for nearly every URL a crawler sends.
func Form(rawurl string) (wire, decoded string) {
	start := 0
	if n := schemeEnd(rawurl); n > 0 {
		start = n
		for start < len(rawurl) && !authorityEnds[rawurl[start]] {
			start++
		}
	}
	i := start
	for i < len(rawurl) && wireOK[rawurl[i]] {
		i++
	}
	if i == len(rawurl) || rawurl[i] == '#' {
		return rawurl, ""
	}
	end := len(rawurl)
	if h := strings.IndexByte(rawurl[i:], '#'); h >= 0 {
		end = i + h
	}
	var b, d strings.Builder
	b.Grow(len(rawurl) + 16)
	b.WriteString(rawurl[:i])
	unreserved := false
	for ; i < end; i++ {
		c := rawurl[i]
		switch {
		case c == '%' && i+2 < end && isHexDigit(rawurl[i+1]) && isHexDigit(rawurl[i+2]):
			v := unhexDigit(rawurl[i+1])<<4 | unhexDigit(rawurl[i+2])
			b.WriteByte('%')
			b.WriteByte(upperHexDigits[v>>4])
			b.WriteByte(upperHexDigits[v&15])
			if isUnreserved(v) {
				unreserved = true
			}
			i += 2
		case wireOK[c] || c == '%':
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(upperHexDigits[c>>4])
			b.WriteByte(upperHexDigits[c&15])
		}
	}
	b.WriteString(rawurl[end:])
	wire = b.String()
	if !unreserved {
		return wire, ""
	}
	d.Grow(len(wire))
	for i := 0; i < len(wire); i++ {
		if wire[i] == '%' && i >= start && i+2 < len(wire) && isHexDigit(wire[i+1]) && isHexDigit(wire[i+2]) {
			if v := unhexDigit(wire[i+1])<<4 | unhexDigit(wire[i+2]); isUnreserved(v) {
				d.WriteByte(v)
				i += 2
				continue
			}
		}
		if wire[i] == '#' && i >= start {
			d.WriteString(wire[i:])
			break
		}
		d.WriteByte(wire[i])
	}
	return wire, d.String()
}

// Check decides rawurl in its wire form with g, the stricter of the two
// readings when it holds escapes of unreserved characters, and returns
// that form. It does not allocate for a URL already in its wire form.
func Check(g *robotstxt.Matcher, rawurl string) (robotstxt.Decision, string) {
	wire, decoded := Form(rawurl)
	d := g.Check(wire)
	if decoded != "" && d.Allowed {
		if dd := g.Check(decoded); !dd.Allowed {
			d = dd
		}
	}
	return d, wire
}

// schemeEnd returns where the authority of rawurl starts, after
// "scheme://", or 0 when it has none.
func schemeEnd(rawurl string) int {
	switch {
	case strings.HasPrefix(rawurl, "https://"):
		return 8
	case strings.HasPrefix(rawurl, "http://"):
		return 7
	}
	if i := strings.Index(rawurl, "://"); i >= 0 {
		return i + 3
	}
	return 0
}

const upperHexDigits = "0123456789ABCDEF"

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhexDigit(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// isUnreserved reports whether c is an unreserved character of RFC 3986
// §2.3.
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}
