package policy

// The generated configurations, run by the real servers: each must pass
// its server's own validator, and requests through the running server must
// get the headers and the refusals the policy asks for. make deps installs
// the servers (Debian's nginx, apache2, caddy, haproxy); a missing one
// fails these tests, it never skips them.

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/internal/testkit/webserver"
)

const serverPolicy = `enforce = "block"

[[group]]
categories = ["ai-training"]
disallow = ["/"]

[[group]]
agents = ["*"]
disallow = ["/private/"]

[[header]]
path = "/*.pdf$"
x_robots_tag = "noindex, nofollow"

[[header]]
path = "/drafts/"
x_robots_tag = "noindex"
content_usage = "train-ai=n"

[usage]
content_usage = "train-ai=y"
`

const (
	browserUA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
	gptbotUA  = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
)

// exercise sends requests through the server on port and checks each gets
// what the policy asks for: the headers HeadersFor gives, and a 403 only
// for a crawler shut out, never on /robots.txt or /.well-known/, never for
// a User-Agent that only contains a blocked token inside a longer word.
func exercise(t *testing.T, p *Policy, port int) {
	t.Helper()
	get := func(path, ua string) *http.Response {
		req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("http://127.0.0.1:%d%s", port, path), nil)
		req.Header.Set("User-Agent", ua)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	for _, path := range []string{"/docs/a.pdf", "/docs/a.pdf.html", "/drafts/b.html", "/drafts/c.pdf", "/page.html"} {
		r := get(path, browserUA)
		if r.StatusCode == http.StatusForbidden {
			t.Errorf("browser %s: 403", path)
		}
		want := map[string][]string{}
		for _, f := range p.HeadersFor(path) {
			want[f.Name] = append(want[f.Name], f.Value)
		}
		for _, name := range []string{XRobotsTag, ContentUsage} {
			if got, want := strings.Join(r.Header.Values(name), ", "), strings.Join(want[name], ", "); got != want {
				t.Errorf("%s: %s %q, want %q", path, name, got, want)
			}
		}
	}
	for _, tc := range []struct {
		path, ua string
		refused  bool
	}{
		{"/", gptbotUA, true},
		{"/page.html", "mozilla/5.0 (compatible; gptbot/1.0)", true},
		{"/page.html", "CCBot/2.0 (https://commoncrawl.org/faq/)", true},
		{"/robots.txt", gptbotUA, false},
		{"/.well-known/security.txt", gptbotUA, false},
		{"/page.html", "NotGPTBotic/1.0", false},                                                           // a token inside a word
		{"/page.html", "Mozilla/5.0 (compatible; Applebot/0.1; +http://www.apple.com/go/applebot)", false}, // Applebot-Extended is blocked, Applebot not
		{"/page.html", browserUA, false},
	} {
		if got := get(tc.path, tc.ua).StatusCode == http.StatusForbidden; got != tc.refused {
			t.Errorf("%s %q: refused %v, want %v", tc.path, tc.ua, got, tc.refused)
		}
	}
}

