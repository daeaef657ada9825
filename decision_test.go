package rep_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
)

// TestFetchOutcomeDecisions holds a Decision to its documentation for
// every way robots.txt can be fetched: Allowed, Reason, Via, String and
// the JSON shape must tell one story.
func TestFetchOutcomeDecisions(t *testing.T) {
	big := "User-agent: *\n" + strings.Repeat("Disallow: /filler/0123456789\n", 20000) + "Disallow: /late\n"
	site := func(h http.HandlerFunc) string {
		s := httptest.NewServer(h)
		t.Cleanup(s.Close)
		return s.URL
	}
	status := func(code int) string {
		return site(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(code) })
	}
	loop := site(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/robots.txt?again", http.StatusFound)
	})
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	tests := []struct {
		name    string
		base    string
		guard   bool
		path    string
		allowed bool
		reason  robotstxt.Reason
		via     robotstxt.Via
		say     string // String contains it
	}{
		{"200 rules", site(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "User-agent: *\nDisallow: /x\n") }), false, "/x", false, robotstxt.RuleMatched, robotstxt.ViaStar, "disallowed by line 2: Disallow: /x"},
		{"200 no rule", site(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "User-agent: *\nDisallow: /x\n") }), false, "/y", true, robotstxt.NoRuleMatched, robotstxt.ViaStar, "allowed: no rule matched"},
		{"404", status(404), false, "/x", true, robotstxt.Unavailable, robotstxt.ViaFetch, "allowed: robots.txt 404: 4xx: unavailable, no restrictions"},
		{"410", status(410), false, "/x", true, robotstxt.Unavailable, robotstxt.ViaFetch, "robots.txt 410"},
		{"too many redirects", loop, false, "/x", true, robotstxt.Unavailable, robotstxt.ViaFetch, "too many redirects"},
		{"300 without Location", status(300), false, "/x", true, robotstxt.Unavailable, robotstxt.ViaFetch, "unfollowable redirect"},
		{"503", status(503), false, "/x", false, robotstxt.Unreachable, robotstxt.ViaFetch, "disallowed: robots.txt 503: unreachable"},
		{"429", status(429), false, "/x", false, robotstxt.Unreachable, robotstxt.ViaFetch, "robots.txt 429"},
		{"connection refused", closedURL, false, "/x", false, robotstxt.Unreachable, robotstxt.ViaFetch, "disallowed: robots.txt: unreachable"},
		{"address refused by the guard", status(200), true, "/x", false, robotstxt.Unreachable, robotstxt.ViaFetch, "its address is loopback, private or link-local"},
		{"over 500 KiB: read to the limit", site(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, big) }), false, "/late", true, robotstxt.NoRuleMatched, robotstxt.ViaStar, "allowed: no rule matched"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := rep.New("ExampleBot/1.0", rep.WithFetchOptions(robotsfetch.Options{Guard: tt.guard}))
			if err != nil {
				t.Fatal(err)
			}
			d, err := c.Check(context.Background(), tt.base+tt.path)
			if err != nil {
				t.Fatal(err)
			}
			if d.Allowed != tt.allowed || d.Reason != tt.reason || d.Group.Via != tt.via {
				t.Errorf("allowed %v reason %v via %v; want %v %v %v", d.Allowed, d.Reason, d.Group.Via, tt.allowed, tt.reason, tt.via)
			}
			// Fetch-level verdicts carry no rule and no group; rule-level
			// ones come from the file.
			if d.FromFetch() != (tt.via == robotstxt.ViaFetch) || d.FromFetch() && (d.Rule.Line != 0 || d.Group.Agent != "") {
				t.Errorf("FromFetch %v, rule %v, group %q", d.FromFetch(), d.Rule, d.Group.Agent)
			}
			verdict := map[bool]string{true: "allowed", false: "disallowed"}[tt.allowed]
			if s := d.String(); !strings.HasPrefix(s, verdict+" ") && !strings.HasPrefix(s, verdict+":") || !strings.Contains(s, tt.say) {
				t.Errorf("String() = %q; want it to start with %q and contain %q", s, verdict, tt.say)
			}
			var j struct {
				Allowed bool   `json:"allowed"`
				Reason  string `json:"reason"`
				Via     string `json:"via"`
				Fetch   *struct {
					Verdict string `json:"verdict"`
				} `json:"fetch"`
			}
			b, _ := json.Marshal(d)
			if err := json.Unmarshal(b, &j); err != nil {
				t.Fatal(err)
			}
			wantVia := map[robotstxt.Via]string{robotstxt.ViaFetch: "fetch", robotstxt.ViaStar: "star"}[tt.via]
			if j.Allowed != tt.allowed || j.Via != wantVia || j.Reason != d.ReasonText() || j.Fetch == nil {
				t.Errorf("JSON %s", b)
			}
			if d.FromFetch() {
				want := map[bool]string{true: "allow-all", false: "disallow-all"}[tt.allowed]
				if j.Fetch.Verdict != want {
					t.Errorf("fetch verdict %q, want %q", j.Fetch.Verdict, want)
				}
			}
		})
	}
}
