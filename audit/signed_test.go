package audit

import (
	"context"
	"crypto/ed25519"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/accesslog"
	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/crawlers/botauth"
	"github.com/rep-toolkit/rep/crawlers/identity"
	"github.com/rep-toolkit/rep/internal/testkit/dnstest"
)

// TestSignedHeaders: a request is checked for a Web Bot Auth signature
// when its log line carries a Signature-Input or a Signature header, even
// one byte of either alone; without both it has no signature verdict.
func TestSignedHeaders(t *testing.T) {
	for _, c := range []struct {
		name       string
		input, sig string
		verdict    botauth.Verification
		reason     botauth.Reason
	}{
		{"neither", "", "", "", ""},
		{"a one-byte Signature-Input", "x", "", botauth.Invalid, botauth.Malformed},
		{"a one-byte Signature", "", "x", botauth.Invalid, botauth.Malformed},
		{"Signature only", "", "sig1=:AAAA:", botauth.Invalid, botauth.Malformed},
	} {
		for _, inline := range []bool{false, true} {
			rec := hit{ua: googleAgent, ip: "192.0.2.10", host: "www.example.com"}.record()
			rec.SignatureInput, rec.Signature = []byte(c.input), []byte(c.sig)
			a := New(Options{Verifier: &identity.Verifier{}, Signatures: &botauth.Verifier{}}, inline)
			row := a.Add(context.Background(), rec)
			a.Finish(context.Background(), accesslog.Stats{Lines: 1}, "log")
			g := a.Report().Crawler("Google-Agent")
			if row.Signature != c.verdict || row.SignatureReason != c.reason || (g.Signatures != nil) != (c.verdict != "") {
				t.Errorf("%s, inline %v: %q (%q), signatures %+v; want %q (%q)", c.name, inline, row.Signature, row.SignatureReason, g.Signatures, c.verdict, c.reason)
			}
		}
	}
}

// TestSignatureWindow: a signature is judged as of its log line's time, to
// the second: valid from created to expires (an hour later) inclusive.
func TestSignatureWindow(t *testing.T) {
	const goog = "https://agent.bot.goog"
	for _, c := range []struct {
		at      time.Duration // after the signing time
		verdict botauth.Verification
		reason  botauth.Reason
	}{
		{-time.Second, botauth.Invalid, botauth.NotYetValid},
		{0, botauth.Verified, ""},
		{time.Hour, botauth.Verified, ""},
		{time.Hour + time.Second, botauth.Invalid, botauth.Expired},
	} {
		l := signedLine{at: signedAt.Add(c.at), ip: "192.0.2.10", host: "www.example.com", path: "/", ua: googleAgent, key: testKey(t), agent: goog}
		for _, inline := range []bool{false, true} {
			a := New(Options{Verifier: &identity.Verifier{}, Signatures: &botauth.Verifier{Keys: savedKeys(t, goog)}}, inline)
			r := reader(t, l.json(t))
			rec, err := r.Next()
			if err != nil {
				t.Fatal(err)
			}
			if row := a.Add(context.Background(), rec); row.Signature != c.verdict || row.SignatureReason != c.reason {
				t.Errorf("%v after signing, inline %v: %q (%q), want %q (%q)", c.at, inline, row.Signature, row.SignatureReason, c.verdict, c.reason)
			}
		}
	}
}

// TestLoggedFields: a header field the log carries (User-Agent) is known
// to the check, so a signature covering it is judged on the logged value
// (here another than was signed: it does not verify); a field the log
// does not carry is unknown, and the signature unverified.
func TestLoggedFields(t *testing.T) {
	const goog = "https://agent.bot.goog"
	for _, c := range []struct {
		covers  string
		verdict botauth.Verification
		reason  botauth.Reason
	}{
		{"user-agent", botauth.Invalid, botauth.BadSignature},
		{"accept", botauth.Unverified, botauth.UnknownField},
	} {
		l := signedLine{at: signedAt, ip: "192.0.2.10", host: "www.example.com", path: "/", ua: googleAgent, key: testKey(t), agent: goog, covers: c.covers}
		a := New(Options{Verifier: &identity.Verifier{}, Signatures: &botauth.Verifier{Keys: savedKeys(t, goog)}}, true)
		r := reader(t, l.json(t))
		rec, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if row := a.Add(context.Background(), rec); row.Signature != c.verdict || row.SignatureReason != c.reason {
			t.Errorf("covering %s: %q (%q), want %q (%q)", c.covers, row.Signature, row.SignatureReason, c.verdict, c.reason)
		}
	}
}

