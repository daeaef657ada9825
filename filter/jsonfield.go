package filter

import (
	"bytes"
	"encoding/json"
)

// jsonFields finds the string values of the top-level keys a and b in a
// JSON object without decoding the rest: the values are slices of line
// (escaped ones decoded into fresh memory). found reports whether each
// key was present with a string value; ok is false when the line is not a
// JSON object this scanner can walk, and the caller decodes it fully.
// The other values are stepped over, not validated: a line that is not
// JSON beyond the fields asked for (a raw tab in a text, say) is read
// for its URL all the same.
func jsonFields(line []byte, a, b string) (va, vb []byte, foundA, foundB, ok bool) {
	i := skipWS(line, 0)
	if i >= len(line) || line[i] != '{' {
		return nil, nil, false, false, false
	}
	i = skipWS(line, i+1)
	if i < len(line) && line[i] == '}' {
		return nil, nil, false, false, true
	}
	for i < len(line) {
		if line[i] != '"' {
			return nil, nil, false, false, false
		}
		j := skipString(line, i)
		if j < 0 {
			return nil, nil, false, false, false
		}
		key := line[i+1 : j-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			return nil, nil, false, false, false // an escaped key: the slow path
		}
		i = skipWS(line, j)
		if i >= len(line) || line[i] != ':' {
			return nil, nil, false, false, false
		}
		i = skipWS(line, i+1)
		if i >= len(line) {
			return nil, nil, false, false, false
		}
		isA, isB := string(key) == a, b != "" && string(key) == b
		switch {
		case line[i] == '"' && (isA || isB):
			vs, ve, vesc, j := scanString(line, i)
			if j < 0 {
				return nil, nil, false, false, false
			}
			v := line[vs:ve]
			if vesc {
				var s string
				if json.Unmarshal(line[i:j], &s) != nil {
					return nil, nil, false, false, false
				}
				v = []byte(s)
			}
			if isA && !foundA {
				va, foundA = v, true
			} else if isB && !foundB {
				vb, foundB = v, true
			}
			i = j
		case line[i] == '"':
			// A value not asked for (a document's text, often kilobytes):
			// stepped over at memchr speed, not validated (see skipValue).
			j := skipString(line, i)
			if j < 0 {
				return nil, nil, false, false, false
			}
			i = j
		default:
			j := skipValue(line, i)
			if j < 0 {
				return nil, nil, false, false, false
			}
			i = j
		}
		i = skipWS(line, i)
		if i >= len(line) {
			return nil, nil, false, false, false
		}
		switch line[i] {
		case ',':
			i = skipWS(line, i+1)
		case '}':
			return va, vb, foundA, foundB, true
		default:
			return nil, nil, false, false, false
		}
	}
	return nil, nil, false, false, false
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// scanString scans the string starting at b[i] == '"': its contents are
// b[s:e], esc says whether they hold an escape, next is the index after
// the closing quote (-1 when unterminated).
func scanString(b []byte, i int) (s, e int, esc bool, next int) {
	s = i + 1
	for j := s; j < len(b); j++ {
		c := b[j]
		if plain[c] {
			continue
		}
		switch {
		case c == '\\':
			esc = true
			j++
		case c == '"':
			return s, j, esc, j + 1
		case c < 0x20:
			return 0, 0, false, -1
		default:
			esc = true // >= 0x80: decoded by encoding/json, which replaces invalid UTF-8
		}
	}
	return 0, 0, false, -1
}

// plain marks the bytes a JSON string holds as they are: printable ASCII
// but '"' and '\\'.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// skipString returns the index after the string starting at b[i] ==
// '"', -1 when unterminated. It finds the closing quote with
// bytes.IndexByte, a quote being closing when an even number of
// backslashes precedes it; the contents are not validated.
func skipString(b []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		j += k
		n := 0
		for p := j - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return j + 1
		}
		j++
	}
}

// skipValue skips a non-string JSON value (number, literal, object,
// array) starting at b[i]; -1 when malformed. Nested values are skipped
// by bracket depth with strings stepped over, not validated: the caller
// checks a whole line with encoding/json when a field is missing.
func skipValue(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			j := skipString(b, i)
			if j < 0 {
				return -1
			}
			i = j
			if depth == 0 {
				return i
			}
			continue
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			if depth == 0 {
				return i
			}
			depth--
			if depth == 0 {
				return i + 1
			}
		case c == ',' && depth == 0:
			return i
		case (c == ' ' || c == '\t' || c == '\r' || c == '\n') && depth == 0:
			return i
		}
		i++
	}
	if depth != 0 {
		return -1
	}
	return i
}
