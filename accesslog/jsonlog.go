package accesslog

import (
	"bytes"
	"unicode/utf8"
)

// jsonField is the Record field a JSON key feeds.
type jsonField uint8

const (
	jIgnore jsonField = iota
	jIP
	jRemoteIP // connection address, used when no client address is logged
	jMethod
	jHost
	jTarget
	jRequest // a whole request line ("GET /p HTTP/1.1")
	jProto
	jStatus
	jBytes
	jUA
	jRef
	jTime
	jXFF
	jCF
	jScheme
	jSig      // Web Bot Auth: Signature
	jSigInput // Signature-Input
	jSigAgent // Signature-Agent
)

// jsonFieldOf maps a key (lower-cased) and its parent key to a field. The
// names cover Caddy, Traefik, Cloudflare Logpush, nginx "escape=json"
// formats and the usual hand-written ones. Request headers are read from
// objects named headers (Caddy), request_headers or RequestHeaders
// (Cloudflare Logpush custom fields), or from top-level keys in the
// styles of nginx ($http_signature_input), Traefik (request_Signature-Input)
// and snake case (signature_input).
func jsonFieldOf(key, parent string) jsonField {
	if parent == "headers" || parent == "request_headers" || parent == "requestheaders" {
		switch key {
		case "signature":
			return jSig
		case "signature-input":
			return jSigInput
		case "signature-agent":
			return jSigAgent
		case "user-agent":
			return jUA
		case "referer":
			return jRef
		case "x-forwarded-for":
			return jXFF
		case "cf-connecting-ip":
			return jCF
		case "host":
			return jHost
		}
		return jIgnore
	}
	if parent == "resp_headers" {
		return jIgnore
	}
	switch key {
	case "client_ip", "clientip", "clienthost", "c-ip", "ip", "client", "client_addr":
		return jIP
	case "remote_ip", "remote_addr", "remoteaddr", "remote_host":
		return jRemoteIP
	case "method", "request_method", "requestmethod", "clientrequestmethod", "http_method", "verb":
		return jMethod
	case "host", "request_host", "requesthost", "clientrequesthost", "http_host", "server_name", "vhost":
		return jHost
	case "uri", "request_uri", "requestpath", "clientrequesturi", "url", "path":
		return jTarget
	case "request":
		return jRequest
	case "proto", "protocol", "server_protocol", "requestprotocol", "clientrequestprotocol":
		return jProto
	case "status", "downstreamstatus", "edgeresponsestatus", "status_code", "statuscode", "sc-status", "response_status":
		return jStatus
	case "size", "bytes", "body_bytes_sent", "bytes_sent", "downstreamcontentsize", "edgeresponsebytes", "response_size", "sc-bytes":
		return jBytes
	case "user_agent", "http_user_agent", "useragent", "user-agent", "clientrequestuseragent", "request_user-agent", "ua":
		return jUA
	case "referer", "referrer", "http_referer", "clientrequestreferer", "request_referer":
		return jRef
	case "ts", "time", "timestamp", "time_local", "time_iso8601", "startutc", "edgestarttimestamp", "@timestamp", "msec", "datetime":
		return jTime
	case "http_x_forwarded_for", "x_forwarded_for", "x-forwarded-for", "request_x-forwarded-for", "xff":
		return jXFF
	case "cf_connecting_ip", "http_cf_connecting_ip", "cf-connecting-ip", "request_cf-connecting-ip":
		return jCF
	case "scheme", "request_scheme", "requestscheme", "clientrequestscheme":
		return jScheme
	case "signature", "http_signature", "request_signature":
		return jSig
	case "signature_input", "signature-input", "http_signature_input", "request_signature-input", "request_signature_input":
		return jSigInput
	case "signature_agent", "signature-agent", "http_signature_agent", "request_signature-agent", "request_signature_agent":
		return jSigAgent
	}
	return jIgnore
}

// maxJSONDepth bounds nesting so hostile input cannot exhaust the stack.
const maxJSONDepth = 32

// jsonParser reads one JSON object per line (Caddy's access log, Traefik's
// JSON access log, Cloudflare Logpush, nginx escape=json) with a small
// hand-written scanner: encoding/json costs 10–20× more per line (notes
// §2.3), and only a handful of fields matter.
type jsonParser struct {
	clk     clock
	ip      ipPicker
	scratch []byte
	keys    [maxJSONDepth + 1][]byte
	lower   [64]byte

	rec      *Record
	remoteIP []byte
	haveTime bool
	badTime  []byte
	badField []byte // a status or size that is not one
	badWhat  string
	request  bool // a field of the request was seen (method, target, status…)
	line     []byte
}

