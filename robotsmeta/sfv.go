package robotsmeta

import (
	"errors"
	"fmt"
)

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
				err = d.innerList()
			} else {
				val, err = d.bareItem()
			}
			if err != nil {
				return nil, err
			}
		}
		if err := d.params(); err != nil {
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
			return nil, errors.New("trailing comma")
		}
	}
}

type sfParser struct {
	s string
	i int
}

func (d *sfParser) eof() bool { return d.i >= len(d.s) }

func (d *sfParser) errf(format string, args ...any) error {
	return fmt.Errorf("at byte %d: "+format, append([]any{d.i + 1}, args...)...)
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

func (d *sfParser) params() error {
	for !d.eof() && d.s[d.i] == ';' {
		d.i++
		d.skipSP()
		if _, err := d.key(); err != nil {
			return err
		}
		if !d.eof() && d.s[d.i] == '=' {
			d.i++
			if _, err := d.bareItem(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (d *sfParser) innerList() error {
	d.i++ // (
	for {
		d.skipSP()
		if d.eof() {
			return d.errf("unterminated inner list")
		}
		if d.s[d.i] == ')' {
			d.i++
			return d.params()
		}
		if _, err := d.bareItem(); err != nil {
			return err
		}
		if err := d.params(); err != nil {
			return err
		}
		if !d.eof() && d.s[d.i] != ' ' && d.s[d.i] != ')' {
			return d.errf("bad inner list")
		}
	}
}

// bareItem returns the token text for a Token and "" for other types.
func (d *sfParser) bareItem() (string, error) {
	if d.eof() {
		return "", d.errf("missing value")
	}
	c := d.s[d.i]
	switch {
	case c == '-' || isDigit(c):
		return "", d.number()
	case c == '"':
		return "", d.str()
	case c == '%':
		d.i++
		if d.eof() || d.s[d.i] != '"' {
			return "", d.errf("bad display string")
		}
		return "", d.str()
	case c == ':':
		d.i++
		for !d.eof() && d.s[d.i] != ':' {
			b := d.s[d.i]
			if !(isAlpha(b) || isDigit(b) || b == '+' || b == '/' || b == '=') {
				return "", d.errf("bad byte sequence")
			}
			d.i++
		}
		if d.eof() {
			return "", d.errf("unterminated byte sequence")
		}
		d.i++
		return "", nil
	case c == '?':
		d.i++
		if d.eof() || (d.s[d.i] != '0' && d.s[d.i] != '1') {
			return "", d.errf("bad boolean")
		}
		d.i++
		return "", nil
	case c == '@':
		d.i++
		return "", d.number()
	case isAlpha(c) || c == '*':
		st := d.i
		for !d.eof() && (isTChar(d.s[d.i]) || d.s[d.i] == ':' || d.s[d.i] == '/') {
			d.i++
		}
		return d.s[st:d.i], nil
	}
	return "", d.errf("unexpected %q", c)
}

func (d *sfParser) number() error {
	if d.s[d.i] == '-' {
		d.i++
	}
	st, dot := d.i, -1
	for !d.eof() {
		c := d.s[d.i]
		if c == '.' && dot < 0 {
			dot = d.i
		} else if !isDigit(c) {
			break
		}
		d.i++
	}
	n := d.i - st
	if n == 0 || (dot < 0 && n > 15) || (dot >= 0 && (n > 16 || dot == d.i-1 || dot-st > 12 || d.i-dot-1 > 3)) {
		return d.errf("bad number")
	}
	return nil
}

func (d *sfParser) str() error {
	d.i++ // opening quote
	for !d.eof() {
		c := d.s[d.i]
		d.i++
		switch {
		case c == '\\':
			if d.eof() || (d.s[d.i] != '"' && d.s[d.i] != '\\') {
				return d.errf("bad escape")
			}
			d.i++
		case c == '"':
			return nil
		case c < 0x20 || c > 0x7e:
			return d.errf("bad string character")
		}
	}
	return d.errf("unterminated string")
}
