package gate_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/netip"

	"github.com/rep-toolkit/rep/crawlers/identity"
	"github.com/rep-toolkit/rep/gate"
	"github.com/rep-toolkit/rep/policy"
)

// The gate judges requests by the policy's robots.txt as each crawler
// reads it, after checking that a request claiming a crawler comes from
// it. This verifier is offline: the embedded IP lists, no reverse DNS.
func Example() {
	p, err := policy.Parse("site.toml", []byte(`
enforce = "block"

[[group]]
agents = ["*"]
disallow = ["/private/"]
`))
	if err != nil {
		log.Fatal(err)
	}
	site := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "hello") })
	g := gate.New(p, site, gate.Options{Verifier: &identity.Verifier{}})
	ctx := context.Background()
	googlebot := "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	for _, q := range []struct{ ip, ua, target string }{
		{"66.249.66.1", googlebot, "/private/a"},
		{"66.249.66.1", googlebot, "/public/a"},
		{"203.0.113.9", googlebot, "/public/a"},
		{"203.0.113.9", "Mozilla/5.0 (X11; Linux x86_64)", "/private/a"},
	} {
		d := g.Decide(ctx, netip.MustParseAddr(q.ip), q.ua, q.target)
		fmt.Printf("%s %s: %s (%s)\n", q.ip, q.target, d.Action, d.Reason)
	}
	// Output:
	// 66.249.66.1 /private/a: refuse (Googlebot disallowed by robots.txt line 9 (Disallow: /private/))
	// 66.249.66.1 /public/a: allow (allowed by robots.txt)
	// 203.0.113.9 /public/a: refuse (spoofed Googlebot: reverse DNS not checked (offline))
	// 203.0.113.9 /private/a: allow (not a crawler)
}

// Canonical is the one path the gate judges, passes on and logs: the
// path the origin serves, whatever the client's spelling; a spelling
// origins resolve differently has none.
func ExampleCanonical() {
	for _, target := range []string{
		"/%70rivate/x",
		"/.well-known/../private/x",
		"//private/./x?%73ession=1",
		"/.well-known/%2e%2e/private/x",
		"/private%2Fx",
	} {
		c, err := gate.Canonical(target, true)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(c)
	}
	// Output:
	// /private/x
	// /private/x
	// /private/x?session=1
	// ambiguous path "/.well-known/%2e%2e/private/x": an encoded dot segment
	// ambiguous path "/private%2Fx": an encoded slash (%2F)
}
