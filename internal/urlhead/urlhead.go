// Package urlhead reads the head of a URL, its scheme and authority
// (RFC 3986 §3.1–3.2), without parsing the rest. Deciding which robots.txt
// applies needs only the head, and a path with a stray '%' ("/100%") is a
// URL crawlers meet and robots.txt matching, Google's included, takes as it
// is (RFC 9309 §2.2.2): parsing the whole URL would refuse it.
package urlhead

import (
	"errors"
	"net/url"
	"strings"
)

// Cut returns raw up to the end of its authority ("https://host:port")
// when it has one ("://" then up to the first '/', '?' or '#'), else raw.
func Cut(raw string) string {
	i := strings.Index(raw, "://")
	if i < 0 {
		return raw
	}
	if j := strings.IndexAny(raw[i+3:], "/?#"); j >= 0 {
		return raw[:i+3+j]
	}
	return raw
}

// Parse parses Cut(raw). Its error is url.Parse's reason without the
// *url.Error wrapping, which repeats the input: callers name raw
// themselves.
func Parse(raw string) (*url.URL, error) {
	u, err := url.Parse(Cut(raw))
	if err != nil {
		return nil, Unwrap(err)
	}
	return u, nil
}

// Unwrap returns the reason inside a *url.Error (from url.Parse or an HTTP
// client), or err itself.
func Unwrap(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
