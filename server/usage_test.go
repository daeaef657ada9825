package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/aipref"
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

// TestPageUsage checks the usage verdict /api/page gives per crawler: the
// pasted robots.txt's statements for the URL with the page's own, the
// most restrictive winning and the statements it beat marked outweighed.
func TestPageUsage(t *testing.T) {
	ts := newTestServer(t, Config{})
	body := jsonBody(t, map[string]any{
		"url":     "https://example.com/blog/post",
		"headers": "Content-Usage: ai-use=n",
		"html":    "<html><head>\n<meta name=\"GPTBot\" content=\"noai\">\n</head></html>",
		"robots":  "User-agent: *\nContent-Signal: ai-train=yes, search=yes\nContent-Usage: /blog/ train-ai=y\nAllow: /\n",
		"agents":  []string{"Googlebot", "GPTBot"},
	})
	res, err := http.Post(ts.URL+"/api/page", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var got struct {
		Crawlers []struct {
			Agent string
			Usage aipref.Usage
		}
	}
	if err := json.NewDecoder(res.Body).Decode(&got); err != nil || res.StatusCode != 200 {
		t.Fatalf("status %d, %v", res.StatusCode, err)
	}
	for i, want := range []struct {
		agent      string
		verdict    string
		outweighed []string // "carrier category" of the statements that lost
	}{
		{"Googlebot", "train-ai=allowed ai-use=disallowed search=allowed", nil},
		{"GPTBot", "train-ai=disallowed ai-use=disallowed search=allowed",
			[]string{"robots.txt Content-Usage train-ai", "robots.txt Content-Signal train-ai"}},
	} {
		if len(got.Crawlers) != 2 {
			t.Fatalf("%d crawlers, want 2", len(got.Crawlers))
		}
		c := got.Crawlers[i]
		if c.Agent != want.agent || c.Usage.String() != want.verdict {
			t.Errorf("%s: usage %s, want %s: %s", c.Agent, c.Usage, want.agent, want.verdict)
		}
		var lost []string
		lines := map[aipref.Carrier]int{}
		for _, e := range c.Usage.Evidence {
			if e.Outweighed {
				lost = append(lost, string(e.Carrier)+" "+string(e.Category))
			}
			lines[e.Carrier] = e.Line
		}
		if !slices.Equal(lost, want.outweighed) {
			t.Errorf("%s: outweighed %q, want %q", c.Agent, lost, want.outweighed)
		}
		if lines[aipref.RobotsContentSignal] != 2 || lines[aipref.RobotsContentUsage] != 3 || lines[aipref.HeaderContentUsage] != 1 {
			t.Errorf("%s: evidence lines %v, want Content-Signal 2, Content-Usage 3, the header 1", c.Agent, lines)
		}
	}
}
