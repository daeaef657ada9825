package botauth

import (
	"fmt"
	"strings"
)

// Verification is the outcome of verifying a request.
type Verification string

// Verdict is the former name of Verification.
//
// Deprecated: use Verification.
type Verdict = Verification

// The three outcomes of draft-ietf-webbotauth-httpsig-protocol-01, appendix
// "Verifier Outcomes".
const (
	// Verified: a web-bot-auth signature and its key validate.
	Verified Verification = "verified"
	// Invalid: a header, covered component, parameter, freshness check or
	// the signature itself fails.
	Invalid Verification = "invalid"
	// Unverified: there is not enough to decide, e.g. no signature, an
	// unknown key or a directory that cannot be fetched.
	Unverified Verification = "unverified"
)

// Reason says why a request is not verified. A Reason is an error so that
// errors.Is(err, botauth.Expired) matches any [*Error] with that reason.
type Reason string

// Reasons, each with the verdict it leads to.
const (
	NoSignature          Reason = "no signature"                     // unverified: no Signature-Input or Signature header
	ForeignTag           Reason = "no web-bot-auth signature"        // unverified: only signatures with another tag
	Malformed            Reason = "malformed header"                 // invalid: a header is not the structured field it must be
	MissingSignature     Reason = "missing signature"                // invalid: a Signature-Input label has no Signature member
	MissingParameter     Reason = "missing parameter"                // invalid: created, expires or keyid absent or of the wrong type
	BadParameter         Reason = "bad parameter"                    // invalid: a parameter has a value that cannot be right
	MissingComponent     Reason = "required component not covered"   // invalid: @authority/@target-uri or signature-agent not covered
	BadComponent         Reason = "bad component"                    // invalid: a covered component cannot be computed
	BadAgent             Reason = "bad signature agent"              // unverified: the covered Signature-Agent member is not a usable URL
	Expired              Reason = "expired"                          // invalid: expires is past
	NotYetValid          Reason = "not yet valid"                    // invalid: created is in the future
	BadSignature         Reason = "signature does not verify"        // invalid: Ed25519 verification fails
	KeyMismatch          Reason = "key does not match keyid"         // invalid: the key's thumbprint is not the keyid
	UnknownKey           Reason = "unknown key"                      // unverified: no key with this keyid
	UnsupportedAlgorithm Reason = "unsupported algorithm"            // unverified: a key or alg other than Ed25519
	UnsupportedAgent     Reason = "unsupported signature agent type" // unverified: a type= this package does not resolve
	DirectoryUnavailable Reason = "key directory unavailable"        // unverified: the directory could not be fetched or read, or is not served as one
	PrivateKeyPublished  Reason = "private key published"            // unverified: the directory publishes private key material (a JWK "d"...): refused
	NoKeySource          Reason = "no key source"                    // unverified: neither keys nor a directory to fetch
	UnknownAuthority     Reason = "authority unknown"                // unverified: the request's host is not known (a log line without it)
	UnknownField         Reason = "covered field unknown"            // unverified: a covered header field is not known of the request (Verifier.Fields)
)

// Error makes a Reason an error, so errors.Is finds it inside an *Error.
func (r Reason) Error() string { return "botauth: " + string(r) }

// Verdict returns the verdict r leads to.
func (r Reason) Verdict() Verification {
	switch r {
	case NoSignature, ForeignTag, BadAgent, UnknownKey, UnsupportedAlgorithm, UnsupportedAgent, DirectoryUnavailable, PrivateKeyPublished, NoKeySource, UnknownAuthority, UnknownField:
		return Unverified
	}
	return Invalid
}

// Error is why one signature (or a request) did not verify: the [Reason]
// and where it applies.
type Error struct {
	Reason    Reason
	Label     string // the signature's label in Signature-Input, if known
	Header    string // the header at fault, e.g. "Signature-Input"
	Component string // the component identifier, e.g. `"@authority"`
	Param     string // the signature parameter, e.g. "expires"
	KeyID     string // the keyid
	Directory string // the directory URL the key was looked up in
	Detail    string // what exactly, for a person
	Err       error  // the underlying error, if any
}

// Error says what failed and where: the reason, then the label, header,
// component, parameter, keyid or directory at fault.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(string(e.Reason))
	for _, f := range [...][2]string{
		{"signature", e.Label}, {"header", e.Header}, {"component", e.Component},
		{"parameter", e.Param}, {"keyid", e.KeyID}, {"directory", e.Directory},
	} {
		if f[1] != "" {
			fmt.Fprintf(&b, ": %s %s", f[0], f[1])
		}
	}
	if e.Detail != "" {
		b.WriteString(": " + e.Detail)
	}
	if e.Err != nil {
		b.WriteString(": " + e.Err.Error())
	}
	return b.String()
}

// Is reports whether target is e's Reason.
func (e *Error) Is(target error) bool {
	r, ok := target.(Reason)
	return ok && r == e.Reason
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }
