package audit

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/crawlers/botauth"
	"github.com/rep-toolkit/rep/crawlers/identity"
	"github.com/rep-toolkit/rep/internal/testkit/dnstest"
)

// The signing time of every test signature; they are valid for an hour.
var signedAt = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

const (
	googleAgent = "Mozilla/5.0 (compatible; Google-Agent)"
	googlebot   = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
)

// testKey reads the Ed25519 key testdata/agent.jwks publishes.
func testKey(t testing.TB) ed25519.PrivateKey {
	t.Helper()
	pem, err := os.ReadFile(filepath.Join("testdata", "agent.pem"))
	if err != nil {
		t.Fatal(err)
	}
	k, err := botauth.ParseKey(pem)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// savedKeys is testdata/agent.jwks saved as the directory of agent.
func savedKeys(t testing.TB, agent string) *SavedDirectories {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "agent.jwks"))
	if err != nil {
		t.Fatal(err)
	}
	set, err := botauth.ParseJWKS(data)
	if err != nil {
		t.Fatal(err)
	}
	var d SavedDirectories
	if err := d.Add(agent, set); err != nil {
		t.Fatal(err)
	}
	return &d
}

// countingKeys counts the lookups that reach a KeySource.
type countingKeys struct {
	src botauth.KeySource
	n   atomic.Int64
}

func (c *countingKeys) Key(ctx context.Context, a *botauth.SignatureAgent, keyid string) (botauth.Key, error) {
	c.n.Add(1)
	return c.src.Key(ctx, a, keyid)
}

// signedLine is one request as an nginx escape=json log line writes it.
type signedLine struct {
	at                 time.Time // the log line's time
	ip, host, path, ua string
	scheme             string
	// The signature: made by key (nil: none) for agent, over the host,
	// scheme and path (signHost, signScheme, signPath when they differ
	// from the logged ones).
	key                            ed25519.PrivateKey
	agent                          string
	signHost, signScheme, signPath string
	// covers is a header field the signature also covers, set on the
	// signed request and not logged.
	covers string
}

func (l signedLine) json(t testing.TB) []byte {
	t.Helper()
	m := map[string]any{"time": l.at.Format(time.RFC3339), "remote_addr": l.ip, "request_method": "GET",
		"request_uri": l.path, "status": 200, "body_bytes_sent": 100, "http_user_agent": l.ua}
	if l.host != "" {
		m["host"] = l.host
	}
	if l.scheme != "" {
		m["scheme"] = l.scheme
	}
	if l.key != nil {
		host := l.signHost
		if host == "" {
			host = l.host
		}
		scheme := l.signScheme
		if scheme == "" {
			scheme = l.scheme
		}
		if scheme == "" {
			scheme = "https"
		}
		path := l.signPath
		if path == "" {
			path = l.path
		}
		r, err := http.NewRequest(http.MethodGet, scheme+"://"+host+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		components := []string{"@method", "@target-uri"}
		if l.covers != "" {
			r.Header.Set(l.covers, "x")
			components = append(components, l.covers)
		}
		s := &botauth.Signer{Key: l.key, Agent: l.agent, Components: components, Now: func() time.Time { return signedAt }}
		if err := s.Sign(r); err != nil {
			t.Fatal(err)
		}
		m["http_signature"] = r.Header.Get("Signature")
		m["http_signature_input"] = r.Header.Get("Signature-Input")
		m["http_signature_agent"] = r.Header.Get("Signature-Agent")
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// TestSignatures audits one JSON log line per case, with the request's Web
// Bot Auth signature checked against a saved copy of Google-Agent's key
// directory: deferred to Finish and inline (enrich), which must agree.
func TestSignatures(t *testing.T) {
	key := testKey(t)
	other := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32))
	const goog = "https://agent.bot.goog"
	at := signedAt.Add(10 * time.Second)
	base := signedLine{at: at, ip: "192.0.2.10", host: "www.example.com", path: "/page?q=1", ua: googleAgent, key: key, agent: goog}
	with := func(f func(*signedLine)) signedLine {
		l := base
		f(&l)
		return l
	}
	for _, c := range []struct {
		name    string
		line    signedLine
		site    string
		dns     bool // a DNS server that confirms 192.0.2.20 as Google's
		crawler string
		// The identity verdict and its method; the signature's verdict
		// and reason.
		verdict identity.Verification
		method  identity.Method
		sig     botauth.Verification
		reason  botauth.Reason
		lookups int64 // key lookups that reached the saved keys
	}{
		{name: "verified by signature", line: base,
			verdict: identity.Verified, method: identity.BySignature, sig: botauth.Verified, lookups: 1},
		{name: "signature and reverse DNS", dns: true, line: with(func(l *signedLine) { l.ip = "192.0.2.20" }),
			verdict: identity.Verified, method: "signature+fcrdns", sig: botauth.Verified, lookups: 1},
		{name: "signature over a spoofing address", dns: true, line: base,
			verdict: identity.Verified, method: identity.BySignature, sig: botauth.Verified, lookups: 1},
		{name: "changed host", line: with(func(l *signedLine) { l.signHost = "www.example.org" }),
			verdict: identity.Unverifiable, method: identity.ByFCrDNS, sig: botauth.Invalid, reason: botauth.BadSignature, lookups: 1},
		{name: "expired at the log line's time", line: with(func(l *signedLine) { l.at = signedAt.Add(2 * time.Hour) }),
			verdict: identity.Unverifiable, method: identity.ByFCrDNS, sig: botauth.Invalid, reason: botauth.Expired},
		{name: "made after the log line's time", line: with(func(l *signedLine) { l.at = signedAt.Add(-time.Minute) }),
			verdict: identity.Unverifiable, method: identity.ByFCrDNS, sig: botauth.Invalid, reason: botauth.NotYetValid},
		{name: "no signature", line: with(func(l *signedLine) { l.key = nil }),
			verdict: identity.Unverifiable, method: identity.ByFCrDNS},
		{name: "no signature, spoofing address", dns: true, line: with(func(l *signedLine) { l.key = nil }),
			verdict: identity.Spoofed, method: identity.ByFCrDNS},
		{name: "no host in the log", line: with(func(l *signedLine) { l.host, l.signHost = "", "www.example.com" }),
			verdict: identity.Unverifiable, method: identity.ByFCrDNS, sig: botauth.Unverified, reason: botauth.UnknownAuthority},
		{name: "no host in the log, -site gives it", site: "www.example.com", line: with(func(l *signedLine) { l.host, l.signHost = "", "www.example.com" }),
			verdict: identity.Verified, method: identity.BySignature, sig: botauth.Verified, lookups: 1},
		{name: "non-default port", line: with(func(l *signedLine) { l.host = "www.example.com:8443" }),
			verdict: identity.Verified, method: identity.BySignature, sig: botauth.Verified, lookups: 1},
		{name: "port dropped from the logged host", line: with(func(l *signedLine) { l.host, l.signHost = "www.example.com", "www.example.com:8443" }),
			verdict: identity.Unverifiable, method: identity.ByFCrDNS, sig: botauth.Invalid, reason: botauth.BadSignature, lookups: 1},
		{name: "http logged", line: with(func(l *signedLine) { l.scheme = "http" }),
			verdict: identity.Verified, method: identity.BySignature, sig: botauth.Verified, lookups: 1},
		{name: "signed for https, logged as http", line: with(func(l *signedLine) { l.scheme, l.signScheme = "http", "https" }),
			verdict: identity.Unverifiable, method: identity.ByFCrDNS, sig: botauth.Invalid, reason: botauth.BadSignature, lookups: 1},
		{name: "another query", line: with(func(l *signedLine) { l.path, l.signPath = "/page?q=2", "/page?q=1" }),
			verdict: identity.Unverifiable, method: identity.ByFCrDNS, sig: botauth.Invalid, reason: botauth.BadSignature, lookups: 1},
		{name: "covers a field the log does not record", line: with(func(l *signedLine) { l.covers = "accept-language" }),
			verdict: identity.Unverifiable, method: identity.ByFCrDNS, sig: botauth.Unverified, reason: botauth.UnknownField},
		{name: "unknown key", line: with(func(l *signedLine) { l.key = other }),
			verdict: identity.Unverifiable, method: identity.ByFCrDNS, sig: botauth.Unverified, reason: botauth.UnknownKey, lookups: 1},
		{name: "agent the registry does not list", line: with(func(l *signedLine) { l.agent = "https://bot.example" }),
			verdict: identity.Unverifiable, method: identity.ByFCrDNS, sig: botauth.Unverified, reason: botauth.NoKeySource},
		{name: "crawler that lists no agent", line: with(func(l *signedLine) { l.ua, l.ip = googlebot, "66.249.66.1" }),
			crawler: "Googlebot", verdict: identity.Verified, method: identity.ByRanges, sig: botauth.Unverified, reason: botauth.NoKeySource},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := &identity.Verifier{}
			if c.dns {
				srv, err := dnstest.Start(dnstest.Zone{
					PTR:   map[netip.Addr][]string{netip.MustParseAddr("192.0.2.20"): {"agent-192-0-2-20.google.com."}},
					Addrs: map[string][]netip.Addr{"agent-192-0-2-20.google.com": {netip.MustParseAddr("192.0.2.20")}},
				})
				if err != nil {
					t.Fatal(err)
				}
				defer srv.Close()
				v.Resolver = dnstest.Resolver(srv)
			}
			crawler := c.crawler
			if crawler == "" {
				crawler = "Google-Agent"
			}
			data := c.line.json(t)
			for _, inline := range []bool{false, true} {
				keys := &countingKeys{src: savedKeys(t, goog)}
				opt := Options{Verifier: v, VerifyMode: "lists", Site: c.site, Signatures: &botauth.Verifier{Keys: keys}}
				a := New(opt, inline)
				r := reader(t, data)
				rec, err := r.Next()
				if err != nil {
					t.Fatal(err)
				}
				row := a.Add(context.Background(), rec)
				a.Finish(context.Background(), r.Stats(), "log")
				rep := a.Report()
				cr := rep.Crawler(crawler)
				if cr == nil {
					t.Fatalf("inline %v: no %s in the report", inline, crawler)
				}
				got := map[identity.Verification]int64{identity.Verified: cr.Verified, identity.Spoofed: cr.Spoofed, identity.Unverifiable: cr.Unverifiable}
				if got[c.verdict] != 1 || cr.Requests != 1 {
					t.Errorf("inline %v: %+v, want the request %s", inline, cr, c.verdict)
				}
				if c.verdict == identity.Verified && cr.VerifiedBy[string(c.method)] != 1 {
					t.Errorf("inline %v: verified by %v, want %s", inline, cr.VerifiedBy, c.method)
				}
				if c.verdict != identity.Verified && len(cr.VerifiedBy) > 0 {
					t.Errorf("inline %v: verified by %v, want nothing", inline, cr.VerifiedBy)
				}
				if n := keys.n.Load(); n != c.lookups {
					t.Errorf("inline %v: %d key lookups, want %d", inline, n, c.lookups)
				}
				if row.Signature != c.sig || row.SignatureReason != c.reason {
					t.Errorf("inline %v: row signature %q (%q), want %q (%q)", inline, row.Signature, row.SignatureReason, c.sig, c.reason)
				}
				if inline && (row.Identity != c.verdict || row.Method != c.method) {
					t.Errorf("row identity %s by %q, want %s by %q", row.Identity, row.Method, c.verdict, c.method)
				}
				g := cr.Signatures
				if c.sig == "" {
					if g != nil {
						t.Errorf("inline %v: signatures %+v, want none", inline, g)
					}
					continue
				}
				if g == nil {
					t.Fatalf("inline %v: no signatures counted", inline)
				}
				counts := map[botauth.Verification]int64{botauth.Verified: g.Verified, botauth.Invalid: g.Invalid, botauth.Unverified: g.Unverified}
				if counts[c.sig] != 1 || g.Verified+g.Invalid+g.Unverified != 1 {
					t.Errorf("inline %v: signatures %+v, want one %s", inline, g, c.sig)
				}
				if c.reason != "" && g.Reasons[string(c.reason)] != 1 {
					t.Errorf("inline %v: reasons %v, want %q", inline, g.Reasons, c.reason)
				}
				if (g.FirstInvalid != nil) != (c.sig == botauth.Invalid) {
					t.Errorf("inline %v: first invalid %+v", inline, g.FirstInvalid)
				} else if f := g.FirstInvalid; f != nil && (!f.Time.Equal(c.line.at) || f.IP != c.line.ip || f.Path != c.line.path || !strings.HasPrefix(f.Error, string(c.reason)+": signature sig1")) {
					t.Errorf("inline %v: first invalid %+v", inline, f)
				}
			}
		})
	}
}

