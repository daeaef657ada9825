package audit

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/crawlers/botauth"
	"github.com/rep-toolkit/rep/crawlers/identity"
)

// TestSignatureCoversSignature: the Signature and Signature-Input fields
// are in the log, so a Web Bot Auth signature covering a member of
// either (here of another signature, sig0, with a foreign tag that is not
// itself checked) is judged on the logged member: it verifies when the log
// holds what was signed, and does not when the member differs.
func TestSignatureCoversSignature(t *testing.T) {
	const goog = "https://agent.bot.goog"
	const sig0Input, sig0 = `("@authority");created=1;tag="other"`, ":AAAA:"
	key := testKey(t)
	created := signedAt.Unix()
	line := func(covers []string, loggedSig0 string) []byte {
		comps := []string{`"@authority"`}
		base := "\"@authority\": www.example.com\n"
		for _, c := range covers {
			comps = append(comps, fmt.Sprintf(`%q;key="sig0"`, c))
			v := sig0
			if c == "signature-input" {
				v = sig0Input
			}
			base += fmt.Sprintf("%q;key=\"sig0\": %s\n", c, v)
		}
		comps = append(comps, `"signature-agent";key="sig1"`)
		base += fmt.Sprintf("\"signature-agent\";key=\"sig1\": %q\n", goog)
		params := fmt.Sprintf(`(%s);created=%d;expires=%d;keyid=%q;alg="ed25519";tag="web-bot-auth"`, strings.Join(comps, " "), created, created+3600,
			botauth.Thumbprint(key.Public().(ed25519.PublicKey)))
		base += `"@signature-params": ` + params
		sig := base64.StdEncoding.EncodeToString(ed25519.Sign(key, []byte(base)))
		b, err := json.Marshal(map[string]any{"time": signedAt.Format("2006-01-02T15:04:05Z07:00"), "remote_addr": "192.0.2.10", "request_method": "GET",
			"request_uri": "/", "status": 200, "body_bytes_sent": 100, "http_user_agent": googleAgent, "host": "www.example.com",
			"http_signature_input": "sig0=" + sig0Input + ", sig1=" + params,
			"http_signature":       "sig0=" + loggedSig0 + ", sig1=:" + sig + ":",
			"http_signature_agent": fmt.Sprintf("sig1=%q", goog)})
		if err != nil {
			t.Fatal(err)
		}
		return append(b, '\n')
	}
	for _, c := range []struct {
		name       string
		covers     []string
		loggedSig0 string
		verdict    botauth.Verification
		reason     botauth.Reason
	}{
		{"covers Signature", []string{"signature"}, sig0, botauth.Verified, ""},
		{"covers Signature-Input", []string{"signature-input"}, sig0, botauth.Verified, ""},
		{"covers both", []string{"signature", "signature-input"}, sig0, botauth.Verified, ""},
		{"covers Signature, logged otherwise", []string{"signature"}, ":AAAB:", botauth.Invalid, botauth.BadSignature},
	} {
		for _, inline := range []bool{false, true} {
			a := New(Options{Verifier: &identity.Verifier{}, Signatures: &botauth.Verifier{Keys: savedKeys(t, goog)}}, inline)
			rec, err := reader(t, line(c.covers, c.loggedSig0)).Next()
			if err != nil {
				t.Fatal(err)
			}
			if row := a.Add(context.Background(), rec); row.Signature != c.verdict || row.SignatureReason != c.reason {
				t.Errorf("%s, inline %v: %q (%q), want %q (%q)", c.name, inline, row.Signature, row.SignatureReason, c.verdict, c.reason)
			}
		}
	}
}
