package gate

// Web Bot Auth signatures as proof of identity. The registry's only signing
// crawler is Google-Agent, whose directory is Google's; these tests list a
// loopback directory for it with Options.SignatureAgents (as a site owner
// would list a directory the registry does not know yet) and let the
// gate's Fetcher reach loopback, or give Google's origin a local copy with
// Options.Directories. Reverse DNS runs against a loopback DNS server that
// confirms 127.0.0.2 as Google and knows nothing of 127.0.0.1 or
// 203.0.113.9, so an unsigned Google-Agent from those is spoofed.

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/crawlers/botauth"
	"github.com/rep-toolkit/rep/crawlers/identity"
	"github.com/rep-toolkit/rep/internal/testkit/dnstest"
)

const googleAgentUA = "Mozilla/5.0 (compatible; Google-Agent; +https://developers.google.com/crawling/docs/crawlers-fetchers/google-agent)"

// sigClock is the gate's clock in these tests.
var sigClock = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

func readKey(t *testing.T, name string) ed25519.PrivateKey {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	k, err := botauth.ParseKey(b)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// keyDirectory serves a key directory on loopback and counts its fetches.
type keyDirectory struct {
	srv     *httptest.Server
	fetches atomic.Int32
}

func newKeyDirectory(t *testing.T, tls bool, keys ...ed25519.PrivateKey) *keyDirectory {
	t.Helper()
	var pubs []ed25519.PublicKey
	for _, k := range keys {
		pubs = append(pubs, k.Public().(ed25519.PublicKey))
	}
	body, err := json.Marshal(botauth.NewJWKS(pubs...))
	if err != nil {
		t.Fatal(err)
	}
	d := &keyDirectory{}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.fetches.Add(1)
		if r.URL.Path != botauth.WellKnownPath {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", botauth.MediaType)
		w.Write(body)
	})
	if tls {
		d.srv = httptest.NewTLSServer(h)
	} else {
		d.srv = httptest.NewServer(h)
	}
	t.Cleanup(d.srv.Close)
	return d
}

