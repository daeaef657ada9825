package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/internal/testkit/conformance"
)

// pageVectorsDisputed lists vectors believed wrong, with the reason; none.
var pageVectorsDisputed = map[string]string{}

// TestPageVectors runs every page-level vector through rep page -json: the
// HTML on standard input, the headers as -H flags. The output must hold
// exactly the expect keys plus sources, diagnostics, engine and the
// element-level regions, with expect's values.
func TestPageVectors(t *testing.T) {
	for _, v := range conformance.PageVectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			args := []string{"page", "-json", "-profile", v.Profile, "-agent", v.Agent, "-now", v.Now}
			for _, h := range v.Headers {
				args = append(args, "-H", h)
			}
			args = append(args, "-")
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), args, strings.NewReader(v.HTML), &stdout, &stderr)
			var got, want map[string]any
			if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
				t.Fatalf("exit %d, stdout not JSON: %v\n%s%s", code, err, stdout.String(), stderr.String())
			}
			if err := json.Unmarshal(v.Expect, &want); err != nil {
				t.Fatal(err)
			}
			var keys, wantKeys []string
			for k := range got {
				if k == "notes" || k == "robots" {
					continue // present only when the registry changed something, or for a URL
				}
				keys = append(keys, k)
			}
			for k := range want {
				wantKeys = append(wantKeys, k)
			}
			wantKeys = append(wantKeys, "sources", "diagnostics", "engine", "nosnippet_regions", "nocontent_regions", "usage")
			slices.Sort(keys)
			slices.Sort(wantKeys)
			if !slices.Equal(keys, wantKeys) {
				t.Errorf("keys %v, want %v", keys, wantKeys)
			}
			same := true
			for k, wv := range want {
				if !reflect.DeepEqual(got[k], wv) {
					same = false
					if _, disputed := pageVectorsDisputed[v.Name]; !disputed {
						t.Errorf("%s = %v, want %v", k, got[k], wv)
					}
				}
			}
			if why, disputed := pageVectorsDisputed[v.Name]; disputed {
				if same {
					t.Errorf("disputed vector now passes; remove it (%s)", why)
				}
				return
			}
			wantCode := exitOK
			if want["index"] == false {
				wantCode = exitFinding
			}
			if code != wantCode {
				t.Errorf("exit %d, want %d; stderr %s", code, wantCode, stderr.String())
			}
		})
	}
}

