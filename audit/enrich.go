package audit

import (
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/rep-toolkit/rep/accesslog"
	"github.com/rep-toolkit/rep/crawlers/identity"
)

// AppendRow appends one NDJSON row describing rec and what Add found
// (the "rep audit enrich" output), with a trailing newline. Fields:
//
//	src, line, time, ip, host, method, path, status, bytes, ua,
//	crawler, operator, purpose        (absent for non-crawlers)
//	verified                          (verified|spoofed|unverifiable|rdns-only, with -verify)
//	verified_by                       (the evidence of a verified one: ranges, fcrdns, signature, signature+ranges, …)
//	signature, signature_reason       (the Web Bot Auth signature's verdict, verified|invalid|unverified, and why not verified)
//	robots, rule, rule_line, robots_version   (allow|disallow|grace; the deciding rule; the version's source)
//	gap_ms, crawl_delay_s             (time since the crawler's previous request to this host; the Crawl-delay)
func AppendRow(b []byte, src string, rec *accesslog.Record, row Row, h *History) []byte {
	b = append(b, `{"src":`...)
	b = appendJSONString(b, src)
	b = append(b, `,"line":`...)
	b = strconv.AppendInt(b, rec.Line, 10)
	if rec.Time != 0 {
		b = append(b, `,"time":"`...)
		b = time.Unix(0, rec.Time).UTC().AppendFormat(b, time.RFC3339)
		b = append(b, '"')
	}
	b = appendField(b, "ip", rec.IP)
	b = appendField(b, "host", rec.Host)
	b = appendField(b, "method", rec.Method)
	b = appendField(b, "path", rec.PathQuery())
	if rec.Status != 0 {
		b = append(b, `,"status":`...)
		b = strconv.AppendInt(b, int64(rec.Status), 10)
	}
	if rec.Bytes >= 0 {
		b = append(b, `,"bytes":`...)
		b = strconv.AppendInt(b, rec.Bytes, 10)
	}
	b = appendField(b, "ua", rec.UserAgent)
	if c := row.Crawler; c != nil {
		b = append(b, `,"crawler":`...)
		b = appendJSONString(b, c.Name)
		if c.Operator != "" {
			b = append(b, `,"operator":`...)
			b = appendJSONString(b, c.Operator)
		}
		b = append(b, `,"purpose":`...)
		b = appendJSONString(b, string(c.Purpose))
		if row.Identity != "" {
			b = append(b, `,"verified":`...)
			b = appendJSONString(b, string(row.Identity))
		}
		if by := verifiedBy(row); by != "" {
			b = append(b, `,"verified_by":`...)
			b = appendJSONString(b, by)
		}
		if row.Signature != "" {
			b = append(b, `,"signature":`...)
			b = appendJSONString(b, string(row.Signature))
		}
		if row.SignatureReason != "" {
			b = append(b, `,"signature_reason":`...)
			b = appendJSONString(b, string(row.SignatureReason))
		}
		if row.Robots != RobotsUnknown {
			b = append(b, `,"robots":"`...)
			b = append(b, row.Robots.String()...)
			b = append(b, '"')
			if row.Rule.Line > 0 {
				b = append(b, `,"rule":`...)
				b = appendJSONString(b, row.Rule.String())
				b = append(b, `,"rule_line":`...)
				b = strconv.AppendInt(b, int64(row.Rule.Line), 10)
			}
			b = append(b, `,"robots_version":`...)
			b = appendJSONString(b, h.versions[row.Version].Source)
		}
		if row.Gap >= 0 {
			b = append(b, `,"gap_ms":`...)
			b = strconv.AppendInt(b, row.Gap.Milliseconds(), 10)
		}
		if row.Delay > 0 {
			b = append(b, `,"crawl_delay_s":`...)
			b = strconv.AppendFloat(b, row.Delay.Seconds(), 'f', -1, 64)
		}
	}
	return append(b, "}\n"...)
}

// verifiedBy is the enrich field verified_by: the evidence of a verified
// identity, "" for any other verdict.
func verifiedBy(row Row) string {
	if row.Identity != identity.Verified {
		return ""
	}
	return string(row.Method)
}

// AppendBadRow appends the NDJSON row for a line that did not parse.
func AppendBadRow(b []byte, bad accesslog.BadLine) []byte {
	b = append(b, `{"src":`...)
	b = appendJSONString(b, bad.Source)
	b = append(b, `,"line":`...)
	b = strconv.AppendInt(b, bad.Line, 10)
	b = append(b, `,"error":`...)
	b = appendJSONString(b, bad.Error)
	b = append(b, `,"text":`...)
	b = appendJSONString(b, bad.Text)
	return append(b, "}\n"...)
}

func appendField(b []byte, name string, v []byte) []byte {
	if len(v) == 0 {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return appendJSONString(b, str(v))
}

// appendJSONString appends s as a JSON string; invalid UTF-8 becomes
// U+FFFD, as encoding/json does.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c < 0x20 || c == '<' || c == '>' || c == '&':
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}

// AppendSkipRow appends the NDJSON row for a blank or directive line, so
// that enrich writes exactly one row per input line.
func AppendSkipRow(b []byte, src string, line int64, directive bool) []byte {
	b = append(b, `{"src":`...)
	b = appendJSONString(b, src)
	b = append(b, `,"line":`...)
	b = strconv.AppendInt(b, line, 10)
	if directive {
		return append(b, `,"skip":"directive"}`+"\n"...)
	}
	return append(b, `,"skip":"blank"}`+"\n"...)
}
