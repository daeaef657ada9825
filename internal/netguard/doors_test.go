package netguard_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rep-toolkit/rep/crawl"
	"github.com/rep-toolkit/rep/crawlers/botauth"
	"github.com/rep-toolkit/rep/internal/netguard"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/server"
)

// doorsChild names the target port in the environment of the test binary
// run again by TestDoors.
const doorsChild = "REP_NETGUARD_DOORS_PORT"

// refusedTargets are the hosts every door must refuse, with the address
// the refusal must name: the target's own, never a proxy's.
var refusedTargets = []struct{ host, addr string }{
	{"127.0.0.1", "127.0.0.1"},
	{"10.0.0.1", "10.0.0.1"},
	{"[::1]", "::1"},
	{"169.254.169.254", "169.254.169.254"},
	{"0.0.0.0", "0.0.0.0"},
	{"[::ffff:127.0.0.1]", "127.0.0.1"},
	{"[::ffff:10.0.0.1]", "10.0.0.1"},
}

// TestDoors: every door that fetches for someone else (robotsfetch with
// Guard, the key-directory fetcher, crawl, the server's /api/fetch and
// /api/crawl) refuses the same addresses, with HTTPS_PROXY and HTTP_PROXY
// unset and set to a loopback listener; neither the listener nor the
// loopback target ever gets a request. The doors run in a child process:
// net/http reads the proxy variables once per process.
func TestDoors(t *testing.T) {
	if port := os.Getenv(doorsChild); port != "" {
		doors(t, port)
		return
	}
	var targetHits, proxyHits atomic.Int32
	target := listen(t, "127.0.0.1:0", &targetHits)
	proxy := listen(t, "127.0.0.2:0", &proxyHits)
	port := strconv.Itoa(target.Listener.Addr().(*net.TCPAddr).Port)
	for _, tt := range []struct {
		name  string
		proxy string
	}{
		{"proxy unset", ""},
		{"proxy set", proxy.URL},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestDoors$", "-test.count=1")
			env := []string{doorsChild + "=" + port}
			for _, kv := range os.Environ() {
				k, _, _ := strings.Cut(kv, "=")
				switch strings.ToUpper(k) {
				case "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY", "REQUEST_METHOD":
					continue
				}
				env = append(env, kv)
			}
			if tt.proxy != "" {
				env = append(env, "HTTP_PROXY="+tt.proxy, "HTTPS_PROXY="+tt.proxy, "http_proxy="+tt.proxy, "https_proxy="+tt.proxy)
			}
			cmd.Env = env
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("the doors with %s: %v\n%s", tt.name, err, out)
			}
			if !strings.Contains(string(out), "PASS") {
				t.Fatalf("the child ran no test:\n%s", out)
			}
			if n, m := targetHits.Load(), proxyHits.Load(); n != 0 || m != 0 {
				t.Fatalf("%s: the target got %d requests, the proxy %d; want none", tt.name, n, m)
			}
		})
	}
}

func listen(t *testing.T, addr string, hits *atomic.Int32) *httptest.Server {
	t.Helper()
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	s := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, "User-agent: *\nAllow: /\n")
	}))
	s.Listener.Close()
	s.Listener = l
	s.Start()
	t.Cleanup(s.Close)
	return s
}

// doors runs every door against every refused target on port.
func doors(t *testing.T, port string) {
	ctx := context.Background()
	srv, err := server.New(server.Config{RatePerSecond: -1, OriginRate: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range refusedTargets {
		base := "http://" + tt.host + ":" + port
		want := netip.MustParseAddr(tt.addr)
		// blocked checks that err is a refusal naming the target.
		blocked := func(door string, err error) {
			t.Helper()
			var be *netguard.BlockedError
			if !errors.As(err, &be) || be.Addr != want {
				t.Errorf("%s %s: %v, want the target %s refused", door, base, err, want)
			}
		}

		f, err := robotsfetch.New(robotsfetch.Options{UserAgent: "doors-test", Guard: true})
		if err != nil {
			t.Fatal(err)
		}
		r, err := f.Get(ctx, base+"/x")
		if err != nil {
			t.Fatal(err)
		}
		blocked("robotsfetch", r.Outcome.Err())
		if !r.Outcome.Refused || r.Outcome.Verdict != robotsfetch.DisallowAll {
			t.Errorf("robotsfetch %s: %s, want refused and disallow-all", base, r.Outcome.String())
		}

		_, err = (&botauth.Fetcher{AllowHTTP: true}).Fetch(ctx, base+botauth.WellKnownPath)
		blocked("botauth", err)

		// crawl: the site's robots.txt is refused, so the site could not
		// be read at all (a SiteError naming the target), nothing fetched.
		rep, err := crawl.Run(ctx, crawl.Config{Start: base + "/", MaxPages: 5})
		var se *crawl.SiteError
		blocked("crawl", err)
		if !errors.As(err, &se) || se.Cause != crawl.CauseRefusedAddress || rep == nil || rep.Fetched != 0 {
			t.Errorf("crawl %s: %v (report %v); want a refused-address SiteError and nothing fetched", base, err, rep)
		}

		for _, path := range []string{"/api/fetch", "/api/crawl"} {
			w := httptest.NewRecorder()
			req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(`{"url":"`+base+`/x"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Host = "127.0.0.1"
			srv.ServeHTTP(w, req)
			if w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), " "+want.String()+" is a ") {
				t.Errorf("server %s %s: %d %s, want 403 naming %s", path, base, w.Code, w.Body, want)
			}
		}
	}
}
