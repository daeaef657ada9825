package accesslog

import (
	"bytes"
	"fmt"
	"strings"
)

// Format is a log format: one of the built-in names or a compiled nginx /
// Apache format string. It is immutable and safe for concurrent use; each
// stream gets its own Parser from NewParser.
type Format struct {
	name string
	kind formatKind
	dir  *directive
}

type formatKind uint8

const (
	kindCombined formatKind = iota + 1 // combined and common share a scanner
	kindCommon
	kindW3C
	kindCloudFront
	kindALB
	kindCaddy
	kindJSON
	kindDirective
)

// Formats lists the names ParseFormat accepts besides the "nginx:" and
// "apache:" prefixes.
var Formats = []string{"auto", "combined", "common", "w3c", "caddy", "cloudfront", "alb", "json"}

// ParseFormat parses a -format value: a name from Formats, or
// "nginx:LOG_FORMAT" / "apache:LOGFORMAT" where the part after the colon is
// the format string (or a predefined nickname such as apache:vhost_combined).
// "auto" and "" return nil, meaning: detect from the input.
func ParseFormat(spec string) (*Format, error) {
	switch strings.ToLower(spec) {
	case "", "auto":
		return nil, nil
	case "combined":
		return &Format{name: "combined", kind: kindCombined}, nil
	case "common", "clf", "ncsa":
		return &Format{name: "common", kind: kindCommon}, nil
	case "w3c", "iis":
		return &Format{name: "w3c", kind: kindW3C}, nil
	case "cloudfront":
		return &Format{name: "cloudfront", kind: kindCloudFront}, nil
	case "alb", "elb":
		return &Format{name: "alb", kind: kindALB}, nil
	case "caddy":
		return &Format{name: "caddy", kind: kindCaddy}, nil
	case "json", "traefik", "cloudflare":
		return &Format{name: "json", kind: kindJSON}, nil
	}
	if rest, ok := cutPrefixFold(spec, "nginx:"); ok {
		d, err := compileNginx(rest)
		if err != nil {
			return nil, err
		}
		return &Format{name: "nginx:" + rest, kind: kindDirective, dir: d}, nil
	}
	if rest, ok := cutPrefixFold(spec, "apache:"); ok {
		d, err := compileApache(rest)
		if err != nil {
			return nil, err
		}
		return &Format{name: "apache:" + rest, kind: kindDirective, dir: d}, nil
	}
	return nil, fmt.Errorf("unknown log format %q: use one of %s, nginx:'LOG_FORMAT' or apache:'LOGFORMAT'", spec, strings.Join(Formats, ", "))
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// MustFormat is ParseFormat for constants; it panics on error.
func MustFormat(spec string) *Format {
	f, err := ParseFormat(spec)
	if err != nil {
		panic(err)
	}
	return f
}

// String returns the format's name as ParseFormat accepts it.
func (f *Format) String() string { return f.name }

// NewParser returns a Parser for this format with its own state.
func (f *Format) NewParser(o Options) (Parser, error) {
	ip, err := newIPPicker(o)
	if err != nil {
		return nil, err
	}
	switch f.kind {
	case kindCombined, kindCommon:
		return &clfParser{ip: ip}, nil
	case kindW3C:
		return &w3cParser{ip: ip}, nil
	case kindCloudFront:
		return &w3cParser{ip: ip, cloudfront: true}, nil
	case kindALB:
		return &albParser{}, nil
	case kindCaddy, kindJSON:
		return &jsonParser{ip: ip}, nil
	case kindDirective:
		return &directiveParser{d: f.dir, ip: ip}, nil
	}
	return nil, fmt.Errorf("accesslog: format %q has no parser", f.name)
}

// Detect guesses the format of sample, the first bytes of a log (after
// decompression). It looks at the first non-empty lines: W3C and CloudFront
// announce themselves with "#" directives, JSON lines start with "{", ALB
// lines with a request type and an ISO time, and the rest must parse as
// Combined or Common. It returns an error naming the first line when
// nothing fits.
func Detect(sample []byte) (*Format, error) {
	lines := 0
	var first []byte
	votes := map[formatKind]int{}
	rest := sample
	for len(rest) > 0 && lines < 20 {
		var line []byte
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			line, rest = rest, nil // possibly cut short: judge it anyway
		}
		line = bytes.TrimRight(line, "\r")
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if first == nil {
			first = line
		}
		lines++
		switch {
		case line[0] == '#':
			if bytes.Contains(line, []byte("x-edge-location")) || bytes.Contains(line, []byte("#Version: 1.0")) && bytes.Contains(sample, []byte("x-edge-")) {
				return MustFormat("cloudfront"), nil
			}
			if bytes.HasPrefix(line, []byte("#Fields:")) || bytes.HasPrefix(line, []byte("#Software:")) || bytes.HasPrefix(line, []byte("#Version:")) {
				return MustFormat("w3c"), nil
			}
		case line[0] == '{':
			if bytes.Contains(line, []byte(`"http.log.access`)) || bytes.Contains(line, []byte(`"request":{`)) {
				votes[kindCaddy]++
			} else {
				votes[kindJSON]++
			}
		case isALB(line):
			votes[kindALB]++
		default:
			// vhost_combined first: the lenient combined scanner would take
			// its "host:port" for a client address.
			var r Record
			p := clfParser{}
			if vp, _ := MustFormat("apache:vhost_combined").NewParser(Options{}); vp.Parse(line, &r) == nil {
				votes[kindDirective]++
			} else if p.Parse(line, &r) == nil {
				if r.HasUserAgent {
					votes[kindCombined]++
				} else {
					votes[kindCommon]++
				}
			}
		}
	}
	if first == nil {
		return nil, fmt.Errorf("cannot detect the log format: no lines")
	}
	best, n := formatKind(0), 0
	for _, k := range []formatKind{kindCombined, kindCommon, kindCaddy, kindJSON, kindALB, kindDirective} {
		if votes[k] > n {
			best, n = k, votes[k]
		}
	}
	switch best {
	case kindCombined:
		return MustFormat("combined"), nil
	case kindCommon:
		return MustFormat("common"), nil
	case kindCaddy:
		return MustFormat("caddy"), nil
	case kindJSON:
		return MustFormat("json"), nil
	case kindALB:
		return MustFormat("alb"), nil
	case kindDirective:
		return MustFormat("apache:vhost_combined"), nil
	}
	// Most logs are Combined: say why the line is not, so that a line
	// of the right shape with a bad field (a year 9999) is named as such.
	why := ""
	var r Record
	if err := (&clfParser{}).Parse(first, &r); err != nil && first[0] != '#' && first[0] != '{' {
		why = " (as combined: " + err.Error() + ")"
	}
	if len(first) > 80 {
		first = first[:80]
	}
	return nil, fmt.Errorf("cannot detect the log format from its first line %q%s: give -format (combined, common, w3c, caddy, cloudfront, alb, json, nginx:'…' or apache:'…')", first, why)
}

// isALB reports whether line starts like an ALB entry: a request type and
// an ISO 8601 time.
func isALB(line []byte) bool {
	sp := bytes.IndexByte(line, ' ')
	if sp <= 0 {
		return false
	}
	switch string(line[:sp]) {
	case "http", "https", "h2", "grpcs", "ws", "wss":
	default:
		return false
	}
	t := line[sp+1:]
	return len(t) > 20 && t[4] == '-' && t[10] == 'T'
}
