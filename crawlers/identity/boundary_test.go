package identity

import (
	"context"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/internal/testkit/table"

	"github.com/rep-toolkit/rep/internal/testkit/dnstest"
)

// readTable reads testdata/name, a tab-separated table of n fields a row.
func readTable(t *testing.T, name string, n int) [][]string {
	return table.Read(t, filepath.Join("testdata", name), n)
}

// TestLookupLongV6: IPv6 prefixes longer than /64 end inside the low 64
// bits, where the range table and its comparison must look at both halves.
func TestLookupLongV6(t *testing.T) {
	l, err := ParseList("x", "t", []byte(`{"prefixes":[{"ipv6Prefix":"2a03:2880:f001:1::/120"},
		{"ipv6Prefix":"2a03:2880:f001:1::200/123"},{"ipv6Prefix":"2a03:2880:f001:2::/64"},{"ipv6Prefix":"2a03:2880:f001:3:8000::/65"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range readTable(t, "lookup_v6.tsv", 2) {
		p, ok := l.Lookup(netip.MustParseAddr(row[0]))
		got := "-"
		if ok {
			got = p.String()
		}
		if got != row[1] {
			t.Errorf("Lookup(%s) = %s, want %s", row[0], got, row[1])
		}
	}
}

// TestListDay: every creationTime form is read, and the list is dated by
// its UTC day at midnight.
func TestListDay(t *testing.T) {
	for _, row := range readTable(t, "list_days.tsv", 3) {
		l, err := ParseList("x", "t", []byte(`{"creationTime":"`+row[0]+`","prefixes":[{"ipv4Prefix":"1.2.3.0/24"}]}`))
		if err != nil {
			t.Errorf("%s: %v", row[0], err)
			continue
		}
		if got := l.Created.Format(time.RFC3339Nano); got != row[1] {
			t.Errorf("creationTime %s: Created %s, want %s", row[0], got, row[1])
		}
		if got := l.Date.Format(time.RFC3339Nano); got != row[2] {
			t.Errorf("creationTime %s: Date %s, want %s", row[0], got, row[2])
		}
	}
}

// TestListErrorText: an error names five problems and counts the rest (7
// bad prefixes and "no prefixes" make 8); a file without prefixes says which
// other keys it holds.
func TestListErrorText(t *testing.T) {
	_, err := ParseList("x", "t", []byte(`{"prefixes":[{"ipv4Prefix":"a"},{"ipv4Prefix":"b"},{"ipv4Prefix":"c"},
		{"ipv4Prefix":"d"},{"ipv4Prefix":"e"},{"ipv4Prefix":"f"},{"ipv4Prefix":"g"}]}`))
	if err == nil || !strings.HasSuffix(err.Error(), `prefixes[4] "e": not a CIDR prefix; and 3 more`) {
		t.Errorf("seven bad prefixes: %v", err)
	}
	_, err = ParseList("x", "t", []byte(`{"creationTime":"2026-03-31T00:00:00Z","Action needed":"moved"}`))
	if err == nil || !strings.Contains(err.Error(), `the file holds "Action needed" instead`) {
		t.Errorf("a moved list: %v", err)
	}
}

// TestDNSCacheShared: a PTR answer is cached for the TTL across crawlers,
// so one address claimed by two of Google's crawlers is looked up once.
func TestDNSCacheShared(t *testing.T) {
	srv := startZone(t)
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	v := &Verifier{Resolver: dnstest.Resolver(srv), TTL: time.Minute, NegativeTTL: time.Minute, Now: func() time.Time { return now }}
	ip := netip.MustParseAddr("66.249.66.1")
	ctx := context.Background()
	for _, ua := range []string{"Googlebot", "Googlebot-Image", "Storebot-Google"} {
		if r := v.Verify(ctx, ip, ua); r.Verdict != Verified {
			t.Fatalf("%s from %s: %v", ua, ip, r.Verdict)
		}
	}
	n := 0
	for _, q := range srv.Queries() {
		if strings.HasPrefix(q, "TypePTR") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d PTR queries for one address within the TTL, want 1: %v", n, srv.Queries())
	}
}
