package identity

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/crawlers"
)

// mapResolver answers PTR queries from ptr and forward queries from fwd;
// a name missing from fwd has no A/AAAA record.
type mapResolver struct {
	ptr map[string][]string
	fwd map[string][]netip.Addr
}

func (m mapResolver) LookupAddr(_ context.Context, addr string) ([]string, error) {
	if names, ok := m.ptr[addr]; ok {
		return names, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: addr, IsNotFound: true}
}

func (m mapResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if as, ok := m.fwd[strings.TrimSuffix(host, ".")]; ok {
		return as, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

func firstAddr(t *testing.T, id string) netip.Addr {
	t.Helper()
	l, _ := Embedded().At(id, time.Time{})
	if l == nil || l.Len() == 0 {
		t.Fatalf("no embedded %s list", id)
	}
	return l.Prefixes()[0].Addr()
}

// TestIdentifySharedList: an IP in a list shared by several crawlers names
// them all (more than three: the first and a count); a list of one crawler
// needs no note. A weak list (a cloud's) identifies no crawler.
func TestIdentifySharedList(t *testing.T) {
	v := &Verifier{}
	for _, tc := range []struct {
		id, want string
	}{
		{"bing", "the list is shared by bingbot and 3 other Microsoft crawlers"},
		{"anthropic", "the list is shared by ClaudeBot, Claude-User, Claude-SearchBot"},
		{"apple", ""},
	} {
		r := v.VerifyAt(context.Background(), firstAddr(t, tc.id), "", time.Time{})
		if r.Verdict != Verified || r.Reason != tc.want {
			t.Errorf("%s: %s, reason %q; want verified, %q", tc.id, r.Verdict, r.Reason, tc.want)
		}
	}
	weak, err := ParseList("google-user-triggered-gcp", "test", []byte(`{"prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	wv := &Verifier{Ranges: NewRanges(weak)}
	if r := wv.VerifyAt(context.Background(), netip.MustParseAddr("192.0.2.1"), "", time.Time{}); r.Verdict != NotCrawler {
		t.Errorf("IP in a weak list: %s (%s), want %s", r.Verdict, r.Evidence(), NotCrawler)
	}
}

// TestVerdictEvidence: the method and reason of verdicts that rest on
// missing or contrary evidence.
func TestVerdictEvidence(t *testing.T) {
	ip := netip.MustParseAddr("192.0.2.1")
	outside := mapResolver{ptr: map[string][]string{"192.0.2.1": {"host.example.net."}}}
	googlebot, _ := crawlers.Match("Googlebot/2.1")
	bingbot, _ := crawlers.Match("bingbot/2.0")
	for _, tc := range []struct {
		name    string
		c       *crawlers.Crawler
		v       *Verifier
		verdict Verification
		method  Method
		reason  string
	}{
		{"PTR outside, list loaded", googlebot, &Verifier{Resolver: outside}, Spoofed, ByBoth, "PTR host.example.net is not under"},
		{"PTR outside, no list", googlebot, &Verifier{Ranges: NewRanges(), Resolver: outside}, Spoofed, ByFCrDNS, "PTR host.example.net is not under"},
		{"offline, list loaded", bingbot, &Verifier{}, Spoofed, ByRanges, "reverse DNS not checked (offline)"},
		{"offline, no list", bingbot, &Verifier{Ranges: NewRanges()}, Unverifiable, ByFCrDNS, "verified by reverse DNS, which is off (offline)"},
	} {
		r := tc.v.VerifyCrawler(context.Background(), ip, tc.c, time.Time{})
		if r.Verdict != tc.verdict || r.Method != tc.method || !strings.Contains(r.Reason, tc.reason) {
			t.Errorf("%s: %s by %q, reason %q; want %s by %q, %q", tc.name, r.Verdict, r.Method, r.Reason, tc.verdict, tc.method, tc.reason)
		}
	}
	// Without a User-Agent, a PTR outside every crawler's domain.
	r := (&Verifier{Resolver: outside}).VerifyAt(context.Background(), ip, "", time.Time{})
	if r.Verdict != NotCrawler || r.Reason != "in no known crawler's IP list or DNS domain" {
		t.Errorf("identify: %s, reason %q", r.Verdict, r.Reason)
	}
}

// TestFCrDNSFirstName: with two PTR names in the operator's domain, the
// first without an address record and the second resolving elsewhere, the
// evidence stays with the first name.
func TestFCrDNSFirstName(t *testing.T) {
	ip := netip.MustParseAddr("192.0.2.1")
	res := mapResolver{
		ptr: map[string][]string{"192.0.2.1": {"a.googlebot.com.", "b.googlebot.com."}},
		fwd: map[string][]netip.Addr{"b.googlebot.com": {netip.MustParseAddr("198.51.100.1")}},
	}
	googlebot, _ := crawlers.Match("Googlebot/2.1")
	r := (&Verifier{Ranges: NewRanges(), Resolver: res}).VerifyCrawler(context.Background(), ip, googlebot, time.Time{})
	if r.Verdict != Spoofed || r.PTR != "a.googlebot.com" || r.Forward != nil ||
		r.Reason != "PTR a.googlebot.com has no A/AAAA record, so anyone could have set it" {
		t.Errorf("%s: PTR %q, Forward %v, reason %q", r.Verdict, r.PTR, r.Forward, r.Reason)
	}
}

// failingForward answers PTR queries from ptr and fails every forward
// query with a timeout: no answer, not "no such name".
type failingForward struct{ ptr map[string][]string }

func (f failingForward) LookupAddr(_ context.Context, addr string) ([]string, error) {
	return f.ptr[addr], nil
}

func (failingForward) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	return nil, &net.DNSError{Err: "i/o timeout", Name: host, IsTimeout: true}
}

// TestIdentifyByDNS: without a User-Agent, an IP in no list whose PTR is
// in a crawler's domain is identified by DNS: unverifiable when the
// forward lookup gets no answer, rdns-only for an operator that documents
// only the reverse lookup (Baidu), spoofed when the forward lookup points
// elsewhere.
func TestIdentifyByDNS(t *testing.T) {
	ip := netip.MustParseAddr("192.0.2.1")
	for _, tc := range []struct {
		name    string
		res     Resolver
		verdict Verification
		method  Method
		crawler string
		reason  string
	}{
		{"forward lookup fails", failingForward{map[string][]string{"192.0.2.1": {"crawl-192-0-2-1.googlebot.com."}}},
			Unverifiable, ByFCrDNS, "Googlebot", ""},
		{"rdns-only operator", mapResolver{ptr: map[string][]string{"192.0.2.1": {"baiduspider-192-0-2-1.crawl.baidu.com."}}},
			RDNSOnly, ByRDNS, "Baiduspider", "Baidu documents only the reverse lookup"},
		{"forward lookup elsewhere", mapResolver{ptr: map[string][]string{"192.0.2.1": {"crawl-192-0-2-1.googlebot.com."}},
			fwd: map[string][]netip.Addr{"crawl-192-0-2-1.googlebot.com": {netip.MustParseAddr("198.51.100.1")}}},
			Spoofed, ByFCrDNS, "Googlebot", ""},
	} {
		r := (&Verifier{Resolver: tc.res}).VerifyAt(context.Background(), ip, "", time.Time{})
		name := ""
		if r.Crawler != nil {
			name = r.Crawler.Name
		}
		if r.Verdict != tc.verdict || r.Method != tc.method || name != tc.crawler || (tc.reason != "" && r.Reason != tc.reason) {
			t.Errorf("%s: %s by %q, crawler %q, reason %q; want %s by %q, %q, %q", tc.name, r.Verdict, r.Method, name, r.Reason, tc.verdict, tc.method, tc.crawler, tc.reason)
		}
	}
}
