package survey

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestReportMonths counts the latest capture of each host, overall and
// per month, with the counts behind each share.
func TestReportMonths(t *testing.T) {
	jan, feb := time.Date(2025, 1, 10, 0, 0, 0, 0, time.UTC), time.Date(2025, 2, 10, 0, 0, 0, 0, time.UTC)
	block := []byte("User-agent: GPTBot\nDisallow: /\n")
	part := []byte("User-agent: *\nDisallow: /private\n")
	caps := []Capture{
		{Host: "a.test", Time: jan, Status: 200, Body: part},
		{Host: "a.test", Time: feb, Status: 200, Body: block}, // a blocks GPTBot from February
		{Host: "b.test", Time: jan, Status: 404},
		{Host: "b.test", Time: jan.Add(time.Hour), Status: 200, Body: block}, // the later January capture counts
		{Host: "c.test", Time: feb, Status: 503},
		{Host: "d.test", Time: feb, Status: 302, Location: "https://gone.test/robots.txt"},
	}
	rows := surveyAll(t, []string{"GPTBot", "CCBot"}, func(s *Store) error {
		for _, c := range caps {
			if err := s.Add(c); err != nil {
				return err
			}
		}
		return nil
	})
	rp := NewReporter()
	for i := 0; i < len(rows); i += 2 {
		rp.Add(rows[i : i+2])
	}
	r := rp.Report()
	if r.Captures != 6 || r.Hosts != 4 || len(r.Periods) != 3 {
		t.Fatalf("captures %d hosts %d periods %d", r.Captures, r.Hosts, len(r.Periods))
	}
	want := map[string]string{
		// all: a block(full), b block(full), c 503(full), d missing
		"all GPTBot":     "3 3 0 0 1",
		"2025-01 GPTBot": "2 1 1 0 0",
		"2025-02 GPTBot": "2 2 0 0 1",
	}
	got := map[string]string{}
	for _, p := range r.Periods {
		for _, c := range p.Crawlers {
			got[p.Month+" "+c.Crawler] = strings.Join([]string{itoa(c.Known), itoa(c.Full), itoa(c.Partial), itoa(c.None), itoa(c.Unknown)}, " ")
		}
	}
	// CCBot: a (Feb: GPTBot group only) none, b (block names GPTBot) none,
	// c (503) full, d unknown.
	want["all CCBot"] = "3 1 0 2 1"
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: known full partial none unknown = %s, want %s", k, got[k], w)
		}
	}
	var text, html, js bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteHTML(&html); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"== 2025-02: 3 hosts", "100.0%"} {
		if !strings.Contains(text.String(), s) {
			t.Errorf("text report lacks %q:\n%s", s, text.String())
		}
	}
	if !strings.Contains(html.String(), "<svg") || !strings.Contains(js.String(), `"all_full"`) {
		t.Error("HTML report without a chart or JSON without purpose counts")
	}
}
