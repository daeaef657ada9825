package robotsfetch

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/rep-toolkit/rep/internal/enum"
)

// Case is the row of the status table that decided a fetch (see the package
// documentation): what the HTTP status or the failure means under RFC 9309
// §2.3.1 and Google's rules. It is named apart from robots.txt rules (the
// Allow and Disallow lines of robotstxt): a Case says whether those rules
// apply at all.
type Case uint8

const (
	// CaseNone is the zero value: no fetch has been made.
	CaseNone Case = iota
	// Success: a 2xx response (or a 304 renewing one); its rules apply.
	Success
	// Unavailable: a 4xx other than 429; no restrictions.
	Unavailable
	// TooManyRedirects: more redirects than Options.MaxRedirects; treated
	// as unavailable.
	TooManyRedirects
	// BadRedirect: a 3xx that cannot be followed (no Location, 300, or a 304
	// to an unconditional request); treated as unavailable.
	BadRedirect
	// Unreachable: 429, 5xx, an unexpected status, a timeout, a DNS or a
	// connection error; everything is disallowed.
	Unreachable
	// StaleCopy: unreachable, and Options.StaleIfUnreachable let the last
	// good copy answer.
	StaleCopy
	// OutageCopy: unreachable for Options.OutageLimit or longer; the last
	// good copy answers.
	OutageCopy
	// OutageAllow: unreachable for Options.OutageLimit or longer with no
	// good copy (or AfterOutage is OutageAllowAll); no restrictions.
	OutageAllow
	// RefusedAddress: the address guard (Options.Guard, or a client
	// built on internal/netguard) refused to connect to the origin or to a
	// redirect's target; everything is disallowed. It is a refusal, not an
	// outage: it never starts or extends one, so OutageLimit, AfterOutage
	// and StaleIfUnreachable never turn it into an allow.
	RefusedAddress
)

var caseNames = [...]string{"none", "success", "unavailable", "too-many-redirects", "bad-redirect",
	"unreachable", "stale-copy", "outage-copy", "outage-allow", "refused-address"}

var caseText = [...]string{
	"not fetched",
	"2xx: the rules in the file apply",
	"4xx: unavailable, no restrictions",
	"too many redirects: unavailable, no restrictions",
	"unfollowable redirect: unavailable, no restrictions",
	"unreachable (429, 5xx or network error): everything disallowed",
	"unreachable: the last good copy applies",
	"unreachable for too long: the last good copy applies",
	"unreachable for too long and no good copy: no restrictions",
	"refused address (loopback, private, link-local...): everything disallowed, however long",
}

// The text forms of the enums below (internal/enum): their JSON names,
// and an error listing them for a name that is none.
var (
	caseEnum    = enum.New[Case]("case", caseNames[:]...)
	classEnum   = enum.New[Class]("class", "use-rules", "allow-all", "disallow-all")
	sourceEnum  = enum.New[Source]("source", "network", "revalidated", "store")
	warningEnum = enum.New[Warning]("warning", "", "html", "content-type", "truncated", "no-store", "store-failed")
)

// String returns the case's stable kebab-case name, as in JSON.
func (c Case) String() string { return caseEnum.String(c) }

// Explain says in a few words what the case means for a crawler.
func (c Case) Explain() string {
	if int(c) < len(caseText) {
		return caseText[c]
	}
	return c.String()
}

// MarshalText implements encoding.TextMarshaler.
func (c Case) MarshalText() ([]byte, error) { return caseEnum.Marshal(c) }

// UnmarshalText implements encoding.TextUnmarshaler.
func (c *Case) UnmarshalText(b []byte) error { return caseEnum.Unmarshal(b, c) }

// Class is the fetch class: what a fetch means for every URL of the
// origin before any rule is matched (use the rules, allow all, disallow
// all). survey.Class is the same concept for a crawl archive's captures,
// named rules, allow-all and disallow-all, with missing for no capture.
type Class uint8

// Verdict is the former name of Class.
//
// Deprecated: use Class.
type Verdict = Class

const (
	// UseRules: match the URL against the parsed file.
	UseRules Class = iota
	// AllowAll: no robots.txt restrictions.
	AllowAll
	// DisallowAll: nothing may be crawled.
	DisallowAll
)

