package dnstest

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"testing"
	"time"
)

func TestServer(t *testing.T) {
	v4, v6 := netip.MustParseAddr("192.0.2.1"), netip.MustParseAddr("2001:db8::1")
	srv, err := Start(Zone{
		PTR:   map[netip.Addr][]string{v4: {"a.example."}, v6: {"b.example", "c.example."}},
		Addrs: map[string][]netip.Addr{"a.example": {v4, v6}, "B.Example.": {v6}},
		Drop:  []string{"dropped.example", "192.0.2.99"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	r := Resolver(srv)
	ctx := context.Background()
	for _, tc := range []struct {
		ip   netip.Addr
		want []string
	}{{v4, []string{"a.example."}}, {v6, []string{"b.example.", "c.example."}}} {
		got, err := r.LookupAddr(ctx, tc.ip.String())
		if err != nil || len(got) != len(tc.want) || got[0] != tc.want[0] {
			t.Errorf("LookupAddr(%s) = %v, %v; want %v", tc.ip, got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		network, name string
		want          []netip.Addr
	}{{"ip4", "a.example.", []netip.Addr{v4}}, {"ip6", "a.example.", []netip.Addr{v6}}, {"ip6", "b.example.", []netip.Addr{v6}}} {
		got, err := r.LookupNetIP(ctx, tc.network, tc.name)
		if err != nil || len(got) != 1 || got[0] != tc.want[0] {
			t.Errorf("LookupNetIP(%s, %s) = %v, %v; want %v", tc.network, tc.name, got, err, tc.want)
		}
	}
	_, err = r.LookupNetIP(ctx, "ip", "nope.example.")
	var de *net.DNSError
	if !errors.As(err, &de) || !de.IsNotFound {
		t.Errorf("unknown name: %v, want not found", err)
	}
	for _, q := range []func(context.Context) error{
		func(ctx context.Context) error { _, err := r.LookupNetIP(ctx, "ip4", "dropped.example."); return err },
		func(ctx context.Context) error { _, err := r.LookupAddr(ctx, "192.0.2.99"); return err },
	} {
		ctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		err := q(ctx)
		cancel()
		if !errors.As(err, &de) || !de.IsTimeout {
			t.Errorf("dropped query: %v, want a timeout", err)
		}
	}
	if len(srv.Queries()) == 0 {
		t.Error("no queries recorded")
	}
}

func TestReverseName(t *testing.T) {
	for _, tc := range []struct{ ip, want string }{
		{"66.249.66.1", "1.66.249.66.in-addr.arpa."},
		{"::ffff:66.249.66.1", "1.66.249.66.in-addr.arpa."},
		{"2001:db8::567:89ab", "b.a.9.8.7.6.5.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa."},
	} {
		if got := ReverseName(netip.MustParseAddr(tc.ip)); got != tc.want {
			t.Errorf("ReverseName(%s) = %s, want %s", tc.ip, got, tc.want)
		}
	}
}
