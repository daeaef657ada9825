package robotsfetch

import "net/http"

// StatusCase is the row of the status table (see the package
// documentation) for a final HTTP status recorded elsewhere: an archive's
// capture, a crawl log. 2xx is Success; a 3xx that was not followed is
// BadRedirect; 429 and 5xx are Unreachable, as is 0 (no response) and any
// other code; every other 4xx is Unavailable. Fetcher applies the same
// rows to the statuses it meets, so a recorded status and a live fetch are
// read alike.
func StatusCase(code int) Case {
	switch {
	case code >= 200 && code <= 299:
		return Success
	case code >= 300 && code <= 399:
		return BadRedirect
	case code == http.StatusTooManyRequests:
		return Unreachable
	case code >= 400 && code <= 499:
		return Unavailable
	}
	return Unreachable
}

// CaseClass is what a definitive case means for every URL of the origin:
// UseRules for Success, DisallowAll for Unreachable, AllowAll for the
// others (Unavailable, TooManyRedirects, BadRedirect, OutageAllow). The
// copy cases (StaleCopy, OutageCopy) take the verdict of the copy they
// use, which the case alone does not say: they answer UseRules.
func CaseClass(c Case) Class {
	switch c {
	case Success, StaleCopy, OutageCopy:
		return UseRules
	case Unreachable:
		return DisallowAll
	}
	return AllowAll
}

// CaseVerdict is the former name of CaseClass.
//
// Deprecated: use CaseClass.
func CaseVerdict(c Case) Class { return CaseClass(c) }
