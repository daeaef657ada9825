package robotsfetch

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/rep-toolkit/rep/internal/urlhead"
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

type hopsKey struct{}

func (f *Fetcher) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > f.o.MaxRedirects {
		return fmt.Errorf("%w: more than %d", ErrTooManyRedirects, f.o.MaxRedirects)
	}
	if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
		return fmt.Errorf("%w: to %s, which has no robots.txt to fetch", ErrBadRedirect, req.URL.Redacted())
	}
	if hops, ok := req.Context().Value(hopsKey{}).(*[]string); ok {
		*hops = append(*hops, req.URL.String())
	}
	return nil
}

// fetch makes one attempt and returns the new entry; prev is the entry it
// replaces (nil for none).
func (f *Fetcher) fetch(origin string, prev *Entry) *Entry {
	f.stats.requests.Add(1)
	now := f.o.Now()
	e := &Entry{Version: EntryVersion, Origin: origin, UserAgent: f.o.UserAgent}
	start := time.Now()
	defer func() { e.Last.Duration = time.Since(start) }()
	if prev != nil {
		e.Good = prev.Good
	}
	out := &e.Last
	out.Origin, out.URL, out.FetchedAt, out.Source = origin, origin+"/robots.txt", now, FromNetwork

	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	ctx, cancelT := context.WithTimeout(ctx, f.o.Timeout)
	defer cancelT()
	var hops []string
	ctx = context.WithValue(ctx, hopsKey{}, &hops)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, out.URL, nil)
	if err != nil {
		return f.unreachable(e, prev, nil, err)
	}
	req.Header.Set("User-Agent", f.o.UserAgent)
	req.Header.Set("Accept", "text/plain, */*;q=0.5")
	req.Header.Set("Accept-Encoding", "gzip, deflate")
	conditional := false
	if g := e.Good; g != nil && g.Case == Success {
		if g.ETag != "" {
			req.Header.Set("If-None-Match", g.ETag)
			conditional = true
		}
		if g.LastModified != "" {
			req.Header.Set("If-Modified-Since", g.LastModified)
			conditional = true
		}
	}
	resp, err := f.client.Do(req)
	out.Redirects = hops
	if resp != nil {
		out.Status = resp.StatusCode
		out.FinalURL = resp.Request.URL.String()
		out.ContentType = resp.Header.Get("Content-Type")
		out.ContentEncoding = resp.Header.Get("Content-Encoding")
		defer resp.Body.Close()
	}
	switch {
	case errors.Is(err, ErrTooManyRedirects):
		out.fail(urlhead.Unwrap(err))
		return f.definitive(e, TooManyRedirects, header(resp), nil)
	case errors.Is(err, ErrBadRedirect):
		out.fail(urlhead.Unwrap(err))
		return f.definitive(e, BadRedirect, header(resp), nil)
	case err != nil:
		return f.unreachable(e, prev, nil, urlhead.Unwrap(err))
	}
	code := resp.StatusCode
	switch {
	case code == http.StatusNotModified && conditional:
		g := *e.Good
		g.FetchedAt = now
		if v := resp.Header.Get("ETag"); v != "" {
			g.ETag = v
		}
		if v := resp.Header.Get("Last-Modified"); v != "" {
			g.LastModified = v
		}
		out.Source = FromRevalidation
		out.CopyFetchedAt = e.Good.FetchedAt
		out.Bytes = len(g.Body)
		out.FinalURL = g.URL
		return f.definitive(e, Success, resp.Header, &g)
	case code >= 200 && code <= 299:
		body, err := f.readBody(resp, cancel)
		if err != nil {
			return f.unreachable(e, prev, resp, fmt.Errorf("%d, reading the body: %w", code, err))
		}
		out.Bytes = len(body)
		g := &Copy{Case: Success, Status: code, URL: out.FinalURL, Body: body, FetchedAt: now,
			ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified")}
		if len(body) > f.o.MaxBytes {
			g.Truncated = true
			out.Warnings = append(out.Warnings, WarnTruncated)
		}
		if LooksLikeHTML(body) {
			out.Warnings = append(out.Warnings, WarnHTML)
		}
		if !plainText(out.ContentType) {
			out.Warnings = append(out.Warnings, WarnContentType)
		}
		return f.definitive(e, Success, resp.Header, g)
	case code >= 300 && code <= 399:
		cause := fmt.Errorf("%w: %d with no Location to follow", ErrBadRedirect, code)
		if code == http.StatusNotModified {
			cause = fmt.Errorf("%w: 304 to a request that was not conditional", ErrBadRedirect)
		}
		out.fail(cause)
		return f.definitive(e, BadRedirect, resp.Header, nil)
	case StatusCase(code) == Unavailable:
		return f.definitive(e, Unavailable, resp.Header, nil)
	default: // 429, 5xx and the rest: StatusCase's Unreachable
		return f.unreachable(e, prev, resp, &StatusError{Code: code})
	}
}

