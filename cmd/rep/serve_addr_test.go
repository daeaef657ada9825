package main

import (
	"net"
	"strings"
	"testing"
)

// TestServeTakenPort: a port another program holds is a usage error that
// names -addr, not a bare "address already in use".
func TestServeTakenPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	code, _, stderr := runRep(t, "", "serve", "-addr", ln.Addr().String())
	if code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
	for _, want := range []string{"address already in use", "the port is taken by another program", "-addr 127.0.0.1:0"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q does not say %q", stderr, want)
		}
	}
}

func TestListenHint(t *testing.T) {
	for _, tc := range []struct {
		addr, want string
	}{
		{"192.0.2.1:8080", "no interface of this machine has that address"}, // TEST-NET-1, on no interface
	} {
		ln, err := net.Listen("tcp", tc.addr)
		if err == nil {
			ln.Close()
			t.Fatalf("listening on %s worked", tc.addr)
		}
		if got := listenHint(err); !strings.Contains(got, tc.want) {
			t.Errorf("%s: hint %q for %v, want %q", tc.addr, got, err, tc.want)
		}
	}
}
