package audit

import (
	"bytes"
	"context"
	"fmt"
	"net/netip"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/crawlers/identity"
	"github.com/rep-toolkit/rep/internal/testkit/dnstest"
)

// TestVerifyDNS verifies YandexBot (forward-confirmed reverse DNS only)
// against a loopback DNS server: each distinct address is looked up once,
// however many requests it made, and spoofed requests to disallowed URLs
// are told apart from genuine ones.
func TestVerifyDNS(t *testing.T) {
	good := netip.MustParseAddr("5.255.253.10")
	fake := netip.MustParseAddr("198.51.100.7")
	srv, err := dnstest.Start(dnstest.Zone{
		PTR: map[netip.Addr][]string{
			good: {"5-255-253-10.spider.yandex.com."},
			fake: {"spider.yandex.com.evil.example."},
		},
		Addrs: map[string][]netip.Addr{"5-255-253-10.spider.yandex.com": {good}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	const ua = `"-" "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"`
	var log bytes.Buffer
	for i := range 30 {
		ip, path := good, "/ok"
		if i%3 == 0 {
			ip, path = fake, "/private/x"
		}
		fmt.Fprintf(&log, "%s - - [01/Mar/2026:00:%02d:00 +0000] \"GET %s HTTP/1.1\" 200 1 %s\n", ip, i, path, ua)
	}
	h, err := NewHistory(Version{Source: "r", File: parseRobots("User-agent: *\nDisallow: /private/\n")})
	if err != nil {
		t.Fatal(err)
	}
	v := &identity.Verifier{Resolver: dnstest.Resolver(srv)}
	rep := auditBytes(t, log.Bytes(), nil, Options{Robots: h, Verifier: v, VerifyMode: "dns+lists"})
	c := rep.Crawler("YandexBot")
	if c == nil || c.Verified != 20 || c.Spoofed != 10 || c.DisallowedRequests != 10 || c.SpoofedDisallowed != 10 {
		t.Fatalf("YandexBot: %+v", c)
	}
	if len(c.SpoofedFrom) != 1 || c.SpoofedFrom[0] != (IPCount{IP: fake.String(), Count: 10}) {
		t.Errorf("spoofed from %v", c.SpoofedFrom)
	}
	ptr := 0
	for _, q := range srv.Queries() {
		if strings.HasPrefix(q, "TypePTR") {
			ptr++
		}
	}
	if ptr != 2 {
		t.Errorf("%d PTR queries for 2 distinct addresses: %v", ptr, srv.Queries())
	}

	// Inline (enrich): the same verdicts line by line, from the cache.
	a := New(Options{Robots: h, Verifier: v}, true)
	r := reader(t, log.Bytes())
	var verdicts []string
	for rec, err := r.Next(); err == nil; rec, err = r.Next() {
		verdicts = append(verdicts, string(a.Add(context.Background(), rec).Identity))
	}
	if verdicts[0] != "spoofed" || verdicts[1] != "verified" || len(verdicts) != 30 {
		t.Errorf("inline verdicts %v", verdicts)
	}
}

// TestVerifyMicrosoftYahoo: msnbot (verified like bingbot: search.msn.com
// and Bing's ranges) and Yahoo's Slurp (crawl.yahoo.net) are judged, not
// counted as unknown crawlers: genuine addresses verified, a look-alike
// PTR spoofed.
func TestVerifyMicrosoftYahoo(t *testing.T) {
	a := netip.MustParseAddr
	srv, err := dnstest.Start(dnstest.Zone{
		PTR: map[netip.Addr][]string{
			a("157.55.39.1"): {"msnbot-157-55-39-1.search.msn.com."},
			a("74.6.168.1"):  {"b1.crawl.yahoo.net."},
			a("74.6.168.2"):  {"b2.crawl.yahoo.net.evil.example."},
		},
		Addrs: map[string][]netip.Addr{
			"msnbot-157-55-39-1.search.msn.com": {a("157.55.39.1")},
			"b1.crawl.yahoo.net":                {a("74.6.168.1")},
			"b2.crawl.yahoo.net.evil.example":   {a("74.6.168.2")},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	const msnbot = `"-" "msnbot/2.0b (+http://search.msn.com/msnbot.htm)"`
	const slurp = `"-" "Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)"`
	var log bytes.Buffer
	for i, l := range []struct{ ip, ua string }{
		{"157.55.39.1", msnbot}, {"157.55.39.1", msnbot}, {"74.6.168.1", slurp}, {"74.6.168.2", slurp},
	} {
		fmt.Fprintf(&log, "%s - - [01/Mar/2026:00:%02d:00 +0000] \"GET /x HTTP/1.1\" 200 1 %s\n", l.ip, i, l.ua)
	}
	h, err := NewHistory(Version{Source: "r", File: parseRobots("User-agent: *\nDisallow: /private/\n")})
	if err != nil {
		t.Fatal(err)
	}
	v := &identity.Verifier{Resolver: dnstest.Resolver(srv)}
	rep := auditBytes(t, log.Bytes(), nil, Options{Robots: h, Verifier: v, VerifyMode: "dns+lists"})
	if c := rep.Crawler("msnbot"); c == nil || c.Operator != "Microsoft" || c.Verified != 2 || c.Spoofed != 0 {
		t.Errorf("msnbot: %+v", c)
	}
	if c := rep.Crawler("Slurp"); c == nil || c.Operator != "Yahoo" || c.Verified != 1 || c.Spoofed != 1 {
		t.Errorf("Slurp: %+v", c)
	}
}
