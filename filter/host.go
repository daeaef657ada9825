package filter

import "strings"

// fastHost returns the host key of an absolute http(s) URL (as
// survey.HostOf would) without allocating, when the URL is plain: lower
// case ASCII host, no userinfo, no percent-encoding. ok is false
// otherwise, and the caller takes the slow path.
func fastHost(u string) (host string, ok bool) {
	var rest string
	var def string
	switch {
	case len(u) > 8 && u[:8] == "https://":
		rest, def = u[8:], ":443"
	case len(u) > 7 && u[:7] == "http://":
		rest, def = u[7:], ":80"
	default:
		return "", false
	}
	end := len(rest)
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if c == '/' || c == '?' || c == '#' {
			end = i
			break
		}
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '.', c == '-', c == ':':
		default:
			return "", false // upper case, userinfo, IPv6, IDN, escapes: the slow path
		}
	}
	h := rest[:end]
	if h == "" || h[len(h)-1] == '.' || strings.Contains(h, "xn--") {
		return "", false // IDNA labels are checked on the slow path
	}
	if len(h) > len(def) && h[len(h)-len(def):] == def {
		h = h[:len(h)-len(def)]
	}
	for i := 0; i < len(h); i++ {
		if h[i] == ':' {
			return "", false // a port other than the default: the slow path checks it
		}
	}
	return h, true
}
