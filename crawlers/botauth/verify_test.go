package botauth

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// botKey is a fixed key for tests that is not a published test key.
func botKey() ed25519.PrivateKey {
	return ed25519.NewKeyFromSeed([]byte("rep botauth test key, 32 bytes!!"))
}

var t0 = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

// signRaw signs r by hand: the Signature-Input member label=list (where
// {keyid}, {created} and {expires} are filled in) with key.
func signRaw(t *testing.T, r *http.Request, key ed25519.PrivateKey, label, list string) {
	t.Helper()
	list = strings.NewReplacer(
		"{keyid}", Thumbprint(key.Public().(ed25519.PublicKey)),
		"{created}", fmt.Sprint(t0.Unix()),
		"{expires}", fmt.Sprint(t0.Add(time.Hour).Unix()),
	).Replace(list)
	input := label + "=" + list
	base, err := signatureBase(requestMessage(r), innerList(t, input, label))
	if err != nil {
		t.Fatalf("signing: %v", err)
	}
	r.Header.Add("Signature-Input", input)
	r.Header.Add("Signature", label+"=:"+base64.StdEncoding.EncodeToString(ed25519.Sign(key, []byte(base)))+":")
}

func newRequest(t *testing.T, target string) *http.Request {
	t.Helper()
	r, err := http.NewRequest(http.MethodGet, target, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

const wba = `;created={created};expires={expires};keyid="{keyid}";alg="ed25519";tag="web-bot-auth"`

func TestVerifyTable(t *testing.T) {
	key := botKey()
	other := ed25519.NewKeyFromSeed([]byte("another key, also 32 bytes long."))
	agentDict := `sig1="https://bot.example"`
	tests := []struct {
		name    string
		build   func(t *testing.T) *http.Request
		now     time.Time
		verdict Verification
		reason  Reason
		want    string   // in the error text
		fields  []string // Verifier.Fields
	}{
		{name: "dictionary Signature-Agent", verdict: Verified, build: func(t *testing.T) *http.Request {
			r := newRequest(t, "https://example.com/page")
			r.Header.Set("Signature-Agent", agentDict)
			signRaw(t, r, key, "sig1", `("@authority" "signature-agent";key="sig1")`+wba)
			return r
		}},
		{name: "legacy String Signature-Agent", verdict: Verified, build: func(t *testing.T) *http.Request {
			r := newRequest(t, "https://example.com/page")
			r.Header.Set("Signature-Agent", `"https://bot.example"`)
			signRaw(t, r, key, "sig1", `("@authority" "signature-agent")`+wba)
			return r
		}},
		{name: "target-uri instead of authority", verdict: Verified, build: func(t *testing.T) *http.Request {
			r := newRequest(t, "https://example.com/page?q=1")
			r.Header.Set("Signature-Agent", agentDict)
			signRaw(t, r, key, "sig1", `("@target-uri" "signature-agent";key="sig1")`+wba)
			return r
		}},
		{name: "target-uri with a changed query", verdict: Invalid, reason: BadSignature, build: func(t *testing.T) *http.Request {
			r := newRequest(t, "https://example.com/page?q=1")
			r.Header.Set("Signature-Agent", agentDict)
			signRaw(t, r, key, "sig1", `("@target-uri" "signature-agent";key="sig1")`+wba)
			r.URL.RawQuery = "q=2"
			return r
		}},
		{name: "expired", now: t0.Add(2 * time.Hour), verdict: Invalid, reason: Expired, want: "parameter expires", build: func(t *testing.T) *http.Request {
			r := newRequest(t, "https://example.com/")
			signRaw(t, r, key, "sig1", `("@authority")`+wba)
			return r
		}},
		{name: "not yet valid", now: t0.Add(-time.Minute), verdict: Invalid, reason: NotYetValid, want: "parameter created", build: func(t *testing.T) *http.Request {
			r := newRequest(t, "https://example.com/")
			signRaw(t, r, key, "sig1", `("@authority")`+wba)
			return r
		}},
		{name: "changed Host", verdict: Invalid, reason: BadSignature, build: func(t *testing.T) *http.Request {
			r := newRequest(t, "https://example.com/")
			signRaw(t, r, key, "sig1", `("@authority")`+wba)
			r.Host = "example.org"
			return r
		}},
		{name: "unknown keyid", verdict: Unverified, reason: UnknownKey, want: "keyid " + Thumbprint(other.Public().(ed25519.PublicKey)), build: func(t *testing.T) *http.Request {
			r := newRequest(t, "https://example.com/")
			signRaw(t, r, other, "sig1", `("@authority")`+wba)
			return r
		}},
		{name: "authority not covered", verdict: Invalid, reason: MissingComponent, want: `component "@authority" or "@target-uri"`, build: func(t *testing.T) *http.Request {
			r := newRequest(t, "https://example.com/")
			signRaw(t, r, key, "sig1", `("@method" "@path")`+wba)
			return r
		}},
		{name: "signature-agent not covered", verdict: Invalid, reason: MissingComponent, want: `component "signature-agent";key="sig1"`, build: func(t *testing.T) *http.Request {
			r := newRequest(t, "https://example.com/")
			r.Header.Set("Signature-Agent", agentDict)
			signRaw(t, r, key, "sig1", `("@authority")`+wba)
			return r
		}},
		{name: "malformed Signature-Input", verdict: Invalid, reason: Malformed, want: "header Signature-Input", build: func(t *testing.T) *http.Request {
			r := newRequest(t, "https://example.com/")
			r.Header.Set("Signature-Input", `sig1=("@authority";created=1`)
			r.Header.Set("Signature", `sig1=:AAAA:`)
			return r
		}},
		{name: "foreign tag only", verdict: Unverified, reason: ForeignTag, want: `sig1 (tag "other")`, build: func(t *testing.T) *http.Request {
			r := newRequest(t, "https://example.com/")
			signRaw(t, r, key, "sig1", `("@authority");created={created};keyid="{keyid}";tag="other"`)
			return r
		}},
		{name: "foreign tag beside a good one", verdict: Verified, build: func(t *testing.T) *http.Request {
			r := newRequest(t, "https://example.com/")
			signRaw(t, r, key, "other", `("@authority");created={created};keyid="{keyid}"`)
			signRaw(t, r, key, "sig1", `("@authority")`+wba)
			return r
		}},
		{name: "no signature", verdict: Unverified, reason: NoSignature, build: func(t *testing.T) *http.Request {
			return newRequest(t, "https://example.com/")
		}},
		{name: "no expires", verdict: Invalid, reason: MissingParameter, want: "parameter expires", build: func(t *testing.T) *http.Request {
			r := newRequest(t, "https://example.com/")
			signRaw(t, r, key, "sig1", `("@authority");created={created};keyid="{keyid}";tag="web-bot-auth"`)
			return r
		}},
		{name: "another algorithm", verdict: Unverified, reason: UnsupportedAlgorithm, want: "parameter alg", build: func(t *testing.T) *http.Request {
			r := newRequest(t, "https://example.com/")
			signRaw(t, r, key, "sig1", `("@authority");created={created};expires={expires};keyid="{keyid}";alg="rsa-pss-sha512";tag="web-bot-auth"`)
			return r
		}},
		{name: "Signature without the label", verdict: Invalid, reason: MissingSignature, build: func(t *testing.T) *http.Request {
			r := newRequest(t, "https://example.com/")
			signRaw(t, r, key, "sig1", `("@authority")`+wba)
			r.Header.Set("Signature", "sig9=:AAAA:")
			return r
		}},
		{name: "host not known", verdict: Unverified, reason: UnknownAuthority, want: `component "@authority"`, build: func(t *testing.T) *http.Request {
			r := newRequest(t, "https://example.com/")
			signRaw(t, r, key, "sig1", `("@authority")`+wba)
			r.Host, r.URL.Host = "", ""
			return r
		}},
		{name: "host not known, target-uri covered", verdict: Unverified, reason: UnknownAuthority, want: `component "@target-uri"`, build: func(t *testing.T) *http.Request {
			r := newRequest(t, "https://example.com/")
			signRaw(t, r, key, "sig1", `("@target-uri")`+wba)
			r.Host, r.URL.Host = "", ""
			return r
		}},
		{name: "covered header absent", verdict: Invalid, reason: BadComponent, want: `component "x-purpose"`, build: func(t *testing.T) *http.Request {
			r := newRequest(t, "https://example.com/")
			r.Header.Set("X-Purpose", "search")
			signRaw(t, r, key, "sig1", `("@authority" "x-purpose")`+wba)
			r.Header.Del("X-Purpose")
			return r
		}},
		// A request rebuilt from a log line that records only some fields:
		// a covered field outside them cannot be judged, one among them
		// that the line lacks is absent, and the others verify as usual.
		{name: "covered field not recorded", fields: []string{"user-agent", "signature", "signature-input"}, verdict: Unverified, reason: UnknownField, want: `component "x-purpose"`, build: func(t *testing.T) *http.Request {
			r := newRequest(t, "https://example.com/")
			r.Header.Set("X-Purpose", "search")
			signRaw(t, r, key, "sig1", `("@authority" "x-purpose")`+wba)
			r.Header.Del("X-Purpose")
			return r
		}},
		{name: "covered field recorded and absent", fields: []string{"x-purpose", "signature", "signature-input"}, verdict: Invalid, reason: BadComponent, want: `component "x-purpose"`, build: func(t *testing.T) *http.Request {
			r := newRequest(t, "https://example.com/")
			r.Header.Set("X-Purpose", "search")
			signRaw(t, r, key, "sig1", `("@authority" "x-purpose")`+wba)
			r.Header.Del("X-Purpose")
			return r
		}},
		{name: "covered fields all recorded", fields: []string{"x-purpose", "signature", "signature-input"}, verdict: Verified, build: func(t *testing.T) *http.Request {
			r := newRequest(t, "https://example.com/")
			r.Header.Set("X-Purpose", "search")
			signRaw(t, r, key, "sig1", `("@authority" "x-purpose")`+wba)
			return r
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			now := tc.now
			if now.IsZero() {
				now = t0.Add(time.Minute)
			}
			v := &Verifier{Keys: NewJWKS(key.Public().(ed25519.PublicKey)), Now: func() time.Time { return now }, Fields: tc.fields}
			res := v.Verify(context.Background(), tc.build(t))
			if res.Verdict != tc.verdict {
				t.Fatalf("verdict %s (%v), want %s", res.Verdict, res.Err, tc.verdict)
			}
			if tc.verdict == Verified {
				if res.Err != nil || res.Key == nil {
					t.Fatalf("verified with err %v key %v", res.Err, res.Key)
				}
				return
			}
			if !errors.Is(res.Err, tc.reason) {
				t.Fatalf("err %v, want reason %q", res.Err, tc.reason)
			}
			var e *Error
			if !errors.As(res.Err, &e) || e.Reason.Verdict() != tc.verdict {
				t.Fatalf("err %#v is not an *Error of verdict %s", res.Err, tc.verdict)
			}
			if tc.want != "" && !strings.Contains(res.Err.Error(), tc.want) {
				t.Errorf("err %q lacks %q", res.Err, tc.want)
			}
		})
	}
}

func TestSignVerifyRoundTrip(t *testing.T) {
	key := botKey()
	for _, s := range []*Signer{
		{Key: key, Agent: "https://bot.example"},
		{Key: key, Agent: "https://bot.example", Label: "agent", Components: []string{"@method", "@path", "@target-uri"}, Nonce: true, Validity: time.Minute},
		{Key: key},
	} {
		s.Now = func() time.Time { return t0 }
		r := newRequest(t, "https://Example.COM:443/a%20b?x=1")
		if err := s.Sign(r); err != nil {
			t.Fatal(err)
		}
		v := &Verifier{Keys: NewJWKS(key.Public().(ed25519.PublicKey)), Now: func() time.Time { return t0.Add(30 * time.Second) }}
		res := v.Verify(context.Background(), r)
		if res.Verdict != Verified {
			t.Fatalf("%+v: %s %v\n%s", s, res.Verdict, res.Err, r.Header)
		}
		if s.Agent != "" && (res.Agent == nil || res.Agent.URL != s.Agent) {
			t.Errorf("agent %+v", res.Agent)
		}
	}
}
