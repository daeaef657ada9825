// Package termsafe makes text from untrusted input safe to print on a
// terminal. A robots.txt, a page, a log line, a header or a URL may hold
// bytes a terminal obeys: ESC starts sequences that retitle, clear or
// recolour it, BEL rings it, CR rewrites the line, and C1 controls (U+0080
// to U+009F, or the raw bytes 0x80 to 0x9F a terminal in an 8-bit mode
// reads as CSI and OSC) do what ESC does. Every text renderer of the
// toolkit writes through Writer, or escapes with Escape, so that they show
// as visible escapes (\x1b, \u009b, \xff) instead. JSON output needs none
// of this: its encoders escape control characters already.
package termsafe

import (
	"io"
	"unicode/utf8"
)

// unsafe reports whether the rune r must be escaped: the C0 controls but
// tab and newline, DEL and the C1 controls.
func unsafe(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' || r >= 0x7f && r <= 0x9f
}

// clean reports whether b needs no escaping: printable ASCII, tab and
// newline, and valid UTF-8 without C1 controls.
func clean(b []byte) bool {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if unsafe(rune(c)) {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 || unsafe(r) {
			return false
		}
		i += n
	}
	return true
}

const hexDigits = "0123456789abcdef"

// Append appends b to dst with every control character escaped: C0
// controls other than tab and newline and DEL as \xNN, C1 controls as
// \u00NN, and bytes that are not UTF-8 as \xNN.
func Append(dst, b []byte) []byte {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if unsafe(rune(c)) {
				dst = append(dst, '\\', 'x', hexDigits[c>>4], hexDigits[c&15])
			} else {
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			dst = append(dst, '\\', 'x', hexDigits[c>>4], hexDigits[c&15])
		case unsafe(r):
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[r>>4], hexDigits[r&15])
		default:
			dst = append(dst, b[i:i+n]...)
		}
		i += n
	}
	return dst
}

// Escape returns s with every control character escaped, as Append does.
// It returns s itself when there is nothing to escape.
func Escape(s string) string {
	if clean([]byte(s)) {
		return s
	}
	return string(Append(nil, []byte(s)))
}

// Writer escapes what it writes, as Append does, and writes it to the
// underlying writer. A rune split between two writes (by a bufio.Writer
// below the renderer) is held until the next write completes it; Flush
// writes what is held, escaped, at the end of a text that does not end
// with a newline.
type Writer struct {
	w     io.Writer
	buf   []byte
	carry []byte
}

// NewWriter returns a Writer writing to w. A w that is already a Writer
// is returned as it is.
func NewWriter(w io.Writer) *Writer {
	if tw, ok := w.(*Writer); ok {
		return tw
	}
	return &Writer{w: w}
}

// Write writes p escaped. It returns len(p) when the escaped text was
// written whole.
func (w *Writer) Write(p []byte) (int, error) {
	n := len(p)
	if len(w.carry) > 0 {
		p = append(w.carry, p...)
		w.carry = nil
	}
	if i := partial(p); i < len(p) {
		w.carry = append([]byte(nil), p[i:]...)
		p = p[:i]
	}
	if len(p) == 0 {
		return n, nil
	}
	if clean(p) {
		if _, err := w.w.Write(p); err != nil {
			return 0, err
		}
		return n, nil
	}
	w.buf = Append(w.buf[:0], p)
	if _, err := w.w.Write(w.buf); err != nil {
		return 0, err
	}
	return n, nil
}

// partial returns where an incomplete UTF-8 sequence at the end of p
// starts, or len(p).
func partial(p []byte) int {
	for i := len(p) - 1; i >= 0 && i >= len(p)-utf8.UTFMax+1; i-- {
		if c := p[i]; c >= 0xC0 {
			if !utf8.FullRune(p[i:]) {
				return i
			}
			break
		} else if c < 0x80 {
			break
		}
	}
	return len(p)
}

// WriteString writes s escaped.
func (w *Writer) WriteString(s string) (int, error) {
	return w.Write([]byte(s))
}

// Flush writes, escaped, the start of a rune held back by the last write.
func (w *Writer) Flush() error {
	if len(w.carry) == 0 {
		return nil
	}
	w.buf = Append(w.buf[:0], w.carry)
	w.carry = nil
	_, err := w.w.Write(w.buf)
	return err
}
