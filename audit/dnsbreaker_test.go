package audit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rep-toolkit/rep/crawlers/identity"
)

// deadResolver fails every lookup, as a resolver that never answers does
// after its timeout, and counts the lookups.
type deadResolver struct{ calls atomic.Int64 }

var errNoAnswer = errors.New("i/o timeout")

func (d *deadResolver) LookupAddr(context.Context, string) ([]string, error) {
	d.calls.Add(1)
	return nil, errNoAnswer
}

func (d *deadResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	d.calls.Add(1)
	return nil, errNoAnswer
}

// TestDNSBreaker: with a resolver that never answers, an audit stops asking
// it after MaxDNSFailures failures in a row instead of waiting out a
// timeout for every address, says so in the report, and judges the other
// addresses against the IP lists, in both the deferred and inline modes.
func TestDNSBreaker(t *testing.T) {
	const ua = `"-" "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"`
	var log bytes.Buffer
	const n = 400 // distinct addresses, each one request
	for i := range n {
		fmt.Fprintf(&log, "5.255.%d.%d - - [01/Mar/2026:00:00:%02d +0000] \"GET /x HTTP/1.1\" 200 1 %s\n", i/200, i%200, i%60, ua)
	}
	h, err := NewHistory(Version{Source: "r", File: parseRobots("User-agent: *\nDisallow: /private/\n")})
	if err != nil {
		t.Fatal(err)
	}
	for _, inline := range []bool{false, true} {
		dead := &deadResolver{}
		v := &identity.Verifier{Resolver: dead}
		var rep *Report
		if inline {
			a := New(Options{Robots: h, Verifier: v, VerifyMode: "dns+lists"}, true)
			r := reader(t, log.Bytes())
			for rec, err := r.Next(); err == nil; rec, err = r.Next() {
				a.Add(t.Context(), rec)
			}
			rep = a.Report()
		} else {
			rep = auditBytes(t, log.Bytes(), nil, Options{Robots: h, Verifier: v, VerifyMode: "dns+lists"})
		}
		// Verification runs concurrently, so a few lookups already under
		// way when the breaker trips still count; far fewer than n.
		if calls := dead.calls.Load(); calls > 2*MaxDNSFailures {
			t.Errorf("inline %v: %d DNS lookups for %d addresses: the breaker did not stop them", inline, calls, n)
		}
		c := rep.Crawler("YandexBot")
		if c == nil || c.Requests != n || c.Unverifiable != n {
			t.Errorf("inline %v: YandexBot %+v: every request should be unverifiable", inline, c)
		}
		if !strings.Contains(rep.VerifyError, "DNS verification stopped after 50 failures in a row") {
			t.Errorf("inline %v: VerifyError %q does not say verification stopped", inline, rep.VerifyError)
		}
	}
}
