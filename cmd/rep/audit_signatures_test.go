package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/crawlers/botauth"
	"github.com/rep-toolkit/rep/internal/testkit/dnstest"
)

// TestAuditSignaturesFetchListedOnly: rep audit -verify fetches key
// directories (no -keys, no -offline), but only those the registry lists
// for the crawler a line claims. A line claiming Google-Agent signed for a
// loopback agent serving a good directory makes no fetch, even with
// -allow-private: its signature is unverified for want of keys.
func TestAuditSignaturesFetchListedOnly(t *testing.T) {
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "bot.pem")
	runBotauthCLI(t, 0, nil, "sign", "-keygen", "-key", keyFile)
	jwks := runBotauthCLI(t, 0, nil, "sign", "-directory", "-key", keyFile)
	var fetches atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		w.Header().Set("Content-Type", botauth.MediaType)
		w.Write([]byte(jwks))
	}))
	defer srv.Close()
	ns, err := dnstest.Start(dnstest.Zone{})
	if err != nil {
		t.Fatal(err)
	}
	defer ns.Close()

	req := filepath.Join(dir, "req.txt")
	os.WriteFile(req, []byte("GET /x HTTP/1.1\nHost: www.example.com\n"), 0o644)
	signed := runBotauthCLI(t, 0, nil, "sign", "-key", keyFile, "-agent", srv.URL, "-now", "2026-03-01T00:00:00Z", req)
	line := map[string]any{"time": "2026-03-01T00:00:10Z", "remote_addr": "192.0.2.10", "host": "www.example.com",
		"request_method": "GET", "request_uri": "/x", "status": 200, "http_user_agent": "Mozilla/5.0 (compatible; Google-Agent)"}
	for l := range strings.Lines(signed) {
		if k, v, ok := strings.Cut(strings.TrimSpace(l), ": "); ok && strings.HasPrefix(k, "Signature") {
			line["http_"+strings.ReplaceAll(strings.ToLower(k), "-", "_")] = v
		}
	}
	js, _ := json.Marshal(line)
	log := filepath.Join(dir, "access.json")
	os.WriteFile(log, append(js, '\n'), 0o644)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out, errb bytes.Buffer
	code := run(ctx, []string{"audit", "-verify", "-resolver", ns.Addr, "-allow-private", log}, strings.NewReader(""), &out, &errb)
	if code != exitFinding || !strings.Contains(out.String(), "unverified: no key source (1)") || !strings.Contains(out.String(), "Google-Agent: 1 signed: 0 verified, 0 invalid, 1 unverified") {
		t.Errorf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	if n := fetches.Load(); n != 0 {
		t.Errorf("%d fetches from the loopback agent the registry does not list", n)
	}
	out.Reset()
	run(ctx, []string{"audit", "enrich", "-verify", "-resolver", ns.Addr, "-allow-private", log}, strings.NewReader(""), &out, &errb)
	if want := `"signature":"unverified","signature_reason":"no key source"`; !strings.Contains(out.String(), want) {
		t.Errorf("enrich: %s, want %s", out.String(), want)
	}
	if n := fetches.Load(); n != 0 {
		t.Errorf("enrich: %d fetches", n)
	}
}
