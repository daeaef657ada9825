package accesslog

import (
	"bytes"
	"fmt"
	"strings"
)

// dField is the Record field a log-format variable feeds.
type dField uint8

const (
	dIgnore dField = iota
	dIP
	dTimeCLF     // 02/Jan/2006:15:04:05 -0700, fixed width
	dTimeCLFBrkt // [02/Jan/2006:15:04:05 -0700] (Apache %t)
	dTimeISO
	dTimeEpoch
	dRequest
	dStatus
	dBytes
	dRef
	dUA
	dHost
	dTarget
	dPath
	dQuery // nginx $args: no "?"
	dQueryQ
	dMethod
	dProto
	dXFF
	dCF
)

// seg is one piece of a compiled format: a literal or a variable.
type seg struct {
	lit   []byte
	field dField
	name  string // variable as written, for messages
	isVar bool
	// cut is set for a variable directly followed by another variable: the
	// value ends before the first byte in cut (e.g. "$host$request_uri"
	// splits at "/", the failure in gonx#42).
	cut string
}

// directive is an nginx log_format or Apache LogFormat string compiled into
// a splitter: each variable's value runs up to the literal that follows it.
type directive struct {
	segs  []seg
	hasUA bool
}

var nginxVars = map[string]dField{
	"remote_addr": dIP, "binary_remote_addr": dIgnore, "realip_remote_addr": dIgnore,
	"time_local": dTimeCLF, "time_iso8601": dTimeISO, "msec": dTimeEpoch,
	"request": dRequest, "status": dStatus,
	"body_bytes_sent": dBytes, "bytes_sent": dBytes,
	"http_referer": dRef, "http_user_agent": dUA,
	"host": dHost, "http_host": dHost, "server_name": dHost,
	"request_uri": dTarget, "uri": dPath, "document_uri": dPath, "args": dQuery, "query_string": dQuery, "is_args": dIgnore,
	"request_method": dMethod, "server_protocol": dProto,
	"http_x_forwarded_for": dXFF, "proxy_add_x_forwarded_for": dXFF, "http_cf_connecting_ip": dCF,
}

// nginxNamed are the formats nginx predefines or its sample config ships.
var nginxNamed = map[string]string{
	"combined": `$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent"`,
	"main":     `$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" "$http_x_forwarded_for"`,
}

// apacheNamed are the nicknames of the LogFormat lines in Apache's default
// httpd.conf.
var apacheNamed = map[string]string{
	"common":         `%h %l %u %t "%r" %>s %b`,
	"combined":       `%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i"`,
	"vhost_combined": `%v:%p %h %l %u %t "%r" %>s %O "%{Referer}i" "%{User-Agent}i"`,
	"combinedio":     `%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i" %I %O`,
}

// compileNginx compiles an nginx log_format string. It accepts the bare
// format, the quoted pieces as written in nginx.conf ('…' '…'), or a whole
// "log_format name [escape=…] '…';" directive.
func compileNginx(spec string) (*directive, error) {
	spec = strings.TrimSpace(spec)
	if named, ok := nginxNamed[spec]; ok {
		spec = named
	}
	if rest, ok := strings.CutPrefix(spec, "log_format "); ok {
		f := strings.Fields(rest)
		if len(f) > 1 {
			rest = strings.TrimSpace(strings.TrimPrefix(rest, f[0]))
			if strings.HasPrefix(rest, "escape=") {
				rest = strings.TrimSpace(rest[strings.IndexByte(rest, ' ')+1:])
			}
		}
		spec = strings.TrimSuffix(strings.TrimSpace(rest), ";")
	}
	if strings.HasPrefix(spec, "'") {
		// Quoted pieces alternate with the whitespace between them; only
		// odd pieces are content.
		var b strings.Builder
		parts := strings.Split(spec, "'")
		for i := 1; i < len(parts); i += 2 {
			b.WriteString(parts[i])
		}
		spec = b.String()
	}
	d := &directive{}
	var lit []byte
	for i := 0; i < len(spec); {
		if spec[i] != '$' {
			lit = append(lit, spec[i])
			i++
			continue
		}
		j := i + 1
		var name string
		if j < len(spec) && spec[j] == '{' {
			k := strings.IndexByte(spec[j:], '}')
			if k < 0 {
				return nil, fmt.Errorf("nginx format: column %d: unclosed ${", i+1)
			}
			name, j = spec[j+1:j+k], j+k+1
		} else {
			for j < len(spec) && (spec[j] == '_' || spec[j] >= 'a' && spec[j] <= 'z' || spec[j] >= 'A' && spec[j] <= 'Z' || spec[j] >= '0' && spec[j] <= '9') {
				j++
			}
			name = spec[i+1 : j]
		}
		if name == "" {
			return nil, fmt.Errorf("nginx format: column %d: $ without a variable name", i+1)
		}
		if len(lit) > 0 {
			d.segs = append(d.segs, seg{lit: lit})
			lit = nil
		}
		f := nginxVars[strings.ToLower(name)]
		d.segs = append(d.segs, seg{isVar: true, field: f, name: "$" + name})
		i = j
	}
	if len(lit) > 0 {
		d.segs = append(d.segs, seg{lit: lit})
	}
	return d.finish("nginx")
}