func (p *jsonParser) Parse(line []byte, r *Record) error {
	r.reset()
	p.rec, p.line, p.remoteIP, p.haveTime, p.badTime = r, line, nil, false, nil
	p.badField, p.badWhat, p.request = nil, "", false
	p.scratch = p.scratch[:0]
	i := skipWS(line, 0)
	if i >= len(line) || line[i] != '{' {
		return badAt(line, line[i:], "a JSON object")
	}
	end, ok := p.value(line, i, 0)
	if !ok {
		return badAt(line, line[min(end, len(line)):], "valid JSON")
	}
	if j := skipWS(line, end); j != len(line) {
		return badAt(line, line[j:], "end of line after the JSON object")
	}
	if p.badTime != nil {
		return badAt(line, p.badTime, "a timestamp (RFC 3339, CLF or Unix seconds; years 1678 to 2262)")
	}
	if p.badField != nil {
		return badAt(line, p.badField, p.badWhat)
	}
	if !p.haveTime {
		// Without a time no robots.txt version can be chosen: say so rather
		// than date the request 1970.
		return badAt(line, line[len(line):], "a time field (ts, time, timestamp, time_local, StartUTC, …)")
	}
	if !p.request {
		// A time alone ({"ts":…, "msg":…}: a server's own log line) is
		// not a request.
		return badAt(line, line[len(line):], "a request field (uri, request, method, status, …)")
	}
	if len(r.IP) == 0 {
		r.IP = p.remoteIP
	}
	p.ip.apply(r)
	return nil
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// value scans the JSON value at b[i] and returns the index after it. depth
// is the number of enclosing objects; keys[1..depth] name the path.
func (p *jsonParser) value(b []byte, i, depth int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch c := b[i]; {
	case c == '{':
		if depth >= maxJSONDepth {
			return i, false
		}
		i = skipWS(b, i+1)
		if i < len(b) && b[i] == '}' {
			return i + 1, true
		}
		for {
			if i >= len(b) || b[i] != '"' {
				return i, false
			}
			ks, ke, ok := scanString(b, i)
			if !ok {
				return i, false
			}
			p.keys[depth+1] = b[ks:ke]
			i = skipWS(b, ke+1)
			if i >= len(b) || b[i] != ':' {
				return i, false
			}
			i = skipWS(b, i+1)
			if i, ok = p.value(b, i, depth+1); !ok {
				return i, false
			}
			i = skipWS(b, i)
			if i >= len(b) {
				return i, false
			}
			if b[i] == '}' {
				return i + 1, true
			}
			if b[i] != ',' {
				return i, false
			}
			i = skipWS(b, i+1)
		}
	case c == '[':
		i = skipWS(b, i+1)
		if i < len(b) && b[i] == ']' {
			return i + 1, true
		}
		for n := 0; ; n++ {
			var ok bool
			if n == 0 {
				i, ok = p.value(b, i, depth) // headers are arrays: take the first
			} else {
				i, ok = p.skip(b, i, depth)
			}
			if !ok {
				return i, false
			}
			i = skipWS(b, i)
			if i >= len(b) {
				return i, false
			}
			if b[i] == ']' {
				return i + 1, true
			}
			if b[i] != ',' {
				return i, false
			}
			i = skipWS(b, i+1)
		}
	case c == '"':
		s, e, ok := scanString(b, i)
		if !ok {
			return i, false
		}
		p.leaf(depth, b[s:e], true)
		return e + 1, true
	default:
		j := i
		for j < len(b) && (b[j] == '-' || b[j] == '+' || b[j] == '.' || (b[j] >= '0' && b[j] <= '9') || (b[j] >= 'a' && b[j] <= 'z') || b[j] == 'E') {
			j++
		}
		if j == i {
			return i, false
		}
		v := b[i:j]
		if v[0] >= 'a' && string(v) != "true" && string(v) != "false" && string(v) != "null" {
			return i, false
		}
		p.leaf(depth, v, false)
		return j, true
	}
}

// skip scans a value without recording it.
func (p *jsonParser) skip(b []byte, i, depth int) (int, bool) {
	save := p.rec
	p.rec = nil
	i, ok := p.value(b, i, depth)
	p.rec = save
	return i, ok
}

// scanString returns the bounds of the string contents starting at b[i]=='"'
// (s is after the opening quote, e at the closing quote).
func scanString(b []byte, i int) (s, e int, ok bool) {
	s = i + 1
	for j := s; j < len(b); j++ {
		switch b[j] {
		case '"':
			return s, j, true
		case '\\':
			j++
		}
	}
	return s, len(b), false
}

// leaf records a scalar at keys[1..depth].
func (p *jsonParser) leaf(depth int, v []byte, isString bool) {
	r := p.rec
	if r == nil || depth == 0 {
		return
	}
	key := p.lowerKey(p.keys[depth])
	parent := ""
	if depth >= 2 {
		parent = string(p.lowerKey2(p.keys[depth-1]))
	}
	f := jsonFieldOf(string(key), parent)
	if f == jIgnore {
		return
	}
	if isString && bytes.IndexByte(v, '\\') >= 0 {
		v = p.unescape(v)
	}
	if !isString && string(v) == "null" {
		return
	}
	switch f {
	case jMethod, jTarget, jRequest, jStatus:
		p.request = true
	}
	switch f {
	case jIP:
		if len(r.IP) == 0 {
			r.IP = dash(v)
		}
	case jRemoteIP:
		p.remoteIP = stripPort(dash(v))
	case jMethod:
		r.Method = v
	case jHost:
		if len(r.Host) == 0 {
			r.Authority = dash(v)
			r.Host = stripPort(r.Authority)
		}
	case jTarget:
		r.Target = v
		if scheme, auth, ok := splitAbsolute(v); ok {
			if len(r.Host) == 0 {
				r.Host, r.Authority = stripPort(auth), auth
			}
			if len(r.Scheme) == 0 {
				r.Scheme = scheme
			}
			r.Target = r.PathQuery()
		}
	case jRequest:
		if isString && len(r.Target) == 0 {
			splitRequest(v, r)
		}
	case jProto:
		r.Proto = v
	case jStatus:
		// 0 and "-" mean no response was sent (Caddy logs a status of 0
		// for an aborted request).
		if n, ok := parseStatus(v); ok {
			r.Status = n
		} else if string(v) != "0" && string(v) != "-" && string(v) != "" && p.badField == nil {
			p.badField, p.badWhat = v, "a 3-digit status"
		}
	case jBytes:
		if n, ok := parseBytes(v); ok {
			r.Bytes = n
		} else if string(v) != "" && p.badField == nil {
			p.badField, p.badWhat = v, `a byte count or "-"`
		}
	case jUA:
		r.UserAgent = dash(v)
		r.HasUserAgent = true
	case jRef:
		r.Referer = dash(v)
	case jTime:
		if p.haveTime {
			return
		}
		var t int64
		var ok bool
		switch {
		case !isString:
			t, ok = epoch(v)
		case len(v) > 0 && v[0] >= '0' && v[0] <= '9' && len(v) >= 19 && v[4] == '-':
			t, ok = p.clk.iso(v)
		case len(v) > 0 && (v[0] == '[' || (len(v) > 2 && v[2] == '/')):
			t, ok = p.clk.clf(v)
		default:
			t, ok = epoch(v)
		}
		if ok {
			r.Time, p.haveTime, p.badTime = t, true, nil
		} else if p.badTime == nil {
			p.badTime = v
		}
	case jXFF:
		if p.ip.header == hdrXFF {
			r.ForwardedFor = v
		}
	case jCF:
		if p.ip.header == hdrCF {
			r.ForwardedFor = v
		}
	case jScheme:
		r.Scheme = dash(v)
	case jSig:
		r.Signature = dash(v)
	case jSigInput:
		r.SignatureInput = dash(v)
	case jSigAgent:
		r.SignatureAgent = dash(v)
	}
}

func (p *jsonParser) lowerKey(k []byte) []byte {
	n := copy(p.lower[:32], k)
	out := p.lower[:n]
	for i, c := range out {
		if 'A' <= c && c <= 'Z' {
			out[i] = c + 32
		}
	}
	return out
}

func (p *jsonParser) lowerKey2(k []byte) []byte {
	n := copy(p.lower[32:], k)
	out := p.lower[32 : 32+n]
	for i, c := range out {
		if 'A' <= c && c <= 'Z' {
			out[i] = c + 32
		}
	}
	return out
}

// unescape decodes a JSON string body into the scratch buffer. Invalid
// escapes are kept verbatim; unpaired surrogates become U+FFFD.
func (p *jsonParser) unescape(v []byte) []byte {
	start := len(p.scratch)
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c != '\\' || i+1 >= len(v) {
			p.scratch = append(p.scratch, c)
			continue
		}
		i++
		switch v[i] {
		case '"', '\\', '/':
			p.scratch = append(p.scratch, v[i])
		case 'b':
			p.scratch = append(p.scratch, '\b')
		case 'f':
			p.scratch = append(p.scratch, '\f')
		case 'n':
			p.scratch = append(p.scratch, '\n')
		case 'r':
			p.scratch = append(p.scratch, '\r')
		case 't':
			p.scratch = append(p.scratch, '\t')
		case 'u':
			r, n := hex4(v[i+1:])
			if n == 0 {
				p.scratch = append(p.scratch, '\\', 'u')
				continue
			}
			i += 4
			if r >= 0xD800 && r < 0xDC00 && i+6 < len(v) && v[i+1] == '\\' && v[i+2] == 'u' {
				if r2, n2 := hex4(v[i+3:]); n2 > 0 && r2 >= 0xDC00 && r2 < 0xE000 {
					r = (r-0xD800)<<10 | (r2 - 0xDC00) + 0x10000
					i += 6
				}
			}
			p.scratch = utf8.AppendRune(p.scratch, r)
		default:
			p.scratch = append(p.scratch, '\\', v[i])
		}
	}
	return p.scratch[start:]
}

func hex4(b []byte) (rune, int) {
	if len(b) < 4 {
		return 0, 0
	}
	var r rune
	for _, c := range b[:4] {
		d, ok := unhex(c)
		if !ok {
			return 0, 0
		}
		r = r<<4 | rune(d)
	}
	return r, 4
}
