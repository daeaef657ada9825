package audit

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestEstimatesMarked: once a top-k list outgrows its bound, its counts are
// Space-Saving estimates; the JSON says so (estimated, error) and the text
// report prints them as "~N, at least M", never as exact counts. Exact
// counts stay plain.
func TestEstimatesMarked(t *testing.T) {
	tk := newTopK(2)
	for _, k := range []string{"/a", "/a", "/a", "/b", "/b", "/c"} {
		tk.add([]byte(k), 1)
	}
	l := tk.list()
	var est *PathCount
	for i := range l {
		if l[i].Path == "/c" {
			est = &l[i]
		}
		if l[i].Path == "/a" && (l[i].Estimated || l[i].Error != 0 || l[i].Count != 3) {
			t.Errorf("/a: %+v, want exactly 3", l[i])
		}
	}
	if est == nil || !est.Estimated || est.Error != 2 || est.Count != 3 {
		t.Fatalf("list %+v: want /c estimated at 3 with error 2", l)
	}
	b, _ := json.Marshal(est)
	if !strings.Contains(string(b), `"estimated":true`) || !strings.Contains(string(b), `"error":2`) {
		t.Errorf("JSON %s", b)
	}
	merged := mergeIPs([]IPCount{{IP: "192.0.2.1", Count: 5, Error: 1, Estimated: true}}, []IPCount{{IP: "192.0.2.1", Count: 2}, {IP: "192.0.2.2", Count: 4}}, 10)
	if merged[0].IP != "192.0.2.1" || merged[0].Count != 7 || merged[0].Error != 1 || !merged[0].Estimated || merged[1].Estimated {
		t.Errorf("merged IPs %+v: the estimate and its bound must survive a merge", merged)
	}
	r := &Report{Crawlers: []*Crawler{{Name: "Googlebot", Requests: 6, TopPaths: l,
		SpoofedFrom: merged}}}
	var text bytes.Buffer
	if err := WriteText(&text, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"/c (~3, at least 1)", "/a (3)", "192.0.2.1 (~7, at least 6)", "192.0.2.2 (4)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
}
