package robotsfetch

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// TestOutcomeErr: every failed fetch gives an *Error naming GET and the URL
// that failed, whose cause errors.Is and errors.As find; a definitive
// answer gives none. Read back from the Store's encoding, the failure keeps
// its URL, its text and its refusal.
func TestOutcomeErr(t *testing.T) {
	redirectLoop := func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/robots.txt?n="+r.URL.RawQuery+"x", http.StatusFound)
	}
	noLocation := func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusMovedPermanently) }
	toFTP := func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "ftp://example.com/robots.txt", http.StatusFound)
	}
	tests := []struct {
		name    string
		h       http.HandlerFunc
		guard   bool
		c       Case
		is      error // a cause errors.Is must find; nil: no error at all
		status  int   // the *StatusError code errors.As must find, if any
		refused bool
		cause   string // what Outcome.Error must say
	}{
		{name: "200", h: text(robotsBody), c: Success},
		{name: "404", h: status(404), c: Unavailable},
		{name: "503", h: status(503), c: Unreachable, status: 503},
		{name: "429", h: status(429), c: Unreachable, status: 429},
		{name: "redirect loop", h: redirectLoop, c: TooManyRedirects, is: ErrTooManyRedirects, cause: "too many redirects: more than 5"},
		{name: "301 without Location", h: noLocation, c: BadRedirect, is: ErrBadRedirect, cause: "unfollowable redirect: 301 with no Location to follow"},
		{name: "300", h: status(300), c: BadRedirect, is: ErrBadRedirect, cause: "unfollowable redirect: 300 with no Location to follow"},
		{name: "304 unasked", h: status(304), c: BadRedirect, is: ErrBadRedirect, cause: "unfollowable redirect: 304 to a request that was not conditional"},
		{name: "redirect to ftp", h: toFTP, c: BadRedirect, is: ErrBadRedirect, cause: "unfollowable redirect: to ftp://example.com/robots.txt, which has no robots.txt to fetch"},
		// A body that cannot be read names its cause once, with no
		// context cause that is not there.
		{name: "corrupt gzip", h: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "gzip")
			fmt.Fprint(w, "not gzip at all")
		}, c: Unreachable, is: gzip.ErrHeader, cause: "200, reading the body: gzip: invalid header"},
		{name: "guarded loopback", h: text(robotsBody), guard: true, c: RefusedAddress, is: ErrRefused, refused: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSite(t, tt.h)
			o := get(t, newFetcher(t, Options{Guard: tt.guard}), s.URL).Outcome
			if o.Case != tt.c || o.Refused != tt.refused {
				t.Fatalf("%s, refused %v; want %s, refused %v", o.String(), o.Refused, tt.c, tt.refused)
			}
			wantErr := tt.is != nil || tt.status != 0
			if tt.cause != "" && o.Error != tt.cause {
				t.Errorf("Error %q, want %q", o.Error, tt.cause)
			}
			b, err := Encode(&Entry{Last: o})
			if err != nil {
				t.Fatal(err)
			}
			stored, err := Decode(b)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range []*Outcome{&o, &stored.Last} {
				err := o.Err()
				if !wantErr {
					if err != nil || o.Error != "" {
						t.Fatalf("Err() = %v, Error %q for %s", err, o.Error, o.Case)
					}
					continue
				}
				var fe *Error
				if !errors.As(err, &fe) || fe.Op != OpGet || !strings.HasPrefix(fe.URL, s.URL+"/robots.txt") {
					t.Fatalf("Err() = %#v, want an *Error GET %s/robots.txt...", err, s.URL)
				}
				if fe.Err.Error() != o.Error {
					t.Errorf("cause %q, Error %q", fe.Err, o.Error)
				}
			}
			err = o.Err()
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("Err() = %v, not %v", err, tt.is)
			}
			var se *StatusError
			if got := errors.As(err, &se); got != (tt.status != 0) || (got && se.Code != tt.status) {
				t.Errorf("Err() = %v: StatusError %v, want code %d", err, got, tt.status)
			}
			if got := errors.Is(stored.Last.Err(), ErrRefused); got != tt.refused {
				t.Errorf("stored Err() = %v: refused %v, want %v", stored.Last.Err(), got, tt.refused)
			}
		})
	}
}

