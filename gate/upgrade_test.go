package gate

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/http2"
	//lint:ignore SA1019 the one Go server that upgrades to h2c, as the origins this test stands for do; net/http does not
	"golang.org/x/net/http2/h2c"

	"github.com/rep-toolkit/rep/crawlers/identity"
)

// TestNoH2CUpgrade: behind the gate, an origin that speaks h2c (HTTP/2
// over cleartext, which Go's h2c handler, Envoy and Node offer) would
// turn an allowed request's connection into an HTTP/2 tunnel whose later
// requests, /private/x among them, the gate never sees. The handler the
// gate passes a request to gets no Upgrade but WebSocket's, so the
// request is answered over HTTP/1.1, whatever that handler forwards; a
// WebSocket upgrade, which carries no further requests, still passes.
// (httputil.ReverseProxy, which rep gate uses, also drops HTTP2-Settings,
// without which no h2c server upgrades.)
func TestNoH2CUpgrade(t *testing.T) {
	var next http.Header
	g := New(mustPolicy(t, testPolicy), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { next = r.Header.Clone() }), Options{Verifier: &identity.Verifier{}, Logger: discardLogger()})
	for up, want := range map[string]string{"h2c": "", "H2C": "", "h2c, websocket": "", "websocket": "websocket", "WebSocket": "WebSocket"} {
		r := httptest.NewRequest(http.MethodGet, "/public/x", nil)
		r.Header.Set("Connection", "Upgrade, HTTP2-Settings")
		r.Header.Set("Upgrade", up)
		r.Header.Set("HTTP2-Settings", "AAMAAABkAARAAAAAAAIAAAAA")
		g.ServeHTTP(httptest.NewRecorder(), r)
		if got := next.Get("Upgrade"); got != want || want == "" && next.Get("HTTP2-Settings") != "" {
			t.Errorf("Upgrade: %s: next got Upgrade %q, HTTP2-Settings %q; want Upgrade %q", up, got, next.Get("HTTP2-Settings"), want)
		}
	}

	// An origin that upgrades to h2c (Upgrade: h2c), which net/http's own
	// server does not.
	//lint:ignore SA1019 see the import
	h2s := &http2.Server{}
	//lint:ignore SA1019 see the import
	site := httptest.NewServer(h2c.NewHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
			c, brw, err := http.NewResponseController(w).Hijack()
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			brw.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
			brw.Flush()
			return
		}
		io.WriteString(w, "upstream "+r.URL.Path)
	}), h2s))
	t.Cleanup(site.Close)
	target, _ := url.Parse(site.URL)
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(target) }}
	srv := httptest.NewServer(New(mustPolicy(t, testPolicy), proxy, Options{Verifier: &identity.Verifier{}, Logger: discardLogger()}))
	t.Cleanup(srv.Close)
	send := func(upgrade string) (int, string) {
		c, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "GET /public/x HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: %s\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: %s\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n", browserUA, upgrade)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode == http.StatusSwitchingProtocols {
			return resp.StatusCode, ""
		}
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, up := range []string{"h2c", "H2C", "h2c, websocket", "websocket, h2c"} {
		if code, body := send(up); code != 200 || body != "upstream /public/x" {
			t.Errorf("Upgrade: %s: %d %q, want the page over HTTP/1.1", up, code, body)
		}
	}
	if code, _ := send("websocket"); code != http.StatusSwitchingProtocols {
		t.Errorf("Upgrade: websocket: %d, want 101", code)
	}
}
