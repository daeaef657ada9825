package robotstxt_test

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/internal/testkit/conformance"
	"github.com/rep-toolkit/rep/robotstxt"
)

// shared is the directory beside the checkout that holds the corpus, for
// the lint benchmarks, which read it from there. Every other test finds the
// corpus with internal/testkit/corpus, which honours $REP_CORPUS.
var shared = filepath.Join("..", "..", "shared")

type peerVector struct {
	Source       string `json:"source"`
	Robots       string `json:"robots"`
	RobotsBase64 string `json:"robots_base64"`
	Agent        string `json:"agent"`
	URL          string `json:"url"`
	Allowed      bool   `json:"allowed"`
	Google       *bool  `json:"google"`
	Note         string `json:"note"`
}

func loadPeerVectors(t testing.TB) []peerVector {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(conformance.Dir(), "robotstxt-peers.json"))
	if err != nil {
		t.Fatalf("conformance vectors are missing (testdata/conformance): %v", err)
	}
	var vs []peerVector
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	return vs
}

func (v peerVector) body(t testing.TB) []byte {
	if v.RobotsBase64 != "" {
		b, err := base64.StdEncoding.DecodeString(v.RobotsBase64)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	return []byte(v.Robots)
}

// isRobotsTxtURL reports whether the vector asks about /robots.txt itself,
// which RFC 9309 §2.2.2 always allows and Google's library does not special-case.
func isRobotsTxtURL(u string) bool {
	p := u
	if i := strings.Index(p, "://"); i >= 0 {
		p = p[i+3:]
		if j := strings.IndexAny(p, "/?;"); j >= 0 {
			p = p[j:]
		} else {
			p = "/"
		}
	}
	return p == "/robots.txt" || strings.HasPrefix(p, "/robots.txt?")
}

// TestPeerVectors runs all 1,164 vectors under the Google profile: the
// expectation is Google's answer (the "google" field where the source suite
// disagrees with Google), and /robots.txt is always allowed (RFC 9309).
// No vector is skipped.
func TestPeerVectors(t *testing.T) {
	vs := loadPeerVectors(t)
	if len(vs) != 1164 {
		t.Fatalf("got %d vectors, want 1164", len(vs))
	}
	failed := 0
	for i, v := range vs {
		want := v.Allowed
		if v.Google != nil {
			want = *v.Google
		}
		if isRobotsTxtURL(v.URL) {
			want = true
		}
		f := robotstxt.Parse(v.body(t))
		d := f.Check(v.Agent, v.URL)
		if d.Allowed != want {
			failed++
			t.Errorf("vector %d (%s): agent %q url %q: allowed=%v want %v (rule %q line %d)\nrobots.txt:\n%s",
				i, v.Source, v.Agent, v.URL, d.Allowed, want, d.Rule, d.Rule.Line, v.Robots)
		}
		// The Matcher view must agree with the one-shot Check.
		if d2 := f.Matcher(v.Agent).Check(v.URL); d2.Allowed != d.Allowed || d2.Rule.Line != d.Rule.Line {
			t.Errorf("vector %d: Matcher().Check and File.Check disagree", i)
		}
		if f.Matcher(v.Agent).Allowed(v.URL) != d.Allowed {
			t.Errorf("vector %d: Matcher().Allowed and File.Check disagree", i)
		}
	}
	t.Logf("%d of %d vectors pass", len(vs)-failed, len(vs))
}