// compileApache compiles an Apache LogFormat string (mod_log_config). It
// accepts a nickname (combined, common, vhost_combined, combinedio), the
// format with its config-file escapes (\"), or a whole LogFormat line.
func compileApache(spec string) (*directive, error) {
	spec = strings.TrimSpace(spec)
	if named, ok := apacheNamed[spec]; ok {
		spec = named
	}
	if rest, ok := strings.CutPrefix(spec, "LogFormat "); ok {
		rest = strings.TrimSpace(rest)
		if strings.HasPrefix(rest, `"`) {
			if end := strings.LastIndexByte(rest, '"'); end > 0 {
				rest = rest[1:end]
			}
		}
		spec = rest
	}
	spec = strings.ReplaceAll(spec, `\"`, `"`)
	spec = strings.ReplaceAll(spec, `\t`, "\t")
	d := &directive{}
	var lit []byte
	for i := 0; i < len(spec); {
		if spec[i] != '%' {
			lit = append(lit, spec[i])
			i++
			continue
		}
		start := i
		i++
		if i < len(spec) && spec[i] == '%' {
			lit = append(lit, '%')
			i++
			continue
		}
		for i < len(spec) && strings.IndexByte("<>!,0123456789", spec[i]) >= 0 {
			i++
		}
		arg := ""
		if i < len(spec) && spec[i] == '{' {
			k := strings.IndexByte(spec[i:], '}')
			if k < 0 {
				return nil, fmt.Errorf("apache format: column %d: unclosed %%{", start+1)
			}
			arg, i = spec[i+1:i+k], i+k+1
		}
		if i >= len(spec) {
			return nil, fmt.Errorf("apache format: column %d: %% at end of format", start+1)
		}
		conv := spec[i]
		i++
		f := dIgnore
		switch conv {
		case 'h', 'a':
			f = dIP
		case 't':
			switch arg {
			case "":
				f = dTimeCLFBrkt
			case "sec", "msec", "usec":
				f = dTimeEpoch
			default:
				return nil, fmt.Errorf("apache format: column %d: %%{%s}t: only %%t, %%{sec}t, %%{msec}t and %%{usec}t are supported", start+1, arg)
			}
		case 'r':
			f = dRequest
		case 's':
			f = dStatus
		case 'b', 'B', 'O':
			f = dBytes
		case 'v', 'V':
			f = dHost
		case 'U':
			f = dPath
		case 'q':
			f = dQueryQ
		case 'm':
			f = dMethod
		case 'H':
			f = dProto
		case 'i':
			switch strings.ToLower(arg) {
			case "referer":
				f = dRef
			case "user-agent":
				f = dUA
			case "host":
				f = dHost
			case "x-forwarded-for":
				f = dXFF
			case "cf-connecting-ip":
				f = dCF
			}
		}
		if len(lit) > 0 {
			d.segs = append(d.segs, seg{lit: lit})
			lit = nil
		}
		d.segs = append(d.segs, seg{isVar: true, field: f, name: spec[start:i]})
	}
	if len(lit) > 0 {
		d.segs = append(d.segs, seg{lit: lit})
	}
	return d.finish("apache")
}

// finish checks that adjacent variables can be split and notes the UA.
func (d *directive) finish(kind string) (*directive, error) {
	if len(d.segs) == 0 {
		return nil, fmt.Errorf("%s format: empty", kind)
	}
	for i := range d.segs {
		s := &d.segs[i]
		if s.field == dUA {
			d.hasUA = true
		}
		if !s.isVar || i+1 >= len(d.segs) || !d.segs[i+1].isVar {
			continue
		}
		next := d.segs[i+1]
		switch {
		case s.field == dTimeCLF || s.field == dTimeCLFBrkt:
			// fixed width: no separator needed
		case s.field == dHost && (next.field == dTarget || next.field == dPath):
			s.cut = "/"
		case s.field == dPath && (next.field == dQueryQ):
			s.cut = "?"
		default:
			return nil, fmt.Errorf("%s format: %s%s: two variables with nothing between them cannot be split", kind, s.name, next.name)
		}
	}
	// Without a time every line would be a request from 1970: refuse the
	// format, as a JSON line without a time is a bad line.
	hasTime := false
	for _, s := range d.segs {
		switch s.field {
		case dTimeCLF, dTimeCLFBrkt, dTimeISO, dTimeEpoch:
			hasTime = true
		}
	}
	if !hasTime {
		if kind == "nginx" {
			return nil, fmt.Errorf("nginx format: no time variable: a log for rep needs $time_local, $time_iso8601 or $msec")
		}
		return nil, fmt.Errorf("apache format: no time directive: a log for rep needs %%t, %%{sec}t, %%{msec}t or %%{usec}t")
	}
	return d, nil
}

