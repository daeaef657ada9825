package audit

import (
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/rep-toolkit/rep/accesslog"
)

// RowSchema is the version of the enrich row: its fields, their meaning
// and, in TabSeparated form, their order. Any change to RowColumns or to
// a field's meaning takes the next version (TabSeparated rows are read by
// position). docs/scale-out.md describes every field. Version 2 added
// verified_by, signature and signature_reason after verified.
const RowSchema = 2

// RowColumns are the fields of an enrich row of version RowSchema, in the
// order AppendRowTSV writes them.
var RowColumns = []string{
	"src", "line", "time", "ip", "host", "method", "path", "status", "bytes", "ua",
	"crawler", "operator", "purpose", "verified", "verified_by", "signature", "signature_reason",
	"robots", "rule", "rule_line", "robots_version",
	"gap_ms", "crawl_delay_s", "error", "text", "skip",
}

// AppendRowTSV appends the row AppendRow would write as one line of
// ClickHouse TabSeparated, the fields in RowColumns order: an absent
// string is empty, an absent time is 1970-01-01 00:00:00, an absent
// status, rule_line or crawl_delay_s is 0, an absent bytes or gap_ms is
// \N (NULL: a gap of 0 is a gap). These are the values ClickHouse gives
// the fields a JSON row omits. Times are UTC, "YYYY-MM-DD hh:mm:ss".
func AppendRowTSV(b []byte, src string, rec *accesslog.Record, row Row, h *History) []byte {
	b = appendTSVString(b, src)
	b = append(b, '\t')
	b = strconv.AppendInt(b, rec.Line, 10)
	b = append(b, '\t')
	b = appendTSVTime(b, rec.Time)
	for _, v := range [...][]byte{rec.IP, rec.Host, rec.Method, rec.PathQuery()} {
		b = append(b, '\t')
		b = appendTSVString(b, str(v))
	}
	b = append(b, '\t')
	b = strconv.AppendInt(b, int64(rec.Status), 10)
	b = append(b, '\t')
	if rec.Bytes >= 0 {
		b = strconv.AppendInt(b, rec.Bytes, 10)
	} else {
		b = append(b, `\N`...)
	}
	b = append(b, '\t')
	b = appendTSVString(b, str(rec.UserAgent))
	var crawler, operator, purpose, verified, by, sig, reason, robots, rule, version string
	ruleLine, delay := 0, 0.0
	gap := int64(-1)
	if c := row.Crawler; c != nil {
		crawler, operator, purpose, verified = c.Name, c.Operator, string(c.Purpose), string(row.Identity)
		by, sig, reason = verifiedBy(row), string(row.Signature), string(row.SignatureReason)
		if row.Robots != RobotsUnknown {
			robots = row.Robots.String()
			if row.Rule.Line > 0 {
				rule, ruleLine = row.Rule.String(), row.Rule.Line
			}
			version = h.versions[row.Version].Source
		}
		if row.Gap >= 0 {
			gap = row.Gap.Milliseconds()
		}
		if row.Delay > 0 {
			delay = row.Delay.Seconds()
		}
	}
	for _, v := range [...]string{crawler, operator, purpose, verified, by, sig, reason, robots, rule} {
		b = append(b, '\t')
		b = appendTSVString(b, v)
	}
	b = append(b, '\t')
	b = strconv.AppendInt(b, int64(ruleLine), 10)
	b = append(b, '\t')
	b = appendTSVString(b, version)
	b = append(b, '\t')
	if gap >= 0 {
		b = strconv.AppendInt(b, gap, 10)
	} else {
		b = append(b, `\N`...)
	}
	b = append(b, '\t')
	b = strconv.AppendFloat(b, delay, 'f', -1, 64)
	return append(b, "\t\t\t\n"...) // error, text, skip
}

// AppendBadRowTSV appends the TabSeparated row for a line that did not
// parse (AppendBadRow's fields, the others absent).
func AppendBadRowTSV(b []byte, bad accesslog.BadLine) []byte {
	b = appendTSVString(b, bad.Source)
	b = append(b, '\t')
	b = strconv.AppendInt(b, bad.Line, 10)
	b = append(b, "\t1970-01-01 00:00:00\t\t\t\t\t0\t\\N\t\t\t\t\t\t\t\t\t\t\t0\t\t\\N\t0\t"...)
	b = appendTSVString(b, bad.Error)
	b = append(b, '\t')
	b = appendTSVString(b, bad.Text)
	return append(b, "\t\n"...)
}

// AppendSkipRowTSV appends the TabSeparated row for a blank or directive
// line (AppendSkipRow's fields, the others absent).
func AppendSkipRowTSV(b []byte, src string, line int64, directive bool) []byte {
	b = appendTSVString(b, src)
	b = append(b, '\t')
	b = strconv.AppendInt(b, line, 10)
	b = append(b, "\t1970-01-01 00:00:00\t\t\t\t\t0\t\\N\t\t\t\t\t\t\t\t\t\t\t0\t\t\\N\t0\t\t\t"...)
	if directive {
		return append(b, "directive\n"...)
	}
	return append(b, "blank\n"...)
}

func appendTSVTime(b []byte, t int64) []byte {
	if t == 0 {
		return append(b, "1970-01-01 00:00:00"...)
	}
	// RFC 3339 has a fast path in package time: write that, then make
	// "2026-03-01T00:00:18Z" into "2026-03-01 00:00:18".
	n := len(b)
	b = time.Unix(0, t).UTC().AppendFormat(b, time.RFC3339)
	if len(b)-n != len("2006-01-02T15:04:05Z") || b[n+10] != 'T' || b[len(b)-1] != 'Z' {
		return append(b[:n], time.Unix(0, t).UTC().Format(time.DateTime)...) // a year past 9999
	}
	b[n+10] = ' '
	return b[:len(b)-1]
}

// appendTSVString appends s escaped for TabSeparated: backslash, tab,
// newline and carriage return as \\, \t, \n, \r, other control bytes as
// \xHH; invalid UTF-8 becomes U+FFFD, as in the JSON rows.
func appendTSVString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\\':
				b = append(b, '\\', '\\')
			case c == '\t':
				b = append(b, '\\', 't')
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c < 0x20 || c == 0x7f:
				b = append(b, '\\', 'x', hex[c>>4], hex[c&15])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, "\uFFFD"...)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return b
}
