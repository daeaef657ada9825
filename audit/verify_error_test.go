package audit

import (
	"bytes"
	"fmt"
	"html/template"
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/crawlers/identity"
	"github.com/rep-toolkit/rep/internal/testkit/dnstest"
)

// TestVerifyError: when the resolver gives no answer, the report counts
// the addresses it could not verify and keeps the first error, naming the
// resolver; the text and HTML reports say so, and Merge keeps both.
func TestVerifyError(t *testing.T) {
	srv, err := dnstest.Start(dnstest.Zone{})
	if err != nil {
		t.Fatal(err)
	}
	srv.Close() // nothing listens there now
	const ua = `"-" "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"`
	var log bytes.Buffer
	for i := range 6 {
		fmt.Fprintf(&log, "5.255.253.%d - - [01/Mar/2026:00:%02d:00 +0000] \"GET /x HTTP/1.1\" 200 1 %s\n", 10+i%2, i, ua)
	}
	h, err := NewHistory(Version{Source: "r", File: parseRobots("User-agent: *\nDisallow: /private/\n")})
	if err != nil {
		t.Fatal(err)
	}
	v := &identity.Verifier{Resolver: identity.NewResolver(srv.Addr)}
	for _, inline := range []bool{false, true} {
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
		want := "PTR lookup for 5.255.253.1"
		if c := rep.Crawler("YandexBot"); c == nil || c.Unverifiable != 6 || rep.VerifyErrors != 2 ||
			!strings.HasPrefix(rep.VerifyError, want) || !strings.Contains(rep.VerifyError, " on "+srv.Addr+": ") {
			t.Fatalf("inline %v: %d verify errors, %q; YandexBot %+v", inline, rep.VerifyErrors, rep.VerifyError, c)
		}
		var text, html bytes.Buffer
		if err := WriteText(&text, rep); err != nil {
			t.Fatal(err)
		}
		if err := WriteHTML(&html, rep); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text.String(), "verification: dns+lists; failed for 2 address(es): "+rep.VerifyError) ||
			!strings.Contains(html.String(), "DNS verification failed for 2 address(es): "+template.HTMLEscapeString(rep.VerifyError)) {
			t.Errorf("inline %v: reports do not say verification failed:\n%s", inline, text.String())
		}
		// A second part: the same counts from another log file, an hour
		// later (the same part twice is refused, as it would double-count).
		other := *rep
		other.Sources = []string{"other.log"}
		other.First, other.Last = rep.First.Add(time.Hour), rep.Last.Add(time.Hour)
		m, err := Merge(10, rep, &other)
		if err != nil {
			t.Fatal(err)
		}
		if m.VerifyErrors != 4 || m.VerifyError != rep.VerifyError {
			t.Errorf("merged: %d, %q", m.VerifyErrors, m.VerifyError)
		}
	}
}
