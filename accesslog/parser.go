package accesslog

import (
	"bytes"
	"errors"
	"fmt"
)

// A Parser turns one line (without its newline) into a Record. Parsers keep
// per-stream state (a timestamp cache, the current W3C field list, a scratch
// buffer), so each goroutine needs its own: get one from Format.NewParser.
// Byte fields of the Record may alias line or the Parser's scratch buffer.
type Parser interface {
	Parse(line []byte, r *Record) error
}

// ErrDirective is returned for lines that are not requests but may be
// meaningful to the parser: W3C "#Fields" and other "#" directives. Readers
// count them separately from bad lines.
var ErrDirective = errors.New("accesslog: directive line")

// SyntaxError says why a line did not parse and where.
type SyntaxError struct {
	Column int    // 1-based byte offset in the line where parsing stopped
	Reason string // what was expected
}

// Error describes the syntax error with its position.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("column %d: %s", e.Column, e.Reason)
}

// badAt builds a SyntaxError at the offset of rest within line.
func badAt(line, rest []byte, reason string) error {
	return &SyntaxError{Column: len(line) - len(rest) + 1, Reason: reason}
}

// quoted returns the contents of the double-quoted field at the start of b
// and what follows the closing quote. A quote preceded by an odd number of
// backslashes is escaped (Apache writes \"; nginx writes \x22, which needs
// no care).
func quoted(b []byte) (val, rest []byte, ok bool) {
	if len(b) == 0 || b[0] != '"' {
		return nil, b, false
	}
	i := 1
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return nil, b, false
		}
		j += i
		n := 0
		for k := j - 1; k >= 1 && b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return b[1:j], b[j+1:], true
		}
		i = j + 1
	}
}

// clfParser is the hand-written scanner for the NCSA Common and Combined
// Log Formats:
//
//	host ident user [time] "request" status bytes ["referer" "user-agent" ...]
//
// Trailing fields after the User-Agent are ignored, so nginx's combined
// with extras and Apache's combinedio parse too.
type clfParser struct {
	clk clock
	ip  ipPicker
}

func (p *clfParser) Parse(line []byte, r *Record) error {
	r.reset()
	sp := bytes.IndexByte(line, ' ')
	if sp <= 0 {
		return badAt(line, line, "client address")
	}
	r.IP = line[:sp]
	rest := line[sp+1:]
	lb := bytes.IndexByte(rest, '[')
	if lb < 0 {
		return badAt(line, rest, "[time]")
	}
	rest = rest[lb:]
	rb := bytes.IndexByte(rest, ']')
	if rb < 0 {
		return badAt(line, rest, "] closing the time")
	}
	t, ok := p.clk.clf(rest[1:rb])
	if !ok {
		return badAt(line, rest[1:], "time like 02/Jan/2006:15:04:05 -0700 (years 1678 to 2262)")
	}
	r.Time = t
	rest = rest[rb+1:]
	if len(rest) < 2 || rest[0] != ' ' {
		return badAt(line, rest, `space and "request"`)
	}
	req, rest, ok := quoted(rest[1:])
	if !ok {
		return badAt(line, rest, `"request"`)
	}
	splitRequest(req, r)
	if len(rest) < 2 || rest[0] != ' ' {
		return badAt(line, rest, "status")
	}
	rest = rest[1:]
	sp = bytes.IndexByte(rest, ' ')
	var st, by []byte
	if sp < 0 {
		return badAt(line, rest, "bytes after status")
	}
	st, rest = rest[:sp], rest[sp+1:]
	if r.Status, ok = parseStatus(st); !ok {
		return badAt(line, st, "3-digit status")
	}
	sp = bytes.IndexByte(rest, ' ')
	if sp < 0 {
		by, rest = rest, nil
	} else {
		by, rest = rest[:sp], rest[sp+1:]
	}
	if r.Bytes, ok = parseBytes(by); !ok {
		return badAt(line, by, `byte count or "-"`)
	}
	if len(rest) == 0 {
		return nil // Common Log Format: no referer, no User-Agent
	}
	ref, rest, ok := quoted(rest)
	if !ok {
		return badAt(line, rest, `"referer"`)
	}
	r.Referer = dash(ref)
	if len(rest) < 2 || rest[0] != ' ' {
		return badAt(line, rest, `"user-agent"`)
	}
	ua, rest, ok := quoted(rest[1:])
	if !ok {
		return badAt(line, rest, `"user-agent"`)
	}
	r.UserAgent = dash(ua)
	r.HasUserAgent = true
	if p.ip.header != 0 {
		// Combined carries no forwarded header; nginx setups that log it
		// put "$http_x_forwarded_for" right after the User-Agent.
		if len(rest) > 1 && rest[0] == ' ' {
			if xff, _, ok := quoted(rest[1:]); ok {
				r.ForwardedFor = dash(xff)
			}
		}
		p.ip.apply(r)
	}
	return nil
}
