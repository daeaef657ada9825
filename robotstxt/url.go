package robotstxt

import (
	"encoding/binary"
	"math/bits"
	"strings"
	"unsafe"
)

// pathBufSize bounds the stack buffer a check uses when it has to rewrite
// the path (a missing leading "/", or RFC 9309 normalisation); longer paths
// that need rewriting cost one allocation.
const pathBufSize = 2048

// PathOf returns the path, params and query of rawurl (an absolute URL or
// a path) as matching reads them: see pathOf.
func PathOf(rawurl string) string { return pathOf(rawurl, nil) }

// pathOf returns the path, params and query of rawurl as Google's
// GetPathParamsQuery does: scheme and authority removed, fragment removed,
// "/" when empty, and a "/" put in front of a path that starts with "?" or
// ";". A bare path ("/x") is returned as is. It allocates only when a "/"
// must be prepended to a path longer than buf.
func pathOf(rawurl string, buf []byte) string {
	p, ok := pathFast(rawurl)
	if ok {
		return p
	}
	if len(p)+1 > len(buf) {
		return "/" + p
	}
	buf[0] = '/'
	n := copy(buf[1:], p)
	return bytesString(buf[:n+1])
}

// pathFast is pathOf without the rewrite: when the path must get a leading
// "/", it returns the path without it and false.
func pathFast(rawurl string) (string, bool) {
	// Fast path for what crawlers send: an http(s) URL. robots.cc's general
	// rules below give the same answer for these.
	if n := schemeLen(rawurl); n > 0 {
		i := n + authorityLen(rawurl[n:])
		if i == len(rawurl) || rawurl[i] == '#' {
			return "/", true
		}
		p := rawurl[i:]
		if h := strings.IndexByte(p, '#'); h >= 0 {
			p = p[:h]
		}
		return p, p[0] == '/'
	}
	// A bare path ("/x", not "//host"): the general rules below find no
	// scheme or authority in it, as its first byte already starts the path.
	if len(rawurl) > 0 && rawurl[0] == '/' && (len(rawurl) == 1 || rawurl[1] != '/') {
		if h := strings.IndexByte(rawurl, '#'); h >= 0 {
			return rawurl[:h], true
		}
		return rawurl, true
	}
	start := 0
	if len(rawurl) >= 2 && rawurl[0] == '/' && rawurl[1] == '/' {
		start = 2
	}
	early := indexAnyPath(rawurl, start)
	proto := strings.Index(rawurl[start:], "://")
	if proto >= 0 {
		proto += start
	}
	if early >= 0 && (proto < 0 || early < proto) {
		// A path, params or query before "://": it is not a scheme.
		proto = -1
	}
	if proto < 0 {
		proto = start
	} else {
		proto += 3
	}
	ps := indexAnyPath(rawurl, proto)
	if ps < 0 {
		return "/", true
	}
	hash := strings.IndexByte(rawurl[start:], '#')
	if hash >= 0 {
		hash += start
		if hash < ps {
			return "/", true
		}
	} else {
		hash = len(rawurl)
	}
	p := rawurl[ps:hash]
	return p, p[0] == '/'
}

// bytesString views b as a string without copying. The callers only use the
// result while b is alive and unchanged (within one Check), which is what
// keeps Check free of allocations.
func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// Word-at-a-time byte tests: bytesLo has 1 in every byte of a word,
// bytesHi the top bit of every byte.
const bytesLo, bytesHi = 0x0101010101010101, 0x8080808080808080

// zeroBytes sets the top bit of each zero byte of x. Only bytes above a
// true zero byte can be flagged falsely, so whether any byte is flagged,
// and which is the lowest, are exact.
func zeroBytes(x uint64) uint64 { return (x - bytesLo) &^ x & bytesHi }