// directiveParser parses lines with a compiled directive.
type directiveParser struct {
	d       *directive
	clk     clock
	ip      ipPicker
	scratch []byte
}

func (p *directiveParser) Parse(line []byte, r *Record) error {
	r.reset()
	p.scratch = p.scratch[:0]
	var path, query []byte
	queryQ := false
	rest := line
	segs := p.d.segs
	for i := range segs {
		s := &segs[i]
		if !s.isVar {
			if !bytes.HasPrefix(rest, s.lit) {
				return badAt(line, rest, fmt.Sprintf("%q", s.lit))
			}
			rest = rest[len(s.lit):]
			continue
		}
		var v []byte
		switch {
		case s.field == dTimeCLF || s.field == dTimeCLFBrkt:
			n := 26
			if s.field == dTimeCLFBrkt {
				n = 28
			}
			if len(rest) < n {
				return badAt(line, rest, "time like 02/Jan/2006:15:04:05 -0700 (years 1678 to 2262)")
			}
			v, rest = rest[:n], rest[n:]
		case s.cut != "":
			j := bytes.IndexAny(rest, s.cut)
			if j < 0 {
				j = len(rest)
			}
			v, rest = rest[:j], rest[j:]
		case i+1 == len(segs):
			v, rest = rest, nil
		default:
			next := segs[i+1].lit
			var j int
			if next[0] == '"' && i > 0 && !segs[i-1].isVar && bytes.HasSuffix(segs[i-1].lit, []byte{'"'}) {
				j = quotedEnd(rest)
			} else {
				j = bytes.Index(rest, next)
			}
			if j < 0 {
				return badAt(line, rest, fmt.Sprintf("%q after %s", next, s.name))
			}
			v, rest = rest[:j], rest[j:]
		}
		if err := p.set(line, s, v, r, &path, &query, &queryQ); err != nil {
			return err
		}
	}
	if len(rest) > 0 {
		return badAt(line, rest, "end of line")
	}
	if len(r.Target) == 0 && len(path) > 0 {
		if len(query) == 0 || (queryQ && len(query) == 1) {
			r.Target = path
		} else {
			start := len(p.scratch)
			p.scratch = append(p.scratch, path...)
			if !queryQ {
				p.scratch = append(p.scratch, '?')
			}
			p.scratch = append(p.scratch, query...)
			r.Target = p.scratch[start:]
		}
	}
	r.HasUserAgent = p.d.hasUA
	p.ip.apply(r)
	return nil
}

// quotedEnd returns the index of the first unescaped '"' in b, or -1.
func quotedEnd(b []byte) int {
	i := 0
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return -1
		}
		j += i
		n := 0
		for k := j - 1; k >= 0 && b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return j
		}
		i = j + 1
	}
}

func (p *directiveParser) set(line []byte, s *seg, v []byte, r *Record, path, query *[]byte, queryQ *bool) error {
	var ok bool
	switch s.field {
	case dIP:
		r.IP = v
	case dTimeCLF, dTimeCLFBrkt:
		if r.Time, ok = p.clk.clf(v); !ok {
			return badAt(line, v, "time like 02/Jan/2006:15:04:05 -0700 (years 1678 to 2262)")
		}
	case dTimeISO:
		if r.Time, ok = p.clk.iso(v); !ok {
			return badAt(line, v, "time like 2006-01-02T15:04:05+00:00 (years 1678 to 2262)")
		}
	case dTimeEpoch:
		if r.Time, ok = epoch(v); !ok {
			return badAt(line, v, "Unix time (years 1678 to 2262)")
		}
	case dRequest:
		splitRequest(v, r)
	case dStatus:
		if r.Status, ok = parseStatus(v); !ok {
			return badAt(line, v, "3-digit status")
		}
	case dBytes:
		if r.Bytes, ok = parseBytes(v); !ok {
			return badAt(line, v, `byte count or "-"`)
		}
	case dRef:
		r.Referer = dash(v)
	case dUA:
		r.UserAgent = dash(v)
	case dHost:
		r.Host = stripPort(dash(v))
	case dTarget:
		r.Target = v
	case dPath:
		*path = v
	case dQuery:
		*query = dash(v)
	case dQueryQ:
		*query, *queryQ = v, true
	case dMethod:
		r.Method = v
	case dProto:
		r.Proto = v
	case dXFF:
		if p.ip.header == hdrXFF {
			r.ForwardedFor = dash(v)
		}
	case dCF:
		if p.ip.header == hdrCF {
			r.ForwardedFor = dash(v)
		}
	}
	return nil
}
