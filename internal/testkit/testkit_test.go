package testkit

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"testing"
	"testing/synctest"
	"time"
)

// recorder is a testing.TB that keeps what Fatalf says instead of
// stopping the goroutine.
type recorder struct {
	testing.TB
	fatal string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
}

// The polls run in a synctest bubble: its clock moves only when every
// goroutine waits, so the number of polls and the time they span are
// exact.
func TestEventually(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start, calls := time.Now(), 0
		r := &recorder{TB: t}
		Eventually(r, 5*time.Second, func() bool { calls++; return calls == 4 }, "never")
		// Polls at 0, 1, 3 and 7 ms: the interval doubles.
		if r.fatal != "" || calls != 4 || time.Since(start) != 7*time.Millisecond {
			t.Errorf("Eventually: %d calls over %v, fatal %q", calls, time.Since(start), r.fatal)
		}

		start, calls = time.Now(), 0
		Eventually(r, 2*time.Second, func() bool { calls++; return false }, "server on %s listening", "127.0.0.1:80")
		if want := "not after 2s: server on 127.0.0.1:80 listening"; r.fatal != want {
			t.Errorf("fatal %q, want %q", r.fatal, want)
		}
		// The last poll is at the deadline, never past it.
		if time.Since(start) != 2*time.Second {
			t.Errorf("gave up after %v, want 2s", time.Since(start))
		}
		// 1+2+4+...+32 ms, then every 50 ms up to 2 s, then once more at
		// the deadline.
		if calls < 40 || calls > 50 {
			t.Errorf("%d polls in 2 s", calls)
		}
	})
}

func TestEventuallyNil(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{TB: t}
		n := 0
		EventuallyNil(r, time.Second, func() error { n++; return fmt.Errorf("refused %d", n) }, "dial %s", "127.0.0.1:1")
		if want := fmt.Sprintf("not after 1s: dial 127.0.0.1:1: refused %d", n); r.fatal != want {
			t.Errorf("fatal %q, want %q", r.fatal, want)
		}
		r.fatal = ""
		err := errors.New("not yet")
		EventuallyNil(r, time.Second, func() error { e := err; err = nil; return e }, "x")
		if r.fatal != "" {
			t.Errorf("fatal %q after try returned nil", r.fatal)
		}
	})
}

func TestUntil(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		if Until(0, func() bool { return true }) != true {
			t.Error("Until(0, true) = false")
		}
		start := time.Now()
		if Until(0, func() bool { return false }) {
			t.Error("Until(0, false) = true")
		}
		if time.Since(start) != 0 {
			t.Errorf("Until(0) waited %v", time.Since(start))
		}
	})
}

func TestTransport(t *testing.T) {
	rt := Transport{http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Seen", r.Method+" "+r.Host+" "+r.RequestURI+" "+string(b))
		w.WriteHeader(http.StatusTeapot)
		fmt.Fprint(w, "body")
	})}
	client := &http.Client{Transport: rt}
	resp, err := client.Get("http://127.0.0.1:9/a?b=c")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusTeapot || string(body) != "body" || resp.Header.Get("X-Seen") != "GET 127.0.0.1:9 /a?b=c " || resp.Request.URL.Path != "/a" {
		t.Errorf("%d %q %q", resp.StatusCode, body, resp.Header.Get("X-Seen"))
	}
}
