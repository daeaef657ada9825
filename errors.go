package rep

import (
	"errors"
	"fmt"
	"time"

	"github.com/rep-toolkit/rep/robotsfetch"
)

// ErrDisallowed is matched by errors.Is for every refusal of the crawler's
// client: a robots.txt rule, a robots.txt that could not be read, an
// address the guard refuses. errors.As with a *DisallowedError tells which
// (Refusal) and what to do about it (RetryAt).
var ErrDisallowed = errors.New("disallowed")

// Refusal is why the Transport refused a URL.
type Refusal uint8

const (
	// RefusedByRule: a rule of the origin's robots.txt disallows the URL
	// for the crawler (Decision.Rule is the rule), or its robots.txt
	// disallows everything (a 401 or 403 under engines that read it so).
	// Asking again will not help until the site changes its file.
	RefusedByRule Refusal = iota
	// RefusedUnreachable: the origin's robots.txt could not be read (5xx,
	// 429, a timeout, a connection error), so every URL of the origin is
	// disallowed (RFC 9309 §2.3.1.4). It is an outage, not a rule: retry
	// at DisallowedError.RetryAt, when the fetcher asks again.
	RefusedUnreachable
	// RefusedAddress: the address guard refused to connect to the origin
	// (or a redirect's target): loopback, private, link-local or another
	// special address. Never retried, never aged into allow-all.
	RefusedAddress
)

var refusalNames = [...]string{RefusedByRule: "rule", RefusedUnreachable: "robots.txt unreachable", RefusedAddress: "refused address"}

// String returns "rule", "robots.txt unreachable" or "refused address".
func (r Refusal) String() string {
	if int(r) < len(refusalNames) {
		return refusalNames[r]
	}
	return fmt.Sprintf("refusal(%d)", uint8(r))
}

// DisallowedError is the Transport's refusal of a URL: robots.txt
// disallows it, or its robots.txt could not be read (Decision.FromFetch),
// or the guard refuses its address. http.Client wraps it in a *url.Error;
// errors.As finds it and errors.Is(err, ErrDisallowed) matches it.
type DisallowedError struct {
	// URL is the URL refused: the request's, or the redirect hop's.
	URL string
	// Kind says why: a rule, an unreachable robots.txt, a refused address.
	Kind Refusal
	// RetryAt is when asking again may give another answer, for
	// RefusedUnreachable: when the fetcher reads the origin's robots.txt
	// again. Zero for the other kinds.
	RetryAt time.Time
	// Decision is robots.txt's answer for URL, with its evidence; for a
	// refused page address, the (allowing) robots.txt answer that came
	// before the refusal.
	Decision Decision
	// Err is the cause of a refused address (wrapping netguard's
	// error); nil for the other kinds.
	Err error
}

// refusalOf returns the refusal of d, a Decision that disallows url.
func refusalOf(url string, d Decision) *DisallowedError {
	e := &DisallowedError{URL: url, Decision: d}
	if d.FromFetch() {
		switch o := d.Fetch; {
		case o.Refused:
			e.Kind, e.Err = RefusedAddress, o.Err()
		case o.Verdict == robotsfetch.DisallowAll:
			e.Kind, e.RetryAt = RefusedUnreachable, o.ExpiresAt
		}
	}
	return e
}

// Error says which URL was refused and why, e.g. "rep:
// https://example.com/private/x disallowed by line 2: Disallow: /private
// (...)".
func (e *DisallowedError) Error() string {
	if e.Kind == RefusedAddress && e.Err != nil && !e.Decision.FromFetch() {
		return fmt.Sprintf("rep: %s refused: %v", e.URL, e.Err)
	}
	s := fmt.Sprintf("rep: %s %s", e.URL, e.Decision)
	if !e.RetryAt.IsZero() {
		s += "; retry after " + e.RetryAt.UTC().Format(time.RFC3339)
	}
	return s
}

// Is reports whether target is ErrDisallowed.
func (e *DisallowedError) Is(target error) bool { return target == ErrDisallowed }

// Unwrap returns the cause of a refused address, else nil.
func (e *DisallowedError) Unwrap() error { return e.Err }