// TestSignedHost: the authority a signature is checked against is the
// host as logged with its port, else the host without it (formats that log
// only that), else Site.
func TestSignedHost(t *testing.T) {
	const goog = "https://agent.bot.goog"
	l := signedLine{at: signedAt, ip: "192.0.2.10", host: "www.example.com", path: "/", ua: googleAgent, key: testKey(t), agent: goog}
	for _, c := range []struct {
		name            string
		authority, host string
		site            string
		verdict         botauth.Verification
		reason          botauth.Reason
	}{
		{"authority", "www.example.com", "", "", botauth.Verified, ""},
		{"host only", "", "www.example.com", "", botauth.Verified, ""},
		{"site only", "", "", "www.example.com", botauth.Verified, ""},
		{"another host", "", "www.example.org", "", botauth.Invalid, botauth.BadSignature},
		{"none", "", "", "", botauth.Unverified, botauth.UnknownAuthority},
	} {
		a := New(Options{Verifier: &identity.Verifier{}, Site: c.site, Signatures: &botauth.Verifier{Keys: savedKeys(t, goog)}}, true)
		r := reader(t, l.json(t))
		rec, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		rec.Authority, rec.Host = []byte(c.authority), []byte(c.host)
		if row := a.Add(context.Background(), rec); row.Signature != c.verdict || row.SignatureReason != c.reason {
			t.Errorf("%s: %q (%q), want %q (%q)", c.name, row.Signature, row.SignatureReason, c.verdict, c.reason)
		}
	}
}

// TestNoSignatureAgent: a signed request that logged no Signature-Agent
// names no directory: its signature is unverified for want of a key
// source, not malformed.
func TestNoSignatureAgent(t *testing.T) {
	l := signedLine{at: signedAt, ip: "192.0.2.10", host: "www.example.com", path: "/", ua: googleAgent, key: testKey(t)}
	a := New(Options{Verifier: &identity.Verifier{}, Signatures: &botauth.Verifier{Keys: savedKeys(t, "https://agent.bot.goog")}}, true)
	r := reader(t, l.json(t))
	rec, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if row := a.Add(context.Background(), rec); row.Signature != botauth.Unverified || row.SignatureReason != botauth.NoKeySource {
		t.Errorf("%q (%q), want unverified (no key source)", row.Signature, row.SignatureReason)
	}
}

// TestSignedMethod: the method a signature covers is the logged one, GET
// when the line logged none.
func TestSignedMethod(t *testing.T) {
	const goog = "https://agent.bot.goog"
	l := signedLine{at: signedAt, ip: "192.0.2.10", host: "www.example.com", path: "/", ua: googleAgent, key: testKey(t), agent: goog}
	for _, c := range []struct {
		method  string
		verdict botauth.Verification
		reason  botauth.Reason
	}{
		{"GET", botauth.Verified, ""},
		{"", botauth.Verified, ""},
		{"HEAD", botauth.Invalid, botauth.BadSignature},
	} {
		a := New(Options{Verifier: &identity.Verifier{}, Signatures: &botauth.Verifier{Keys: savedKeys(t, goog)}}, true)
		r := reader(t, l.json(t))
		rec, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		rec.Method = []byte(c.method)
		if row := a.Add(context.Background(), rec); row.Signature != c.verdict || row.SignatureReason != c.reason {
			t.Errorf("method %q: %q (%q), want %q (%q)", c.method, row.Signature, row.SignatureReason, c.verdict, c.reason)
		}
	}
}

// TestListedKeysRefusal: a Signature-Agent the registry does not list for
// the claimed crawler is not asked, and the error says which agents are
// listed.
func TestListedKeysRefusal(t *testing.T) {
	for _, c := range []struct{ crawler, want string }{
		{"Googlebot", "the registry lists no Signature-Agent for Googlebot, not https://bot.example"},
		{"Google-Agent", "the registry lists only https://agent.bot.goog for Google-Agent, not https://bot.example"},
	} {
		cr, ok := crawlers.ByName(c.crawler)
		if !ok {
			t.Fatalf("%s not in the registry", c.crawler)
		}
		keys := &countingKeys{src: savedKeys(t, "")}
		_, err := listedKeys{src: keys, c: cr}.Key(context.Background(), &botauth.SignatureAgent{URL: "https://bot.example", Type: "directory"}, "kid")
		if !errors.Is(err, botauth.NoKeySource) || !strings.Contains(err.Error(), c.want) || keys.n.Load() != 0 {
			t.Errorf("%s: %v after %d lookups; want no key source saying %q, no lookup", c.crawler, err, keys.n.Load(), c.want)
		}
	}
}

