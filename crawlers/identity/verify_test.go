package identity

import (
	"context"
	"encoding/json"
	"net/netip"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/internal/testkit/dnstest"
)

type zoneFile struct {
	PTR   map[string][]string `json:"ptr"`
	Addrs map[string][]string `json:"addrs"`
	Drop  []string            `json:"drop"`
}

// startZone serves testdata/zone.json on a loopback port.
func startZone(t testing.TB) *dnstest.Server {
	t.Helper()
	var zf zoneFile
	readJSON(t, "testdata/zone.json", &zf)
	z := dnstest.Zone{PTR: map[netip.Addr][]string{}, Addrs: map[string][]netip.Addr{}, Drop: zf.Drop}
	for ip, names := range zf.PTR {
		z.PTR[netip.MustParseAddr(ip)] = names
	}
	for name, as := range zf.Addrs {
		for _, a := range as {
			z.Addrs[name] = append(z.Addrs[name], netip.MustParseAddr(a))
		}
	}
	srv, err := dnstest.Start(z)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

func readJSON(t testing.TB, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

type verifyCase struct {
	Name    string `json:"name"`
	IP      string `json:"ip"`
	UA      string `json:"ua"`
	At      string `json:"at"`
	Offline bool   `json:"offline"`
	Want    struct {
		Verdict          string  `json:"verdict"`
		Method           *string `json:"method"`
		Crawler          *string `json:"crawler"`
		PTR              *string `json:"ptr"`
		ForwardConfirmed *bool   `json:"forward_confirmed"`
		List             *string `json:"list"`
		ListDate         *string `json:"list_date"`
		ListPredates     *bool   `json:"list_predates"`
		Range            *string `json:"range"`
		Reason           string  `json:"reason"`
		Error            bool    `json:"error"`
	} `json:"want"`
}

func TestVerify(t *testing.T) {
	srv := startZone(t)
	var f struct {
		Cases []verifyCase `json:"cases"`
	}
	readJSON(t, "testdata/verify_cases.json", &f)
	if len(f.Cases) < 20 {
		t.Fatalf("only %d cases", len(f.Cases))
	}
	// 2 s per lookup: a dropped query ends there, and a loopback answer
	// comes well within it even on a loaded machine.
	online := &Verifier{Resolver: dnstest.Resolver(srv), Timeout: 2 * time.Second}
	offline := &Verifier{}
	for _, tc := range f.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			v := online
			if tc.Offline {
				v = offline
			}
			var at time.Time
			if tc.At != "" {
				at, _ = time.Parse(time.DateOnly, tc.At)
			}
			r := v.VerifyAt(context.Background(), netip.MustParseAddr(tc.IP), tc.UA, at)
			checkResult(t, tc, r)
		})
	}
}

func checkResult(t *testing.T, tc verifyCase, r Result) {
	t.Helper()
	w := tc.Want
	crawler, listID, listDate, rng := "", "", "", ""
	if r.Crawler != nil {
		crawler = r.Crawler.Name
	}
	if r.List != nil {
		listID, listDate = r.List.ID, r.List.Date.Format(time.DateOnly)
	}
	if r.Range.IsValid() {
		rng = r.Range.String()
	}
	errs := []string{}
	check := func(what string, want *string, got string) {
		if want != nil && *want != got {
			errs = append(errs, what+": got "+quote(got)+", want "+quote(*want))
		}
	}
	check("verdict", &w.Verdict, string(r.Verdict))
	check("method", w.Method, string(r.Method))
	check("crawler", w.Crawler, crawler)
	check("ptr", w.PTR, r.PTR)
	check("list", w.List, listID)
	check("list_date", w.ListDate, listDate)
	check("range", w.Range, rng)
	if w.ForwardConfirmed != nil && *w.ForwardConfirmed != r.ForwardConfirmed {
		errs = append(errs, "forward_confirmed mismatch")
	}
	if w.ListPredates != nil && *w.ListPredates != r.ListPredates {
		errs = append(errs, "list_predates mismatch")
	}
	if w.Reason != "" && !strings.Contains(r.Evidence(), w.Reason) {
		errs = append(errs, "evidence "+quote(r.Evidence())+" lacks "+quote(w.Reason))
	}
	if w.Error != (r.Err != nil) {
		errs = append(errs, "error: got "+errString(r.Err))
	}
	if len(errs) > 0 {
		t.Errorf("%s %q: %s\nevidence: %s", tc.IP, tc.UA, strings.Join(errs, "; "), r.Evidence())
	}
}

func quote(s string) string { return `"` + s + `"` }

