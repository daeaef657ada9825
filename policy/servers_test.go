package policy

// The generated configurations, run by the real servers: each must pass
// its server's own validator, and requests through the running server must
// get the headers and the refusals the policy asks for. make deps installs
// the servers (Debian's nginx, apache2, caddy, haproxy); a missing one
// fails these tests, it never skips them.

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/crawlers"
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

// attackPolicy writes what a server would read as its own syntax, if
// written raw: %-sequences HAProxy and Apache expand in a header value,
// paths written with %-escapes (which nginx, Apache and Caddy match
// decoded), a %-escaped '*' meant literally; attackName, the policy
// file's name, holds a line of each server's syntax and ends in a
// backslash, which Apache reads as a line continuation.
const attackPolicy = `[[group]]
agents = ["GPTBot"]
disallow = ["/"]

[[group]]
agents = ["*"]
disallow = ["/private/"]

[[header]]
path = "/a%20b/*"
x_robots_tag = "noindex %[env(HOME)] %t %D %% 100%"

[[header]]
path = "/h%C3%A9/"
x_robots_tag = "nofollow"
content_usage = "train-ai=n"

[[header]]
path = "/lit%2Astar/*.pdf$"
x_robots_tag = "noarchive"

[usage]
content_usage = "train-ai=y"
`

const attackName = "/tmp/evil\nadd_header X-Injected pwned always;\nHeader always set X-Injected pwned\n\theader +X-Injected pwned\nhttp-response add-header X-Injected pwned\n\\"

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
	for _, path := range []string{"/docs/a.pdf", "/docs/a.pdf.html", "/drafts/b.html", "/drafts/c.pdf", "/page.html",
		"/a%20b/c.html", "/a%20b", "/h%C3%A9/x", "/h%c3%a9/", "/lit%2Astar/x.pdf", "/lit%2Astar/x.pdfz", "/litXstar/x.pdf"} {
		r := get(path, browserUA)
		if r.StatusCode == http.StatusForbidden {
			t.Errorf("browser %s: 403", path)
		}
		if v := r.Header.Values("X-Injected"); len(v) > 0 {
			t.Errorf("%s: X-Injected %q: the policy's name became configuration", path, v)
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
	for _, tc := range []struct{ path, ua string }{
		{"/", gptbotUA},
		{"/page.html", "mozilla/5.0 (compatible; gptbot/1.0)"},
		{"/page.html", "CCBot/2.0 (https://commoncrawl.org/faq/)"},
		{"/robots.txt", gptbotUA},
		{"/.well-known/security.txt", gptbotUA},
		{"/page.html", "NotGPTBotic/1.0"}, // a token inside a word
		{"/page.html", "Mozilla/5.0 (compatible; Applebot/0.1; +http://www.apple.com/go/applebot)"},
		{"/page.html", browserUA},
		{"/page.html", "GPTBot-Fake/1.0"},                        // '-' ends a token: GPTBot
		{"/page.html", "Mozilla/5.0 (compatible; GPTBot_x/1.0)"}, // and so does '_'
		{"/page.html", "Mozilla/5.0 (compatible; GPTBot2/1.0)"},  // a digit does not
		{"/page.html", "Mozilla/5.0 (compatible; Applebot-Extended/1)"},
		{"/page.html", "Mozilla/5.0 (compatible; Googlebot-Image/1.0; GPTBot/1.0)"}, // the longest token names the crawler
	} {
		// The gate's rule: the crawler crawlers.Match names, refused when
		// the policy shuts it out, except on the exempt paths.
		c, ok := crawlers.Match(tc.ua)
		refused := ok && c.Source == crawlers.SourceRegistry && slices.Contains(p.Blocked(), c.Tokens[0]) &&
			tc.path != "/robots.txt" && !strings.HasPrefix(tc.path, "/.well-known/")
		tc := struct {
			path, ua string
			refused  bool
		}{tc.path, tc.ua, refused}
		if got := get(tc.path, tc.ua).StatusCode == http.StatusForbidden; got != tc.refused {
			t.Errorf("%s %q: refused %v, want %v", tc.path, tc.ua, got, tc.refused)
		}
	}
	// A blocked crawler does not reach the site through the exemption with
	// a dot segment, written plainly or %-encoded: every such request is
	// refused (403, or 400 by HAProxy, which refuses dot segments; Apache
	// answers 404 to an encoded slash), never passed on as /a (200 for
	// every server here). The requests are written raw, as sent.
	for _, target := range []string{"/.well-known/../a", "/.well-known/%2e%2e/a", "/.well-known/%2E%2E/a", "/.well-known/..%2fa",
		"/.well-known/./../a", "/.well-known//../a", "/./.well-known/../a", "/.well-known/x/../../a", "/robots.txt/../a", "/.well-known/..;/a"} {
		if code := rawGet(t, port, target, gptbotUA); code == http.StatusOK {
			t.Errorf("GPTBot %s: 200, passed through the exemption", target)
		}
	}
	if code := rawGet(t, port, "/a", browserUA); code != http.StatusOK {
		t.Errorf("browser /a: %d, want 200 (the test's sites serve it)", code)
	}
}

// rawGet sends target as written, which net/http's client would not for
// every form, and returns the status.
func rawGet(t *testing.T, port int, target, ua string) int {
	t.Helper()
	c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: %s\r\nConnection: close\r\n\r\n", target, ua)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("%s: %v", target, err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// fixtures are the policies every server is run with.
var fixtures = []struct{ name, source, src string }{
	{"plain", "site.toml", serverPolicy},
	{"attack", attackName, attackPolicy},
}

// eachFixture runs f for each policy of fixtures, in a subtest.
func eachFixture(t *testing.T, f func(t *testing.T, p *Policy, dir string)) {
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			p, err := Parse(fx.source, []byte(fx.src))
			if err != nil {
				t.Fatal(err)
			}
			f(t, p, serverFixture(t, p))
		})
	}
}

func serverFixture(t *testing.T, p *Policy) string {
	t.Helper()
	dir := t.TempDir()
	// Apache's children read it as another user.
	os.Chmod(filepath.Dir(dir), 0o755)
	os.Chmod(dir, 0o755)
	for _, o := range p.Outputs() {
		if err := os.WriteFile(filepath.Join(dir, o.Name), o.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestNginx(t *testing.T) {
	nginx := webserver.Need(t, "nginx")
	eachFixture(t, func(t *testing.T, p *Policy, dir string) { nginxRun(t, nginx, p, dir) })
}

func nginxRun(t *testing.T, nginx string, p *Policy, dir string) {
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
	eachFixture(t, func(t *testing.T, p *Policy, dir string) { apacheRun(t, apache, p, dir) })
}

func apacheRun(t *testing.T, apache string, p *Policy, dir string) {
	vhostPort, htPort := webserver.FreePort(t), webserver.FreePort(t)
	for _, d := range []string{"vhost", "htroot", "run"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
	}
	for _, root := range []string{"vhost", "htroot"} {
		for _, name := range []string{"index.html", "a"} {
			os.WriteFile(filepath.Join(dir, root, name), []byte("ok\n"), 0o644)
		}
	}
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
	eachFixture(t, func(t *testing.T, p *Policy, dir string) { caddyRun(t, caddy, p, dir) })
}

func caddyRun(t *testing.T, caddy string, p *Policy, dir string) {
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
	eachFixture(t, func(t *testing.T, p *Policy, dir string) { haproxyRun(t, haproxy, p, dir) })
}

func haproxyRun(t *testing.T, haproxy string, p *Policy, dir string) {
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
