package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/internal/testkit/dnstest"
)

// verifyZone is the DNS the in-process CLI tests query through -resolver.
func verifyZone(t *testing.T) *dnstest.Server {
	t.Helper()
	a := netip.MustParseAddr
	srv, err := dnstest.Start(dnstest.Zone{
		PTR: map[netip.Addr][]string{
			a("66.249.66.1"):          {"crawl-66-249-66-1.googlebot.com."},
			a("95.216.227.158"):       {"crawl-95-216-227-158.googlebot.com."},
			a("203.0.113.7"):          {"crawl-203-0-113-7.googlebot.com.evil.example."},
			a("2001:4860:4801:10::1"): {"crawl-2001-4860-4801-10--1.googlebot.com."},
			a("180.76.15.5"):          {"baiduspider-180-76-15-5.crawl.baidu.com."},
			a("157.55.39.1"):          {"msnbot-157-55-39-1.search.msn.com."},
			a("74.6.168.1"):           {"b1.crawl.yahoo.net."},
		},
		Addrs: map[string][]netip.Addr{
			"crawl-66-249-66-1.googlebot.com":              {a("66.249.66.1")},
			"crawl-203-0-113-7.googlebot.com.evil.example": {a("203.0.113.7")},
			"crawl-2001-4860-4801-10--1.googlebot.com":     {a("2001:4860:4801:10::1")},
			"msnbot-157-55-39-1.search.msn.com":            {a("157.55.39.1")},
			"b1.crawl.yahoo.net":                           {a("74.6.168.1")},
		},
		Drop: []string{"198.51.100.9"},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

func runRep(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestVerifyDNS(t *testing.T) {
	srv := verifyZone(t)
	cache := t.TempDir()
	// 2 s per lookup: a dropped query ends there, and a loopback answer
	// comes well within it even on a loaded machine.
	base := []string{"verify", "-resolver", srv.Addr, "-timeout", "2s", "-cache", cache}
	const googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	for _, tc := range []struct {
		name  string
		args  []string
		stdin string
		code  int
		want  []string // substrings of stdout, in order
	}{
		{"genuine googlebot by rDNS and range", []string{"-ua", googlebot, "66.249.66.1"}, "", 0,
			[]string{"66.249.66.1 verified Googlebot (Google) by fcrdns+ranges: crawl-66-249-66-1.googlebot.com → 66.249.66.1; in google-common 2026-03-16 (66.249.66.0/27)"}},
		{"PTR without forward record", []string{"-ua", googlebot, "95.216.227.158"}, "", 1,
			[]string{"95.216.227.158 spoofed Googlebot (Google) by fcrdns+ranges: crawl-95-216-227-158.googlebot.com; not in google-common", "has no A/AAAA record"}},
		{"PTR suffix trick", []string{"-ua", googlebot, "203.0.113.7"}, "", 1,
			[]string{"203.0.113.7 spoofed", "PTR crawl-203-0-113-7.googlebot.com.evil.example is not under googlebot.com or google.com"}},
		{"timeout", []string{"-ua", googlebot, "198.51.100.9"}, "", 2,
			[]string{"198.51.100.9 unverifiable Googlebot (Google) by fcrdns", "timeout"}},
		{"IPv6", []string{"-ua", googlebot, "2001:4860:4801:10::1"}, "", 0,
			[]string{"2001:4860:4801:10::1 verified Googlebot (Google) by fcrdns+ranges: crawl-2001-4860-4801-10--1.googlebot.com → 2001:4860:4801:10::1"}},
		{"baidu rdns-only", []string{"-ua", "Baiduspider/2.0", "180.76.15.5"}, "", 1,
			[]string{"180.76.15.5 rdns-only Baiduspider (Baidu) by rdns: baiduspider-180-76-15-5.crawl.baidu.com; Baidu documents only the reverse lookup"}},
		{"robots.txt-only token", []string{"-ua", "Mozilla/5.0 (compatible; Google-Extended/1.0)", "66.249.66.1"}, "", 1,
			[]string{"66.249.66.1 spoofed Google-Extended (Google) by token-only"}},
		{"stdin with User-Agents, in order", nil, "66.249.66.1 " + googlebot + "\n# comment\n\n180.76.15.5\tBaiduspider/2.0\n66.249.66.1 GPTBot/1.1\n", 1,
			[]string{"66.249.66.1 verified Googlebot", "180.76.15.5 rdns-only Baiduspider", "66.249.66.1 spoofed GPTBot (OpenAI) by ranges: not in openai-gptbot 2025-10-30"}},
		// The Google guide names MSNbot as Microsoft's crawler and says
		// Microsoft supports reverse DNS; Yahoo documented Slurp's
		// crawl.yahoo.net names.
		{"msnbot verified like bingbot", []string{"-ua", "msnbot/2.0b (+http://search.msn.com/msnbot.htm)", "157.55.39.1"}, "", 0,
			[]string{"157.55.39.1 verified msnbot (Microsoft) by fcrdns+ranges: msnbot-157-55-39-1.search.msn.com → 157.55.39.1; in bing"}},
		{"Slurp verified by rDNS", []string{"-ua", "Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)", "74.6.168.1"}, "", 0,
			[]string{"74.6.168.1 verified Slurp (Yahoo) by fcrdns: b1.crawl.yahoo.net → 74.6.168.1"}},
		{"identify by rDNS", []string{"180.76.15.5"}, "", 1,
			[]string{"180.76.15.5 rdns-only Baiduspider (Baidu)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runRep(t, tc.stdin, append(append([]string{}, base...), tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, out, errOut)
			}
			rest := out
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Errorf("stdout lacks %q (in order)\nstdout: %s", w, out)
					break
				}
				rest = rest[i+len(w):]
			}
		})
	}
}

func TestVerifyJSON(t *testing.T) {
	srv := verifyZone(t)
	code, out, errOut := runRep(t, "", "verify", "-json", "-resolver", srv.Addr, "-timeout", "2s", "-cache", t.TempDir(),
		"-ua", "Googlebot/2.1", "66.249.66.1", "95.216.227.158", "198.51.100.9")
	if code != exitUsage {
		t.Errorf("exit %d, want 2 (a DNS timeout)\nstderr: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines of JSON, want 3:\n%s", len(lines), out)
	}
	var got []map[string]any
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		for _, k := range []string{"ip", "claimed", "operator", "crawler", "verdict", "method", "ptr", "forward_confirmed", "range", "list_date"} {
			if _, ok := m[k]; !ok {
				t.Errorf("key %q missing from %s", k, l)
			}
		}
		got = append(got, m)
	}
	want := []map[string]any{
		{"ip": "66.249.66.1", "claimed": "Googlebot/2.1", "operator": "Google", "crawler": "Googlebot", "verdict": "verified", "method": "fcrdns+ranges",
			"ptr": "crawl-66-249-66-1.googlebot.com", "forward_confirmed": true, "range": "66.249.66.0/27", "list_date": "2026-03-16"},
		{"ip": "95.216.227.158", "verdict": "spoofed", "ptr": "crawl-95-216-227-158.googlebot.com", "forward_confirmed": false, "range": ""},
		{"ip": "198.51.100.9", "verdict": "unverifiable"},
	}
	for i, w := range want {
		for k, v := range w {
			if got[i][k] != v {
				t.Errorf("line %d: %s = %v, want %v", i+1, k, got[i][k], v)
			}
		}
	}
	if e, _ := got[2]["error"].(string); !strings.Contains(e, "timeout") {
		t.Errorf("timeout line: error = %q", e)
	}
}

