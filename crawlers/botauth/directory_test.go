package botauth

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/internal/netguard"
)

// TestDraftSignedDirectory checks the draft's signed directory response
// vector.
func TestDraftSignedDirectory(t *testing.T) {
	body := `{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U","x":"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs","use":"sig"}]}`
	h := http.Header{}
	h.Set("Content-Type", MediaType)
	h.Set("Content-Digest", "sha-256=:CADMT2aBdV/rqQr/NIru64ERQkCobVvllA4V0fLFDu0=:")
	h.Set("Signature-Input", `binding=("@authority";req "content-digest");created=1735689600;expires=4889289600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";tag="http-message-signatures-directory"`)
	h.Set("Signature", "binding=:l6P8R67tm3kujAxbHWio7ll01qrEZ0dKD/WWlGhNYEmTnFZM8Wt0VQ9zqGfvo7T/UMkBxsigzChM1Gpz7gOVBg==:")
	now := time.Unix(1735689700, 0)
	d, err := CheckDirectory("https://signature-agent.test"+WellKnownPath, 200, h, []byte(body), "signature-agent.test", now, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Keys) != 1 || !d.Keys[0].Proven {
		t.Fatalf("keys %+v problems %v", d.Keys, d.Problems)
	}
	// The test key is flagged: it must not be used in production.
	if len(d.Keys[0].Problems) != 1 || !strings.Contains(d.Keys[0].Problems[0].Error(), "test key") {
		t.Errorf("problems %v", d.Keys[0].Problems)
	}
	// Served under another authority, the proof fails.
	d, _ = CheckDirectory("https://elsewhere.test"+WellKnownPath, 200, h, []byte(body), "elsewhere.test", now, 10)
	if d.Keys[0].Proven {
		t.Error("proof holds under another authority")
	}
	// A changed body breaks the digest.
	d, _ = CheckDirectory("https://signature-agent.test"+WellKnownPath, 200, h, []byte(body+" "), "signature-agent.test", now, 10)
	if d.Keys[0].Proven || !errors.Is(d.Keys[0].Problems[len(d.Keys[0].Problems)-1], ErrResponseSignature) {
		t.Errorf("changed body: %+v", d.Keys[0])
	}
}

// directoryServer is a loopback TLS server publishing key's directory,
// signed for its own authority, beside a redirecting and an oversized one.
type directoryServer struct {
	*httptest.Server
	hits, elsewhere atomic.Int32
}

func newDirectoryServer(t *testing.T, key ed25519.PrivateKey) *directoryServer {
	t.Helper()
	ds := &directoryServer{}
	body, _ := json.Marshal(NewJWKS(key.Public().(ed25519.PublicKey)))
	ds.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case WellKnownPath:
			ds.hits.Add(1)
			signDirectoryResponse(w.Header(), body, r.Host, key)
			w.Header().Set("Content-Type", MediaType)
			w.Write(body)
		case "/moved" + WellKnownPath:
			http.Redirect(w, r, WellKnownPath, http.StatusFound)
		case "/big" + WellKnownPath:
			w.Header().Set("Content-Type", MediaType)
			fmt.Fprintf(w, `{"keys":[],"pad":"%s"}`, strings.Repeat("x", 100<<10))
		default:
			ds.elsewhere.Add(1)
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(ds.Close)
	return ds
}

func signDirectoryResponse(h http.Header, body []byte, authority string, key ed25519.PrivateKey) {
	sum := sha256.Sum256(body)
	h.Set("Content-Digest", "sha-256=:"+base64.StdEncoding.EncodeToString(sum[:])+":")
	now := time.Now().Unix()
	input := fmt.Sprintf(`("@authority";req "content-digest");created=%d;expires=%d;keyid=%q;tag=%q`, now-60, now+3600, Thumbprint(key.Public().(ed25519.PublicKey)), DirectoryTag)
	base := fmt.Sprintf("\"@authority\";req: %s\n\"content-digest\": %s\n\"@signature-params\": %s", authority, h.Get("Content-Digest"), input)
	h.Set("Signature-Input", "binding="+input)
	h.Set("Signature", "binding=:"+base64.StdEncoding.EncodeToString(ed25519.Sign(key, []byte(base)))+":")
}

func (ds *directoryServer) fetcher() *Fetcher {
	pool := x509.NewCertPool()
	pool.AddCert(ds.Certificate())
	return &Fetcher{AllowPrivate: true, TLSConfig: &tls.Config{RootCAs: pool}}
}

