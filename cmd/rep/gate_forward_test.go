package main

// rep gate -forward-auth behind the real nginx (auth_request) and the real
// Caddy (forward_auth), each in front of a loopback site. The server
// configurations are the ones docs/policy.md shows, with the addresses of
// the test put in: TestGateForwardAuthDocs checks the documentation quotes
// them verbatim. A missing server fails the tests, it never skips them.

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/internal/testkit/webserver"
)

// forwardNginx is the nginx server block of docs/policy.md: the policy's
// headers and token blocks from the generated nginx-server.conf, robots.txt
// from the gate, every other request asked of the gate first.
const forwardNginx = `server {
    listen 80;
    server_name example.com;
    include nginx-server.conf;

    location = /robots.txt {
        proxy_pass http://127.0.0.1:8090;
        proxy_set_header X-Real-IP $remote_addr;
        proxy_set_header X-Forwarded-Host $http_host;
    }
    location = /_rep_gate {
        internal;
        proxy_pass http://127.0.0.1:8090;
        proxy_pass_request_body off;
        proxy_set_header Content-Length "";
        proxy_set_header X-Original-URI $request_uri;
        proxy_set_header X-Original-Method $request_method;
        proxy_set_header X-Real-IP $remote_addr;
        proxy_set_header X-Forwarded-Host $http_host;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header X-Forwarded-Uri "";
        proxy_set_header X-Forwarded-Method "";
        proxy_set_header X-Forwarded-For "";
    }
    location / {
        auth_request /_rep_gate;
        proxy_pass http://127.0.0.1:8080/;
    }
}`

// forwardCaddy is the Caddy site block of docs/policy.md, under a
// Caddyfile that imports the generated one.
const forwardCaddy = `example.com {
	import rep_policy
	handle /robots.txt {
		reverse_proxy 127.0.0.1:8090
	}
	handle {
		forward_auth 127.0.0.1:8090 {
			uri /_rep_gate
			header_up -X-Original-URI
			header_up -X-Original-Method
			header_up -X-Real-IP
		}
		reverse_proxy 127.0.0.1:8080
	}
}`

// forwardGateCmd is how docs/policy.md starts the gate for them.
const forwardGateCmd = `rep gate -policy site.toml -forward-auth -front nginx -addr 127.0.0.1:8090 -trust 127.0.0.1 -host example.com`

// forwardSetup builds the policy into a directory, starts the site and
// rep gate -forward-auth under enforce, and returns the directory, a
// function putting the test's addresses into a configuration, and the
// gate's decision log.
func forwardSetup(t *testing.T, front, enforce string) (dir string, addrs func(conf string) string, logFile string) {
	t.Helper()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "site "+r.URL.Path)
	}))
	t.Cleanup(site.Close)
	dir = t.TempDir()
	if code, out, errs := runRep(t, "", "policy", "build", "-o", dir, "../../policy/testdata/ai.toml"); code != exitOK {
		t.Fatalf("policy build: %d %s%s", code, out, errs)
	}
	logFile = filepath.Join(dir, "gate.log")
	args := strings.Fields(forwardGateCmd)[2:]
	args[1] = "../../policy/testdata/ai.toml"
	for i, a := range args {
		if a == "-addr" {
			args = append(args[:i], args[i+2:]...) // startGate picks a free port
			break
		}
	}
	for i, a := range args {
		switch a {
		case "-front":
			args[i+1] = front
		case "-host": // the test's requests are for 127.0.0.1:PORT
			args[i+1] = "127.0.0.1"
		}
	}
	// Google-Agent's key directory: a local copy holding the test's key.
	keys := filepath.Join(dir, "google-agent.jwks")
	if code, out, errs := runRep(t, "", "sign", "-directory", "-key", gateSignerKey); code != exitOK {
		t.Fatalf("sign -directory: %d %s", code, errs)
	} else {
		os.WriteFile(keys, []byte(out), 0o644)
	}
	gate := startGate(t, append(args, "-enforce", enforce, "-log", logFile, "-keys", "https://agent.bot.goog="+keys)...)
	gateAddr := strings.TrimPrefix(gate, "http://")
	siteAddr := strings.TrimPrefix(site.URL, "http://")
	return dir, func(conf string) string {
		return strings.NewReplacer("127.0.0.1:8090", gateAddr, "127.0.0.1:8080", siteAddr).Replace(conf)
	}, logFile
}