// String returns "use-rules", "allow-all" or "disallow-all".
func (v Class) String() string { return classEnum.String(v) }

// MarshalText implements encoding.TextMarshaler.
func (v Class) MarshalText() ([]byte, error) { return classEnum.Marshal(v) }

// UnmarshalText implements encoding.TextUnmarshaler.
func (v *Class) UnmarshalText(b []byte) error { return classEnum.Unmarshal(b, v) }

// Source says where the Fetcher got a result.
type Source uint8

const (
	// FromNetwork: a response (or a network error) just now.
	FromNetwork Source = iota
	// FromRevalidation: a 304 Not Modified renewed the copy.
	FromRevalidation
	// FromStore: another process, or an earlier run, stored it.
	FromStore
)

// String returns "network", "revalidated" or "store".
func (s Source) String() string { return sourceEnum.String(s) }

// MarshalText implements encoding.TextMarshaler.
func (s Source) MarshalText() ([]byte, error) { return sourceEnum.Marshal(s) }

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *Source) UnmarshalText(b []byte) error { return sourceEnum.Unmarshal(b, s) }

// Warning flags something odd about a fetched file that did not change how
// it was read.
type Warning uint8

const (
	// WarnHTML: the body looks like an HTML page (a login page, a soft 404
	// served with 200). It is parsed as robots.txt, as Google does, which
	// usually finds no rules and so allows everything.
	WarnHTML Warning = iota + 1
	// WarnContentType: the Content-Type is not text/plain (RFC 9309 §2.3
	// says MUST); the body is parsed anyway.
	WarnContentType
	// WarnTruncated: the body is over Options.MaxBytes; only the lines
	// before the limit were read.
	WarnTruncated
	// WarnNoStore: Cache-Control no-store: kept in memory for MinAge only
	// and not written to the Store.
	WarnNoStore
	// WarnStoreFailed: the Store could not be read or written; see
	// Outcome.StoreError.
	WarnStoreFailed
)

// String returns the warning's kebab-case name; warning(0) for the zero
// value, which is no warning.
func (w Warning) String() string {
	if w == 0 {
		return "warning(0)"
	}
	return warningEnum.String(w)
}

