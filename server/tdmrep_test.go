package server

import (
	"net/http"
	"testing"
)

// TestPageTDMRep: for a fetched page /api/page fetches the site's
// /.well-known/tdmrep.json through the guarded page client, and its rule
// for the page joins every crawler's usage verdict; a pasted page does
// not fetch it.
func TestPageTDMRep(t *testing.T) {
	serve := true
	o := newOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.Write([]byte("User-agent: *\nAllow: /\n"))
		case "/.well-known/tdmrep.json":
			if !serve {
				http.NotFound(w, r)
				return
			}
			w.Write([]byte(`[{"location": "/free/*", "tdm-reservation": 0}, {"location": "/*", "tdm-reservation": 1}]`))
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html><head></head></html>"))
		}
	})
	ts, _ := newGuardedServer(t, Config{RatePerSecond: -1})
	st, m := call(t, "POST", ts.URL+"/api/page", `{"url":"`+o.URL+`/books/1","agents":["GPTBot","Googlebot"]}`)
	if st != 200 {
		t.Fatalf("status %d %v", st, m)
	}
	tf, _ := m["tdmrep"].(map[string]any)
	if tf == nil || tf["url"] != o.URL+"/.well-known/tdmrep.json" || tf["status"].(float64) != 200 {
		t.Fatalf("tdmrep = %v", m["tdmrep"])
	}
	if ev := tf["evidence"].([]any); len(ev) != 2 || ev[0].(map[string]any)["line"].(float64) != 2 {
		t.Errorf("tdmrep evidence = %v, want entry 2 for train-ai and ai-use", ev)
	}
	for _, c := range m["crawlers"].([]any) {
		c := c.(map[string]any)
		u := c["usage"].(map[string]any)
		if u["train_ai"] != "disallowed" || u["ai_use"] != "disallowed" {
			t.Errorf("%s usage = %v, want train-ai and ai-use disallowed by tdmrep.json", c["agent"], u)
		}
	}

	serve = false
	_, m = call(t, "POST", ts.URL+"/api/page", `{"url":"`+o.URL+`/books/1"}`)
	if tf, _ := m["tdmrep"].(map[string]any); tf == nil || tf["note"] != "no tdmrep.json (HTTP 404)" {
		t.Errorf("404: tdmrep = %v", m["tdmrep"])
	}
	for _, c := range m["crawlers"].([]any) {
		if u := c.(map[string]any)["usage"].(map[string]any); u["train_ai"] != "unknown" {
			t.Errorf("404: usage %v", u)
		}
	}

	_, m = call(t, "POST", ts.URL+"/api/page", `{"url":"`+o.URL+`/books/1","html":"<p>x</p>"}`)
	if _, ok := m["tdmrep"]; ok {
		t.Errorf("pasted page: tdmrep fetched: %v", m["tdmrep"])
	}
}
