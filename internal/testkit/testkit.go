// Package testkit holds what rep's tests share. Its subpackages start
// servers, browsers and data sets; this package holds the one way a test
// waits: Eventually polls for a state (a server listening, a file written,
// a count reached) until a deadline and fails with a message that names
// the state, so that no test sleeps and no test asserts how long something
// took.
//
// A deadline here is a guard against a hang, never a claim about speed:
// give it generously (seconds where the state takes milliseconds), so that
// a loaded machine cannot turn it into a failure.
package testkit

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// Eventually calls cond until it returns true, and fails the test with the
// message (fmt.Sprintf(format, args...)) when it has not by timeout. It
// polls at a growing interval (1 ms doubling up to 50 ms). Call it from
// the test's goroutine; elsewhere use Until.
func Eventually(t testing.TB, timeout time.Duration, cond func() bool, format string, args ...any) {
	t.Helper()
	if !Until(timeout, cond) {
		t.Fatalf("not after %v: %s", timeout, fmt.Sprintf(format, args...))
	}
}

// EventuallyNil calls try until it returns nil, and fails the test with the
// message and try's last error when it has not by timeout (a dial that
// keeps being refused, a query that keeps failing).
func EventuallyNil(t testing.TB, timeout time.Duration, try func() error, format string, args ...any) {
	t.Helper()
	var last error
	if !Until(timeout, func() bool { last = try(); return last == nil }) {
		t.Fatalf("not after %v: %s: %v", timeout, fmt.Sprintf(format, args...), last)
	}
}

// Until calls cond until it returns true or timeout passes, and reports
// whether it returned true. It is Eventually for a goroutine other than
// the test's, and for a caller that fails in its own words.
func Until(timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		if cond() {
			return true
		}
		left := time.Until(deadline)
		if left <= 0 {
			return cond()
		}
		time.Sleep(min(wait, left))
	}
}

// Transport is an http.RoundTripper that answers every request with its
// handler, in memory, the way a server would (the response's Request is
// set, the handler sees a non-nil Body). A synctest bubble's clock stands
// still while a goroutine waits on a socket, so a test that runs in
// virtual time serves its site this way.
type Transport struct{ http.Handler }

// RoundTrip implements http.RoundTripper.
func (t Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	in := req.Clone(req.Context())
	if in.Body == nil {
		in.Body = http.NoBody
	}
	in.RequestURI = req.URL.RequestURI()
	rec := httptest.NewRecorder()
	t.ServeHTTP(rec, in)
	resp := rec.Result()
	resp.Request = req
	return resp, nil
}
