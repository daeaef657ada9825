package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rep-toolkit/rep/crawlers/botauth"
)

// TestVerifyBotauthLoopback signs a request with rep sign for a loopback
// TLS directory, checks the directory with -directory and verifies the
// request by fetching it, with -allow-private; without it, both are
// refused.
func TestVerifyBotauthLoopback(t *testing.T) {
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "bot.pem")
	runBotauthCLI(t, 0, nil, "sign", "-keygen", "-key", keyFile)
	jwks := runBotauthCLI(t, 0, nil, "sign", "-directory", "-key", keyFile)

	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != botauth.WellKnownPath {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", botauth.MediaType)
		w.Write([]byte(jwks))
	}))
	defer srv.Close()
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	old := botauthFetcher
	botauthFetcher = func(allowPrivate bool) *botauth.Fetcher {
		f := old(allowPrivate)
		f.TLSConfig = &tls.Config{RootCAs: pool}
		return f
	}
	defer func() { botauthFetcher = old }()

	out := runBotauthCLI(t, 0, nil, "verify", "-directory", srv.URL, "-allow-private")
	if !strings.Contains(out, "ok: 1 keys") {
		t.Errorf("-directory:\n%s", out)
	}
	out = runBotauthCLI(t, 1, nil, "verify", "-directory", srv.URL)
	if !strings.Contains(out, "loopback address") {
		t.Errorf("-directory without -allow-private:\n%s", out)
	}

	req := filepath.Join(dir, "req.txt")
	os.WriteFile(req, []byte("GET /x HTTP/1.1\r\nHost: example.com\r\n\r\n"), 0o644)
	signed := runBotauthCLI(t, 0, nil, "sign", "-key", keyFile, "-agent", srv.URL, req)
	if !strings.Contains(signed, "\r\nSignature: sig1=:") {
		t.Fatalf("signed request keeps CRLF:\n%q", signed)
	}
	out = runBotauthCLI(t, 0, strings.NewReader(signed), "verify", "-request", "-", "-allow-private", "-json")
	var j botauthJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if j.Verdict != "verified" || j.Directory != srv.URL+botauth.WellKnownPath || j.SignatureAgent != srv.URL {
		t.Errorf("%+v", j)
	}
	out = runBotauthCLI(t, 1, strings.NewReader(signed), "verify", "-request", "-")
	if !strings.HasPrefix(out, "unverified: key directory unavailable") {
		t.Errorf("without -allow-private:\n%s", out)
	}
}

func runBotauthCLI(t *testing.T, want int, stdin *strings.Reader, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	var in = strings.NewReader("")
	if stdin != nil {
		in = stdin
	}
	if got := run(context.Background(), args, in, &out, &errb); got != want {
		t.Fatalf("rep %s: exit %d, want %d\n%s%s", strings.Join(args, " "), got, want, out.String(), errb.String())
	}
	return out.String()
}

// TestVerifyRequestIdentity checks rep verify -request FILE IP: the
// signature and the network check are combined, and a key given with -keys
// proves who holds it, not that the request is Google-Agent's.
func TestVerifyRequestIdentity(t *testing.T) {
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "bot.pem")
	runBotauthCLI(t, 0, nil, "sign", "-keygen", "-key", keyFile)
	jwks := filepath.Join(dir, "jwks.json")
	os.WriteFile(jwks, []byte(runBotauthCLI(t, 0, nil, "sign", "-directory", "-key", keyFile)), 0o644)
	req := filepath.Join(dir, "req.txt")
	os.WriteFile(req, []byte("GET /x HTTP/1.1\r\nHost: example.com\r\nUser-Agent: Mozilla/5.0 (compatible; Google-Agent)\r\n\r\n"), 0o644)
	signed := runBotauthCLI(t, 0, nil, "sign", "-key", keyFile, "-agent", "https://agent.bot.goog", req)

	out := runBotauthCLI(t, 1, strings.NewReader(signed), "verify", "-request", "-", "-keys", jwks, "-offline", "-json", "192.0.2.7")
	var j botauthJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if j.Verdict != "verified" || j.Identity == nil {
		t.Fatalf("%+v", j)
	}
	if id := j.Identity; id.Crawler != "Google-Agent" || id.Verdict == "verified" || !strings.Contains(id.Evidence, "a key given locally") {
		t.Errorf("identity %+v: want Google-Agent, not verified by a local key", id)
	}
	out = runBotauthCLI(t, 1, strings.NewReader(signed), "verify", "-request", "-", "-keys", jwks, "-offline", "192.0.2.7")
	if !strings.Contains(out, "\nidentity: 192.0.2.7 unverifiable Google-Agent (Google)") {
		t.Errorf("text output:\n%s", out)
	}
	runBotauthCLI(t, 2, strings.NewReader(signed), "verify", "-request", "-", "192.0.2.7", "192.0.2.8")
	runBotauthCLI(t, 2, strings.NewReader(signed), "verify", "-request", "-", "-offline")
	runBotauthCLI(t, 2, nil, "verify", "-directory", "https://example.com", "192.0.2.7")
}