// forwardExercise sends requests through the server on port and checks
// what the gate and the generated configuration do to them.
func forwardExercise(t *testing.T, port int, enforce, logFile string) {
	t.Helper()
	get := func(path, ua string) (*http.Response, string) {
		req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("http://127.0.0.1:%d%s", port, path), nil)
		req.Header.Set("User-Agent", ua)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}

	// A browser passes; the policy's header is on PDF files only.
	if r, body := get("/blog/", gateBrowser); r.StatusCode != 200 || body != "site /blog/" || r.Header.Get("X-Robots-Tag") != "" {
		t.Errorf("browser /blog/: %d %q X-Robots-Tag %q", r.StatusCode, body, r.Header.Get("X-Robots-Tag"))
	}
	if r, body := get("/docs/a.pdf", gateBrowser); r.StatusCode != 200 || body != "site /docs/a.pdf" || r.Header.Get("X-Robots-Tag") != "noindex, nofollow" {
		t.Errorf("browser /docs/a.pdf: %d %q X-Robots-Tag %q", r.StatusCode, body, r.Header.Get("X-Robots-Tag"))
	}
	// robots.txt comes from the gate, to a spoofed crawler too.
	if r, body := get("/robots.txt", gateGooglebot); r.StatusCode != 200 || !strings.HasPrefix(body, "# Generated by rep policy build from ai.toml") || r.Header.Get("ETag") == "" {
		t.Errorf("robots.txt: %d ETag %q %q", r.StatusCode, r.Header.Get("ETag"), body)
	}
	// A Googlebot from loopback is spoofed: refused under block, passed
	// (and logged) under log.
	r, body := get("/blog/", gateGooglebot)
	switch {
	case enforce == "block" && r.StatusCode != 403:
		t.Errorf("spoofed Googlebot under block: %d %q", r.StatusCode, body)
	case enforce == "log" && (r.StatusCode != 200 || body != "site /blog/"):
		t.Errorf("spoofed Googlebot under log: %d %q", r.StatusCode, body)
	}
	// A Google-Agent signed with a key of Google-Agent's directory: the
	// signature headers reach the gate with the authority the server was
	// asked for (X-Forwarded-Host), so the signature proves it. One signed
	// for another site proves nothing; its verdict is logged.
	signedGet := func(path, authority string) int {
		req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("http://127.0.0.1:%d%s", port, path), nil)
		gateSign(t, req, authority)
		req.Header.Set("User-Agent", gateGoogleAgent)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := signedGet("/blog/?signed=1", ""); code != 200 {
		t.Errorf("signed Google-Agent: %d", code)
	}
	signedGet("/blog/?forged=1", "other.example")

	log, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	action := map[string]string{"block": `"action":"refuse"`, "log": `"action":"log-only"`}[enforce]
	want := map[string][]string{
		"a refusal of the spoofed Googlebot": {`"uri":"/blog/"`, `"client_ip":"127.0.0.1"`, `"identity":"spoofed"`, action},
		"the signed Google-Agent verified by its signature": {`"uri":"/blog/?signed=1"`, `"crawler":"Google-Agent"`, `"action":"allow"`,
			`"identity":"verified"`, `"verified_by":"signature"`, `"signature":"verified"`, `"signature_agent":"https://agent.bot.goog"`},
		"the invalid signature": {`"uri":"/blog/?forged=1"`, `"signature":"invalid"`, `"signature_reason":"signature does not verify`},
	}
	for what, parts := range want {
		var found bool
		for _, line := range strings.Split(string(log), "\n") {
			found = found || containsAll(line, parts)
		}
		if !found {
			t.Errorf("no record of %s in the decision log:\n%s", what, log)
		}
	}
}

