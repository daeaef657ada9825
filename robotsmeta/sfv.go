package robotsmeta

import (
	"fmt"
	"strconv"
)

// SyntaxError is a Structured Field parse failure (RFC 9651 section 4.2):
// the whole field is then ignored.
type SyntaxError struct {
	// Offset is the 0-based byte offset in the field value where parsing
	// failed; it equals the value's length when the value ended too soon.
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("at byte %d: %s", e.Offset+1, e.Msg) }

// sfKind is the type of a Structured Field bare item (RFC 9651 section 3.3).
type sfKind uint8

const (
	sfInteger sfKind = iota + 1
	sfDecimal
	sfString
	sfToken
	sfByteSeq
	sfBoolean
	sfDate
	sfDisplayString
)

func (k sfKind) String() string {
	return [...]string{"?", "Integer", "Decimal", "String", "Token", "Byte Sequence", "Boolean", "Date", "Display String"}[k]
}

// article names the kind with its indefinite article.
func (k sfKind) article() string {
	if k == sfInteger {
		return "an Integer"
	}
	return "a " + k.String()
}

// sfItem is a bare item: Text is the token, the decoded string or the
// number as written; Int the Integer or Date value; Bool the Boolean.
type sfItem struct {
	Kind sfKind
	Text string
	Int  int64
	Bool bool
}

// sfParam is one parameter; a key written without "=" is Boolean true.
type sfParam struct {
	Key string
	Val sfItem
	At  int // byte offset of the key
	Dup bool
}

// sfMember is one List member with its byte span [Start, End) in the
// input; Inner is set for an Inner List, whose items are not kept.
type sfMember struct {
	Start, End int
	Item       sfItem
	Inner      bool
	Params     []sfParam
}

// parseList parses an RFC 9651 List (section 4.2.1) from a field value
// already trimmed of surrounding spaces. On a syntax error it returns the
// members before the one that failed, each of which was followed by a
// comma, with a *SyntaxError.
func parseList(s string) ([]sfMember, error) {
	d := &sfParser{s: s}
	var out []sfMember
	d.skipSP()
	for !d.eof() {
		m := sfMember{Start: d.i}
		var err error
		if d.s[d.i] == '(' {
			m.Inner = true
			m.Params, err = d.innerList()
		} else if m.Item, err = d.bareItem(); err == nil {
			m.Params, err = d.params()
		}
		if err != nil {
			return out, err
		}
		m.End = d.i
		d.skipOWS()
		if d.eof() {
			return append(out, m), nil
		}
		if d.s[d.i] != ',' {
			return out, d.errf("expected ',' after a list member")
		}
		out = append(out, m)
		d.i++
		d.skipOWS()
		if d.eof() {
			return out, d.errf("trailing comma")
		}
	}
	return out, nil
}

// parseDictionary parses an RFC 9651 Dictionary and returns each key's
// value when it is a Token; other item types map to "". Any syntax error
// fails the whole field, as RFC 9651 section 4.2 requires.
func parseDictionary(s string) (map[string]string, error) {
	d := &sfParser{s: s}
	out := map[string]string{}
	d.skipSP()
	if d.eof() {
		return out, nil
	}
	for {
		key, err := d.key()
		if err != nil {
			return nil, err
		}
		val := ""
		if !d.eof() && d.s[d.i] == '=' {
			d.i++
			if !d.eof() && d.s[d.i] == '(' {
				_, err = d.innerList()
			} else {
				var it sfItem
				it, err = d.bareItem()
				if it.Kind == sfToken {
					val = it.Text
				}
			}
			if err != nil {
				return nil, err
			}
		}
		if _, err := d.params(); err != nil {
			return nil, err
		}
		out[key] = val // a later duplicate key wins
		d.skipOWS()
		if d.eof() {
			return out, nil
		}
		if d.s[d.i] != ',' {
			return nil, d.errf("expected ',' after member %q", key)
		}
		d.i++
		d.skipOWS()
		if d.eof() {
			return nil, d.errf("trailing comma")
		}
	}
}

type sfParser struct {
	s string
	i int
}

func (d *sfParser) eof() bool { return d.i >= len(d.s) }

func (d *sfParser) errf(format string, args ...any) error {
	return &SyntaxError{Offset: d.i, Msg: fmt.Sprintf(format, args...)}
}

func (d *sfParser) skipSP() {
	for !d.eof() && d.s[d.i] == ' ' {
		d.i++
	}
}

func (d *sfParser) skipOWS() {
	for !d.eof() && (d.s[d.i] == ' ' || d.s[d.i] == '\t') {
		d.i++
	}
}

