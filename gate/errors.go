package gate

import (
	"net/http"
	"strconv"
)

// Reason says why the gate refused a request before judging it: the
// request itself is one it will not pass on, whatever the policy says. A
// Reason is an error, so errors.Is finds it inside a *RequestError.
type Reason string

// Reasons.
const (
	// AmbiguousPath: a path origins resolve differently (Canonical).
	AmbiguousPath Reason = "ambiguous path"
	// ForeignHost: a host not in Options.Hosts.
	ForeignHost Reason = "host not served"
	// TwoUserAgents: more than one User-Agent header, which the gate and
	// the origin could read differently.
	TwoUserAgents Reason = "more than one User-Agent"
	// UntrustedPeer: a forward-auth question from a peer not in
	// Options.Trust, whose headers say nothing.
	UntrustedPeer Reason = "forward-auth question from an untrusted peer"
	// NoOriginal: a forward-auth question without the header its Front
	// names for the original URI.
	NoOriginal Reason = "no original URI"
)

// Error makes a Reason an error.
func (r Reason) Error() string { return "gate: " + string(r) }

// RequestError is a request the gate refuses before judging it, and why.
// It is Decision.Err.
type RequestError struct {
	Reason Reason
	// Value is what was refused: the target, the host, the peer.
	Value string
	// Detail says what exactly, for a person.
	Detail string
}

// Error returns e.g. `ambiguous path "/a%2Fb": an encoded slash (%2F)`.
func (e *RequestError) Error() string {
	s := string(e.Reason)
	if e.Value != "" {
		s += " " + quote(e.Value)
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// Is reports whether target is e's Reason.
func (e *RequestError) Is(target error) bool {
	r, ok := target.(Reason)
	return ok && r == e.Reason
}

// status is the answer a reverse proxy gives to a request refused for e.
func (e *RequestError) status() int {
	if e.Reason == ForeignHost {
		return http.StatusMisdirectedRequest
	}
	return http.StatusBadRequest
}

// quote quotes s for a message, cut to 200 bytes: a refused value is the
// client's and may be long.
func quote(s string) string {
	const max = 200
	if len(s) > max {
		s = s[:max] + "..."
	}
	return strconv.Quote(s)
}
