package main

import (
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/internal/testkit/dnstest"
)

// TestVerifyNamesResolver: when the -resolver given fails (no answer, or
// nothing listening), the error names that resolver, not the system's.
func TestVerifyNamesResolver(t *testing.T) {
	silent := verifyZone(t) // drops queries for 198.51.100.9
	closed, err := dnstest.Start(dnstest.Zone{})
	if err != nil {
		t.Fatal(err)
	}
	closed.Close() // nothing listens there any more
	const googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	for _, tc := range []struct {
		name, resolver, ip, cause string
	}{
		{"no answer", silent.Addr, "198.51.100.9", "timeout"},
		{"nothing listening", closed.Addr, "203.0.113.7", "refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, format := range []string{"text", "json"} {
				args := []string{"verify", "-resolver", tc.resolver, "-timeout", "300ms", "-cache", t.TempDir()}
				if format == "json" {
					args = append(args, "-json")
				}
				args = append(args, "-ua", googlebot, tc.ip)
				code, out, errOut := runRep(t, "", args...)
				want := "PTR lookup for " + tc.ip + " on " + tc.resolver + ": "
				if code != exitUsage || !strings.Contains(out, want) || !strings.Contains(out[strings.Index(out+want, want):], tc.cause) {
					t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 and %q ... %q", format, code, out, errOut, want, tc.cause)
				}
				if strings.Count(out, " on ") != strings.Count(out, " on "+tc.resolver+":") {
					t.Errorf("%s: the error names another server than %s: %q", format, tc.resolver, out)
				}
			}
		})
	}
}

// TestVerifyDeadResolver: with a resolver that answers nothing, rep verify
// stops after verifyMaxTimeouts lookups in a row time out, naming the
// resolver, instead of spending -timeout on every IP of a long list.
func TestVerifyDeadResolver(t *testing.T) {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0") // reads nothing, answers nothing
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	var in strings.Builder
	const total = 2000
	for i := range total {
		fmt.Fprintf(&in, "198.18.%d.%d Googlebot/2.1\n", i/250, i%250+1)
	}
	code, out, errOut := runRep(t, in.String(), "verify", "-resolver", pc.LocalAddr().String(), "-timeout", "100ms", "-cache", t.TempDir())
	want := "the resolver " + pc.LocalAddr().String() + " is not answering"
	if code != exitUsage || !strings.Contains(errOut, want) {
		t.Fatalf("exit %d, stderr %q; want 2 and %q", code, errOut, want)
	}
	if n := strings.Count(out, "\n"); n >= total/2 {
		t.Errorf("%d IPs answered before stopping, want about %d", n, verifyMaxTimeouts)
	}
}
