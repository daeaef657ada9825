package botauth

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dunglas/httpsfv"
)

// testKeyPEM is test-key-ed25519, RFC 9421 appendix B.1.4. It is a
// published test key: never a production key.
const testKeyPEM = `-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF
-----END PRIVATE KEY-----
`

// testKeyID is test-key-ed25519's JWK thumbprint, as the Web Bot Auth
// draft's vectors use it.
const testKeyID = "poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U"

func testKey(t testing.TB) ed25519.PrivateKey {
	t.Helper()
	b, _ := pem.Decode([]byte(testKeyPEM))
	k, err := x509.ParsePKCS8PrivateKey(b.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	return k.(ed25519.PrivateKey)
}

// testRequest is the test-request message of RFC 9421 section 2.
const testRequest = "POST /foo?param=Value&Pet=dog HTTP/1.1\r\n" +
	"Host: example.com\r\n" +
	"Date: Tue, 20 Apr 2021 02:07:55 GMT\r\n" +
	"Content-Type: application/json\r\n" +
	"Content-Digest: sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:\r\n" +
	"Content-Length: 18\r\n" +
	"\r\n" +
	`{"hello": "world"}`

func readRequest(t testing.TB, raw string, extra ...string) *http.Request {
	t.Helper()
	head, body, _ := strings.Cut(raw, "\r\n\r\n")
	raw = head + "\r\n" + strings.Join(extra, "") + "\r\n" + body
	r, err := http.ReadRequest(bufio.NewReader(strings.NewReader(raw)))
	if err != nil {
		t.Fatal(err)
	}
	r.URL.Scheme = "https"
	return r
}

func innerList(t testing.TB, signatureInput, label string) httpsfv.InnerList {
	t.Helper()
	d, err := httpsfv.UnmarshalDictionary([]string{signatureInput})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := d.Get(label)
	return m.(httpsfv.InnerList)
}

// unwrap undoes RFC 8792 '\' line wrapping as the vectors print it.
func unwrap(s string) string {
	return strings.ReplaceAll(s, "\\\n ", "")
}

// TestRFC9421B26 reproduces RFC 9421 appendix B.2.6 (Ed25519) byte for
// byte: the signature base and the signature.
func TestRFC9421B26(t *testing.T) {
	input := `sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"`
	wantBase := `"date": Tue, 20 Apr 2021 02:07:55 GMT
"@method": POST
"@path": /foo
"@authority": example.com
"content-type": application/json
"content-length": 18
"@signature-params": ("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"`
	wantSig := "wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw=="

	r := readRequest(t, testRequest)
	base, err := signatureBase(requestMessage(r), innerList(t, input, "sig-b26"))
	if err != nil {
		t.Fatal(err)
	}
	if base != wantBase {
		t.Fatalf("signature base:\n%s\nwant:\n%s", base, wantBase)
	}
	sig := ed25519.Sign(testKey(t), []byte(base))
	if got := base64.StdEncoding.EncodeToString(sig); got != wantSig {
		t.Fatalf("signature %s, want %s", got, wantSig)
	}
}

func TestThumbprintTestKey(t *testing.T) {
	pub := testKey(t).Public().(ed25519.PublicKey)
	if got := Thumbprint(pub); got != testKeyID {
		t.Fatalf("thumbprint %s, want %s", got, testKeyID)
	}
	// RFC 8037 appendix A.3: the thumbprint of its example key.
	k := JWK{Kty: "OKP", Crv: "Ed25519", X: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}
	if got, _ := k.Thumbprint(); got != "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k" {
		t.Fatalf("RFC 8037 A.3 thumbprint %s", got)
	}
}

// The Ed25519 vectors of draft-ietf-webbotauth-httpsig-protocol, section
// "Test Vectors": the dictionary and the legacy String Signature-Agent.
var draftVectors = []struct {
	name, agent, input, base, sig string
}{
	{
		name:  "dictionary",
		agent: `agent2="https://signature-agent.test"`,
		input: `sig2=("@authority" "signature-agent";key="agent2");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==";tag="web-bot-auth"`,
		base: unwrap(`"@authority": example.com
"signature-agent";key="agent2": "https://signature-agent.test"
"@signature-params": ("@authority" "signature-agent";key="agent2")\
 ;created=1735689600\
 ;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U"\
 ;alg="ed25519"\
 ;expires=4889289600\
 ;nonce="n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA=="\
 ;tag="web-bot-auth"`),
		sig: "RdNFx5Bj6au3YgAMQL/RzmUlZE8QZLIaXGRpw985hWnwPfMxT228NMk6ehRS1PSl4e8PhbNZACSanGdhEwYCCg==",
	},
	{
		name:  "legacy string",
		agent: `"https://signature-agent.test"`,
		input: `sig2=("@authority" "signature-agent");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=1735693200;nonce="e8N7S2MFd/qrd6T2R3tdfAuuANngKI7LFtKYI/vowzk4lAZYadIX6wW25MwG7DCT9RUKAJ0qVkU0mEeLElW1qg==";tag="web-bot-auth"`,
		base: unwrap(`"@authority": example.com
"signature-agent": "https://signature-agent.test"
"@signature-params": ("@authority" "signature-agent")\
 ;created=1735689600\
 ;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U"\
 ;alg="ed25519"\
 ;expires=1735693200\
 ;nonce="e8N7S2MFd/qrd6T2R3tdfAuuANngKI7LFtKYI/vowzk4lAZYadIX6wW25MwG7DCT9RUKAJ0qVkU0mEeLElW1qg=="\
 ;tag="web-bot-auth"`),
		sig: "jdq0SqOwHdyHr9+r5jw3iYZH6aNGKijYp/EstF4RQTQdi5N5YYKrD+mCT1HA1nZDsi6nJKuHxUi/5Syp3rLWBA==",
	},
}

func TestDraftVectors(t *testing.T) {
	key := testKey(t)
	for _, vec := range draftVectors {
		t.Run(vec.name, func(t *testing.T) {
			r := readRequest(t, testRequest,
				"Signature-Agent: "+vec.agent+"\r\n",
				"Signature-Input: "+vec.input+"\r\n",
				"Signature: sig2=:"+vec.sig+":\r\n")
			base, err := signatureBase(requestMessage(r), innerList(t, vec.input, "sig2"))
			if err != nil {
				t.Fatal(err)
			}
			if base != vec.base {
				t.Fatalf("signature base:\n%s\nwant:\n%s", base, vec.base)
			}
			if got := base64.StdEncoding.EncodeToString(ed25519.Sign(key, []byte(base))); got != vec.sig {
				t.Fatalf("signature %s, want %s", got, vec.sig)
			}
			v := &Verifier{
				Keys: NewJWKS(key.Public().(ed25519.PublicKey)),
				Now:  func() time.Time { return time.Unix(1735689700, 0) },
			}
			res := v.Verify(context.Background(), r)
			if res.Verdict != Verified {
				t.Fatalf("verdict %s: %v", res.Verdict, res.Err)
			}
			if res.Agent == nil || res.Agent.URL != "https://signature-agent.test" || res.KeyID != testKeyID || res.Label != "sig2" {
				t.Fatalf("result %+v agent %+v", res, res.Agent)
			}
		})
	}
}
