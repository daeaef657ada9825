package netguard

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		addr   string
		reason string // "" means allowed
	}{
		{"8.8.8.8", ""},
		{"93.184.215.14", ""},
		{"2606:4700::1111", ""},
		{"127.0.0.1", "loopback"},
		{"127.255.0.9", "loopback"},
		{"::1", "loopback"},
		{"::ffff:127.0.0.1", "loopback"},
		{"10.1.2.3", "private"},
		{"172.16.0.1", "private"},
		{"172.31.255.255", "private"},
		{"172.32.0.1", ""},
		{"192.168.1.1", "private"},
		{"fd00::1", "private"},
		{"169.254.169.254", "link-local"},
		{"fe80::1", "link-local"},
		{"0.0.0.0", "unspecified"},
		{"::", "unspecified"},
		{"0.1.2.3", "this-network"},
		{"100.64.0.1", "shared"},
		{"224.0.0.1", "multicast"},
		{"ff02::1", "multicast"},
		{"255.255.255.255", "reserved"},
		{"198.18.0.1", "benchmarking"},
		{"64:ff9b::a00:1", "private"}, // NAT64 of 10.0.0.1
		{"64:ff9b::808:808", ""},      // NAT64 of 8.8.8.8
		{"2002:7f00:1::", "6to4"},
		{"fec0::1", "site-local"},
	}
	for _, tt := range tests {
		err := Check(netip.MustParseAddr(tt.addr))
		var be *BlockedError
		switch {
		case tt.reason == "" && err != nil:
			t.Errorf("Check(%s) = %v, want allowed", tt.addr, err)
		case tt.reason != "" && !errors.As(err, &be):
			t.Errorf("Check(%s) = %v, want blocked (%s)", tt.addr, err, tt.reason)
		case tt.reason != "" && be.Reason != tt.reason:
			t.Errorf("Check(%s) reason %q, want %q", tt.addr, be.Reason, tt.reason)
		case tt.reason != "" && !errors.Is(err, ErrBlocked):
			t.Errorf("Check(%s) = %v, not ErrBlocked", tt.addr, err)
		}
	}
	if Check(netip.Addr{}) == nil {
		t.Error("the zero Addr passed")
	}
}

func TestControl(t *testing.T) {
	if err := Control("tcp4", "not-an-address", nil); !errors.Is(err, ErrBlocked) {
		t.Errorf("a non-numeric address: %v, want ErrBlocked", err)
	}
	if err := Control("tcp6", "[2606:4700::1111]:443", nil); err != nil {
		t.Errorf("public address refused: %v", err)
	}
}

// TestDialerRefusesLoopback connects for real: the guarded client must fail
// before any request reaches the loopback server.
func TestDialerRefusesLoopback(t *testing.T) {
	hit := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hit = true }))
	defer srv.Close()
	c := &http.Client{Transport: &http.Transport{DialContext: Dialer(5 * time.Second).DialContext}}
	_, err := c.Get(srv.URL)
	var be *BlockedError
	if !errors.As(err, &be) || be.Reason != "loopback" || !errors.Is(err, ErrBlocked) {
		t.Fatalf("got %v, want a loopback BlockedError matching ErrBlocked", err)
	}
	if hit {
		t.Fatal("the server was reached")
	}
	var _ net.Dialer = *Dialer(time.Second)
}