// TestSignaturesWithoutKeys: with no key source (an offline audit given no
// keys) a signature is unverified and says so, and the network verdict
// stands.
func TestSignaturesWithoutKeys(t *testing.T) {
	l := signedLine{at: signedAt.Add(time.Second), ip: "192.0.2.10", host: "www.example.com", path: "/", ua: googleAgent, key: testKey(t), agent: "https://agent.bot.goog"}
	rep := auditBytes(t, l.json(t), nil, Options{Verifier: &identity.Verifier{}, Signatures: &botauth.Verifier{}})
	c := rep.Crawler("Google-Agent")
	if c == nil || c.Unverifiable != 1 || c.Signatures == nil || c.Signatures.Reasons[string(botauth.NoKeySource)] != 1 {
		t.Fatalf("%+v", c)
	}
}

// TestSavedDirectories: keys saved for an agent serve that agent's
// directory only, keys saved for "" every agent, and a key found is
// reported as from the agent's directory.
func TestSavedDirectories(t *testing.T) {
	key := testKey(t)
	kid := botauth.Thumbprint(key.Public().(ed25519.PublicKey))
	ctx := context.Background()
	goog := &botauth.SignatureAgent{URL: "https://Agent.Bot.Goog", Type: "directory"}
	other := &botauth.SignatureAgent{URL: "https://bot.example", Type: "directory"}
	bound := savedKeys(t, "https://agent.bot.goog")
	k, err := bound.Key(ctx, goog, kid)
	if err != nil || k.Directory != "https://agent.bot.goog"+botauth.WellKnownPath {
		t.Errorf("bound, own agent: %+v %v", k, err)
	}
	if _, err := bound.Key(ctx, other, kid); !errors.Is(err, botauth.UnknownKey) {
		t.Errorf("bound, other agent: %v, want unknown key", err)
	}
	if _, err := bound.Key(ctx, nil, kid); !errors.Is(err, botauth.NoKeySource) {
		t.Errorf("no agent: %v, want no key source", err)
	}
	any := savedKeys(t, "")
	if k, err := any.Key(ctx, other, kid); err != nil || k.Directory != "https://bot.example"+botauth.WellKnownPath {
		t.Errorf("for every agent: %+v %v", k, err)
	}
	var d SavedDirectories
	if err := d.Add("https://agent.bot.goog/keys.json", botauth.JWKS{}); !errors.Is(err, botauth.BadAgent) {
		t.Errorf("Add with a path: %v, want bad agent", err)
	}
}

