package gate

import (
	"strings"
)

// Canonical returns a request target (a path with an optional query, as
// the client sent it) as the origin will serve it, the form the gate
// judges, logs and forwards. The path is read as RFC 3986 section 6.2.2
// normalises it and as nginx, Apache, Caddy and Go's net/http resolve it
// before choosing what to serve:
//
//   - every %-escape is decoded, and the decoded path written again in one
//     spelling: unreserved characters, sub-delims, ":" and "@" literally,
//     every other byte as an upper-case %-escape (so /%70rivate is
//     /private, /a%7cb and /a|b are /a%7Cb, %c3%a9 is %C3%A9);
//   - the dot segments "." and ".." are removed (RFC 3986 section 5.2.4),
//     /./private/x and /.well-known/../private/x being /private/x;
//   - with mergeSlashes (what nginx's merge_slashes, Apache's MergeSlashes
//     and Caddy's path matching do by default), empty segments are dropped
//     first, //private/x being /private/x.
//
// The query keeps its bytes, with escapes of unreserved characters decoded,
// every escape's hex digits in upper case, and the bytes a URI may not
// hold escaped.
//
// A target whose path origins resolve differently is refused with a
// *RequestError whose Reason is AmbiguousPath, never guessed at: an encoded
// slash (%2F: Apache refuses it, nginx and Go decode it into a separator,
// others keep it), an encoded dot segment (%2e%2e, .%2E: some origins
// decode it and then climb, others serve it as a name), a dot segment with
// parameters (..;/, which Tomcat resolves as ..), a backslash literal or
// encoded (a separator on Windows servers), an encoded NUL, a malformed
// escape, a control character or a fragment, and a path that does not
// begin with "/".
func Canonical(target string, mergeSlashes bool) (string, error) {
	if isCanonical(target, mergeSlashes) {
		return target, nil // most requests: no work, no allocation
	}
	return canonical(target, mergeSlashes)
}

// canonical is Canonical without the check for a target that is already
// canonical.
func canonical(target string, mergeSlashes bool) (string, error) {
	path, query, hasQuery := strings.Cut(target, "?")
	bad := func(detail string) (string, error) {
		return "", &RequestError{Reason: AmbiguousPath, Value: target, Detail: detail}
	}
	if !strings.HasPrefix(path, "/") {
		return bad("the path does not begin with /")
	}
	var (
		segs     []string // the canonical segments so far
		b        strings.Builder
		trailing bool // the path ends with a separator
	)
	rest := path[1:]
	for {
		raw, after, more := strings.Cut(rest, "/")
		rest = after
		b.Reset()
		encodedDot := false
		for i := 0; i < len(raw); i++ {
			c := raw[i]
			if c == '%' {
				if i+2 >= len(raw) || !isHex(raw[i+1]) || !isHex(raw[i+2]) {
					return bad("a malformed %-escape")
				}
				c = unhex(raw[i+1])<<4 | unhex(raw[i+2])
				i += 2
				switch c {
				case '/':
					return bad("an encoded slash (%2F)")
				case '\\':
					return bad("an encoded backslash (%5C)")
				case 0:
					return bad("an encoded NUL (%00)")
				case '.':
					encodedDot = true
				}
			} else {
				switch {
				case c == '\\':
					return bad("a backslash")
				case c == '#':
					return bad("a fragment (#)")
				case c < 0x20 || c == 0x7f:
					return bad("a control character")
				}
			}
			writePathByte(&b, c)
		}
		seg := b.String()
		name, _, params := strings.Cut(seg, ";")
		switch {
		case (seg == "." || seg == "..") && encodedDot:
			return bad("an encoded dot segment")
		case params && (name == "." || name == ".."):
			return bad("a dot segment with parameters (;)")
		case seg == ".":
		case seg == "..":
			if len(segs) > 0 {
				segs = segs[:len(segs)-1]
			}
		case seg == "":
			// An empty segment between two separators, kept unless
			// slashes are merged; an empty last one is a trailing "/".
			if more && !mergeSlashes {
				segs = append(segs, "")
			}
		default:
			segs = append(segs, seg)
		}
		if !more {
			trailing = seg == "" || seg == "." || seg == ".."
			break
		}
	}
	var out strings.Builder
	out.Grow(len(target))
	for _, s := range segs {
		out.WriteByte('/')
		out.WriteString(s)
	}
	if trailing || len(segs) == 0 {
		out.WriteByte('/')
	}
	if hasQuery {
		out.WriteByte('?')
		canonicalQuery(&out, query)
	}
	return out.String(), nil
}

// isCanonical reports whether target is its own canonical form without
// rewriting it: a path of literal pchar bytes and separators, with no dot
// segment and (when merging) no empty one, and a query with no escape and
// no byte to escape.
func isCanonical(target string, mergeSlashes bool) bool {
	if !strings.HasPrefix(target, "/") {
		return false
	}
	i := 1
	segStart := 1
	for ; i < len(target) && target[i] != '?'; i++ {
		c := target[i]
		if c == '/' {
			if !segmentOK(target[segStart:i], mergeSlashes) {
				return false
			}
			segStart = i + 1
			continue
		}
		if !isUnreserved(c) && strings.IndexByte("!$&'()*+,;=:@", c) < 0 {
			return false
		}
	}
	last := target[segStart:i]
	if last == "." || last == ".." || strings.HasPrefix(last, ".;") || strings.HasPrefix(last, "..;") {
		return false
	}
	for ; i < len(target); i++ {
		if c := target[i]; c == '%' || c <= ' ' || c >= 0x7f || c == '#' {
			return false
		}
	}
	return true
}

// segmentOK reports whether seg, a segment followed by a separator, needs
// no rewriting.
func segmentOK(seg string, mergeSlashes bool) bool {
	switch {
	case seg == "":
		return !mergeSlashes
	case seg[0] != '.':
		return true
	}
	name, _, _ := strings.Cut(seg, ";")
	return name != "." && name != ".."
}

// writePathByte writes one decoded byte of a path segment: literally when
// a segment may hold it so (RFC 3986 pchar: unreserved, sub-delims, ":",
// "@"), else as an upper-case %-escape.
func writePathByte(b *strings.Builder, c byte) {
	if isUnreserved(c) || strings.IndexByte("!$&'()*+,;=:@", c) >= 0 {
		b.WriteByte(c)
		return
	}
	b.WriteByte('%')
	b.WriteByte(upperHex[c>>4])
	b.WriteByte(upperHex[c&15])
}

// canonicalQuery writes a query with its escapes of unreserved characters
// decoded and the hex digits of the others in upper case, and bytes a URI
// may not hold (controls, space, "#", non-ASCII) escaped; anything else,
// a malformed escape included, is left as it is.
func canonicalQuery(b *strings.Builder, q string) {
	for i := 0; i < len(q); i++ {
		c := q[i]
		if c == '%' && i+2 < len(q) && isHex(q[i+1]) && isHex(q[i+2]) {
			d := unhex(q[i+1])<<4 | unhex(q[i+2])
			if isUnreserved(d) {
				b.WriteByte(d)
			} else {
				b.WriteByte('%')
				b.WriteByte(upperHex[d>>4])
				b.WriteByte(upperHex[d&15])
			}
			i += 2
			continue
		}
		if c <= ' ' || c >= 0x7f || c == '#' {
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&15])
			continue
		}
		b.WriteByte(c)
	}
}

const upperHex = "0123456789ABCDEF"

func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}
