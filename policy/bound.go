package policy

import "fmt"

// Bounds on a policy file's shape, checked before the TOML decoder reads
// it. The decoder's work grows with the square of a dotted key's length
// (a 20 KB key of "a.a.a..." took 1.3 GB), which MaxBytes alone does not
// bound. A policy needs keys of two parts (usage.content_usage), tables
// one level deep and arrays of strings; the limits leave room for more.
const (
	// MaxKeyParts bounds the parts of one dotted key or table name.
	MaxKeyParts = 8
	// MaxNesting bounds how deep arrays and inline tables nest.
	MaxNesting = 8
	// MaxKeys bounds the keys and table headers of a file: a policy of
	// 10,000 groups of four keys each stays under it.
	MaxKeys = 50_000
)

// prescan checks data against MaxKeyParts, MaxNesting and MaxKeys, reading
// just enough TOML to tell strings and comments from the rest: outside
// them, a dot joins two parts of a key (it also counts the dot of a float
// or a date, one at most, well under the bound), '[' and '{' open a level,
// and every '=' and table header is a key. It returns the line and what is
// over the bound, or 0 and "" for a file within them. A file that is not
// TOML passes through to the decoder, whose error names the line.
func prescan(data []byte) (line int, why string) {
	line = 1
	depth, keys, parts := 0, 0, 1
	lineStart := true
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '\n':
			line++
			lineStart, parts = true, 1
			continue
		case c == '#':
			for i+1 < len(data) && data[i+1] != '\n' {
				i++
			}
			continue
		case c == '"' || c == '\'':
			end, lines := skipString(data, i)
			i, line = end, line+lines
			lineStart = false
			continue // a quoted part of a key keeps the run of parts
		case c == '.':
			parts++
			if parts > MaxKeyParts {
				return line, fmt.Sprintf("a dotted key or table name of more than %d parts", MaxKeyParts)
			}
		case c == '[' || c == '{':
			if c == '[' && lineStart && depth == 0 {
				keys++ // a table header
			}
			depth++
			if depth > MaxNesting {
				return line, fmt.Sprintf("arrays or inline tables nested more than %d deep", MaxNesting)
			}
			parts = 1
		case c == ']' || c == '}':
			if depth > 0 {
				depth--
			}
			parts = 1
		case c == '=':
			keys++
			parts = 1
		case c == ' ' || c == '\t' || c == '\r' || c == '-' || c == '_' ||
			c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			// inside a run of key parts
		default:
			parts = 1
		}
		if keys > MaxKeys {
			return line, fmt.Sprintf("more than %d keys and tables", MaxKeys)
		}
		if c != ' ' && c != '\t' {
			lineStart = false
		}
	}
	return 0, ""
}

// skipString returns the index of the last byte of the TOML string
// starting at data[i] (basic or literal, one line or multi-line) and the
// newlines it holds. An unterminated string runs to the end of its line
// (one-line) or of the data (multi-line): the decoder reports it.
func skipString(data []byte, i int) (end, lines int) {
	q := data[i]
	multi := i+2 < len(data) && data[i+1] == q && data[i+2] == q
	if multi {
		i += 3
		for ; i < len(data); i++ {
			switch {
			case data[i] == '\n':
				lines++
			case data[i] == '\\' && q == '"':
				if i+1 < len(data) && data[i+1] == '\n' {
					lines++
				}
				i++
			case data[i] == q && i+2 < len(data) && data[i+1] == q && data[i+2] == q:
				// Up to two more quotes may belong to the string.
				i += 2
				for k := 0; k < 2 && i+1 < len(data) && data[i+1] == q; k++ {
					i++
				}
				return i, lines
			}
		}
		return len(data) - 1, lines
	}
	for i++; i < len(data); i++ {
		switch {
		case data[i] == '\n':
			return i - 1, lines
		case data[i] == '\\' && q == '"':
			i++
			if i < len(data) && data[i] == '\n' {
				return i - 1, lines
			}
		case data[i] == q:
			return i, lines
		}
	}
	return len(data) - 1, lines
}