// signedLog is a log mixing, from one address claiming Google-Agent,
// signed requests (verified, one for another host, one whose line lacks
// the host, one expired) with unsigned ones, to allowed and disallowed
// URLs, and Googlebot from its own address signing with an agent the
// registry does not list for it.
func signedLog(t testing.TB) []byte {
	key := testKey(t)
	var b bytes.Buffer
	at := signedAt
	add := func(l signedLine) {
		if l.at.IsZero() {
			at = at.Add(10 * time.Second)
			l.at = at
		}
		if l.ip == "" {
			l.ip, l.ua = "192.0.2.10", googleAgent
		}
		if l.key != nil && l.agent == "" {
			l.agent = "https://agent.bot.goog"
		}
		b.Write(l.json(t))
	}
	const host = "www.example.com"
	add(signedLine{host: host, path: "/page?q=1", key: key})
	add(signedLine{host: host, path: "/private/a", key: key})
	add(signedLine{host: host, path: "/page", key: key, signHost: "www.example.org"})
	add(signedLine{host: host, path: "/private/b"})
	add(signedLine{host: host, path: "/x"})
	add(signedLine{path: "/y", key: key, signHost: host}) // the line has no host
	add(signedLine{host: host, path: "/", ip: "66.249.66.1", ua: googlebot, key: key})
	add(signedLine{host: host, path: "/a", ip: "66.249.66.1", ua: googlebot})
	add(signedLine{host: host, path: "/z", key: key})
	add(signedLine{host: host, path: "/late", key: key, at: signedAt.Add(2 * time.Hour)}) // expired
	return b.Bytes()
}

