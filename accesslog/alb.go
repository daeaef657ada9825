package accesslog

import "bytes"

// albParser reads AWS Application Load Balancer access logs: space-separated
// fields, some double-quoted, the client as ip:port and the request line
// carrying the absolute URL:
//
//	type time elb client:port target:port rpt tpt spt elb_status target_status received sent "request" "user_agent" ...
type albParser struct {
	clk clock
}

// albField returns the next field of b (quoted or bare) and the rest.
func albField(b []byte) (v, rest []byte, ok bool) {
	if len(b) == 0 {
		return nil, nil, false
	}
	if b[0] == '"' {
		v, rest, ok = quoted(b)
		if !ok {
			return nil, nil, false
		}
		if len(rest) > 0 && rest[0] == ' ' {
			rest = rest[1:]
		}
		return v, rest, true
	}
	if i := bytes.IndexByte(b, ' '); i >= 0 {
		return b[:i], b[i+1:], true
	}
	return b, nil, true
}

var albQuoted = [2]string{`"request" (quoted) as the 13th field`, `"user_agent" (quoted) as the 14th field`}

func (p *albParser) Parse(line []byte, r *Record) error {
	r.reset()
	rest := line
	for i := 0; i <= 13; i++ {
		v, next, ok := albField(rest)
		if !ok {
			return badAt(line, rest, "ALB field")
		}
		// The request and the User-Agent are always quoted: a bare field
		// there means the fields before it are not where ALB puts them,
		// and reading on would shift the URL into the User-Agent.
		if (i == 12 || i == 13) && rest[0] != '"' {
			return badAt(line, rest, albQuoted[i-12])
		}
		switch i {
		case 1:
			t, ok := p.clk.iso(v)
			if !ok {
				return badAt(line, v, "time like 2006-01-02T15:04:05.000000Z (years 1678 to 2262)")
			}
			r.Time = t
		case 3:
			r.IP = stripPort(v)
		case 8:
			if r.Status, ok = parseStatus(v); !ok {
				if len(v) == 1 && v[0] == '-' {
					break
				}
				return badAt(line, v, "3-digit elb_status_code")
			}
		case 11:
			if r.Bytes, ok = parseBytes(v); !ok {
				return badAt(line, v, "sent_bytes")
			}
		case 12:
			splitRequest(v, r)
			if h := r.TargetHost(); h != nil {
				r.Host = h
				r.Target = r.PathQuery()
			}
		case 13:
			r.UserAgent = dash(v)
			r.HasUserAgent = true
		}
		rest = next
	}
	return nil
}
