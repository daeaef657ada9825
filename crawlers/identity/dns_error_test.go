package identity

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/internal/testkit/dnstest"
)

// TestLookupErrorText: a lookup error names the server asked when the
// resolver says which, and never the system's server a *net.DNSError
// carries in that case; without one it keeps the resolver's own text.
func TestLookupErrorText(t *testing.T) {
	dnsErr := &net.DNSError{Err: "i/o timeout", Name: "9.100.51.198.in-addr.arpa.", Server: "10.0.0.53:53", IsTimeout: true}
	for _, tt := range []struct {
		name string
		err  *LookupError
		want string
	}{
		{"named server", &LookupError{Query: "PTR", Name: "198.51.100.9", Server: "127.0.0.1:5353", Err: dnsErr},
			"PTR lookup for 198.51.100.9 on 127.0.0.1:5353: i/o timeout"},
		{"system resolver", &LookupError{Query: "PTR", Name: "198.51.100.9", Err: dnsErr},
			"PTR lookup for 198.51.100.9: lookup 9.100.51.198.in-addr.arpa. on 10.0.0.53:53: i/o timeout"},
		{"not a DNSError", &LookupError{Query: "A/AAAA", Name: "crawl.example", Server: "[::1]:53", Err: context.DeadlineExceeded},
			"A/AAAA lookup for crawl.example on [::1]:53: context deadline exceeded"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
			var de *net.DNSError
			if !errors.Is(tt.err, tt.err.Err) || (tt.err.Err == dnsErr && !errors.As(tt.err, &de)) {
				t.Errorf("the cause is not reachable through %v", tt.err)
			}
		})
	}
}

// TestVerifierNamesServer: a Verifier whose ServerResolver gets no answer
// returns a *LookupError naming that server.
func TestVerifierNamesServer(t *testing.T) {
	srv, err := dnstest.Start(dnstest.Zone{})
	if err != nil {
		t.Fatal(err)
	}
	srv.Close() // nothing listens there now
	yandex, ok := crawlers.ByName("YandexBot")
	if !ok {
		t.Fatal("no YandexBot in the registry")
	}
	v := &Verifier{Resolver: NewResolver(srv.Addr), Timeout: 300 * time.Millisecond}
	r := v.VerifyCrawler(context.Background(), netip.MustParseAddr("203.0.113.7"), yandex, time.Time{})
	var le *LookupError
	if r.Verdict != Unverifiable || !errors.As(r.Err, &le) || le.Server != srv.Addr || le.Query != "PTR" || !strings.Contains(r.Err.Error(), " on "+srv.Addr+": ") {
		t.Errorf("verdict %s, Err %v; want unverifiable with a PTR *LookupError naming %s", r.Verdict, r.Err, srv.Addr)
	}
}