// TestSignaturesReport audits signedLog deferred, inline and as two merged
// halves, which must agree, and compares the text report with
// testdata/signatures.golden (-update rewrites it).
func TestSignaturesReport(t *testing.T) {
	data := signedLog(t)
	srv, err := dnstest.Start(dnstest.Zone{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	h, err := NewHistory(Version{Source: "robots.txt", File: parseRobots("User-agent: *\nDisallow: /private/\n")})
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Robots: h, Verifier: &identity.Verifier{Resolver: dnstest.Resolver(srv)}, VerifyMode: "dns+lists",
		Signatures: &botauth.Verifier{Keys: savedKeys(t, "https://agent.bot.goog")}}
	whole := auditBytes(t, data, nil, opt)
	lines := bytes.SplitAfter(data, []byte("\n"))
	merged, err := Merge(0, auditBytes(t, bytes.Join(lines[:4], nil), nil, opt), auditBytes(t, bytes.Join(lines[4:], nil), nil, opt))
	if err != nil {
		t.Fatal(err)
	}
	want := canonical(t, whole)
	for name, r := range map[string]*Report{"inline": auditInline(t, data, opt), "merged": merged} {
		if got := canonical(t, r); got != want {
			t.Errorf("%s differs from the deferred audit:\n%s", name, diff(want, got))
		}
	}

	c := whole.Crawler("Google-Agent")
	if c == nil || c.Requests != 8 || c.Verified != 3 || c.Spoofed != 5 || c.VerifiedBy["signature"] != 3 ||
		c.DisallowedRequests != 2 || c.SpoofedDisallowed != 1 {
		t.Errorf("Google-Agent: %+v", c)
	}
	if g := c.Signatures; g == nil || g.Verified != 3 || g.Invalid != 2 || g.Unverified != 1 {
		t.Errorf("Google-Agent signatures: %+v", g)
	}
	if c := whole.Crawler("Googlebot"); c == nil || c.Verified != 2 || c.VerifiedBy["ranges"] != 2 || c.Signatures == nil || c.Signatures.Unverified != 1 {
		t.Errorf("Googlebot: %+v", c)
	}

	// The enrich rows (inline), as NDJSON and as TabSeparated alike.
	a := New(opt, true)
	r := reader(t, data)
	var rows []string
	for rec, err := r.Next(); err == nil; rec, err = r.Next() {
		row := a.Add(context.Background(), rec)
		js := AppendRow(nil, "log", rec, row, h)
		sameRow(t, js, AppendRowTSV(nil, "log", rec, row, h))
		rows = append(rows, string(js))
	}
	for i, want := range map[int]string{
		0: `"verified":"verified","verified_by":"signature","signature":"verified","robots"`,
		2: `"verified":"spoofed","signature":"invalid","signature_reason":"signature does not verify","robots"`,
		5: `"verified":"spoofed","signature":"unverified","signature_reason":"authority unknown","robots"`,
		6: `"verified":"verified","verified_by":"ranges","signature":"unverified","signature_reason":"no key source","robots"`,
		7: `"verified":"verified","verified_by":"ranges","robots"`,
	} {
		if !strings.Contains(rows[i], want) {
			t.Errorf("enrich row %d lacks %s:\n%s", i+1, want, rows[i])
		}
	}

	var text bytes.Buffer
	if err := WriteText(&text, whole); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "signatures.golden")
	if *update {
		if err := os.WriteFile(path, text.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	golden, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if text.String() != string(golden) {
		t.Errorf("text report differs from %s (run with -update and review the diff):\n%s", path, diff(string(golden), text.String()))
	}
	var html bytes.Buffer
	if err := WriteHTML(&html, whole); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"<td>signature (3)</td>", `<td class="bad">3 verified, 2 invalid, 1 unverified</td>`, "<td>ranges (2)</td>"} {
		if !strings.Contains(html.String(), s) {
			t.Errorf("HTML report lacks %s", s)
		}
	}
}

// BenchmarkAddSigned measures Add on a signed request claiming
// Google-Agent whose signature verifies (deferred verification): the cost
// a signed request adds is its verification, BenchmarkAddUnsigned the same
// request without the headers.
func BenchmarkAddSigned(b *testing.B)   { benchSigned(b, true) }
func BenchmarkAddUnsigned(b *testing.B) { benchSigned(b, false) }

func benchSigned(b *testing.B, sign bool) {
	l := signedLine{at: signedAt.Add(10 * time.Second), ip: "192.0.2.10", host: "www.example.com", path: "/page?q=1", ua: googleAgent, agent: "https://agent.bot.goog"}
	if sign {
		l.key = testKey(b)
	}
	r := reader(b, l.json(b))
	rec, err := r.Next()
	if err != nil {
		b.Fatal(err)
	}
	a := New(Options{Verifier: &identity.Verifier{}, Signatures: &botauth.Verifier{Keys: savedKeys(b, "https://agent.bot.goog")}}, false)
	ctx := context.Background()
	if row := a.Add(ctx, rec); sign && row.Signature != botauth.Verified {
		b.Fatalf("signature %s %s", row.Signature, row.SignatureReason)
	}
	b.ReportAllocs()
	for b.Loop() {
		a.Add(ctx, rec)
	}
}
