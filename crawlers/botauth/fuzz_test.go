package botauth

import (
	"context"
	"crypto/ed25519"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/dunglas/httpsfv"
)

// FuzzVerify feeds arbitrary Signature-Input, Signature and
// Signature-Agent headers to the verifier: it must never panic, always
// return one of the three verdicts with an *Error unless verified, and
// never verify what the key did not sign.
func FuzzVerify(f *testing.F) {
	for _, v := range draftVectors {
		f.Add(v.input, "sig2=:"+v.sig+":", v.agent)
	}
	f.Add(`sig1=("@authority" "signature-agent";key="sig1");created=1;expires=2;keyid="k";tag="web-bot-auth"`, `sig1=:AAAA:`, `sig1="https://a.example";type=jwks_uri`)
	f.Add(`sig1=("@query-param";name="a" "@target-uri" "x";bs "y";sf "@status");tag="web-bot-auth"`, `sig1=:AAAA:`, `"x"`)
	f.Add(`a=(), b=?1, c=("a";req)`, ``, `sig1=("x")`)
	pub := testKey(f).Public().(ed25519.PublicKey)
	v := &Verifier{Keys: NewJWKS(pub), Now: func() time.Time { return time.Unix(1735689700, 0) }}
	f.Fuzz(func(t *testing.T, input, sig, agent string) {
		r, err := http.NewRequest(http.MethodPost, "https://example.com/foo?param=Value&Pet=dog", nil)
		if err != nil {
			t.Fatal(err)
		}
		r.Header.Set("Signature-Input", input)
		r.Header.Set("Signature", sig)
		r.Header.Set("Signature-Agent", agent)
		res := v.Verify(context.Background(), r)
		switch res.Verdict {
		case Verified:
			if res.Err != nil || res.Key == nil {
				t.Fatalf("verified with %v", res.Err)
			}
			if !ed25519.Verify(pub, []byte(res.Base), mustSig(t, sig, res.Label)) {
				t.Fatalf("verified a base the key did not sign:\n%s", res.Base)
			}
		case Invalid, Unverified:
			var e *Error
			if !errors.As(res.Err, &e) || e.Reason.Verdict() != res.Verdict {
				t.Fatalf("%s with %#v", res.Verdict, res.Err)
			}
		default:
			t.Fatalf("verdict %q", res.Verdict)
		}
	})
}

func mustSig(t *testing.T, sig, label string) []byte {
	d, err := httpsfv.UnmarshalDictionary([]string{sig})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := d.Get(label)
	b, _ := m.(httpsfv.Item).Value.([]byte)
	return b
}