func isLCAlpha(c byte) bool { return c >= 'a' && c <= 'z' }
func isDigit(c byte) bool   { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool   { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isTChar(c byte) bool {
	if isAlpha(c) || isDigit(c) {
		return true
	}
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~':
		return true
	}
	return false
}

func (d *sfParser) key() (string, error) {
	if d.eof() || !(isLCAlpha(d.s[d.i]) || d.s[d.i] == '*') {
		return "", d.errf("a key must start with a lower-case letter or '*'")
	}
	st := d.i
	for !d.eof() {
		c := d.s[d.i]
		if !(isLCAlpha(c) || isDigit(c) || c == '_' || c == '-' || c == '.' || c == '*') {
			break
		}
		d.i++
	}
	return d.s[st:d.i], nil
}

// params parses parameters (RFC 9651 section 4.2.3.2): a later duplicate
// key overwrites the value of the first, which keeps its place and is
// marked Dup.
func (d *sfParser) params() ([]sfParam, error) {
	var out []sfParam
	for !d.eof() && d.s[d.i] == ';' {
		d.i++
		d.skipSP()
		at := d.i
		k, err := d.key()
		if err != nil {
			return out, err
		}
		v := sfItem{Kind: sfBoolean, Bool: true}
		if !d.eof() && d.s[d.i] == '=' {
			d.i++
			if v, err = d.bareItem(); err != nil {
				return out, err
			}
		}
		dup := false
		for j := range out {
			if out[j].Key == k {
				out[j].Val, out[j].Dup, dup = v, true, true
				break
			}
		}
		if !dup {
			out = append(out, sfParam{Key: k, Val: v, At: at})
		}
	}
	return out, nil
}

// innerList parses an Inner List (RFC 9651 section 4.2.1.2), keeping only
// the parameters of the list itself.
func (d *sfParser) innerList() ([]sfParam, error) {
	d.i++ // (
	for {
		d.skipSP()
		if d.eof() {
			return nil, d.errf("unterminated inner list")
		}
		if d.s[d.i] == ')' {
			d.i++
			return d.params()
		}
		if _, err := d.bareItem(); err != nil {
			return nil, err
		}
		if _, err := d.params(); err != nil {
			return nil, err
		}
		if !d.eof() && d.s[d.i] != ' ' && d.s[d.i] != ')' {
			return nil, d.errf("bad inner list")
		}
	}
}

// bareItem parses one bare item (RFC 9651 section 4.2.3.1).
func (d *sfParser) bareItem() (sfItem, error) {
	if d.eof() {
		return sfItem{}, d.errf("missing value")
	}
	c := d.s[d.i]
	switch {
	case c == '-' || isDigit(c):
		return d.number()
	case c == '"':
		s, err := d.str()
		return sfItem{Kind: sfString, Text: s}, err
	case c == '%':
		d.i++
		if d.eof() || d.s[d.i] != '"' {
			return sfItem{}, d.errf("bad display string")
		}
		s, err := d.str()
		return sfItem{Kind: sfDisplayString, Text: s}, err
	case c == ':':
		st := d.i
		d.i++
		for !d.eof() && d.s[d.i] != ':' {
			b := d.s[d.i]
			if !(isAlpha(b) || isDigit(b) || b == '+' || b == '/' || b == '=') {
				return sfItem{}, d.errf("bad byte sequence")
			}
			d.i++
		}
		if d.eof() {
			return sfItem{}, d.errf("unterminated byte sequence")
		}
		d.i++
		return sfItem{Kind: sfByteSeq, Text: d.s[st:d.i]}, nil
	case c == '?':
		d.i++
		if d.eof() || (d.s[d.i] != '0' && d.s[d.i] != '1') {
			return sfItem{}, d.errf("bad boolean")
		}
		d.i++
		return sfItem{Kind: sfBoolean, Bool: d.s[d.i-1] == '1'}, nil
	case c == '@':
		d.i++
		if d.eof() {
			return sfItem{}, d.errf("bad date")
		}
		it, err := d.number()
		if err == nil && it.Kind != sfInteger {
			return sfItem{}, d.errf("a date must be an integer")
		}
		it.Kind = sfDate
		return it, err
	case isAlpha(c) || c == '*':
		st := d.i
		for !d.eof() && (isTChar(d.s[d.i]) || d.s[d.i] == ':' || d.s[d.i] == '/') {
			d.i++
		}
		return sfItem{Kind: sfToken, Text: d.s[st:d.i]}, nil
	}
	return sfItem{}, d.errf("unexpected %q", c)
}

// number parses an Integer or Decimal (RFC 9651 section 4.2.4).
func (d *sfParser) number() (sfItem, error) {
	from := d.i
	if d.s[d.i] == '-' {
		d.i++
	}
	if d.eof() || !isDigit(d.s[d.i]) {
		return sfItem{}, d.errf("a number must start with a digit")
	}
	// dot is the offset of the decimal point, -1 for an Integer. A second
	// '.' ends the number (and fails the member after it).
	st, dot := d.i, -1
	for !d.eof() {
		c := d.s[d.i]
		if c == '.' && dot == -1 {
			dot = d.i
		} else if !isDigit(c) {
			break
		}
		d.i++
	}
	// At most 15 digits in an Integer; a Decimal has 1 to 12 digits, '.',
	// and 1 to 3 digits (which keeps it within 16 characters).
	if dot == -1 && d.i-st > 15 || dot != -1 && (dot-st > 12 || d.i-dot-1 == 0 || d.i-dot-1 > 3) {
		return sfItem{}, d.errf("bad number")
	}
	text := d.s[from:d.i]
	if dot != -1 {
		return sfItem{Kind: sfDecimal, Text: text}, nil
	}
	v, _ := strconv.ParseInt(text, 10, 64) // at most 15 digits: cannot fail
	return sfItem{Kind: sfInteger, Text: text, Int: v}, nil
}

// str parses a String (RFC 9651 section 4.2.5) and returns it unescaped.
func (d *sfParser) str() (string, error) {
	d.i++ // opening quote
	var b []byte
	st := d.i
	for !d.eof() {
		c := d.s[d.i]
		d.i++
		switch {
		case c == '\\':
			if d.eof() || (d.s[d.i] != '"' && d.s[d.i] != '\\') {
				return "", d.errf("bad escape")
			}
			if b == nil {
				b = append([]byte{}, d.s[st:d.i-1]...)
			}
			b = append(b, d.s[d.i])
			d.i++
		case c == '"':
			if b == nil {
				return d.s[st : d.i-1], nil
			}
			return string(b), nil
		case c < 0x20 || c > 0x7e:
			d.i--
			return "", d.errf("bad string character")
		default:
			if b != nil {
				b = append(b, c)
			}
		}
	}
	return "", d.errf("unterminated string")
}