// gateMJ12 is a crawler of the data set: no identity to check, so the
// robots.txt group for * decides (ai.toml: Disallow: /admin/).
const gateMJ12 = "Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)"

// rawHTTP sends GET target, exactly as written, with the headers (name,
// value pairs; "Host" replaces the address) to 127.0.0.1:port and returns
// the status and body.
func rawHTTP(t *testing.T, port int, target string, hdr ...string) (int, string) {
	t.Helper()
	c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var b strings.Builder
	fmt.Fprintf(&b, "GET %s HTTP/1.1\r\n", target)
	host := fmt.Sprintf("127.0.0.1:%d", port)
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "Host" {
			host = hdr[i+1]
			continue
		}
		fmt.Fprintf(&b, "%s: %s\r\n", hdr[i], hdr[i+1])
	}
	fmt.Fprintf(&b, "Host: %s\r\nConnection: close\r\n\r\n", host)
	if _, err := io.WriteString(c, b.String()); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// gatePathForms spell a path (%s, without its leading "/") so that the
// origin serves that path; gateAmbiguous spell it so that origins differ.
var (
	gatePathForms = []string{"/%s", "/./%s", "//%s", "/.well-known/../%s", "/.well-known/./../%s",
		"/robots.txt/../%s", "/a/b/../../%s"}
	gateAmbiguous = []string{"/.well-known/%%2e%%2e/%s", "/.well-known/..%%2f%s", "/.well-known/.%%2e/%s",
		"/.well-known/..;/%s", "/%s%%2f", "/.well-known/%%5c../%s"}
)

