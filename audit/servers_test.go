package audit

// Web Bot Auth headers as real servers log them: nginx with the
// log_format docs/audit.md recommends, and Caddy's JSON access log. A
// missing server fails these tests, it never skips them (make deps
// installs Debian's nginx and caddy).

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/crawlers/botauth"
	"github.com/rep-toolkit/rep/crawlers/identity"
	"github.com/rep-toolkit/rep/internal/testkit"
	"github.com/rep-toolkit/rep/internal/testkit/webserver"
)

// nginxLogFormat is the log_format docs/audit.md shows (TestNginxLogFormat
// checks it does, verbatim).
const nginxLogFormat = `log_format botauth escape=json
    '{"time":"$time_iso8601","remote_addr":"$remote_addr","scheme":"$scheme",'
    '"host":"$host","request_method":"$request_method","request_uri":"$request_uri",'
    '"status":$status,"body_bytes_sent":$body_bytes_sent,'
    '"http_referer":"$http_referer","http_user_agent":"$http_user_agent",'
    '"http_signature":"$http_signature",'
    '"http_signature_input":"$http_signature_input",'
    '"http_signature_agent":"$http_signature_agent"}';`

// sendSigned sends to the server on port, as Google-Agent: a request signed
// for www.example.com (verified), the same signature sent to
// www.example.org (invalid), and an unsigned request; then it waits for
// log to hold three lines.
func sendSigned(t *testing.T, port int, log string) {
	t.Helper()
	key := testKey(t)
	c := &http.Client{Timeout: 10 * time.Second}
	for _, r := range []struct {
		host, signFor string
	}{{"www.example.com", "www.example.com"}, {"www.example.org", "www.example.com"}, {"www.example.com", ""}} {
		req, err := http.NewRequest(http.MethodGet, fmt.Sprintf("http://127.0.0.1:%d/page?q=1", port), nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("User-Agent", googleAgent)
		if r.signFor != "" {
			req.Host = r.signFor
			s := &botauth.Signer{Key: key, Agent: "https://agent.bot.goog", Components: []string{"@method", "@path", "@query"}}
			if err := s.Sign(req); err != nil {
				t.Fatal(err)
			}
		}
		req.Host = r.host
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	var data []byte
	if !testkit.Until(time.Minute, func() bool {
		data, _ = os.ReadFile(log)
		return bytes.Count(data, []byte("\n")) >= 3
	}) {
		t.Fatalf("%s holds %q after a minute, want 3 lines", log, data)
	}
}

// auditServerLog audits a server's log as a JSON log, with the signatures
// checked against the saved key directory, and requires the one verified
// and the one invalid signature.
func auditServerLog(t *testing.T, log string) {
	t.Helper()
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Verifier: &identity.Verifier{}, Signatures: &botauth.Verifier{Keys: savedKeys(t, "https://agent.bot.goog")}}
	rep := auditBytes(t, data, nil, opt)
	if rep.BadLines != 0 {
		t.Fatalf("bad lines: %+v\n%s", rep.BadSamples, data)
	}
	c := rep.Crawler("Google-Agent")
	if c == nil || c.Requests != 3 || c.Verified != 1 || c.VerifiedBy["signature"] != 1 || c.Signatures == nil ||
		c.Signatures.Verified != 1 || c.Signatures.Invalid != 1 || c.Signatures.Reasons[string(botauth.BadSignature)] != 1 {
		t.Errorf("Google-Agent: %+v (signatures %+v)\n%s", c, c.Signatures, data)
	}
	var text bytes.Buffer
	WriteText(&text, rep)
	t.Logf("%s\n%s", data, text.String())
}

func TestNginxLogFormat(t *testing.T) {
	nginx := webserver.Need(t, "nginx")
	dir := t.TempDir()
	port := webserver.FreePort(t)
	conf := filepath.Join(dir, "nginx.conf")
	log := filepath.Join(dir, "access.json")
	os.WriteFile(conf, []byte(fmt.Sprintf(`daemon off;
master_process off;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log;
events {}
http {
    client_body_temp_path %[1]s/body;
    proxy_temp_path %[1]s/proxy;
    fastcgi_temp_path %[1]s/fastcgi;
    uwsgi_temp_path %[1]s/uwsgi;
    scgi_temp_path %[1]s/scgi;
    %[3]s
    access_log %[4]s botauth;
    server {
        listen 127.0.0.1:%[2]d;
        location / {
            return 200 "ok\n";
        }
    }
}
`, dir, port, strings.ReplaceAll(nginxLogFormat, "\n", "\n    "), log)), 0o644)
	webserver.Validate(t, nginx, nil, "-t", "-p", dir, "-c", conf)
	webserver.Start(t, port, nginx, nil, "-p", dir, "-c", conf)
	sendSigned(t, port, log)
	auditServerLog(t, log)

	doc, err := os.ReadFile(filepath.Join("..", "docs", "audit.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(doc, []byte(nginxLogFormat)) {
		t.Errorf("docs/audit.md does not show the log_format this test runs:\n%s", nginxLogFormat)
	}
}

func TestCaddyLog(t *testing.T) {
	caddy := webserver.Need(t, "caddy")
	dir := t.TempDir()
	port := webserver.FreePort(t)
	conf := filepath.Join(dir, "Caddyfile")
	log := filepath.Join(dir, "access.json")
	os.WriteFile(conf, []byte(fmt.Sprintf(`{
	admin off
	storage file_system %[1]s/data
}

http://:%[2]d {
	bind 127.0.0.1
	log {
		output file %[3]s
	}
	respond "ok" 200
}
`, dir, port, log)), 0o644)
	env := []string{"HOME=" + dir, "XDG_DATA_HOME=" + dir, "XDG_CONFIG_HOME=" + dir}
	webserver.Validate(t, caddy, env, "validate", "--config", conf, "--adapter", "caddyfile")
	webserver.Start(t, port, caddy, env, "run", "--config", conf, "--adapter", "caddyfile")
	sendSigned(t, port, log)
	auditServerLog(t, log)
}