func serverFixture(t *testing.T) (*Policy, string) {
	t.Helper()
	p := mustParse(t, serverPolicy)
	dir := t.TempDir()
	// Apache's children read it as another user.
	os.Chmod(filepath.Dir(dir), 0o755)
	os.Chmod(dir, 0o755)
	for _, o := range p.Outputs() {
		if err := os.WriteFile(filepath.Join(dir, o.Name), o.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return p, dir
}

func TestNginx(t *testing.T) {
	nginx := webserver.Need(t, "nginx")
	p, dir := serverFixture(t)
	port := webserver.FreePort(t)
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
    include %[1]s/nginx-http.conf;
    server {
        listen 127.0.0.1:%[2]d;
        include %[1]s/nginx-server.conf;
        location / {
            return 200 "ok\n";
        }
    }
}
`, dir, port)), 0o644)
	webserver.Validate(t, nginx, nil, "-t", "-p", dir, "-c", conf)
	webserver.Start(t, port, nginx, nil, "-p", dir, "-c", conf)
	exercise(t, p, port)
}

func TestApache(t *testing.T) {
	apache := webserver.Need(t, "apache2")
	p, dir := serverFixture(t)
	vhostPort, htPort := webserver.FreePort(t), webserver.FreePort(t)
	for _, d := range []string{"vhost", "htroot", "run"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
	}
	os.WriteFile(filepath.Join(dir, "vhost", "index.html"), []byte("ok\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "htroot", "index.html"), []byte("ok\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "htroot", ".htaccess"), p.Config(Servers[3]), 0o644)
	mods := "/usr/lib/apache2/modules"
	conf := filepath.Join(dir, "test-apache.conf")
	os.WriteFile(conf, []byte(fmt.Sprintf(`ServerRoot %[1]s
ServerName localhost
LoadModule mpm_event_module %[4]s/mod_mpm_event.so
LoadModule authz_core_module %[4]s/mod_authz_core.so
LoadModule authz_host_module %[4]s/mod_authz_host.so
LoadModule headers_module %[4]s/mod_headers.so
LoadModule dir_module %[4]s/mod_dir.so
User nobody
Group nogroup
PidFile %[1]s/run/httpd.pid
DefaultRuntimeDir %[1]s/run
Mutex file:%[1]s/run default
ErrorLog %[1]s/error.log
LogLevel warn
Listen 127.0.0.1:%[2]d
Listen 127.0.0.1:%[3]d
<Directory />
    AllowOverride None
    Require all granted
</Directory>
<VirtualHost 127.0.0.1:%[2]d>
    DocumentRoot %[1]s/vhost
    Include %[1]s/apache.conf
</VirtualHost>
<VirtualHost 127.0.0.1:%[3]d>
    DocumentRoot %[1]s/htroot
    <Directory %[1]s/htroot>
        AllowOverride FileInfo AuthConfig
    </Directory>
</VirtualHost>
`, dir, vhostPort, htPort, mods)), 0o644)
	webserver.Validate(t, apache, nil, "-t", "-f", conf)
	t.Cleanup(func() {
		if t.Failed() {
			b, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			t.Logf("error.log:\n%s", b)
		}
	})
	webserver.Start(t, vhostPort, apache, nil, "-f", conf, "-DFOREGROUND")
	t.Run("vhost", func(t *testing.T) { exercise(t, p, vhostPort) })
	t.Run("htaccess", func(t *testing.T) { exercise(t, p, htPort) })
}

func TestCaddy(t *testing.T) {
	caddy := webserver.Need(t, "caddy")
	p, dir := serverFixture(t)
	port := webserver.FreePort(t)
	conf := filepath.Join(dir, "test.Caddyfile")
	os.WriteFile(conf, []byte(fmt.Sprintf(`{
	admin off
	storage file_system %[1]s/data
}

import %[1]s/Caddyfile

http://127.0.0.1:%[2]d {
	import rep_policy
	respond "ok" 200
}
`, dir, port)), 0o644)
	env := []string{"HOME=" + dir, "XDG_DATA_HOME=" + dir, "XDG_CONFIG_HOME=" + dir}
	webserver.Validate(t, caddy, env, "validate", "--config", conf, "--adapter", "caddyfile")
	webserver.Start(t, port, caddy, env, "run", "--config", conf, "--adapter", "caddyfile")
	exercise(t, p, port)
}

func TestHAProxy(t *testing.T) {
	haproxy := webserver.Need(t, "haproxy")
	p, dir := serverFixture(t)
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok\n")
	}))
	defer backend.Close()
	port := webserver.FreePort(t)
	snippet, _ := os.ReadFile(filepath.Join(dir, "haproxy.cfg"))
	conf := filepath.Join(dir, "test-haproxy.cfg")
	os.WriteFile(conf, []byte(fmt.Sprintf(`global
    log stderr format raw local0 err

defaults
    mode http
    timeout connect 5s
    timeout client 10s
    timeout server 10s

frontend site
    bind 127.0.0.1:%d
%s
    default_backend app

backend app
    server app %s
`, port, indent(string(snippet), "    "), strings.TrimPrefix(backend.URL, "http://"))), 0o644)
	webserver.Validate(t, haproxy, nil, "-c", "-f", conf)
	webserver.Start(t, port, haproxy, nil, "-db", "-f", conf)
	exercise(t, p, port)
}

func indent(s, by string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = by + l
		}
	}
	return strings.Join(lines, "\n")
}
