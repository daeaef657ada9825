package server

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// robotsCounter is a loopback site that counts its robots.txt fetches and
// takes a while to answer them, as a real site does.
type robotsCounter struct {
	*origin
	robots atomic.Int64
}

func newRobotsCounter(t *testing.T, body string) *robotsCounter {
	c := &robotsCounter{}
	c.origin = newOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		c.robots.Add(1)
		time.Sleep(50 * time.Millisecond)
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte(body))
	})
	return c
}

func postBatch(t *testing.T, u string, body any, accept string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("POST", u, strings.NewReader(jsonBody(t, body)))
	req.Header.Set("Content-Type", "application/json")
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b strings.Builder
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		b.WriteString(sc.Text())
		b.WriteByte('\n')
	}
	return res, []byte(b.String())
}

// TestBatch: 12,000 queries over four sites and some bad ones. The
// answers come in input order in the one verdict shape; each site's
// robots.txt is fetched once, the sites concurrently.
func TestBatch(t *testing.T) {
	sites := []*robotsCounter{
		newRobotsCounter(t, "User-agent: *\nDisallow: /private\n"),
		newRobotsCounter(t, "User-agent: GPTBot\nDisallow: /\n"),
		newRobotsCounter(t, "User-agent: *\nAllow: /\n"),
		newRobotsCounter(t, "User-agent: *\nDisallow: /\n"),
	}
	ts, _ := newGuardedServer(t, Config{})
	type query struct {
		Agent string `json:"agent,omitempty"`
		URL   string `json:"url"`
	}
	const n = 12000
	var qs []query
	want := make([]bool, n)
	for i := range n {
		s := i % len(sites)
		path := fmt.Sprintf("/page/%d", i)
		if i%3 == 0 {
			path = fmt.Sprintf("/private/%d", i)
		}
		agent := "Googlebot"
		if i%5 == 0 {
			agent = "GPTBot"
		}
		qs = append(qs, query{agent, sites[s].URL + path})
		switch s {
		case 0:
			want[i] = !strings.HasPrefix(path, "/private")
		case 1:
			want[i] = agent != "GPTBot"
		case 2:
			want[i] = true
		}
	}
	bad := map[int]int{7: 400, 11: 400, 13: 400}
	qs[7].URL = "ftp://example.com/x"
	qs[11].Agent = " "
	qs[13].URL = "/relative"
	start := time.Now()
	res, raw := postBatch(t, ts.URL+"/api/allowed", map[string]any{"queries": qs}, "")
	el := time.Since(start)
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("status %d %s: %.300s", res.StatusCode, res.Header.Get("Content-Type"), raw)
	}
	var out struct {
		Results []map[string]any `json:"results"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("answer is not JSON: %v", err)
	}
	if len(out.Results) != n {
		t.Fatalf("%d results for %d queries", len(out.Results), n)
	}
	for i, r := range out.Results {
		if r["url"] != qs[i].URL {
			t.Fatalf("result %d is for %v, want %s: not in input order", i, r["url"], qs[i].URL)
		}
		if st, ok := bad[i]; ok {
			if r["error"] == nil || r["error"] == "" || int(r["status"].(float64)) != st || r["allowed"] != false {
				t.Errorf("bad query %d: %v", i, r)
			}
			continue
		}
		if r["error"] != nil || r["allowed"] != want[i] || r["agent"] != qs[i].Agent {
			t.Errorf("query %d %v: %v, want allowed %v", i, qs[i], r, want[i])
		}
		for _, k := range []string{"line", "rule", "reason", "group", "via", "engine", "fetch"} {
			if _, ok := r[k]; !ok {
				t.Errorf("result %d lacks %q: %v", i, k, r)
			}
		}
	}
	for i, s := range sites {
		if n := s.robots.Load(); n != 1 {
			t.Errorf("site %d: robots.txt fetched %d times, want once", i, n)
		}
	}
	// Four fetches of 50 ms each, concurrently: well under their sum
	// plus the time to answer 12,000 queries.
	t.Logf("12,000 queries over 4 sites in %v", el)

	// The same as NDJSON, from the cache: one line per query, in order.
	res, raw = postBatch(t, ts.URL+"/api/allowed", map[string]any{"queries": qs[:100]}, "application/x-ndjson")
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("ndjson: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	if len(lines) != 100 {
		t.Fatalf("%d NDJSON lines for 100 queries", len(lines))
	}
	for i, l := range lines {
		var r map[string]any
		if err := json.Unmarshal([]byte(l), &r); err != nil || r["url"] != qs[i].URL {
			t.Fatalf("line %d: %v %s", i, err, l)
		}
	}
	for i, s := range sites {
		if n := s.robots.Load(); n != 1 {
			t.Errorf("after the second batch, site %d: robots.txt fetched %d times", i, n)
		}
	}
}

// TestBatchDefaultsAndLimits: the batch's agent applies to queries
// without one; a site the client may not fetch now answers 429 in its
// results, with retry_after, and the other sites are answered.
func TestBatchDefaultsAndLimits(t *testing.T) {
	a := newRobotsCounter(t, "User-agent: *\nDisallow: /private\n")
	b := newRobotsCounter(t, "User-agent: *\nDisallow: /\n")
	ts, _ := newGuardedServer(t, Config{RatePerSecond: 1, Burst: 1, Now: newClock().Now})
	qs := []map[string]string{{"url": a.URL + "/private"}, {"url": b.URL + "/"}, {"url": a.URL + "/"}, {"url": b.URL + "/x"}}
	res, raw := postBatch(t, ts.URL+"/api/allowed", map[string]any{"agent": "Googlebot", "queries": qs}, "")
	if res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}
	var out struct {
		Results []map[string]any `json:"results"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	// One token: the sites are fetched concurrently, so either may get
	// it; the other's queries say 429.
	got := out.Results
	first, second := []map[string]any{got[0], got[2]}, []map[string]any{got[1], got[3]}
	fetched, refused := a, b
	if got[0]["error"] != nil {
		first, second = second, first
		fetched, refused = b, a
	}
	for _, r := range first {
		if r["error"] != nil || r["agent"] != "Googlebot" || r["fetch"] == nil {
			t.Errorf("site within the limit: %v", r)
		}
	}
	for _, r := range second {
		if r["status"] != float64(429) || r["retry_after"] != float64(1) || r["error"] == nil || r["allowed"] != false || r["agent"] != "Googlebot" {
			t.Errorf("site beyond the client's limit: %v", r)
		}
	}
	if fetched.robots.Load() != 1 || refused.robots.Load() != 0 {
		t.Errorf("robots.txt fetched %d and %d times, want 1 and 0", fetched.robots.Load(), refused.robots.Load())
	}
	if got[0]["allowed"] == true || (got[0]["error"] == nil && got[2]["allowed"] != true) {
		t.Errorf("verdicts: %v %v", got[0], got[2])
	}

	// Requests the batch refuses whole.
	for _, tt := range []struct{ body string }{{`{}`}, {`{"queries":[{"url":"https://example.com/","agnt":"x"}]}`}} {
		if st, m := call(t, "POST", ts.URL+"/api/allowed", tt.body); st != 400 {
			t.Errorf("%s: %d %v", tt.body, st, m)
		}
	}
}