// readBody decodes and reads the body up to MaxBytes+1 bytes within
// BodyTimeout.
func (f *Fetcher) readBody(resp *http.Response, cancel context.CancelCauseFunc) ([]byte, error) {
	t := time.AfterFunc(f.o.BodyTimeout, func() { cancel(errBodyTimeout) })
	defer t.Stop()
	r, err := decodeBody(resp.Header.Get("Content-Encoding"), resp.Body)
	if err == nil {
		var body []byte
		body, err = readLimited(r, f.o.MaxBytes)
		if err == nil {
			return body, nil
		}
	}
	if cause := context.Cause(resp.Request.Context()); cause != nil && !errors.Is(err, cause) {
		err = fmt.Errorf("%w (%w)", err, cause)
	}
	return nil, err
}

// definitive records an answer that is not an outage: Success with its
// copy, or one of the allow-all rules.
func (f *Fetcher) definitive(e *Entry, rule Case, h http.Header, g *Copy) *Entry {
	out := &e.Last
	now := out.FetchedAt
	out.Case, out.Verdict = rule, CaseClass(rule)
	ttl, noStore := freshness(h, now, f.o.MaxAge, f.o.MaxAge)
	if noStore {
		out.Warnings = append(out.Warnings, WarnNoStore)
	}
	out.ExpiresAt = now.Add(max(ttl, f.o.MinAge))
	if g == nil {
		status := out.Status
		if rule == TooManyRedirects || rule == BadRedirect {
			status = 0
		}
		g = &Copy{Case: rule, Status: status, URL: out.FinalURL, FetchedAt: now}
	}
	e.Good = g
	return e
}

// unreachable records a failed attempt and applies the outage rules.
func (f *Fetcher) unreachable(e *Entry, prev *Entry, resp *http.Response, cause error) *Entry {
	out := &e.Last
	now := out.FetchedAt
	out.fail(cause)
	retry := f.o.RetryInterval
	if resp != nil {
		if ra, ok := retryAfter(resp.Header, now); ok {
			retry = ra
		}
	}
	out.ExpiresAt = now.Add(min(max(retry, f.o.MinAge), f.o.MaxAge))
	if out.Refused {
		// A refusal, not an outage: it never ages into an allow.
		out.Case, out.Verdict = RefusedAddress, DisallowAll
		return e
	}
	out.DownSince = now
	if prev != nil && !prev.Last.DownSince.IsZero() {
		out.DownSince = prev.Last.DownSince
	}
	out.Case, out.Verdict = Unreachable, DisallowAll
	g := e.Good
	switch {
	case now.Sub(out.DownSince) >= f.o.OutageLimit && f.o.AfterOutage != OutageDisallow:
		if g != nil && f.o.AfterOutage == OutageUseCopy {
			out.Case, out.Verdict, out.CopyFetchedAt = OutageCopy, CaseClass(g.Case), g.FetchedAt
		} else {
			out.Case, out.Verdict = OutageAllow, AllowAll
		}
	case f.o.StaleIfUnreachable && g != nil:
		out.Case, out.Verdict, out.CopyFetchedAt = StaleCopy, CaseClass(g.Case), g.FetchedAt
	}
	return e
}

func header(resp *http.Response) http.Header {
	if resp == nil {
		return nil
	}
	return resp.Header
}
