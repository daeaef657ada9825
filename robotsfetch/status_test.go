package robotsfetch

import "testing"

// TestStatusCaseAgreesWithFetch pins StatusCase to what a live fetch
// records for the same final status, so a recorded status and a fetch are
// read alike.
func TestStatusCaseAgreesWithFetch(t *testing.T) {
	for _, code := range []int{200, 204, 299, 300, 302, 400, 401, 403, 404, 410, 418, 429, 499, 500, 503, 504, 599} {
		s := newSite(t, status(code))
		f := newFetcher(t, Options{})
		r := get(t, f, s.URL+"/x")
		if got := StatusCase(code); got != r.Outcome.Case {
			t.Errorf("StatusCase(%d) = %v, fetch recorded %v", code, got, r.Outcome.Case)
		}
		if got := CaseClass(StatusCase(code)); got != r.Outcome.Verdict {
			t.Errorf("CaseClass(StatusCase(%d)) = %v, fetch recorded %v", code, got, r.Outcome.Verdict)
		}
	}
	if StatusCase(0) != Unreachable || CaseClass(Unreachable) != DisallowAll {
		t.Errorf("status 0 (no response) must be unreachable, disallow-all")
	}
}