// forwardAttacks sends the attack shapes through the server on port in
// front of rep gate under block: every spelling of a disallowed path is
// refused and logged as that path, every spelling of an allowed one
// passes, ambiguous spellings are refused to everyone, and headers a
// client adds change neither a decision nor the log.
func forwardAttacks(t *testing.T, port int, front, logFile string) {
	t.Helper()
	logged := func(parts ...string) bool {
		data, err := os.ReadFile(logFile)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if containsAll(line, parts) {
				return true
			}
		}
		return false
	}
	for _, p := range []struct {
		path    string
		allowed bool
	}{{"admin/x", false}, {"blog/x", true}} {
		forms := append([]string{fmt.Sprintf("/%%%02x%s", p.path[0], p.path[1:])}, gatePathForms...)
		for _, form := range forms {
			target := form
			if strings.Contains(form, "%s") {
				target = fmt.Sprintf(form, p.path)
			}
			// Caddy passes the client's spelling on to the site: the gate
			// refuses a dot segment or "//" behind it (gate.Front.Resolves),
			// where nginx passes the site its own resolved path.
			allowed, record := p.allowed, []string{`"uri":"/` + p.path + `"`, `"crawler":"MJ12bot"`}
			if front == "caddy" && (strings.Contains(form, "/.") || strings.Contains(form, "//")) {
				allowed, record = false, []string{`"uri":"` + target + `"`, `"reason":"ambiguous path`}
			}
			code, body := rawHTTP(t, port, target, "User-Agent", gateMJ12)
			switch {
			case allowed && (code != 200 || body != "site /"+p.path && front == "nginx"):
				t.Errorf("%s %s: %d %q, want 200", front, target, code, body)
			case !allowed && (code == 200 || strings.HasPrefix(body, "site ")):
				t.Errorf("%s %s: %d %q, want a refusal", front, target, code, body)
			}
			if !logged(record...) {
				t.Errorf("%s %s: no record with %v in the decision log", front, target, record)
			}
		}
		for _, form := range gateAmbiguous {
			target := fmt.Sprintf(form, p.path)
			for _, ua := range []string{gateMJ12, gateBrowser} {
				if code, body := rawHTTP(t, port, target, "User-Agent", ua); code == 200 || strings.HasPrefix(body, "site ") {
					t.Errorf("%s %s: %d %q, want a refusal", front, target, code, body)
				}
			}
		}
	}

	// Headers the client adds: the other front's URI header, an address
	// header the front does not set, another host.
	for _, c := range []struct {
		name   string
		target string
		hdr    []string
		refuse bool
		log    []string
	}{
		{"X-Forwarded-Uri: /robots.txt", "/admin/x", []string{"User-Agent", gateMJ12, "X-Forwarded-Uri", "/robots.txt", "X-Forwarded-Method", "GET"}, true,
			[]string{`"uri":"/admin/x"`, `"user_agent":"` + gateMJ12 + `"`, `"action":"refuse"`}},
		{"X-Original-URI: /robots.txt", "/admin/x", []string{"User-Agent", gateMJ12, "X-Original-URI", "/robots.txt", "X-Original-Method", "GET"}, true,
			[]string{`"uri":"/admin/x"`, `"action":"refuse"`}},
		{"X-Real-IP and X-Forwarded-For of Google", "/blog/?forged=ip", []string{"User-Agent", gateGooglebot, "X-Real-IP", "66.249.66.1", "X-Forwarded-For", "66.249.66.1"}, true,
			[]string{`"uri":"/blog/?forged=ip"`, `"client_ip":"127.0.0.1"`, `"identity":"spoofed"`}},
		{"X-Forwarded-Host of another site", "/blog/?forged=host", []string{"User-Agent", gateBrowser, "X-Forwarded-Host", "other.example"}, false,
			[]string{`"uri":"/blog/?forged=host"`, fmt.Sprintf(`"host":"127.0.0.1:%d"`, port)}},
		{"Host of another site", "/blog/?host=other", []string{"User-Agent", gateBrowser, "Host", "other.example"}, true,
			[]string{`"uri":"/blog/?host=other"`, `"reason":"host not served \"other.example\"`}},
		{"an escaped query (Disallow: /*?session=)", "/blog/?%73ession=1", []string{"User-Agent", gateMJ12}, true,
			[]string{`"uri":"/blog/?session=1"`, `"raw_uri":"/blog/?%73ession=1"`, `"action":"refuse"`}},
		{"two User-Agent headers", "/admin/x?ua=2", []string{"User-Agent", gateBrowser, "User-Agent", gateMJ12}, true,
			[]string{`"action":"refuse"`, `more than one User-Agent`}},
	} {
		if front == "caddy" {
			switch c.name {
			case "Host of another site":
				// Caddy's site block answers its own address only: the
				// request never reaches the gate, and gets an empty 200.
				c.log = nil
			case "two User-Agent headers":
				// Caddy is written in Go, whose client sends the first
				// User-Agent only: the gate and the origin both get the
				// browser's, and judge it alike.
				c.refuse, c.log = false, []string{`"uri":"/admin/x?ua=2"`, `"user_agent":"` + gateBrowser + `"`, `"action":"allow"`}
			}
		}
		code, body := rawHTTP(t, port, c.target, c.hdr...)
		if refused := code != 200 || !strings.HasPrefix(body, "site "); refused != c.refuse {
			t.Errorf("%s %s: %d %q, refused %v", front, c.name, code, body, c.refuse)
		}
		if c.log != nil && !logged(c.log...) {
			t.Errorf("%s %s: no record with %v in the decision log", front, c.name, c.log)
		}
	}
}