func signedRequest(t *testing.T, key ed25519.PrivateKey, agent string) *http.Request {
	t.Helper()
	r := newRequest(t, "https://example.com/")
	if err := (&Signer{Key: key, Agent: agent}).Sign(r); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestFetcherLoopback(t *testing.T) {
	key := botKey()
	ds := newDirectoryServer(t, key)
	f := ds.fetcher()
	v := &Verifier{Keys: f}
	ctx := context.Background()

	// A real fetch, then the cache.
	for range 3 {
		res := v.Verify(ctx, signedRequest(t, key, ds.URL))
		if res.Verdict != Verified {
			t.Fatalf("%s: %v", res.Verdict, res.Err)
		}
		if res.Key.Directory != ds.URL+WellKnownPath || !res.Key.Proven {
			t.Fatalf("key %+v", res.Key)
		}
	}
	if n := ds.hits.Load(); n != 1 {
		t.Errorf("%d fetches, want 1 (cached by directory URL and keyid)", n)
	}

	// A key the directory does not publish.
	other := ed25519.NewKeyFromSeed([]byte("another key, also 32 bytes long."))
	res := v.Verify(ctx, signedRequest(t, other, ds.URL))
	if res.Verdict != Unverified || !errors.Is(res.Err, UnknownKey) {
		t.Fatalf("unknown key: %s %v", res.Verdict, res.Err)
	}

	// A directory that redirects: refused, the target never fetched.
	d, err := f.Fetch(ctx, ds.URL+"/moved"+WellKnownPath)
	if err == nil || !errors.Is(err, DirectoryUnavailable) || !strings.Contains(err.Error(), "redirects are not followed") {
		t.Fatalf("redirect: %v %v", d, err)
	}
	if n := ds.hits.Load(); n != 1 {
		t.Errorf("the redirect was followed: %d fetches", n)
	}

	// Too large.
	if _, err := f.Fetch(ctx, ds.URL+"/big"+WellKnownPath); err == nil || !strings.Contains(err.Error(), "exceeds") {
		t.Fatalf("oversized: %v", err)
	}

	// A path in a directory member is not an origin: not fetched.
	r := newRequest(t, "https://example.com/")
	r.Header.Set("Signature-Agent", fmt.Sprintf("sig1=%q", ds.URL+"/elsewhere"))
	signRaw(t, r, key, "sig1", `("@authority" "signature-agent";key="sig1")`+wba)
	v.Now = func() time.Time { return t0.Add(time.Minute) }
	res = v.Verify(ctx, r)
	if res.Verdict != Unverified || !errors.Is(res.Err, BadAgent) || ds.elsewhere.Load() != 0 {
		t.Fatalf("path agent: %s %v", res.Verdict, res.Err)
	}
}

func TestFetcherRefusesLoopbackByDefault(t *testing.T) {
	key := botKey()
	ds := newDirectoryServer(t, key)
	f := ds.fetcher()
	f.AllowPrivate = false
	res := (&Verifier{Keys: f}).Verify(context.Background(), signedRequest(t, key, ds.URL))
	if res.Verdict != Unverified || !errors.Is(res.Err, DirectoryUnavailable) || !errors.Is(res.Err, netguard.ErrBlocked) {
		t.Fatalf("%s: %v", res.Verdict, res.Err)
	}
	if ds.hits.Load() != 0 {
		t.Error("the loopback directory was fetched")
	}
}

func TestFetcherFailureKeepsCachedKeys(t *testing.T) {
	key := botKey()
	ds := newDirectoryServer(t, key)
	now := time.Now()
	f := ds.fetcher()
	f.Now = func() time.Time { return now }
	v := &Verifier{Keys: f}
	if res := v.Verify(context.Background(), signedRequest(t, key, ds.URL)); res.Verdict != Verified {
		t.Fatal(res.Err)
	}
	ds.Close()
	// The directory is gone; the key stays cached until its TTL.
	if res := v.Verify(context.Background(), signedRequest(t, key, ds.URL)); res.Verdict != Verified {
		t.Fatalf("cached key lost: %v", res.Err)
	}
	now = now.Add(2 * time.Hour)
	res := v.Verify(context.Background(), signedRequest(t, key, ds.URL))
	if res.Verdict != Unverified || !errors.Is(res.Err, DirectoryUnavailable) {
		t.Fatalf("after the TTL: %s %v", res.Verdict, res.Err)
	}
}

// TestFetcherRefusesPrivateKeyAndHTML: a directory that publishes private
// key material is refused with a reason, by Fetch (rep verify -directory)
// and so by the Verifier; a directory served as text/html has a problem
// for Fetch and verifies nothing for the Verifier (rep verify -request),
// where the same directory served with its media type verifies.
func TestFetcherRefusesPrivateKeyAndHTML(t *testing.T) {
	key := botKey()
	pub := NewJWK(key.Public().(ed25519.PublicKey))
	private, _ := json.Marshal(map[string]any{"keys": []map[string]string{{
		"kty": pub.Kty, "crv": pub.Crv, "x": pub.X, "kid": pub.Kid, "use": "sig",
		"d": base64.RawURLEncoding.EncodeToString(key.Seed()),
	}}})
	public, _ := json.Marshal(NewJWKS(key.Public().(ed25519.PublicKey)))
	for _, tt := range []struct {
		name, ctype string
		body        []byte
		verdict     Verification
		reason      Reason
	}{
		{"private key", MediaType, private, Unverified, PrivateKeyPublished},
		{"html", "text/html; charset=utf-8", public, Unverified, DirectoryUnavailable},
		{"served right", MediaType, public, Verified, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tt.ctype)
				w.Write(tt.body)
			}))
			defer srv.Close()
			ds := &directoryServer{Server: srv}
			d, err := ds.fetcher().Fetch(context.Background(), srv.URL+WellKnownPath)
			switch tt.reason {
			case PrivateKeyPublished:
				var e *Error
				if !errors.As(err, &e) || e.Reason != PrivateKeyPublished || !strings.Contains(e.Error(), `private member "d"`) || d != nil {
					t.Errorf("Fetch: %v, want refused as %q", err, tt.reason)
				}
			case DirectoryUnavailable:
				if err != nil || d.OK() || len(d.Problems) != 1 || !errors.Is(d.Problems[0], ErrDirectoryShape) {
					t.Errorf("Fetch: %v, %+v; want a directory with a Content-Type problem", err, d)
				}
			default:
				if err != nil || !d.OK() {
					t.Errorf("Fetch: %v, %+v", err, d)
				}
			}
			res := (&Verifier{Keys: ds.fetcher()}).Verify(context.Background(), signedRequest(t, key, srv.URL))
			if res.Verdict != tt.verdict || (tt.reason != "" && !errors.Is(res.Err, tt.reason)) {
				t.Errorf("Verify: %s %v, want %s %q", res.Verdict, res.Err, tt.verdict, tt.reason)
			}
		})
	}
}
