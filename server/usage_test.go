package server

import (
	"fmt"
	"net/http"
	"testing"
)

// TestAllowedUsage checks that /api/allowed carries the usage verdict of
// the origin's robots.txt for the URL, in the one verdict shape.
func TestAllowedUsage(t *testing.T) {
	o := newOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nContent-Signal: search=yes, ai-train=no\nContent-Usage: /docs/ ai-use=n\nAllow: /\n")
	})
	ts, _ := newGuardedServer(t, Config{RatePerSecond: -1})
	st, m := call(t, "GET", ts.URL+"/api/allowed?url="+o.URL+"/docs/a&agent=examplebot", "")
	if st != 200 {
		t.Fatalf("status %d: %v", st, m)
	}
	u, ok := m["usage"].(map[string]any)
	if !ok {
		t.Fatalf("no usage object: %v", m)
	}
	if u["train_ai"] != "disallowed" || u["ai_use"] != "disallowed" || u["search"] != "allowed" {
		t.Errorf("usage %v, want train_ai disallowed, ai_use disallowed, search allowed", u)
	}
	if ev, _ := u["evidence"].([]any); len(ev) != 3 {
		t.Errorf("evidence %v, want 3 statements", ev)
	}
}