// googleDNS answers reverse DNS as Google would for 127.0.0.2 only.
func googleDNS(t *testing.T) *dnstest.Server {
	t.Helper()
	ip := netip.MustParseAddr("127.0.0.2")
	dns, err := dnstest.Start(dnstest.Zone{
		PTR:   map[netip.Addr][]string{ip: {"agent-127-0-0-2.google.com"}},
		Addrs: map[string][]netip.Addr{"agent-127-0-0-2.google.com": {ip}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dns.Close() })
	return dns
}

// signing says how a test request is signed.
type signing struct {
	key   ed25519.PrivateKey
	agent string // the Signature-Agent origin; "" none
	// url is the request as the client sent it, for the signature's
	// components; "" means the request the test sends.
	url        string
	components []string
	created    time.Duration // created, relative to sigClock
	validity   time.Duration // default one hour
}

// sign returns the signature headers for a GET of target.
func (s *signing) sign(t *testing.T, target string) http.Header {
	t.Helper()
	if s.url != "" {
		target = s.url
	}
	req, err := http.NewRequest(http.MethodGet, target, nil)
	if err != nil {
		t.Fatal(err)
	}
	sg := botauth.Signer{Key: s.key, Agent: s.agent, Components: s.components, Validity: s.validity,
		Now: func() time.Time { return sigClock.Add(s.created) }}
	if err := sg.Sign(req); err != nil {
		t.Fatal(err)
	}
	return req.Header
}

// decision is what a test expects of one decision log record; "" means
// the key must be absent.
type decision struct {
	status                          int
	action, identity, verifiedBy    string
	signature, signatureReason, lvl string
}

func (want decision) check(t *testing.T, status int, rec map[string]any) {
	t.Helper()
	str := func(k string) string { s, _ := rec[k].(string); return s }
	if status != want.status {
		t.Errorf("status %d, want %d", status, want.status)
	}
	if str("action") != want.action || str("identity") != want.identity || str("verified_by") != want.verifiedBy ||
		str("signature") != want.signature || str("level") != want.lvl {
		t.Errorf("logged action %q identity %q verified_by %q signature %q level %q, want %q %q %q %q %q\n%v",
			str("action"), str("identity"), str("verified_by"), str("signature"), str("level"),
			want.action, want.identity, want.verifiedBy, want.signature, want.lvl, rec)
	}
	if got := str("signature_reason"); want.signatureReason == "" && got != "" || !strings.Contains(got, want.signatureReason) {
		t.Errorf("signature_reason %q, want %q", got, want.signatureReason)
	}
	if want.signature != "" && str("keyid") == "" {
		t.Errorf("a signed request's record lacks its keyid: %v", rec)
	}
}

func TestSignatureAsProof(t *testing.T) {
	signer, other := readKey(t, "signer.pem"), readKey(t, "other.pem")
	dir := newKeyDirectory(t, false, signer)     // listed for Google-Agent
	unlisted := newKeyDirectory(t, false, other) // listed for no one
	dns := googleDNS(t)
	logPolicy := strings.Replace(testPolicy, `"block"`, `"log"`, 1)

	for _, c := range []struct {
		name      string
		policy    string
		ua        string
		sig       *signing
		host      string // the Host header sent; "" the server's
		hdr       []string
		untrusted bool // no proxy is trusted
		hosts     []string
		want      decision
		dnsUsed   bool
	}{
		{name: "signed with a listed directory's key, from outside Google",
			sig:  &signing{key: signer, agent: dir.srv.URL},
			want: decision{200, "allow", "verified", "signature", "verified", "", "INFO"}},
		{name: "unsigned, from outside Google", dnsUsed: true,
			want: decision{403, "refuse", "spoofed", "", "", "", "WARN"}},
		{name: "unsigned, from Google", hdr: []string{"X-Forwarded-For", "127.0.0.2"}, dnsUsed: true,
			want: decision{200, "allow", "verified", "fcrdns", "", "", "INFO"}},
		{name: "signed with the key of a directory not listed", dnsUsed: true,
			sig:  &signing{key: other, agent: unlisted.srv.URL},
			want: decision{403, "refuse", "spoofed", "", "unverified", "is not a Signature-Agent listed for Google-Agent", "WARN"}},
		{name: "signed with another key, naming the listed directory", dnsUsed: true,
			sig:  &signing{key: other, agent: dir.srv.URL},
			want: decision{403, "refuse", "spoofed", "", "unverified", "unknown key", "WARN"}},
		{name: "signed without a Signature-Agent", dnsUsed: true,
			sig:  &signing{key: signer},
			want: decision{403, "refuse", "spoofed", "", "unverified", "covers no Signature-Agent", "WARN"}},
		{name: "expired, under block", dnsUsed: true,
			sig:  &signing{key: signer, agent: dir.srv.URL, created: -2 * time.Hour},
			want: decision{403, "refuse", "spoofed", "", "invalid", "expired", "WARN"}},
		{name: "expired, under log", policy: logPolicy, dnsUsed: true,
			sig:  &signing{key: signer, agent: dir.srv.URL, created: -2 * time.Hour},
			want: decision{200, "log-only", "spoofed", "", "invalid", "expired", "WARN"}},
		{name: "valid for more than 24 hours", dnsUsed: true,
			sig:  &signing{key: signer, agent: dir.srv.URL, validity: 48 * time.Hour},
			want: decision{403, "refuse", "spoofed", "", "invalid", "more than the 24h0m0s allowed", "WARN"}},
		{name: "signed for another site, under block", dnsUsed: true,
			sig:  &signing{key: signer, agent: dir.srv.URL, url: "http://other.example/"},
			want: decision{403, "refuse", "spoofed", "", "invalid", "signature does not verify", "WARN"}},
		{name: "signed for another site, under log", policy: logPolicy, dnsUsed: true,
			sig:  &signing{key: signer, agent: dir.srv.URL, url: "http://other.example/"},
			want: decision{200, "log-only", "spoofed", "", "invalid", "signature does not verify", "WARN"}},
		{name: "invalid signature from Google's address", hdr: []string{"X-Forwarded-For", "127.0.0.2"}, dnsUsed: true,
			sig:  &signing{key: signer, agent: dir.srv.URL, created: -2 * time.Hour},
			want: decision{200, "allow", "verified", "fcrdns", "invalid", "expired", "WARN"}},
		{name: "a crawler no directory is listed for", ua: googlebotUA, dnsUsed: true,
			sig:  &signing{key: signer, agent: dir.srv.URL},
			want: decision{403, "refuse", "spoofed", "", "unverified", "is not a Signature-Agent listed for Googlebot", "WARN"}},
		{name: "a browser's signature is not looked at",
			ua: browserUA, sig: &signing{key: signer, agent: dir.srv.URL},
			want: decision{200, "allow", "", "", "", "", "INFO"}},
		{name: "authority from X-Forwarded-Host of a trusted proxy",
			sig:  &signing{key: signer, agent: dir.srv.URL, url: "http://site.example/public"},
			hdr:  []string{"X-Forwarded-Host", "site.example"},
			want: decision{200, "allow", "verified", "signature", "verified", "", "INFO"}},
		{name: "X-Forwarded-Host from an untrusted peer is not believed", untrusted: true,
			sig:  &signing{key: signer, agent: dir.srv.URL, url: "http://site.example/public"},
			hdr:  []string{"X-Forwarded-Host", "site.example"},
			want: decision{403, "refuse", "spoofed", "", "invalid", "signature does not verify", "WARN"}},
		{name: "the Host the client sent",
			sig: &signing{key: signer, agent: dir.srv.URL, url: "http://site.example/public"}, host: "site.example",
			want: decision{200, "allow", "verified", "signature", "verified", "", "INFO"}},
		{name: "@target-uri over https behind a trusted proxy",
			sig:  &signing{key: signer, agent: dir.srv.URL, url: "https://site.example/public?q=1", components: []string{"@target-uri"}},
			hdr:  []string{"X-Forwarded-Host", "site.example", "X-Forwarded-Proto", "https"},
			want: decision{200, "allow", "verified", "signature", "verified", "", "INFO"}},
		{name: "signed for another site, sent with its Host", host: "other.example",
			sig:  &signing{key: signer, agent: dir.srv.URL, url: "http://other.example/public?q=1"},
			want: decision{421, "refuse", "", "", "", "", "WARN"}},
		{name: "signed for another site, X-Forwarded-Host naming it", hdr: []string{"X-Forwarded-Host", "other.example"},
			sig:  &signing{key: signer, agent: dir.srv.URL, url: "http://other.example/public?q=1"},
			want: decision{421, "refuse", "", "", "", "", "WARN"}},
		{name: "the gate lists no host: no signature proves", hosts: []string{}, dnsUsed: true,
			sig:  &signing{key: signer, agent: dir.srv.URL},
			want: decision{403, "refuse", "spoofed", "", "unverified", "lists no host of its own", "WARN"}},
		{name: "@target-uri over https without X-Forwarded-Proto", dnsUsed: true,
			sig:  &signing{key: signer, agent: dir.srv.URL, url: "https://site.example/public?q=1", components: []string{"@target-uri"}},
			hdr:  []string{"X-Forwarded-Host", "site.example"},
			want: decision{403, "refuse", "spoofed", "", "invalid", "signature does not verify", "WARN"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := Options{
				Verifier:        &identity.Verifier{Resolver: identity.NewResolver(dns.Addr), Timeout: 10 * time.Second},
				Trust:           []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")},
				Now:             func() time.Time { return sigClock },
				Signatures:      &botauth.Verifier{Keys: &botauth.Fetcher{AllowPrivate: true, AllowHTTP: true}, MaxValidity: 24 * time.Hour},
				SignatureAgents: map[string][]string{"Google-Agent": {dir.srv.URL}},
				Hosts:           c.hosts,
			}
			if c.untrusted {
				o.Trust = nil
			}
			src := c.policy
			if src == "" {
				src = testPolicy
			}
			f := newFixture(t, src, o)
			ua := c.ua
			if ua == "" {
				ua = googleAgentUA
			}
			target := f.srv.URL + "/public?q=1"
			req, _ := http.NewRequest(http.MethodGet, target, nil)
			if c.sig != nil {
				req.Header = c.sig.sign(t, target)
			}
			req.Header.Set("User-Agent", ua)
			// The client, through the trusted proxy on 127.0.0.1 (whose
			// own name is in /etc/hosts, so reverse DNS asks no server).
			req.Header.Set("X-Forwarded-For", "203.0.113.9")
			for i := 0; i+1 < len(c.hdr); i += 2 {
				req.Header.Set(c.hdr[i], c.hdr[i+1])
			}
			if c.host != "" {
				req.Host = c.host
			}
			before := len(dns.Queries())
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			recs := f.records(t)
			if len(recs) != 1 {
				t.Fatalf("%d records: %v", len(recs), recs)
			}
			c.want.check(t, resp.StatusCode, recs[0])
			if used := len(dns.Queries()) > before; used != c.dnsUsed {
				t.Errorf("DNS asked: %v, want %v", used, c.dnsUsed)
			}
			if n := unlisted.fetches.Load(); n != 0 {
				t.Errorf("the unlisted directory was fetched %d times", n)
			}
		})
	}
}

// TestSignatureNotCached: a signature proves one request; the next
// request from the same address is judged on its own.
func TestSignatureNotCached(t *testing.T) {
	signer := readKey(t, "signer.pem")
	dir := newKeyDirectory(t, false, signer)
	dns := googleDNS(t)
	f := newFixture(t, testPolicy, Options{
		Verifier:        &identity.Verifier{Resolver: identity.NewResolver(dns.Addr), Timeout: 10 * time.Second},
		Now:             func() time.Time { return sigClock },
		Signatures:      &botauth.Verifier{Keys: &botauth.Fetcher{AllowPrivate: true, AllowHTTP: true}},
		SignatureAgents: map[string][]string{"Google-Agent": {dir.srv.URL}},
	})
	send := func(signed bool) int {
		target := f.srv.URL + "/public"
		req, _ := http.NewRequest(http.MethodGet, target, nil)
		if signed {
			req.Header = (&signing{key: signer, agent: dir.srv.URL}).sign(t, target)
		}
		req.Header.Set("User-Agent", googleAgentUA)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for i, c := range []struct {
		signed bool
		want   int
	}{{true, 200}, {false, 403}, {true, 200}, {true, 200}, {false, 403}} {
		if got := send(c.signed); got != c.want {
			t.Errorf("request %d (signed %v): %d, want %d", i+1, c.signed, got, c.want)
		}
	}
	// The directory was fetched once; its keys are cached by the Fetcher.
	if n := dir.fetches.Load(); n != 1 {
		t.Errorf("directory fetched %d times, want 1", n)
	}
}

// TestSignatureDefaults: with Options.Signatures nil the gate fetches
// directories behind the guard (a loopback directory is refused unless
// AllowPrivate), refuses signatures valid for more than 24 hours, and takes
// a local copy of Google's directory (Options.Directories) as that
// directory.
func TestSignatureDefaults(t *testing.T) {
	signer := readKey(t, "signer.pem")
	loop := newKeyDirectory(t, true, signer)
	plain := newKeyDirectory(t, false, signer)
	dns := googleDNS(t)
	for _, c := range []struct {
		name string
		o    Options
		sig  signing
		want decision
	}{
		{"a local copy of Google's directory",
			Options{Directories: map[string]botauth.JWKS{"https://agent.bot.goog": botauth.NewJWKS(signer.Public().(ed25519.PublicKey))}},
			signing{key: signer, agent: "https://agent.bot.goog"},
			decision{200, "allow", "verified", "signature", "verified", "", "INFO"}},
		{"a local copy, valid for 48 hours",
			Options{Directories: map[string]botauth.JWKS{"https://agent.bot.goog": botauth.NewJWKS(signer.Public().(ed25519.PublicKey))}},
			signing{key: signer, agent: "https://agent.bot.goog", validity: 48 * time.Hour},
			decision{403, "refuse", "spoofed", "", "invalid", "more than the 24h0m0s allowed", "WARN"}},
		{"a local copy of an origin not listed",
			Options{Directories: map[string]botauth.JWKS{loop.srv.URL: botauth.NewJWKS(signer.Public().(ed25519.PublicKey))}},
			signing{key: signer, agent: loop.srv.URL},
			decision{403, "refuse", "spoofed", "", "unverified", "is not a Signature-Agent listed for Google-Agent", "WARN"}},
		{"a listed directory on loopback, refused by the guard",
			Options{SignatureAgents: map[string][]string{"Google-Agent": {loop.srv.URL}}},
			signing{key: signer, agent: loop.srv.URL},
			decision{403, "refuse", "spoofed", "", "unverified", "key directory unavailable", "WARN"}},
		{"a listed directory on loopback, allowed",
			Options{SignatureAgents: map[string][]string{"google-agent": {plain.srv.URL}}, AllowPrivate: true},
			signing{key: signer, agent: plain.srv.URL},
			decision{200, "allow", "verified", "signature", "verified", "", "INFO"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.o.Verifier = &identity.Verifier{Resolver: identity.NewResolver(dns.Addr), Timeout: 10 * time.Second}
			c.o.Now = func() time.Time { return sigClock }
			f := newFixture(t, testPolicy, c.o)
			target := f.srv.URL + "/public"
			req, _ := http.NewRequest(http.MethodGet, target, nil)
			req.Header = c.sig.sign(t, target)
			req.Header.Set("User-Agent", googleAgentUA)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			recs := f.records(t)
			if len(recs) != 1 {
				t.Fatalf("%d records: %v", len(recs), recs)
			}
			c.want.check(t, resp.StatusCode, recs[0])
		})
	}
	if n := loop.fetches.Load(); n != 0 {
		t.Errorf("the loopback directory was fetched %d times", n)
	}
}

// TestForwardAuthSignature: behind nginx auth_request or Caddy
// forward_auth the signature headers reach the endpoint with the original
// request's, and its authority, method and path are the forwarded ones.
func TestForwardAuthSignature(t *testing.T) {
	signer := readKey(t, "signer.pem")
	dir := newKeyDirectory(t, false, signer)
	dns := googleDNS(t)
	const orig = "https://site.example/docs/page?q=1"
	sign := func(url string) http.Header {
		return (&signing{key: signer, agent: dir.srv.URL, url: url, components: []string{"@method", "@path", "@query"}}).sign(t, "")
	}
	nginx := func(uri string) []string { // as docs/policy.md configures it
		return []string{"X-Original-URI", uri, "X-Original-Method", "GET", "X-Real-IP", "203.0.113.9",
			"X-Forwarded-Host", "site.example", "X-Forwarded-Proto", "https"}
	}
	caddy := []string{"X-Forwarded-Uri", "/docs/page?q=1", "X-Forwarded-Method", "GET", "X-Forwarded-For", "203.0.113.9",
		"X-Forwarded-Host", "site.example", "X-Forwarded-Proto", "https"}
	for _, c := range []struct {
		name      string
		front     Front
		sig       http.Header // nil: unsigned
		host      string      // the Host of the question; "" the endpoint's
		hdr       []string
		untrusted bool
		want      decision
		uri       string // the logged uri; "" hdr[1]
	}{
		{"nginx, signed", Nginx, sign(orig), "", nginx("/docs/page?q=1"), false,
			decision{200, "allow", "verified", "signature", "verified", "", "INFO"}, ""},
		{"Caddy, signed, the Host passed on", Caddy, sign(orig), "site.example", caddy, false,
			decision{200, "allow", "verified", "signature", "verified", "", "INFO"}, ""},
		{"nginx, unsigned", Nginx, nil, "", nginx("/docs/page?q=1"), false,
			decision{403, "refuse", "spoofed", "", "", "", "WARN"}, ""},
		{"nginx without X-Forwarded-Host: the endpoint's own Host", Nginx, sign(orig), "",
			nginx("/docs/page?q=1")[:6], false,
			decision{403, "refuse", "spoofed", "", "invalid", "signature does not verify", "WARN"}, ""},
		{"nginx, another URI forwarded than was signed", Nginx, sign(orig), "", nginx("/docs/other?q=1"), false,
			decision{403, "refuse", "spoofed", "", "invalid", "signature does not verify", "WARN"}, ""},
		{"a proxy not trusted: its question is refused", Nginx, sign(orig), "", nginx("/docs/page?q=1"), true,
			decision{403, "refuse", "", "", "", "", "WARN"}, "/_rep_gate"},
		{"Caddy headers to a gate told the front is nginx", Nginx, sign(orig), "site.example", caddy, false,
			decision{403, "refuse", "", "", "", "", "WARN"}, "/_rep_gate"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := Options{
				Verifier:        &identity.Verifier{Resolver: identity.NewResolver(dns.Addr), Timeout: 10 * time.Second},
				Trust:           []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")},
				Now:             func() time.Time { return sigClock },
				Signatures:      &botauth.Verifier{Keys: &botauth.Fetcher{AllowPrivate: true, AllowHTTP: true}},
				SignatureAgents: map[string][]string{"Google-Agent": {dir.srv.URL}},
			}
			if c.untrusted {
				o.Trust = nil
			}
			f := newFixture(t, testPolicy, o)
			fa := httptest.NewServer(f.g.ForwardAuth(c.front))
			t.Cleanup(fa.Close)
			req, _ := http.NewRequest(http.MethodGet, fa.URL+"/_rep_gate", nil)
			for k, v := range c.sig {
				req.Header[k] = v
			}
			req.Header.Set("User-Agent", googleAgentUA)
			for i := 0; i+1 < len(c.hdr); i += 2 {
				req.Header.Set(c.hdr[i], c.hdr[i+1])
			}
			if c.host != "" {
				req.Host = c.host
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			recs := f.records(t)
			if len(recs) != 1 {
				t.Fatalf("%d records: %v", len(recs), recs)
			}
			c.want.check(t, resp.StatusCode, recs[0])
			uri := c.uri
			if uri == "" {
				uri = c.hdr[1]
			}
			if recs[0]["uri"] != uri {
				t.Errorf("logged uri %v, want %s", recs[0]["uri"], uri)
			}
		})
	}
}

// TestDecideRequest: the library's own question, with the request as its
// client sent it, gives the Decision its evidence; Decide, which has no
// request, judges it unsigned.
func TestDecideRequest(t *testing.T) {
	signer := readKey(t, "signer.pem")
	dns := googleDNS(t)
	f := newFixture(t, testPolicy, Options{
		Verifier:    &identity.Verifier{Resolver: identity.NewResolver(dns.Addr), Timeout: 10 * time.Second},
		Now:         func() time.Time { return sigClock },
		Directories: map[string]botauth.JWKS{"https://agent.bot.goog": botauth.NewJWKS(signer.Public().(ed25519.PublicKey))},
	})
	r := httptest.NewRequest(http.MethodGet, "https://site.example/public", nil)
	r.Header = (&signing{key: signer, agent: "https://agent.bot.goog", url: "https://site.example/public"}).sign(t, "")
	r.Header.Set("User-Agent", googleAgentUA)
	ip := netip.MustParseAddr("203.0.113.9")
	d := f.g.DecideRequest(context.Background(), ip, r)
	if d.Action != Allow || d.Identity != identity.Verified || d.VerifiedBy != identity.BySignature ||
		d.Signature == nil || d.Signature.Verdict != botauth.Verified || d.Signature.Key.Directory != "https://agent.bot.goog"+botauth.WellKnownPath {
		t.Errorf("DecideRequest: %+v", d)
	}
	if d := f.g.Decide(context.Background(), ip, googleAgentUA, "/public"); d.Action != Refuse || d.Identity != identity.Spoofed || d.Signature != nil || d.VerifiedBy != "" {
		t.Errorf("Decide: %+v", d)
	}
}