// TestPageURL serves a site on a loopback port and checks URL mode: the page
// is fetched only when robots.txt allows it, and redirects are checked too.
func TestPageURL(t *testing.T) {
	var pageHits int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private\n\nUser-agent: otherbot\nDisallow: /\n")
		case "/open":
			pageHits++
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Add("X-Robots-Tag", "googlebot: nofollow")
			fmt.Fprint(w, `<html><head><meta name="robots" content="noindex"></head><body><a href="/a">a</a></body></html>`)
		case "/private":
			pageHits++
			fmt.Fprint(w, `<meta name="robots" content="noindex">`)
		case "/redirect":
			http.Redirect(w, r, "/private", http.StatusFound)
		case "/plain":
			pageHits++
			fmt.Fprint(w, `<p>hello</p>`)
		case "/doc.pdf":
			pageHits++
			w.Header().Set("Content-Type", "application/pdf")
			w.Header().Set("X-Robots-Tag", "noindex")
			fmt.Fprint(w, "%PDF-1.7 not read")
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	tests := []struct {
		path, agent string
		code        int
		stdout      []string
		hits        int
	}{
		{"/open", "googlebot", exitFinding, []string{`"index": false`, `"follow": false`, `"/a"`, `"X-Robots-Tag"`}, 1},
		{"/plain", "googlebot", exitOK, []string{`"index": true`}, 1},
		{"/private", "googlebot", exitFinding, []string{`"robots-txt-disallowed"`, `"sources": []`}, 0},
		{"/open", "otherbot", exitFinding, []string{`"robots-txt-disallowed"`}, 0},
		{"/missing", "googlebot", exitFinding, []string{`"http-status"`}, 0},
	}
	for _, tt := range tests {
		pageHits = 0
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"page", "-allow-private", "-json", "-agent", tt.agent, srv.URL + tt.path}, nil, &stdout, &stderr)
		if code != tt.code {
			t.Errorf("%s as %s: exit %d, want %d\n%s%s", tt.path, tt.agent, code, tt.code, stdout.String(), stderr.String())
		}
		for _, s := range tt.stdout {
			if !strings.Contains(stdout.String(), s) {
				t.Errorf("%s as %s: stdout lacks %s:\n%s", tt.path, tt.agent, s, stdout.String())
			}
		}
		if pageHits != tt.hits {
			t.Errorf("%s as %s: page fetched %d times, want %d", tt.path, tt.agent, pageHits, tt.hits)
		}
	}
	// A redirect into a disallowed path is not followed: the hop is
	// blocked as the URL itself would be.
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"page", "-allow-private", srv.URL + "/redirect"}, nil, &stdout, &stderr)
	if code != exitFinding || !strings.Contains(stdout.String(), "not crawlable: robots.txt disallows it") ||
		!strings.Contains(stdout.String(), "the redirect to "+srv.URL+"/private") {
		t.Errorf("redirect: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	// Text mode says what was read: the HTML body's size, or why the body
	// of a PDF was not read.
	stdout.Reset()
	code = run(context.Background(), []string{"page", "-allow-private", srv.URL + "/plain"}, nil, &stdout, &stderr)
	if code != exitOK || !strings.Contains(stdout.String(), "HTTP 200, text/html; charset=utf-8, 12 bytes") {
		t.Errorf("plain text: exit %d\n%s", code, stdout.String())
	}
	stdout.Reset()
	code = run(context.Background(), []string{"page", "-allow-private", srv.URL + "/doc.pdf"}, nil, &stdout, &stderr)
	if code != exitFinding || !strings.Contains(stdout.String(), "HTTP 200, application/pdf, body not read (not HTML: only the headers apply)") {
		t.Errorf("pdf text: exit %d\n%s", code, stdout.String())
	}
	// Text mode says why the rules are never seen.
	stdout.Reset()
	code = run(context.Background(), []string{"page", "-allow-private", srv.URL + "/private"}, nil, &stdout, &stderr)
	if code != exitFinding || !strings.Contains(stdout.String(), "not crawlable: robots.txt disallows it") {
		t.Errorf("text: exit %d\n%s", code, stdout.String())
	}
}

// TestPageURLRobotsUnreachable checks that a robots.txt that cannot be
// fetched is named as the reason, with its cause, rather than reported as a
// rule ("HTTP 0, disallows").
func TestPageURLRobotsUnreachable(t *testing.T) {
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer down.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close() // nothing listens there any more: connection refused
	tests := []struct {
		name, url string
		stdout    []string
	}{
		{"503", down.URL + "/page", []string{"(HTTP 503, disallow-all): unreachable", "503 Service Unavailable", "robots.txt could not be fetched"}},
		{"no answer", closed.URL + "/page", []string{"(no answer, disallow-all): unreachable", "connection refused", "robots.txt could not be fetched"}},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"page", "-allow-private", tt.url}, nil, &stdout, &stderr)
		if code != exitFinding {
			t.Errorf("%s: exit %d, want %d\n%s", tt.name, code, exitFinding, stderr.String())
		}
		for _, s := range tt.stdout {
			if !strings.Contains(stdout.String(), s) {
				t.Errorf("%s: stdout lacks %q:\n%s", tt.name, s, stdout.String())
			}
		}
		if strings.Contains(stdout.String(), "HTTP 0") {
			t.Errorf("%s: stdout says HTTP 0:\n%s", tt.name, stdout.String())
		}
	}
}

// TestPageRedirectLimit: rep page follows at most 10 redirects of a page,
// and says so when a site sends more.
func TestPageRedirectLimit(t *testing.T) {
	for _, tc := range []struct {
		hops int
		ok   bool
	}{
		{10, true},
		{11, false},
	} {
		// /r/0 redirects to /r/1 and so on; the last hop goes to /page.
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var n int
			switch {
			case r.URL.Path == "/robots.txt":
				fmt.Fprint(w, "User-agent: *\nAllow: /\n")
				return
			case r.URL.Path == "/page":
				fmt.Fprint(w, "<p>here</p>")
				return
			case strings.HasPrefix(r.URL.Path, "/r/"):
				n, _ = strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/r/"))
			}
			if n+1 < tc.hops {
				http.Redirect(w, r, fmt.Sprintf("/r/%d", n+1), http.StatusFound)
				return
			}
			http.Redirect(w, r, "/page", http.StatusFound)
		}))
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"page", "-allow-private", srv.URL + "/r/0"}, nil, &stdout, &stderr)
		srv.Close()
		switch {
		case tc.ok && code != exitOK:
			t.Errorf("%d redirects: exit %d, want %d\n%s", tc.hops, code, exitOK, stderr.String())
		case !tc.ok && (code != exitUsage || !strings.Contains(stderr.String(), "more than 10 redirects")):
			t.Errorf("%d redirects: exit %d, stderr %q; want %d and the limit named", tc.hops, code, stderr.String(), exitUsage)
		}
	}
}
