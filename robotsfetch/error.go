package robotsfetch

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/rep-toolkit/rep/internal/netguard"
)

// Operations an Error names. Error's text begins with them.
const (
	// OpParse: reading the origin of a URL given to Origin or Fetcher.Get
	// (`URL "ftp://example.com/": scheme "ftp" has no robots.txt to fetch
	// (http and https only)`).
	OpParse = "URL"
	// OpGet: fetching a robots.txt, redirects included, or waiting for
	// another caller's fetch of it.
	OpGet = "GET"
)

// Error records a failed operation on a URL and its cause, as net/url's
// Error does. Origin and Fetcher.Get return one; Outcome.Err returns one
// for a fetch that failed. Callers test the cause with errors.Is and
// errors.As: ErrRefused, ErrTooManyRedirects, ErrBadRedirect,
// *StatusError, context.DeadlineExceeded, a *net.DNSError, ...
type Error struct {
	// Op is OpParse or OpGet.
	Op string
	// URL is the URL given (OpParse), or the robots.txt URL or redirect
	// target whose request failed (OpGet).
	URL string
	// Err is the cause.
	Err error
}

// Error returns e.g. `GET "https://example.com/robots.txt": 503 Service
// Unavailable`.
func (e *Error) Error() string { return e.Op + " " + strconv.Quote(e.URL) + ": " + e.Err.Error() }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Causes of a failed fetch, matched with errors.Is through an *Error.
var (
	// ErrRefused: the address guard (Options.Guard) refused to connect,
	// to the origin or to a redirect's target, because the address is
	// loopback, private, link-local or otherwise special. The origin was
	// never asked. The Outcome has Refused set and Case RefusedAddress.
	ErrRefused = netguard.ErrBlocked
	// ErrTooManyRedirects: more than Options.MaxRedirects redirects (the
	// TooManyRedirects case).
	ErrTooManyRedirects = errors.New("too many redirects")
	// ErrBadRedirect: a 3xx that cannot be followed: no Location, a 300,
	// a 304 to a request that was not conditional, or a target that is
	// not http or https (the BadRedirect case).
	ErrBadRedirect = errors.New("unfollowable redirect")
	// errBodyTimeout ends a body read that takes longer than
	// Options.BodyTimeout.
	errBodyTimeout = errors.New("body timeout")
)

// StatusError is the cause of an Unreachable fetch whose answer was an
// HTTP status that means "unreachable": 429, 5xx or an unexpected code.
type StatusError struct {
	Code int
}

// Error returns the status line, e.g. "503 Service Unavailable".
func (e *StatusError) Error() string {
	if t := http.StatusText(e.Code); t != "" {
		return fmt.Sprintf("%d %s", e.Code, t)
	}
	return strconv.Itoa(e.Code)
}

// storedError is the cause of a failure read back from a Store: the text
// of the original cause, still a refusal for errors.Is when it was one.
type storedError struct {
	msg     string
	refused bool
}

func (e *storedError) Error() string { return e.msg }

func (e *storedError) Is(target error) bool { return e.refused && target == ErrRefused }
