package filter

// hostByte marks the bytes of a plain host: lower-case ASCII letters,
// digits, '.', '-' and ':' (before a port).
var hostByte = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	t['.'], t['-'], t[':'] = true, true, true
	return t
}()

// fastHost returns the host key of an absolute http(s) URL (as
// survey.HostOf would) without allocating, when the URL is plain: lower
// case ASCII host, no userinfo, no percent-encoding, no port but the
// scheme's default. ok is false otherwise, and the caller takes the slow
// path.
func fastHost(u string) (host string, ok bool) {
	var rest, def string
	switch {
	case len(u) > 8 && u[:8] == "https://":
		rest, def = u[8:], "443"
	case len(u) > 7 && u[:7] == "http://":
		rest, def = u[7:], "80"
	default:
		return "", false
	}
	end, colon, dash := len(rest), -1, false
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if c == '/' || c == '?' || c == '#' {
			end = i
			break
		}
		if !hostByte[c] {
			return "", false // upper case, userinfo, IPv6, IDN, escapes: the slow path
		}
		switch c {
		case ':':
			if colon >= 0 {
				return "", false
			}
			colon = i
		case '-':
			dash = true
		}
	}
	h := rest[:end]
	if colon >= 0 {
		if h[colon+1:] != def {
			return "", false // another port, or none after the colon: the slow path checks it
		}
		h = h[:colon]
	}
	if h == "" || h[len(h)-1] == '.' {
		return "", false
	}
	if dash {
		// IDNA labels ("xn--") are checked on the slow path.
		for i := 0; i+4 <= len(h); i++ {
			if h[i] == 'x' && h[i+1] == 'n' && h[i+2] == '-' && h[i+3] == '-' {
				return "", false
			}
		}
	}
	return h, true
}
