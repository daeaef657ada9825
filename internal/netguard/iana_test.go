package netguard

import (
	"errors"
	"net/netip"
	"path/filepath"
	"testing"

	"github.com/rep-toolkit/rep/internal/testkit/table"
)

// TestIANASpecial checks Check against every entry of IANA's IPv4 and IPv6
// special-purpose address registries (testdata/iana-special.tsv): the first
// and last address of each block are refused for the reason the table
// gives, or allowed where it says "-".
func TestIANASpecial(t *testing.T) {
	rows := table.Read(t, filepath.Join("testdata", "iana-special.tsv"), 6)
	for _, c := range rows {
		p := netip.MustParsePrefix(c[0])
		for i, a := range []netip.Addr{p.Masked().Addr(), last(p)} {
			want := c[4+i]
			err := Check(a)
			var be *BlockedError
			switch {
			case want == "-" && err != nil:
				t.Errorf("%s (%s): Check(%s) = %v, want allowed", c[0], c[1], a, err)
			case want != "-" && (!errors.As(err, &be) || be.Reason != want):
				t.Errorf("%s (%s): Check(%s) = %v, want refused as %s", c[0], c[1], a, err, want)
			}
		}
	}
	if len(rows) != 50 {
		t.Fatalf("%d rows: the table lists the registries' 50 entries", len(rows))
	}
}

// TestEmbeddedIPv4 checks the IPv6 forms that carry an IPv4 address: the
// IPv4-mapped and NAT64 forms are judged by that address; the deprecated
// IPv4-compatible and the IPv4-translated forms are refused whole.
func TestEmbeddedIPv4(t *testing.T) {
	for _, tt := range []struct {
		addr, want string
	}{
		{"::ffff:8.8.8.8", "-"},
		{"::ffff:10.1.2.3", "private"},
		{"64:ff9b::8.8.8.8", "-"},
		{"64:ff9b::192.168.1.1", "private"},
		{"64:ff9b::203.0.113.5", "documentation"},
		{"::8.8.8.8", "IPv4-compatible"},
		{"::10.0.0.1", "IPv4-compatible"},
		{"::ffff:0:8.8.8.8", "IPv4-translated"},
		{"::ffff:0:127.0.0.1", "IPv4-translated"},
		{"::1:0:0:0", "-"}, // just past ::ffff:0:0:0/96 and ::/96
	} {
		err := Check(netip.MustParseAddr(tt.addr))
		var be *BlockedError
		switch {
		case tt.want == "-" && err != nil:
			t.Errorf("Check(%s) = %v, want allowed", tt.addr, err)
		case tt.want != "-" && (!errors.As(err, &be) || be.Reason != tt.want):
			t.Errorf("Check(%s) = %v, want refused as %s", tt.addr, err, tt.want)
		}
	}
}

// last returns the last address of p.
func last(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}
