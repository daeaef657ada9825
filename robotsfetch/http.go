package robotsfetch

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// freshness returns how long a response may be reused (RFC 9111 §4.2.1,
// as a private cache would read it) and whether it asked not to be stored.
// def is the lifetime when the response says nothing; the result is at most
// limit.
func freshness(h http.Header, now time.Time, def, limit time.Duration) (ttl time.Duration, noStore bool) {
	ttl = def
	maxAge, hasMaxAge := time.Duration(0), false
	for _, v := range h.Values("Cache-Control") {
		for d := range strings.SplitSeq(v, ",") {
			name, val, _ := strings.Cut(strings.TrimSpace(d), "=")
			switch strings.ToLower(strings.TrimSpace(name)) {
			case "no-store":
				noStore = true
			case "no-cache":
				// Reuse only after revalidation: for us, a fresh request
				// once MinAge has passed.
				maxAge, hasMaxAge = 0, true
			case "max-age":
				d, ok := deltaSeconds(strings.Trim(strings.TrimSpace(val), `"`))
				if !ok {
					// RFC 9111 §4.2.1: an invalid max-age means stale.
					maxAge, hasMaxAge = 0, true
					continue
				}
				if !hasMaxAge || d < maxAge {
					maxAge = d
				}
				hasMaxAge = true
			}
		}
	}
	switch {
	case noStore:
		ttl = 0
	case hasMaxAge:
		ttl = maxAge
		if age, ok := deltaSeconds(strings.TrimSpace(h.Get("Age"))); ok {
			ttl -= age
		}
	case h.Get("Expires") != "":
		exp, err := http.ParseTime(h.Get("Expires"))
		if err != nil {
			ttl = 0 // RFC 9111 §5.3: an invalid Expires means already expired
			break
		}
		base := now
		if d, err := http.ParseTime(h.Get("Date")); err == nil {
			base = d
		}
		ttl = exp.Sub(base)
	}
	return max(0, min(ttl, limit)), noStore
}

// retryAfter reads a Retry-After header (RFC 9110 §10.2.3): seconds or a date.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if d, ok := deltaSeconds(v); ok {
		return d, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, t.Sub(now)), true
	}
	return 0, false
}

// deltaSeconds reads a number of seconds (delta-seconds, RFC 9111 §1.2.2)
// as a duration of at most 2^32 seconds, the greatest it represents: a
// number too large for an int64 is read as that too, as the RFC asks, not
// as invalid. ok is false for a negative number or one that is no number.
func deltaSeconds(s string) (d time.Duration, ok bool) {
	n, err := strconv.ParseInt(s, 10, 64)
	if errors.Is(err, strconv.ErrRange) {
		err = nil // n is math.MaxInt64, or math.MinInt64 and refused below
	}
	if err != nil || n < 0 {
		return 0, false
	}
	return time.Duration(min(n, 1<<32)) * time.Second, true
}

// decodeBody wraps body in a decoder for its Content-Encoding. Only what we
// advertise (gzip, deflate) and identity are accepted.
func decodeBody(enc string, body io.Reader) (io.Reader, error) {
	switch strings.ToLower(strings.TrimSpace(enc)) {
	case "", "identity":
		return body, nil
	case "gzip", "x-gzip":
		return gzip.NewReader(body)
	case "deflate":
		// RFC 9110 says zlib; some servers send raw DEFLATE. The zlib
		// header's first byte tells them apart (CM = 8 in its low nibble,
		// and the two bytes a multiple of 31).
		br := bufio.NewReader(body)
		hdr, err := br.Peek(2)
		if err == nil && hdr[0]&0x0f == 8 && (uint16(hdr[0])<<8|uint16(hdr[1]))%31 == 0 {
			return zlib.NewReader(br)
		}
		return flate.NewReader(br), nil
	default:
		return nil, fmt.Errorf("unsupported Content-Encoding %q", enc)
	}
}

// readLimited reads r up to limit+1 bytes: one byte past the limit says the
// body is longer, without reading the rest.
func readLimited(r io.Reader, limit int) ([]byte, error) {
	var buf bytes.Buffer
	_, err := buf.ReadFrom(io.LimitReader(r, int64(limit)+1))
	return buf.Bytes(), err
}

// LooksLikeHTML reports whether a body is an HTML (or XML) page rather
// than a robots.txt: after a UTF-8 byte order mark, blanks and up to four
// HTML comments, it starts with a tag that opens a document (a doctype,
// html, head, body, meta, title, script, div, p or pre, or an XML
// declaration), or it starts with a tag and has "<html" in its first 1 KiB.
// Such a body is typically a login, error or soft 404 page served with
// status 200. Google parses it as robots.txt all the same and usually finds
// no rule in it, so everything is allowed; the fetcher flags it with
// WarnHTML and the linter reports it as html-file.
func LooksLikeHTML(body []byte) bool {
	b := bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
	for range 4 {
		b = bytes.TrimLeft(b, " \t\r\n\f\v")
		if bytes.HasPrefix(b, []byte("<!--")) {
			i := bytes.Index(b, []byte("-->"))
			if i < 0 {
				return false
			}
			b = b[i+3:]
			continue
		}
		break
	}
	if len(b) == 0 || b[0] != '<' {
		return false
	}
	head := bytes.ToLower(b[:min(len(b), 1024)])
	for _, t := range []string{"<!doctype", "<html", "<head", "<body", "<?xml", "<meta", "<title", "<script", "<div", "<p>", "<pre"} {
		if bytes.HasPrefix(head, []byte(t)) {
			return true
		}
	}
	return bytes.Contains(head, []byte("<html"))
}

// plainText reports whether a Content-Type is text/plain (or absent, which
// a server does when it does not know).
func plainText(ct string) bool {
	if ct == "" {
		return true
	}
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "text/plain"
}