// TestErrorCauses: a network failure keeps its typed cause, and Get's own
// errors (a URL with no origin, a caller giving up) are *Error values.
func TestErrorCauses(t *testing.T) {
	dnsErr := &net.DNSError{Err: "no such host", Name: "robots.invalid", IsNotFound: true}
	c := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		return nil, &net.OpError{Op: "dial", Net: network, Err: dnsErr}
	}}}
	o := get(t, newFetcher(t, Options{Client: c}), "https://robots.invalid/x").Outcome
	var de *net.DNSError
	if !errors.As(o.Err(), &de) || !de.IsNotFound || o.Refused {
		t.Errorf("Err() = %v, want the *net.DNSError", o.Err())
	}
	if got, want := o.Err().Error(), `GET "https://robots.invalid/robots.txt": `+o.Error; got != want {
		t.Errorf("Err() text %q, want %q", got, want)
	}

	for _, tt := range []struct{ url, cause string }{
		{"/robots.txt", "not absolute"},
		{"ftp://example.com/", `scheme "ftp" has no robots.txt to fetch`},
		{"http:///x", "no host"},
	} {
		_, err := newFetcher(t, Options{}).Get(context.Background(), tt.url)
		var fe *Error
		if !errors.As(err, &fe) || fe.Op != OpParse || fe.URL != tt.url || !strings.Contains(fe.Err.Error(), tt.cause) {
			t.Errorf("Get(%q) = %v, want a parse *Error: %s", tt.url, err, tt.cause)
		}
	}

	hang := make(chan struct{})
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) { <-hang })
	defer close(hang)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := newFetcher(t, Options{}).Get(ctx, s.URL)
	var fe *Error
	if !errors.As(err, &fe) || fe.URL != s.URL+"/robots.txt" || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Get with a 50ms deadline = %v, want an *Error wrapping DeadlineExceeded", err)
	}
}

// TestOutcomeJSON: the Outcome's JSON carries every field a report shows,
// the case's explanation and the attempt's duration among them, and reads
// back to the same Outcome. It runs in virtual time (a synctest bubble,
// the site in memory), so the attempt lasts 20 ms exactly.
func TestOutcomeJSON(t *testing.T) {
	synctest.Test(t, testOutcomeJSON)
}

func testOutcomeJSON(t *testing.T) {
	const site = "http://127.0.0.1:8080"
	f := newFetcher(t, Options{Client: memClient(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(20 * time.Millisecond)
		status(503)(w, r)
	})})
	first := get(t, f, site).Outcome
	again := get(t, f, site).Outcome
	if first.Cached || !again.Cached {
		t.Errorf("cached: first %v, again %v; want false, true", first.Cached, again.Cached)
	}
	if first.Duration != 20*time.Millisecond {
		t.Errorf("Duration %v for a 20ms answer", first.Duration)
	}
	b, err := json.Marshal(first)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]any{
		"case": "unreachable", "verdict": "disallow-all", "source": "network", "cached": false,
		"explain": Unreachable.Explain(), "status": 503.0, "error": "503 Service Unavailable",
	} {
		if m[k] != want {
			t.Errorf("%s = %v, want %v\n%s", k, m[k], want, b)
		}
	}
	if ms, _ := m["duration_ms"].(float64); ms != 20 {
		t.Errorf("duration_ms = %v\n%s", m["duration_ms"], b)
	}
	if _, ok := m["rule"]; ok {
		t.Errorf(`the old "rule" field is back: %s`, b)
	}
	var back Outcome
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Case != first.Case || back.Duration != first.Duration.Truncate(time.Microsecond) || back.Error != first.Error || !back.ExpiresAt.Equal(first.ExpiresAt) {
		t.Errorf("read back %+v\nfrom %s", back, b)
	}
}