func errString(err error) string {
	if err == nil {
		return "none"
	}
	return err.Error()
}

// TestVerifyConcurrent verifies the same IPs from many goroutines: answers
// must agree and each DNS question must reach the server once (cache and
// in-flight merging), which -race also checks for data races.
func TestVerifyConcurrent(t *testing.T) {
	srv := startZone(t)
	v := &Verifier{Resolver: dnstest.Resolver(srv), Timeout: 2 * time.Second}
	ips := []string{"66.249.66.1", "95.216.227.158", "2001:4860:4801:10::1", "180.76.15.5"}
	want := map[string]Verification{"66.249.66.1": Verified, "95.216.227.158": Spoofed, "2001:4860:4801:10::1": Verified, "180.76.15.5": RDNSOnly}
	uas := map[string]string{"180.76.15.5": "Baiduspider/2.0"}
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			for i := range 20 {
				ip := ips[(g+i)%len(ips)]
				ua := uas[ip]
				if ua == "" {
					ua = "Googlebot/2.1"
				}
				r := v.Verify(context.Background(), netip.MustParseAddr(ip), ua)
				if r.Verdict != want[ip] {
					t.Errorf("%s: %s (%s), want %s", ip, r.Verdict, r.Evidence(), want[ip])
					return
				}
			}
		})
	}
	wg.Wait()
	seen := map[string]int{}
	for _, q := range srv.Queries() {
		seen[q]++
	}
	for q, n := range seen {
		if n > 1 {
			t.Errorf("query %q reached the server %d times, want once", q, n)
		}
	}
	if len(seen) == 0 {
		t.Fatal("no queries reached the server")
	}
}

// TestDNSCacheTTL checks answers expire after the TTL and timeouts after
// the FailureTTL (30 seconds by default).
func TestDNSCacheTTL(t *testing.T) {
	srv := startZone(t)
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	v := &Verifier{Resolver: dnstest.Resolver(srv), Timeout: 2 * time.Second, TTL: time.Minute, NegativeTTL: time.Minute, // see TestVerify
		Now: func() time.Time { return now }}
	count := func(q string) int {
		n := 0
		for _, x := range srv.Queries() {
			if x == q {
				n++
			}
		}
		return n
	}
	ptr := "TypePTR " + dnstest.ReverseName(netip.MustParseAddr("66.249.66.1"))
	ctx := context.Background()
	v.Verify(ctx, netip.MustParseAddr("66.249.66.1"), "Googlebot")
	v.Verify(ctx, netip.MustParseAddr("66.249.66.1"), "Googlebot")
	if n := count(ptr); n != 1 {
		t.Errorf("within TTL: %d PTR queries, want 1", n)
	}
	now = now.Add(2 * time.Minute)
	v.Verify(ctx, netip.MustParseAddr("66.249.66.1"), "Googlebot")
	if n := count(ptr); n != 2 {
		t.Errorf("after TTL: %d PTR queries, want 2", n)
	}
	drop := "TypePTR " + dnstest.ReverseName(netip.MustParseAddr("198.51.100.9"))
	v.Verify(ctx, netip.MustParseAddr("198.51.100.9"), "Googlebot")
	before := count(drop)
	v.Verify(ctx, netip.MustParseAddr("198.51.100.9"), "Googlebot")
	if after := count(drop); after != before {
		t.Errorf("a timed-out lookup was asked again within 30 seconds: %d queries before, %d after", before, after)
	}
	now = now.Add(30 * time.Second)
	v.Verify(ctx, netip.MustParseAddr("198.51.100.9"), "Googlebot")
	if after := count(drop); after <= before {
		t.Errorf("a timed-out lookup was not asked again after 30 seconds: %d queries before, %d after", before, after)
	}
}

func TestHasSuffix(t *testing.T) {
	for _, tc := range []struct {
		name, suffix string
		want         bool
	}{
		{"crawl-66-249-66-1.googlebot.com", "googlebot.com", true},
		{"crawl-66-249-66-1.googlebot.com.", "googlebot.com", true},
		{"CRAWL-1.GOOGLEBOT.COM", "googlebot.com", true},
		{"googlebot.com", "googlebot.com", true},
		{"evilgooglebot.com", "googlebot.com", false},
		{"googlebot.com.evil.example", "googlebot.com", false},
		{"x.googlebot.co", "googlebot.com", false},
		{"com", "googlebot.com", false},
		{"", "googlebot.com", false},
	} {
		if got := hasSuffix(tc.name, tc.suffix); got != tc.want {
			t.Errorf("hasSuffix(%q, %q) = %v, want %v", tc.name, tc.suffix, got, tc.want)
		}
	}
}