// MarshalText implements encoding.TextMarshaler.
func (w Warning) MarshalText() ([]byte, error) { return []byte(w.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (w *Warning) UnmarshalText(b []byte) error { return warningEnum.Unmarshal(b, w) }

// Outcome records one fetch of one origin's robots.txt and how it was read.
// It is reported with every answer, so a crawler can explain any decision.
// Its JSON form (MarshalJSON) is the fetch outcome every rep door shows.
type Outcome struct {
	// Origin is scheme://host[:port], the scope of the file.
	Origin string `json:"origin"`
	// URL is the robots.txt URL requested; FinalURL is where the answer
	// came from after redirects.
	URL      string `json:"url"`
	FinalURL string `json:"final_url,omitempty"`
	// Redirects are the targets of the redirects followed, in order.
	Redirects []string `json:"redirects,omitempty"`
	// Status is the final HTTP status; 0 when no response arrived.
	Status int `json:"status"`
	// Case is the row of the status table that applied; its Explain text
	// is in the JSON as "explain". Verdict is its fetch class: what it
	// means for every URL of the origin.
	Case    Case   `json:"case"`
	Verdict Class  `json:"verdict"`
	Source  Source `json:"source"`
	// Cached is set when Get answered from memory or from the Store
	// rather than with a fetch made while the call waited.
	Cached bool `json:"cached"`
	// Bytes counts the body bytes read after decoding, at most MaxBytes+1.
	Bytes           int    `json:"bytes"`
	ContentType     string `json:"content_type,omitempty"`
	ContentEncoding string `json:"content_encoding,omitempty"`
	// FetchedAt is when the attempt was made; ExpiresAt is when the result
	// stops being reused.
	FetchedAt time.Time `json:"fetched_at"`
	ExpiresAt time.Time `json:"expires_at"`
	// Duration is how long the attempt took, redirects and body included
	// ("duration_ms" in JSON, in milliseconds).
	Duration time.Duration `json:"-"`
	// DownSince is the first failed attempt of the current outage; zero
	// when the last attempt reached the origin.
	DownSince time.Time `json:"down_since,omitzero"`
	// CopyFetchedAt is when the copy in force was fetched, when the rules
	// come from an older copy (StaleCopy, OutageCopy, or a 304).
	CopyFetchedAt time.Time `json:"copy_fetched_at,omitzero"`
	// Error is the text of the cause when the attempt failed (Unreachable
	// and the cases after it, TooManyRedirects, BadRedirect); Err returns
	// the failure as an *Error.
	Error string `json:"error,omitempty"`
	// Refused is set when the address guard (Options.Guard) refused to
	// connect, here or at a redirect's target: the origin was never asked.
	// Err then matches ErrRefused and Case is RefusedAddress.
	Refused bool `json:"refused,omitempty"`
	// StoreError says why the Store failed, when it did.
	StoreError string    `json:"store_error,omitempty"`
	Warnings   []Warning `json:"warnings,omitempty"`

	err *Error // the failure with its typed cause, for Err
}

// Err returns the failed attempt as an *Error (Op OpGet, the URL whose
// request failed, the cause), or nil when the attempt got a definitive
// answer. An Outcome read back from a Store or from JSON keeps the text of
// the cause only; it still matches ErrRefused when Refused is set.
func (o *Outcome) Err() error {
	switch {
	case o.err != nil:
		return o.err
	case o.Error == "":
		return nil
	}
	return &Error{Op: OpGet, URL: o.failedURL(), Err: &storedError{msg: o.Error, refused: o.Refused}}
}

// fail records a failed attempt with its cause.
func (o *Outcome) fail(cause error) {
	o.err = &Error{Op: OpGet, URL: o.failedURL(), Err: cause}
	o.Error = cause.Error()
	o.Refused = errors.Is(cause, ErrRefused)
}

// failedURL is the URL whose request failed: the last one answered, else
// the last redirect target asked, else the robots.txt URL.
func (o *Outcome) failedURL() string {
	switch {
	case o.FinalURL != "":
		return o.FinalURL
	case len(o.Redirects) > 0:
		return o.Redirects[len(o.Redirects)-1]
	}
	return o.URL
}

// outcomeFields is Outcome without its methods, for MarshalJSON and
// UnmarshalJSON.
type outcomeFields Outcome

// MarshalJSON writes the Outcome's fields and two more: "explain", the
// Case's Explain text, and "duration_ms", Duration in milliseconds.
func (o Outcome) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		outcomeFields
		Explain    string  `json:"explain"`
		DurationMS float64 `json:"duration_ms"`
	}{outcomeFields(o), o.Case.Explain(), float64(o.Duration.Microseconds()) / 1000})
}

// UnmarshalJSON reads what MarshalJSON writes; "explain" is derived from
// the case and ignored.
func (o *Outcome) UnmarshalJSON(b []byte) error {
	v := struct {
		*outcomeFields
		DurationMS float64 `json:"duration_ms"`
	}{outcomeFields: (*outcomeFields)(o)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	o.Duration = time.Duration(math.Round(v.DurationMS * float64(time.Millisecond)))
	return nil
}

// Has reports whether the outcome carries warning w.
func (o *Outcome) Has(w Warning) bool {
	for _, x := range o.Warnings {
		if x == w {
			return true
		}
	}
	return false
}

// String summarises the outcome on one line, e.g.
// "https://example.com/robots.txt: 200, success, fetched 2026-01-02T03:04:05Z, expires ...".
func (o *Outcome) String() string {
	s := fmt.Sprintf("%s: ", o.URL)
	if o.Status != 0 {
		s += fmt.Sprintf("%d, ", o.Status)
	}
	s += o.Case.String() + " (" + o.Verdict.String() + ")"
	if n := len(o.Redirects); n > 0 {
		to := o.FinalURL
		if to == "" { // the last target asked did not answer
			to = o.Redirects[n-1]
		}
		s += fmt.Sprintf(", %d redirect(s) to %s", n, to)
	}
	switch u := o.failedURL(); {
	case o.Error != "" && u != o.URL:
		s += ", error at " + u + ": " + o.Error
	case o.Error != "":
		s += ", error: " + o.Error
	}
	return s
}
