package robotsmeta

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestGolden parses each testdata/lint/*.txt (header lines, a "---" line,
// then the body bytes) and compares everything the Page holds, plus the
// policy for two crawlers, with the .golden file. Run with -update to
// rewrite the golden files.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/lint/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	now := mustTime(t, "2026-06-01T00:00:00Z")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			head, body, ok := bytes.Cut(data, []byte("---\n"))
			if !ok {
				t.Fatal("no --- line")
			}
			var lines []string
			for _, l := range strings.Split(string(head), "\n") {
				if l != "" {
					lines = append(lines, l)
				}
			}
			p, err := ParseLines(lines, bytes.NewReader(body), Options{Now: now})
			if err != nil {
				t.Fatal(err)
			}
			got := dumpPage(p, now)
			golden := strings.TrimSuffix(f, ".txt") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if got != string(want) {
				t.Errorf("mismatch with %s (run with -update to accept):\n%s", golden, got)
			}
		})
	}
}

func dumpPage(p *Page, now time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "charset %s, stop %s\n", p.Charset, p.Stop)
	for i, s := range p.Sources {
		fmt.Fprintf(&b, "source %d: %s %q\n", i, s, s.Value)
	}
	for _, r := range p.Rules {
		fmt.Fprintf(&b, "rule: %s (source %d, lenient %v)\n", r, r.Source, r.Lenient)
	}
	for _, l := range p.Links {
		fmt.Fprintf(&b, "link %d:%d %q rel=%q (%03b)\n", l.Line, l.Column, l.Href, l.RelText, l.Rel)
	}
	for _, r := range p.NoSnippet {
		fmt.Fprintf(&b, "nosnippet %s %d:%d %q\n", r.Tag, r.Line, r.Column, r.Text)
	}
	for _, r := range p.NoContent {
		fmt.Fprintf(&b, "nocontent %s %d:%d %q\n", r.Tag, r.Line, r.Column, r.Text)
	}
	if p.Base != "" {
		fmt.Fprintf(&b, "base %q\n", p.Base)
	}
	for _, d := range p.Diagnostics {
		fmt.Fprintf(&b, "diag %s\n", d)
	}
	for _, q := range []struct {
		agent string
		prof  Profile
	}{{"googlebot", Google}, {"bingbot", Bing}} {
		pol := p.Policy(q.agent, q.prof, now)
		j, _ := json.Marshal(pol.Summary())
		fmt.Fprintf(&b, "policy %s/%s: %s\n", q.agent, q.prof, j)
		for _, f := range Fields() {
			if r, ok := pol.Why(f); ok {
				fmt.Fprintf(&b, "  %s <- %s\n", f, r.Source)
			}
		}
	}
	return b.String()
}
