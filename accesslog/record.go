package accesslog

import (
	"bytes"
	"time"
)

// Record is one request read from a log. Its byte-slice fields alias a
// buffer owned by the Reader (or Parser) that filled it: they are valid until
// the next call that fills the same Record, so copy what you keep.
type Record struct {
	// Line is the 1-based line number in the input, set by Reader.
	Line int64
	// Time is the request time in Unix nanoseconds (UTC); 0 if the format
	// has no time.
	Time int64
	// IP is the client address: the trusted forwarded address when
	// Options.ClientIP says so, else the address the server saw.
	IP []byte
	// Method is the HTTP method, empty if the request line was malformed.
	Method []byte
	// Host is the virtual host or authority, when the format logs it.
	Host []byte
	// Target is the request target as logged: usually path?query, sometimes
	// an absolute URL or (for malformed requests) the raw request line.
	Target []byte
	// Proto is the protocol version, e.g. HTTP/1.1.
	Proto []byte
	// Status is the response status code, 0 when not logged.
	Status int
	// Bytes is the response size in bytes, -1 when not logged ("-").
	Bytes int64
	// Referer is the Referer header, empty for "-".
	Referer []byte
	// UserAgent is the User-Agent header, empty for "-" or when not logged.
	UserAgent []byte
	// HasUserAgent reports whether the format logs the User-Agent at all
	// (Common Log Format does not), so an empty UA can be told from none.
	HasUserAgent bool
	// ForwardedFor is the X-Forwarded-For (or CF-Connecting-IP) value when
	// the format logs one, whether or not it was trusted.
	ForwardedFor []byte

	// Scheme is the request's scheme ("https", "http") when a JSON log
	// carries it (a scheme key, or an absolute-form target); empty
	// otherwise.
	Scheme []byte
	// Authority is the host as a JSON log carries it, port included
	// ("www.example.com:8443"), where Host has the port removed; empty when
	// not logged. A Web Bot Auth signature covers the authority with its
	// port.
	Authority []byte
	// Signature, SignatureInput and SignatureAgent are the Web Bot Auth
	// request headers (RFC 9421 Signature and Signature-Input, and
	// Signature-Agent), when a JSON log carries them; empty otherwise.
	Signature, SignatureInput, SignatureAgent []byte
}

// reset clears r for reuse without freeing anything.
func (r *Record) reset() {
	*r = Record{Bytes: -1}
}

// When returns Time as a time.Time in UTC.
func (r *Record) When() time.Time {
	return time.Unix(0, r.Time).UTC()
}

// Path returns the path of Target without query, scheme or authority; an
// absolute-form target ("http://host/p?q") yields "/p". It allocates nothing.
func (r *Record) Path() []byte {
	p := r.PathQuery()
	if i := bytes.IndexByte(p, '?'); i >= 0 {
		p = p[:i]
	}
	return p
}

// PathQuery returns Target in origin form: the path and query, without
// scheme or authority.
func (r *Record) PathQuery() []byte {
	t := r.Target
	if len(t) > 0 && t[0] != '/' {
		if i := bytes.Index(t, []byte("://")); i > 0 && i < 10 {
			rest := t[i+3:]
			if j := bytes.IndexByte(rest, '/'); j >= 0 {
				return rest[j:]
			}
			return []byte("/")
		}
	}
	return t
}

// splitAbsolute splits an absolute-form target ("https://h:8443/p?q") into
// its scheme and authority; ok is false for any other target.
func splitAbsolute(t []byte) (scheme, authority []byte, ok bool) {
	i := bytes.Index(t, []byte("://"))
	if i <= 0 || i >= 10 || t[0] == '/' {
		return nil, nil, false
	}
	a := t[i+3:]
	if j := bytes.IndexByte(a, '/'); j >= 0 {
		a = a[:j]
	}
	return t[:i], a, true
}

// TargetHost returns the host of an absolute-form Target ("http://h:443/p"
// gives "h"), or nil.
func (r *Record) TargetHost() []byte {
	t := r.Target
	i := bytes.Index(t, []byte("://"))
	if i <= 0 || i >= 10 {
		return nil
	}
	h := t[i+3:]
	if j := bytes.IndexByte(h, '/'); j >= 0 {
		h = h[:j]
	}
	return stripPort(h)
}

// stripPort removes a trailing :port from a host or address, keeping
// bracketed IPv6 literals whole and bare IPv6 addresses untouched.
func stripPort(h []byte) []byte {
	if len(h) > 0 && h[0] == '[' {
		if j := bytes.IndexByte(h, ']'); j > 0 {
			return h[1:j]
		}
		return h
	}
	i := bytes.LastIndexByte(h, ':')
	if i < 0 || bytes.IndexByte(h[:i], ':') >= 0 { // none, or bare IPv6
		return h
	}
	for _, c := range h[i+1:] {
		if c < '0' || c > '9' {
			return h
		}
	}
	return h[:i]
}

// dash maps the log placeholder "-" to empty.
func dash(b []byte) []byte {
	if len(b) == 1 && b[0] == '-' {
		return b[:0]
	}
	return b
}

// atoi parses a non-negative decimal; ok is false for anything else,
// including overflow beyond 18 digits.
func atoi(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// parseStatus parses a 3-digit status code.
func parseStatus(b []byte) (int, bool) {
	if len(b) != 3 {
		return 0, false
	}
	n, ok := atoi(b)
	if !ok || n < 100 {
		return 0, false
	}
	return int(n), true
}

// parseBytes parses a size field: "-" is -1 (not logged).
func parseBytes(b []byte) (int64, bool) {
	if len(b) == 1 && b[0] == '-' {
		return -1, true
	}
	return atoi(b)
}

// splitRequest splits "METHOD target PROTO" into r. A request line that is
// not of that shape ("-", TLS garbage) leaves Method empty and Target raw.
func splitRequest(req []byte, r *Record) {
	if len(req) == 1 && req[0] == '-' {
		return
	}
	sp := bytes.IndexByte(req, ' ')
	if sp <= 0 || !isToken(req[:sp]) {
		r.Target = req
		return
	}
	rest := req[sp+1:]
	r.Method = req[:sp]
	if sp2 := bytes.LastIndexByte(rest, ' '); sp2 >= 0 && bytes.HasPrefix(rest[sp2+1:], []byte("HTTP/")) {
		r.Target, r.Proto = rest[:sp2], rest[sp2+1:]
		return
	}
	r.Target = rest // HTTP/0.9 has no version
}

// isToken reports whether b is a plausible HTTP method (RFC 9110 token of
// upper-case letters, as real methods are).
func isToken(b []byte) bool {
	if len(b) > 20 {
		return false
	}
	for _, c := range b {
		if (c < 'A' || c > 'Z') && c != '-' && c != '_' {
			return false
		}
	}
	return true
}
