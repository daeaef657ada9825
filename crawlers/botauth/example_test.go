package botauth_test

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"net/http"

	"github.com/rep-toolkit/rep/crawlers/botauth"
)

// A bot operator signs a request; a site verifies it against the key
// directory (here given as a JWKS, as rep verify -keys does), and a request
// whose Host was changed after signing is invalid.
func Example() {
	key, _, err := botauth.GenerateKey()
	if err != nil {
		fmt.Println(err)
		return
	}
	signer := &botauth.Signer{Key: key, Agent: "https://bot.example", Components: []string{"@method", "@path"}}
	req, _ := http.NewRequest("GET", "https://example.com/page", nil)
	if err := signer.Sign(req); err != nil {
		fmt.Println(err)
		return
	}
	v := &botauth.Verifier{Keys: botauth.NewJWKS(key.Public().(ed25519.PublicKey))}
	r := v.Verify(context.Background(), req)
	fmt.Println(r.Verdict, r.KeyID == botauth.Thumbprint(key.Public().(ed25519.PublicKey)))

	req.Host = "other.example"
	r = v.Verify(context.Background(), req)
	fmt.Println(r.Verdict)
	// Output:
	// verified true
	// invalid
}
