package identity_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/crawlers/botauth"
	"github.com/rep-toolkit/rep/crawlers/identity"
)

func TestWithSignature(t *testing.T) {
	agent, ok := crawlers.ByName("Google-Agent")
	if !ok {
		t.Fatal("Google-Agent is not in the registry")
	}
	bot, _ := crawlers.ByName("Googlebot")
	signed := func(url string) botauth.Result {
		return botauth.Result{Verdict: botauth.Verified, Label: "sig1", KeyID: "k1", Agent: &botauth.SignatureAgent{Member: "g", URL: url},
			Key: &botauth.Key{Directory: url + botauth.WellKnownPath}}
	}
	netOK := identity.Result{Crawler: agent, Verdict: identity.Verified, Method: identity.ByRanges}
	netBad := identity.Result{Crawler: agent, Verdict: identity.Spoofed, Method: identity.ByRanges, Reason: "not in google-agents"}
	invalid := botauth.Result{Verdict: botauth.Invalid, Label: "sig1", Err: &botauth.Error{Reason: botauth.Expired}}
	none := botauth.Result{Verdict: botauth.Unverified, Err: &botauth.Error{Reason: botauth.NoSignature}}
	for _, c := range []struct {
		name    string
		net     identity.Result
		sig     botauth.Result
		verdict identity.Verification
		method  identity.Method
		reason  string
		hasSig  bool
	}{
		{"signature and network agree", netOK, signed("https://agent.bot.goog"), identity.Verified, "signature+ranges", "", true},
		{"signature alone", identity.Result{Crawler: agent, Verdict: identity.Unverifiable}, signed("https://agent.bot.goog/"), identity.Verified, identity.BySignature, "network check: unverifiable", true},
		{"signature over a spoofed network check", netBad, signed("https://agent.bot.goog"), identity.Verified, identity.BySignature, "network check: spoofed (not in google-agents)", true},
		{"signature from an agent not listed", netBad, signed("https://evil.example"), identity.Spoofed, identity.ByRanges, "not in google-agents; signature verified with a key from https://evil.example/.well-known/http-message-signatures-directory, which the registry does not list for Google-Agent", true},
		{"crawler that does not sign", identity.Result{Crawler: bot, Verdict: identity.Unverifiable}, signed("https://agent.bot.goog"), identity.Unverifiable, "", "signature verified with a key from https://agent.bot.goog/.well-known/http-message-signatures-directory, which the registry does not list for Googlebot", true},
		{"key given locally", netBad, botauth.Result{Verdict: botauth.Verified, Label: "sig1", Agent: &botauth.SignatureAgent{URL: "https://agent.bot.goog"}, Key: &botauth.Key{}},
			identity.Spoofed, identity.ByRanges, "not in google-agents; signature verified with a key given locally, not fetched from a directory, which the registry does not list for Google-Agent", true},
		{"invalid signature", netOK, invalid, identity.Verified, identity.ByRanges, "Web Bot Auth signature invalid: expired", true},
		{"invalid signature without a label", netOK, botauth.Result{Verdict: botauth.Invalid, Err: &botauth.Error{Reason: botauth.Expired}},
			identity.Verified, identity.ByRanges, "Web Bot Auth signature invalid: expired", true},
		{"unverified signature with no error", netBad, botauth.Result{Verdict: botauth.Unverified, Label: "sig1"},
			identity.Spoofed, identity.ByRanges, "not in google-agents; Web Bot Auth signature unverified", true},
		{"no signature", netBad, none, identity.Spoofed, identity.ByRanges, "not in google-agents", false},
		{"zero result", netOK, botauth.Result{}, identity.Verified, identity.ByRanges, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := identity.WithSignature(c.net, c.sig)
			if r.Verdict != c.verdict || r.Method != c.method || r.Reason != c.reason || (r.Signature != nil) != c.hasSig {
				t.Errorf("got %s by %q (%q, signature %v), want %s by %q (%q, signature %v)",
					r.Verdict, r.Method, r.Reason, r.Signature != nil, c.verdict, c.method, c.reason, c.hasSig)
			}
		})
	}
	r := identity.WithSignature(netOK, signed("https://agent.bot.goog"))
	if ev := r.Evidence(); !strings.Contains(ev, "signed with a key from https://agent.bot.goog/.well-known/http-message-signatures-directory (keyid k1)") {
		t.Errorf("Evidence() = %q, want the signature named", ev)
	}
	local := botauth.Result{Verdict: botauth.Verified, Label: "sig1", KeyID: "k2", Agent: &botauth.SignatureAgent{URL: "https://agent.bot.goog"}, Key: &botauth.Key{}}
	withLocal := identity.WithSignature(netOK, local)
	if ev := withLocal.Evidence(); !strings.Contains(ev, "signed with a key given locally (keyid k2)") {
		t.Errorf("Evidence() = %q, want the local key named", ev)
	}
	var e *botauth.Error
	if r := identity.WithSignature(netOK, invalid); !errors.As(r.Signature.Err, &e) || e.Reason != botauth.Expired {
		t.Errorf("Signature.Err = %v, want the botauth error kept", r.Signature.Err)
	}
}

func TestDirectoryListed(t *testing.T) {
	agent, _ := crawlers.ByName("Google-Agent")
	bot, _ := crawlers.ByName("Googlebot")
	for _, c := range []struct {
		crawler *crawlers.Crawler
		dir     string
		want    bool
	}{
		{agent, "https://agent.bot.goog" + botauth.WellKnownPath, true},
		{agent, "https://Agent.Bot.Goog/keys.json", true}, // a jwks_uri on the listed origin
		{agent, "http://agent.bot.goog" + botauth.WellKnownPath, false},
		{agent, "https://agent.bot.goog:8443" + botauth.WellKnownPath, false},
		{agent, "https://evil.example" + botauth.WellKnownPath, false},
		{agent, "", false},
		{bot, "https://agent.bot.goog" + botauth.WellKnownPath, false},
		{nil, "https://agent.bot.goog" + botauth.WellKnownPath, false},
	} {
		if got := identity.DirectoryListed(c.crawler, c.dir); got != c.want {
			name := "nil"
			if c.crawler != nil {
				name = c.crawler.Name
			}
			t.Errorf("DirectoryListed(%s, %q) = %v, want %v", name, c.dir, got, c.want)
		}
	}
}