// TestVerifyUpdate runs -update against a local server standing in for the
// operators: lists that validate are stored, a 200 with no prefixes is
// rejected and the last good list kept.
func TestVerifyUpdate(t *testing.T) {
	bodies := map[string]string{
		"/static/crawling/ipranges/common-crawlers.json": `{"creationTime":"2026-11-01T10:00:00.000000","prefixes":[{"ipv4Prefix":"66.249.64.0/27"},{"ipv4Prefix":"192.0.2.0/24"}]}`,
		"/gptbot.json": `{"creationTime":"2026-11-02T10:00:00Z","prefixes":[{"ipv4Prefix":"198.51.100.0/24"}]}`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := bodies[r.URL.Path]
		if !ok {
			b = `{"Action needed": "This file has moved."}`
		}
		w.Write([]byte(b))
	}))
	defer srv.Close()
	verifyUpdateBaseURL, verifyUpdateClient = srv.URL, srv.Client()
	defer func() { verifyUpdateBaseURL, verifyUpdateClient = "", nil }()
	cache := t.TempDir()

	code, out, errOut := runRep(t, "", "verify", "-update", "-cache", cache)
	if code != exitFinding {
		t.Errorf("exit %d, want 1 (some lists rejected)\n%s%s", code, out, errOut)
	}
	for _, w := range []string{
		"google-common              ok       2026-11-01     2 prefixes",
		"openai-gptbot              ok       2026-11-02     1 prefixes",
		`bing                       rejected ` + srv.URL + `/toolbox/bingbot.json: invalid IP-range list: no prefixes; the file holds "Action needed" instead; keeping 2024-01-03 (snapshot of rezmoss/cloud-provider-ip-addresses`,
		"duckassistbot              rejected", "no copy of this list is available",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	if _, err := os.Stat(filepath.Join(cache, "google-common", "2026-11-01.json")); err != nil {
		t.Error(err)
	}

	// The fetched lists are used from now on; the 198.51.100.0/24 test
	// range only exists in the fetched gptbot list.
	code, out, _ = runRep(t, "", "verify", "-offline", "-cache", cache, "-ua", "GPTBot/1.1", "198.51.100.7")
	if code != exitOK || !strings.Contains(out, "in openai-gptbot 2026-11-02 (198.51.100.0/24)") {
		t.Errorf("after update: exit %d, %s", code, out)
	}

	// Google's URL now answers 200 with no prefixes: rejected, last good kept.
	bodies["/static/crawling/ipranges/common-crawlers.json"] = `{"Action needed": "moved"}`
	code, out, _ = runRep(t, "", "verify", "-update", "-cache", cache)
	if code != exitFinding || !strings.Contains(out, "google-common              rejected") || !strings.Contains(out, "keeping 2026-11-01") {
		t.Errorf("empty 200: exit %d\n%s", code, out)
	}
	code, out, _ = runRep(t, "", "verify", "-offline", "-cache", cache, "-ua", "Googlebot/2.1", "192.0.2.7")
	if code != exitOK || !strings.Contains(out, "in google-common 2026-11-01") {
		t.Errorf("last good list not kept: exit %d, %s", code, out)
	}
}