// forwardReplay replays through the server on port a Google-Agent
// request signed for another site, with that site's Host: it is refused
// (by the gate behind nginx, which does not serve the host, and by
// Caddy's site matching), where the same signature for this site's own
// authority proves the crawler.
func forwardReplay(t *testing.T, port int, front, logFile string) {
	t.Helper()
	send := func(authority string) (int, string) {
		req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("http://127.0.0.1:%d/blog/?replay=%s", port, authority), nil)
		gateSign(t, req, authority)
		req.Host = authority
		req.Header.Set("User-Agent", gateGoogleAgent)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	own := fmt.Sprintf("127.0.0.1:%d", port)
	if code, body := send(own); code != 200 || body != "site /blog/" {
		t.Errorf("%s: signed for this site: %d %q", front, code, body)
	}
	if code, body := send("other.example"); code == 200 && strings.HasPrefix(body, "site ") {
		t.Errorf("%s: a signature for another site replayed with its Host: %d %q", front, code, body)
	}
	data, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, "replay=other.example") && strings.Contains(line, `"action":"allow"`) {
			t.Errorf("%s: the replay was allowed: %s", front, line)
		}
	}
	if front == "nginx" && !strings.Contains(string(data), `"reason":"host not served \"other.example\"`) {
		t.Errorf("%s: no refusal of the replay in the decision log", front)
	}
}

func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

func TestGateForwardAuthNginx(t *testing.T) {
	nginx := webserver.Need(t, "nginx")
	for _, enforce := range []string{"block", "log"} {
		t.Run(enforce, func(t *testing.T) {
			dir, addrs, logFile := forwardSetup(t, "nginx", enforce)
			port := webserver.FreePort(t)
			server := strings.Replace(addrs(forwardNginx), "listen 80;", fmt.Sprintf("listen 127.0.0.1:%d;", port), 1)
			conf := filepath.Join(dir, "test-nginx.conf")
			os.WriteFile(conf, []byte(fmt.Sprintf(`daemon off;
master_process off;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log;
events {}
http {
    access_log off;
    client_body_temp_path %[1]s/body;
    proxy_temp_path %[1]s/proxy;
    fastcgi_temp_path %[1]s/fastcgi;
    uwsgi_temp_path %[1]s/uwsgi;
    scgi_temp_path %[1]s/scgi;
    include nginx-http.conf;
%[2]s
}
`, dir, server)), 0o644)
			webserver.Validate(t, nginx, nil, "-t", "-p", dir, "-c", conf)
			webserver.Start(t, port, nginx, nil, "-p", dir, "-c", conf)
			forwardExercise(t, port, enforce, logFile)
			if enforce == "block" {
				forwardAttacks(t, port, "nginx", logFile)
				forwardReplay(t, port, "nginx", logFile)
			}
		})
	}
}

func TestGateForwardAuthCaddy(t *testing.T) {
	caddy := webserver.Need(t, "caddy")
	for _, enforce := range []string{"block", "log"} {
		t.Run(enforce, func(t *testing.T) {
			dir, addrs, logFile := forwardSetup(t, "caddy", enforce)
			port := webserver.FreePort(t)
			site := strings.Replace(addrs(forwardCaddy), "example.com {", fmt.Sprintf("http://127.0.0.1:%d {", port), 1)
			conf := filepath.Join(dir, "test.Caddyfile")
			os.WriteFile(conf, []byte(fmt.Sprintf(`{
	admin off
	storage file_system %[1]s/data
}

import %[1]s/Caddyfile

%[2]s
`, dir, site)), 0o644)
			env := []string{"HOME=" + dir, "XDG_DATA_HOME=" + dir, "XDG_CONFIG_HOME=" + dir}
			webserver.Validate(t, caddy, env, "validate", "--config", conf, "--adapter", "caddyfile")
			webserver.Start(t, port, caddy, env, "run", "--config", conf, "--adapter", "caddyfile")
			forwardExercise(t, port, enforce, logFile)
			if enforce == "block" {
				forwardAttacks(t, port, "caddy", logFile)
				forwardReplay(t, port, "caddy", logFile)
			}
		})
	}
}

// TestGateForwardAuthDocs: docs/policy.md shows the configurations the
// tests run.
func TestGateForwardAuthDocs(t *testing.T) {
	doc, err := os.ReadFile("../../docs/policy.md")
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"nginx": forwardNginx, "Caddy": forwardCaddy, "gate": forwardGateCmd} {
		if !strings.Contains(string(doc), text) {
			t.Errorf("docs/policy.md does not show the %s configuration the tests run:\n%s", name, text)
		}
	}
}
