package accesslog

import (
	"bytes"
	"strings"
)

// w3cField is what one W3C column holds.
type w3cField uint8

const (
	wIgnore w3cField = iota
	wDate
	wTime
	wIP
	wMethod
	wStem
	wQuery
	wStatus
	wBytes
	wUA
	wRef
	wHost
	wViewerHost // CloudFront x-host-header: the host the viewer asked for
	wProto
	wXFF
	wCF
)

func w3cFieldOf(name string) w3cField {
	switch strings.ToLower(name) {
	case "date":
		return wDate
	case "time":
		return wTime
	case "c-ip":
		return wIP
	case "cs-method":
		return wMethod
	case "cs-uri-stem":
		return wStem
	case "cs-uri-query":
		return wQuery
	case "sc-status":
		return wStatus
	case "sc-bytes":
		return wBytes
	case "cs(user-agent)":
		return wUA
	case "cs(referer)", "cs(referrer)":
		return wRef
	case "cs-host", "cs(host)", "s-computername":
		return wHost
	case "x-host-header":
		return wViewerHost
	case "cs-version", "cs-protocol-version":
		return wProto
	case "x-forwarded-for", "cs(x-forwarded-for)":
		return wXFF
	case "cs(cf-connecting-ip)":
		return wCF
	}
	return wIgnore
}

// cloudFrontFields is the column list of CloudFront standard (legacy) logs,
// used when a file lacks its #Fields header (e.g. concatenated objects).
const cloudFrontFields = "date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher x-edge-response-result-type cs-protocol-version fle-status fle-encrypted-fields c-port time-to-first-byte x-edge-detailed-result-type sc-content-type sc-content-len sc-range-start sc-range-end"

// w3cParser reads W3C Extended logs (IIS: space-separated, "+" for spaces
// in the User-Agent) and CloudFront logs (tab-separated, URL-encoded
// User-Agent). The "#Fields" directive may appear again mid-file with a
// different column list; each line is read with the latest one.
type w3cParser struct {
	clk        clock
	ip         ipPicker
	cloudfront bool
	fields     []w3cField
	hasUA      bool
	scratch    []byte
}

func (p *w3cParser) setFields(list string) {
	p.fields = p.fields[:0]
	p.hasUA = false
	for _, f := range strings.Fields(list) {
		k := w3cFieldOf(f)
		p.fields = append(p.fields, k)
		if k == wUA {
			p.hasUA = true
		}
	}
}

func (p *w3cParser) Parse(line []byte, r *Record) error {
	r.reset()
	if len(line) > 0 && line[0] == '#' {
		if rest, ok := bytes.CutPrefix(line, []byte("#Fields:")); ok {
			p.setFields(string(rest))
		}
		return ErrDirective
	}
	if len(p.fields) == 0 {
		if !p.cloudfront {
			return badAt(line, line, "a #Fields directive before the first entry")
		}
		p.setFields(cloudFrontFields)
	}
	sep := byte(' ')
	if bytes.IndexByte(line, '\t') >= 0 {
		sep = '\t'
	}
	p.scratch = p.scratch[:0]
	var date, tm, stem, query, host, viewer []byte
	rest := line
	for i, f := range p.fields {
		if rest == nil {
			return badAt(line, line[len(line):], "more fields (#Fields lists more)")
		}
		var v []byte
		if j := bytes.IndexByte(rest, sep); j >= 0 {
			v, rest = rest[:j], rest[j+1:]
		} else {
			v, rest = rest, nil
		}
		_ = i
		var ok bool
		switch f {
		case wDate:
			date = v
		case wTime:
			tm = v
		case wIP:
			r.IP = v
		case wMethod:
			r.Method = dash(v)
		case wStem:
			stem = v
		case wQuery:
			query = dash(v)
		case wStatus:
			if r.Status, ok = parseStatus(v); !ok {
				return badAt(line, v, "3-digit sc-status")
			}
		case wBytes:
			if r.Bytes, ok = parseBytes(v); !ok {
				return badAt(line, v, "sc-bytes")
			}
		case wUA:
			r.UserAgent = p.decode(dash(v))
		case wRef:
			r.Referer = p.decode(dash(v))
		case wHost:
			host = dash(v)
		case wViewerHost:
			viewer = dash(v)
		case wProto:
			r.Proto = dash(v)
		case wXFF:
			if p.ip.header == hdrXFF {
				r.ForwardedFor = p.decode(dash(v))
			}
		case wCF:
			if p.ip.header == hdrCF {
				r.ForwardedFor = dash(v)
			}
		}
	}
	r.HasUserAgent = p.hasUA
	if len(viewer) > 0 {
		host = viewer
	}
	r.Host = host
	// Without a date and a time no robots.txt version can be chosen: the
	// line is bad, not a request from 1970.
	if date == nil || tm == nil {
		return badAt(line, line[len(line):], "date and time fields (the #Fields directive lists none)")
	}
	t, ok := p.clk.w3c(date, tm)
	if !ok {
		return badAt(line, date, "date 2006-01-02 and time 15:04:05 (years 1678 to 2262)")
	}
	r.Time = t
	if len(query) == 0 {
		r.Target = stem
	} else {
		start := len(p.scratch)
		p.scratch = append(p.scratch, stem...)
		p.scratch = append(p.scratch, '?')
		p.scratch = append(p.scratch, query...)
		r.Target = p.scratch[start:]
	}
	p.ip.apply(r)
	return nil
}

// decode undoes the field encoding: "+" for space in IIS logs, %XX in
// CloudFront's (which encodes some characters twice, e.g. %2520).
func (p *w3cParser) decode(v []byte) []byte {
	if p.cloudfront {
		if bytes.IndexByte(v, '%') < 0 {
			return v
		}
		start := len(p.scratch)
		p.scratch = appendUnescape(p.scratch, v)
		out := p.scratch[start:]
		if bytes.Contains(out, []byte("%2")) {
			p.scratch = appendUnescape(p.scratch, out)
			out = p.scratch[start+len(out):]
		}
		return out
	}
	if bytes.IndexByte(v, '+') < 0 {
		return v
	}
	start := len(p.scratch)
	for _, c := range v {
		if c == '+' {
			c = ' '
		}
		p.scratch = append(p.scratch, c)
	}
	return p.scratch[start:]
}

// appendUnescape appends v with %XX sequences decoded; malformed escapes are
// kept as they are.
func appendUnescape(dst, v []byte) []byte {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '%' && i+2 < len(v) {
			h, ok1 := unhex(v[i+1])
			l, ok2 := unhex(v[i+2])
			if ok1 && ok2 {
				dst = append(dst, h<<4|l)
				i += 2
				continue
			}
		}
		dst = append(dst, c)
	}
	return dst
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