// TestSavedDirectoriesHTTPS: a saved directory is for an https agent, as
// fetched ones are; an http one is refused.
func TestSavedDirectoriesHTTPS(t *testing.T) {
	var d SavedDirectories
	if err := d.Add("http://agent.bot.goog", botauth.JWKS{}); !errors.Is(err, botauth.BadAgent) {
		t.Errorf("Add of an http agent: %v, want bad agent", err)
	}
	if err := d.Add("https://agent.bot.goog", botauth.JWKS{}); err != nil {
		t.Errorf("Add of an https agent: %v", err)
	}
}

// TestSavedDirectoriesKey: saved keys answer only https agents, and a
// keyid none of them has is an unknown key, saying how many were looked
// at.
func TestSavedDirectoriesKey(t *testing.T) {
	ctx := context.Background()
	goog := &botauth.SignatureAgent{URL: "https://agent.bot.goog", Type: "directory"}
	for _, c := range []struct {
		name   string
		saved  string // the agent the keys are saved for
		agent  *botauth.SignatureAgent
		kid    string
		reason botauth.Reason
		detail string
	}{
		{"http agent", "", &botauth.SignatureAgent{URL: "http://agent.bot.goog", Type: "directory"}, botauth.Thumbprint(testKey(t).Public().(ed25519.PublicKey)), botauth.BadAgent, "must be served over https"},
		{"unknown keyid, one key saved", "https://agent.bot.goog", goog, "nope", botauth.UnknownKey, "none of the 1 saved keys"},
		{"unknown keyid, for every agent", "", goog, "nope", botauth.UnknownKey, "none of the 1 saved keys"},
		{"another agent's keys", "https://bot.example", goog, "nope", botauth.UnknownKey, "none of the 0 saved keys"},
	} {
		_, err := savedKeys(t, c.saved).Key(ctx, c.agent, c.kid)
		if !errors.Is(err, c.reason) || !strings.Contains(err.Error(), c.detail) {
			t.Errorf("%s: %v; want %s saying %q", c.name, err, c.reason, c.detail)
		}
	}
}

// TestSignedOutcomesApart: the requests of one address whose signatures
// end differently are judged apart, whether verification waits for Finish
// or not: of a verified signature and one that does not verify with the
// same key, only the first proves the crawler.
func TestSignedOutcomesApart(t *testing.T) {
	srv, err := dnstest.Start(dnstest.Zone{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	key := testKey(t)
	const goog = "https://agent.bot.goog"
	good := signedLine{at: signedAt, ip: "192.0.2.10", host: "www.example.com", path: "/a", ua: googleAgent, key: key, agent: goog}
	bad := good
	bad.at, bad.path, bad.signHost = signedAt.Add(time.Second), "/b", "www.example.org"
	unsigned := good
	unsigned.at, unsigned.path, unsigned.key = signedAt.Add(2*time.Second), "/c", nil
	opt := Options{Verifier: &identity.Verifier{Resolver: dnstest.Resolver(srv)}, VerifyMode: "dns+lists",
		Signatures: &botauth.Verifier{Keys: savedKeys(t, goog)}}
	for _, order := range [][]signedLine{{good, bad, unsigned}, {bad, good, unsigned}, {unsigned, bad, good}} {
		var log []byte
		for _, l := range order {
			log = append(log, l.json(t)...)
		}
		for name, rep := range map[string]*Report{"deferred": auditBytes(t, log, nil, opt), "inline": auditInline(t, log, opt)} {
			c := rep.Crawler("Google-Agent")
			if c == nil || c.Verified != 1 || c.VerifiedBy["signature"] != 1 || c.Spoofed != 2 {
				t.Errorf("%s, %s first: %+v; want 1 verified by signature, 2 spoofed", name, order[0].path, c)
			}
		}
	}
}