// authorityLen returns the length of the authority at the start of s: the
// bytes before the first '/', '?', ';' or '#'. It tests 8 bytes at a time
// (a zero byte in w^c marks c; the lowest flagged byte is exact).
func authorityLen(s string) int {
	p := unsafe.Pointer(unsafe.StringData(s))
	i := 0
	for ; i+8 <= len(s); i += 8 {
		// In bounds: i+8 <= len(s). A host is a few words, and this loop
		// is a good part of a check given a full URL.
		w := binary.LittleEndian.Uint64(unsafe.Slice((*byte)(unsafe.Add(p, i)), 8))
		// '/' (0x2F) and '?' (0x3F) differ only in bit 4: one test for both.
		if m := zeroBytes((w|bytesLo*0x10)^(bytesLo*'?')) | zeroBytes(w^(bytesLo*';')) | zeroBytes(w^(bytesLo*'#')); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for i < len(s) && !authorityEnd[s[i]] {
		i++
	}
	return i
}

// authorityEnd marks the bytes that end an http(s) URL's authority: the
// start of the path, params or query ('/', '?', ';'), or of the fragment.
var authorityEnd = [256]bool{'/': true, '?': true, ';': true, '#': true}

// schemeLen returns 7 or 8 when s starts with "http://" or "https://".
func schemeLen(s string) int {
	if len(s) >= 8 && s[:4] == "http" {
		if s[4:7] == "://" {
			return 7
		}
		if s[4:8] == "s://" {
			return 8
		}
	}
	return 0
}

func indexAnyPath(s string, from int) int {
	for i := from; i < len(s); i++ {
		switch s[i] {
		case '/', '?', ';':
			return i
		}
	}
	return -1
}

const upperHex = "0123456789ABCDEF"

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// EscapePattern returns a pattern, or a path, escaped as the parser
// escapes patterns under the Google profile (robots.cc's
// MaybeEscapePattern): bytes of 0x80 and above become %XX, and the hex
// digits of existing %xx escapes are upper-cased. Tools that make up URLs
// from rules (the linter's witness paths) use it so the matcher compares
// like with like.
func EscapePattern(p string) string {
	return string(escapePattern(nil, []byte(p)))
}

// escapePattern appends the pattern v to dst the way robots.cc's
// MaybeEscapePattern does: bytes ≥ 0x80 become %XX and the hex digits of
// existing %xx escapes are upper-cased. Callers check plainPattern first:
// most patterns need no escaping.
func escapePattern(dst, v []byte) []byte {
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '%' && i+2 < len(v) && isHex(v[i+1]) && isHex(v[i+2]):
			dst = append(dst, '%', upperHex[unhex(v[i+1])], upperHex[unhex(v[i+2])])
			i += 2
		case c >= 0x80:
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// plainPattern reports whether v has no byte ≥ 0x80 and no '%', so that
// escaping leaves it unchanged, and where its first '*' is (-1 for none):
// one pass, 8 bytes at a time, over what is most of a file's bytes. The
// last word overlaps the one before it rather than ending in a byte loop;
// bytes seen twice change nothing, and a '*' among them would have been
// found the first time.
func plainPattern(v []byte) (plain bool, star int) {
	n := len(v)
	if n < 8 {
		// Zero padding is neither '%', '*' nor ≥ 0x80.
		var b [8]byte
		copy(b[:], v)
		w := binary.LittleEndian.Uint64(b[:])
		if w&bytesHi|zeroBytes(w^(bytesLo*'%')) != 0 {
			return false, -1
		}
		if m := zeroBytes(w ^ (bytesLo * '*')); m != 0 {
			return true, bits.TrailingZeros64(m) / 8
		}
		return true, -1
	}
	star = -1
	for i := 0; ; i += 8 {
		if i > n-8 {
			i = n - 8
		}
		w := binary.LittleEndian.Uint64(v[i:])
		if w&bytesHi|zeroBytes(w^(bytesLo*'%')) != 0 {
			return false, -1
		}
		if star < 0 {
			if m := zeroBytes(w ^ (bytesLo * '*')); m != 0 {
				star = i + bits.TrailingZeros64(m)/8
			}
		}
		if i == n-8 {
			return true, star
		}
	}
}

func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// isQueryDelim reports the reserved characters the RFC 9309 profile encodes
// inside query keys and values (see the package documentation).
func isQueryDelim(c byte) bool {
	switch c {
	case ':', '/', '?', '@', '[', ']':
		return true
	}
	return false
}

// normalizeRFC appends the RFC 9309 §2.2.2 form of s (a path or a pattern)
// to dst: %xx of unreserved octets decoded, other %xx upper-cased, octets
// ≥ 0x80 encoded, and the query's gen-delims encoded. In a URL (pattern ==
// false) "*" and "$" are encoded too, so that a pattern's "%2A" and "%24"
// match them literally (§2.2.3); in a pattern they keep their meaning,
// except a "$" that does not end the pattern, which is a literal.
func normalizeRFC(dst []byte, s string, pattern bool) []byte {
	inQuery := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			d := unhex(s[i+1])<<4 | unhex(s[i+2])
			if isUnreserved(d) {
				dst = append(dst, d)
			} else {
				dst = append(dst, '%', upperHex[d>>4], upperHex[d&15])
			}
			i += 2
		case c >= 0x80:
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		case c == '?' && !inQuery:
			inQuery = true
			dst = append(dst, c)
		case inQuery && isQueryDelim(c):
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		case c == '*' && !pattern:
			dst = append(dst, "%2A"...)
		case c == '$' && (!pattern || i != len(s)-1):
			dst = append(dst, "%24"...)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
