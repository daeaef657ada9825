package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// lintServer serves robots.txt variants on a loopback port:
//
//	/ok/robots.txt        200 text/plain with a finding
//	/redirect/...         301 to /ok
//	/loop/...             redirects forever
//
// Each host-less test picks a behaviour by the first path segment through
// the Host-independent handler below; since rep lint always asks for
// /robots.txt at the root, the behaviour is chosen per server instead.
func lintServe(t *testing.T, h http.HandlerFunc) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

func lintRun(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), append([]string{"lint"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestLintURL(t *testing.T) {
	const body = "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /search\n"
	big := "User-agent: *\n" + strings.Repeat("Disallow: /archive/0123456789/\n", 20000)
	tests := []struct {
		name    string
		handler http.HandlerFunc
		path    string // appended to the server URL
		args    []string
		code    int
		want    []string // substrings of stdout
		notWant []string
	}{
		{
			name: "ok",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/plain; charset=utf-8")
				fmt.Fprint(w, body)
			},
			code:    1,
			want:    []string{"/robots.txt:4:13: warning: [star-overridden] crawler 'Googlebot'"},
			notWant: []string{"fetch-"},
		},
		{
			name: "a page URL is checked against its site's robots.txt",
			handler: func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/robots.txt" {
					http.NotFound(w, r)
					return
				}
				w.Header().Set("Content-Type", "text/plain")
				fmt.Fprint(w, "User-agent: *\nDisallow: /x\n")
			},
			path: "/some/page.html?q=1",
			code: 0,
			want: []string{"/robots.txt: 0 errors, 0 warnings, 0 infos"},
		},
		{
			name:    "404",
			handler: http.NotFound,
			code:    1,
			want:    []string{"warning: [fetch-status] status 404 Not Found: robots.txt is unavailable and crawlers may fetch every URL"},
			notWant: []string{"no-separator"},
		},
		{
			name: "503",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusServiceUnavailable)
				fmt.Fprint(w, "<html>down</html>")
			},
			code:    1,
			want:    []string{"error: [fetch-status] status 503 Service Unavailable: robots.txt is unreachable and crawlers assume every URL is disallowed"},
			notWant: []string{"html-file"},
		},
		{
			name: "redirect",
			handler: func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/robots.txt" {
					http.Redirect(w, r, "/real-robots.txt", http.StatusMovedPermanently)
					return
				}
				w.Header().Set("Content-Type", "text/plain")
				fmt.Fprint(w, "User-agent: *\nDisallow: /x\n")
			},
			args: []string{"-severity", "info"},
			code: 1,
			want: []string{"info: [fetch-redirect] robots.txt is redirected 1 time: http://127.0.0.1:", "/real-robots.txt"},
		},
		{
			name: "endless redirects",
			handler: func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, r.URL.Path+"x", http.StatusFound)
			},
			code: 1,
			want: []string{"error: [fetch-redirect] robots.txt is redirected 5 times", "and redirects again (status 302 Found)"},
		},
		{
			name: "HTML login page",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprint(w, "<!DOCTYPE html>\n<html><body>Please log in</body></html>\n")
			},
			code: 1,
			want: []string{"warning: [fetch-content-type] robots.txt is served as text/html", "error: [html-file]"},
		},
		{
			name: "gzip",
			handler: func(w http.ResponseWriter, r *http.Request) {
				if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
					t.Errorf("no gzip in Accept-Encoding %q", r.Header.Get("Accept-Encoding"))
				}
				w.Header().Set("Content-Type", "text/plain")
				w.Header().Set("Content-Encoding", "gzip")
				zw := gzip.NewWriter(w)
				fmt.Fprint(zw, body)
				zw.Close()
			},
			code: 1,
			want: []string{":4:13: warning: [star-overridden]"},
		},
		{
			name: "over 500 KiB",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/plain")
				fmt.Fprint(w, big)
			},
			code: 1,
			want: []string{"error: [size-limit] file is 620014 bytes", "the first line ignored is line 16517: Disallow: /archive/0123456789/"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := lintServe(t, tt.handler)
			args := append([]string{"-allow-private"}, tt.args...)
			args = append(args, base+tt.path)
			code, out, errs := lintRun(t, args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, out, errs)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(out, w) {
					t.Errorf("stdout has %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestLintURLUnreachable: a port nobody listens on is a finding (crawlers
// disallow everything), not a usage error.
func TestLintURLUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	code, out, errs := lintRun(t, "-allow-private", "-format", "json", "http://"+addr+"/robots.txt")
	if code != exitFinding || !strings.Contains(out, `"code": "fetch-unreachable"`) || !strings.Contains(out, `"line": 0`) {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}