// verifyFirstWrite signals first on the first write, so a test can see
// that an answer came out before the input ended.
type verifyFirstWrite struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	first chan struct{}
}

func (w *verifyFirstWrite) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.buf.Len() == 0 {
		close(w.first)
	}
	return w.buf.Write(p)
}

// TestVerifyStreams checks that IPs on standard input are answered as they
// come, not after the whole input has been read (which held every IP of a
// large list in memory): the second line is written only once the first
// answer is out.
func TestVerifyStreams(t *testing.T) {
	pr, pw := io.Pipe()
	out := &verifyFirstWrite{first: make(chan struct{})}
	done := make(chan int)
	go func() {
		done <- run(context.Background(), []string{"verify", "-offline", "-ua", "Googlebot"}, pr, out, io.Discard)
	}()
	if _, err := io.WriteString(pw, "66.249.66.1\n"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-out.first:
	case code := <-done:
		t.Fatalf("exited %d before the input ended", code)
	case <-time.After(time.Minute): // a deadlock guard, not a timing assertion
		pw.Close()
		<-done
		t.Fatal("no answer for the first IP before the input ended")
	}
	io.WriteString(pw, "34.162.230.222\n")
	pw.Close()
	if code := <-done; code != exitFinding {
		t.Errorf("exit %d, want %d", code, exitFinding)
	}
	if got := out.buf.String(); !strings.HasPrefix(got, "66.249.66.1 verified") || !strings.Contains(got, "\n34.162.230.222 spoofed") {
		t.Errorf("output:\n%s", got)
	}
}
