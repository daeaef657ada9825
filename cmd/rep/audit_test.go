package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAuditRobotsURL fetches -robots from a loopback server: the rules of
// a 200, allow-all for a 404, disallow-all for a 503 (RFC 9309 §2.3.1), and
// a refusal of the loopback address without -allow-private.
func TestAuditRobotsURL(t *testing.T) {
	ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("User-agent: *\nDisallow: /private/\n"))
	}))
	defer ok.Close()
	missing := httptest.NewServer(http.NotFoundHandler())
	defer missing.Close()
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer down.Close()

	log := filepath.Join(t.TempDir(), "access.log")
	os.WriteFile(log, []byte(`66.249.66.1 - - [01/Mar/2026:00:00:00 +0000] "GET /private/a HTTP/1.1" 200 1 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
66.249.66.1 - - [01/Mar/2026:00:00:01 +0000] "GET /public HTTP/1.1" 200 1 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
`), 0o644)
	for _, c := range []struct {
		url, want string
		code      int
	}{
		{ok.URL + "/robots.txt", `"disallowed_requests": 1,`, 1},
		{missing.URL + "/robots.txt", `: allow all`, 0},
		{down.URL + "/robots.txt", `"disallowed_requests": 2,`, 1},
		// The @ of user information is not the @ of a time.
		{strings.Replace(ok.URL, "http://", "http://user@", 1) + "/robots.txt", `"disallowed_requests": 1,`, 1},
		{strings.Replace(ok.URL, "http://", "http://user@", 1) + "/robots.txt@2026-03-01", `"disallowed_requests": 1,`, 1},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"audit", "-json", "-allow-private", "-robots", c.url, log}, strings.NewReader(""), &out, &errb)
		if code != c.code || !strings.Contains(out.String(), c.want) || !strings.Contains(out.String(), "(fetched ") {
			t.Errorf("%s: exit %d, stdout %s, stderr %s; want exit %d and %q", c.url, code, out.String(), errb.String(), c.code, c.want)
		}
	}
	// Without -allow-private the guard refuses loopback, and a fetch that
	// gets no answer is an input error, not "disallow all".
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"audit", "-robots", ok.URL + "/robots.txt", log}, strings.NewReader(""), &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "use -allow-private") {
		t.Errorf("loopback robots.txt without -allow-private: exit %d, stderr %s", code, errb.String())
	}
}
