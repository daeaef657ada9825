package identity_test

import (
	"context"
	"fmt"
	"net/netip"
	"time"

	"github.com/rep-toolkit/rep/crawlers/identity"
)

func ExampleParseList() {
	l, err := identity.ParseList("google-common", "example", []byte(`{
		"creationTime": "2026-03-16T15:46:38.000000",
		"prefixes": [{"ipv4Prefix": "66.249.64.0/27"}, {"ipv6Prefix": "2001:4860:4801:10::/64"}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	p, ok := l.Lookup(netip.MustParseAddr("66.249.64.7"))
	fmt.Println(l.Date.Format(time.DateOnly), l.Len(), p, ok)

	// Google's retired URLs answer 200 with no prefixes: rejected.
	_, err = identity.ParseList("google-common", "googlebot.json", []byte(`{"Action needed": "moved"}`))
	fmt.Println(err)
	// Output:
	// 2026-03-16 2 66.249.64.0/27 true
	// googlebot.json: invalid IP-range list: no prefixes; the file holds "Action needed" instead
}

func ExampleVerifier_VerifyAt() {
	// No Resolver: offline, lists only (the embedded snapshots).
	v := &identity.Verifier{}
	ctx := context.Background()
	ua := "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	ip := netip.MustParseAddr("66.249.66.170")
	for _, day := range []string{"2023-01-01", "2026-04-01"} {
		t, _ := time.Parse(time.DateOnly, day)
		r := v.VerifyAt(ctx, ip, ua, t)
		fmt.Printf("%s: %s (%s)\n", day, r.Verdict, r.Evidence())
	}
	r := v.Verify(ctx, netip.MustParseAddr("34.162.230.222"), "GPTBot/1.1")
	fmt.Printf("GPTBot: %s (%s)\n", r.Verdict, r.Evidence())
	r = v.Verify(ctx, ip, "Google-Extended")
	fmt.Printf("Google-Extended: %s\n", r.Verdict)
	// Output:
	// 2023-01-01: spoofed (not in google-common 2022-10-19 (200 prefixes); reverse DNS not checked (offline))
	// 2026-04-01: verified (in google-common 2026-03-16 (66.249.66.160/27))
	// GPTBot: spoofed (not in openai-gptbot 2025-10-30 (21 prefixes))
	// Google-Extended: spoofed
}
