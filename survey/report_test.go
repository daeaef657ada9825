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

// TestReportTies pins the rule for captures of one host with the same
// time: each crawler counts as the most restrictive of them says, the
// class is the most restrictive, whatever the order of the input.
func TestReportTies(t *testing.T) {
	at := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	caps := []Capture{
		{Host: "a.test", URL: "https://a.test/robots.txt", Time: at, Status: 200, Body: []byte("User-agent: GPTBot\nDisallow: /\n")},
		{Host: "a.test", URL: "http://a.test/robots.txt", Time: at, Status: 200, Body: []byte("User-agent: *\nDisallow: /private\n")},
		{Host: "a.test", URL: "https://a.test/robots.txt", Time: at.Add(-time.Hour), Status: 503}, // older: ignored
		{Host: "b.test", URL: "https://b.test/robots.txt", Time: at, Status: 404},
		{Host: "b.test", URL: "https://b.test/robots.txt", Time: at, Status: 503},
		{Host: "c.test", URL: "https://c.test/robots.txt", Time: at, Status: 302, Location: "https://gone.test/robots.txt"},
		{Host: "c.test", URL: "https://c.test/robots.txt", Time: at, Status: 404},
	}
	rows := surveyAll(t, []string{"GPTBot", "CCBot"}, func(s *Store) error {
		for _, c := range caps {
			if err := s.Add(c); err != nil {
				return err
			}
		}
		return nil
	})
	if len(rows) != 2*len(caps) {
		t.Fatalf("%d rows", len(rows))
	}
	report := func(order []int) string {
		rp := NewReporter()
		for _, i := range order {
			rp.Add(rows[2*i : 2*i+2])
		}
		var b bytes.Buffer
		if err := rp.Report().WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	fwd := report([]int{0, 1, 2, 3, 4, 5, 6})
	if rev := report([]int{6, 5, 4, 3, 2, 1, 0}); rev != fwd {
		t.Fatalf("the report depends on the order of the input:\n%s\n%s", fwd, rev)
	}
	rp := NewReporter()
	for i := 0; i < len(rows); i += 2 {
		rp.Add(rows[i : i+2])
	}
	all := rp.Report().Periods[0]
	// a: GPTBot full (its own group), CCBot partial (the "*" capture);
	// b: 503 beats 404; c: 404 (allow-all) beats the uncaptured redirect.
	got := map[string]string{}
	for _, c := range all.Crawlers {
		got[c.Crawler] = strings.Join([]string{itoa(c.Full), itoa(c.Partial), itoa(c.None), itoa(c.Unknown)}, " ")
	}
	if got["GPTBot"] != "2 0 1 0" || got["CCBot"] != "1 1 1 0" {
		t.Errorf("full partial none unknown: GPTBot %s, CCBot %s; want 2 0 1 0, 1 1 1 0", got["GPTBot"], got["CCBot"])
	}
	if all.Classes["rules"] != 1 || all.Classes["disallow-all"] != 1 || all.Classes["allow-all"] != 1 {
		t.Errorf("classes %v, want rules, disallow-all and allow-all 1 each", all.Classes)
	}
}