// TestVerifyRefusesPrivateAndHTMLDirectory: -directory refuses a directory
// that publishes a private key (JWK "d") with a reason, and -request does
// not verify with it; a directory served as text/html is not ok for
// -directory and verifies nothing for -request.
func TestVerifyRefusesPrivateAndHTMLDirectory(t *testing.T) {
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "bot.pem")
	runBotauthCLI(t, 0, nil, "sign", "-keygen", "-key", keyFile)
	jwks := runBotauthCLI(t, 0, nil, "sign", "-directory", "-key", keyFile)
	var set map[string][]map[string]any
	if err := json.Unmarshal([]byte(jwks), &set); err != nil {
		t.Fatal(err)
	}
	set["keys"][0]["d"] = "bm90IHRoZSBzZWVkIGJ1dCBhIGQgbWVtYmVyIGFsbCB0aGUgc2FtZQ"
	private, _ := json.Marshal(set)
	var (
		mu    sync.Mutex
		body  []byte
		ctype string
	)
	serve := func(b []byte, ct string) {
		mu.Lock()
		body, ctype = b, ct
		mu.Unlock()
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", ctype)
		w.Write(body)
	}))
	defer srv.Close()
	req := filepath.Join(dir, "req.txt")
	os.WriteFile(req, []byte("GET /x HTTP/1.1\r\nHost: example.com\r\n\r\n"), 0o644)
	signed := runBotauthCLI(t, 0, nil, "sign", "-key", keyFile, "-agent", srv.URL, req)

	serve(private, botauth.MediaType)
	out := runBotauthCLI(t, 1, nil, "verify", "-directory", srv.URL, "-allow-private")
	if !strings.Contains(out, "\n  refused: private key published: ") || !strings.Contains(out, `private member "d"`) {
		t.Errorf("-directory with a private key:\n%s", out)
	}
	out = runBotauthCLI(t, 1, nil, "verify", "-directory", srv.URL, "-allow-private", "-json")
	if !strings.Contains(out, `"reason_code": "private-key-published"`) || strings.Contains(out, `"ok": true`) {
		t.Errorf("-directory -json with a private key:\n%s", out)
	}
	out = runBotauthCLI(t, 1, strings.NewReader(signed), "verify", "-request", "-", "-allow-private")
	if !strings.HasPrefix(out, "unverified: private key published") {
		t.Errorf("-request with a private-key directory:\n%s", out)
	}

	serve([]byte(jwks), "text/html; charset=utf-8")
	out = runBotauthCLI(t, 1, nil, "verify", "-directory", srv.URL, "-allow-private")
	if !strings.Contains(out, `problem: botauth: directory: Content-Type "text/html; charset=utf-8"`) || !strings.Contains(out, "\nnot ok\n") {
		t.Errorf("-directory served as HTML:\n%s", out)
	}
	out = runBotauthCLI(t, 1, strings.NewReader(signed), "verify", "-request", "-", "-allow-private")
	if !strings.HasPrefix(out, "unverified: key directory unavailable") || !strings.Contains(out, "not served as a key directory") {
		t.Errorf("-request with a directory served as HTML:\n%s", out)
	}

	serve([]byte(jwks), botauth.MediaType)
	runBotauthCLI(t, 0, nil, "verify", "-directory", srv.URL, "-allow-private")
	runBotauthCLI(t, 0, strings.NewReader(signed), "verify", "-request", "-", "-allow-private")
}
