package lint_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/lint"
)

// FuzzLint: Run never panics, every finding has a documented code, a
// message, a hint and a line that exists, and the JSON and SARIF outputs
// are valid JSON.
func FuzzLint(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "cases", "*", "robots.txt"))
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil && len(b) < 64<<10 {
			f.Add(b, uint8(0))
		}
	}
	f.Add([]byte("User-agent: *\nDisallow: /*a*b$\nAllow: /*a\n"), uint8(3))
	f.Add([]byte("\xef\xbb\xbfUser-agent: x\r\rDisallow: /\x00\n\xff"), uint8(1))
	fuzzAgents := map[engine.Engine][]*rep.Agent{}
	for _, e := range engine.All() {
		for _, n := range []string{"Googlebot", "bingbot,Googlebot", "Mozilla/5.0 (compatible; bingbot/2.0)", "AdsBot-Google"} {
			a, err := rep.NewAgent(n, rep.AgentOptions{Engine: e})
			if err != nil {
				f.Fatal(err)
			}
			fuzzAgents[e] = append(fuzzAgents[e], a)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, profile uint8) {
		e := engine.All()[profile%4]
		opts := lint.Options{Engine: e, Agents: fuzzAgents[e], URL: "https://example.com/robots.txt"}
		r := lint.Run(data, opts)
		lines := bytes.Count(data, []byte("\n")) + bytes.Count(data, []byte("\r")) + 1
		for _, d := range r.Findings {
			if _, ok := lint.Explain(d.Code); !ok {
				t.Fatalf("undocumented code: %v", d)
			}
			if d.Message == "" || d.Hint == "" || d.Line < 1 || d.Line > lines || d.Column < 1 {
				t.Fatalf("bad finding (file has %d lines): %#v", lines, d)
			}
		}
		var js, sarif, txt bytes.Buffer
		if err := r.WriteJSON(&js, "robots.txt", lint.Info); err != nil || !json.Valid(js.Bytes()) {
			t.Fatalf("JSON output invalid (%v):\n%s", err, js.String())
		}
		if err := r.WriteSARIF(&sarif, "robots.txt", lint.Info); err != nil || !json.Valid(sarif.Bytes()) {
			t.Fatalf("SARIF output invalid (%v):\n%s", err, sarif.String())
		}
		if err := r.WriteText(&txt, "robots.txt", lint.Info); err != nil {
			t.Fatal(err)
		}
		if len(r.Agents) != len(opts.Agents) {
			t.Fatalf("%d agent views for %d agents", len(r.Agents), len(opts.Agents))
		}
	})
}
