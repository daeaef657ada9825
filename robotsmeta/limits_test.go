package robotsmeta

import (
	"io"
	"runtime"
	"strings"
	"testing"
)

// genReader produces size bytes: head, then chunk repeated, then tail. It
// samples the live heap every MiB, so a test can bound peak memory while
// the document streams through Parse.
type genReader struct {
	parts     []string // head, chunk, tail
	size, n   int64
	off       int
	part      int
	peak      uint64
	nextCheck int64
}

func newGen(head, chunk, tail string, size int64) *genReader {
	return &genReader{parts: []string{head, chunk, tail}, size: size}
}

func (g *genReader) Read(b []byte) (int, error) {
	if g.n >= g.nextCheck {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		g.peak = max(g.peak, ms.HeapAlloc)
		g.nextCheck += 1 << 20
	}
	if g.part == 2 && g.off >= len(g.parts[2]) {
		return 0, io.EOF
	}
	if g.part == 1 && g.n+int64(len(g.parts[2])) >= g.size {
		g.part, g.off = 2, 0
	}
	s := g.parts[g.part][g.off:]
	n := copy(b, s)
	g.off += n
	g.n += int64(n)
	if g.off == len(g.parts[g.part]) && g.part == 0 {
		g.part, g.off = 1, 0
	} else if g.off == len(g.parts[g.part]) && g.part == 1 {
		g.off = 0
	}
	return n, nil
}

func heapNow() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestLargePageBoundedMemory streams a 50 MB page full of links, metas,
// nosnippet regions and unclosed elements, with no byte cap, and checks
// that the live heap stays bounded by the Options limits, not the size.
func TestLargePageBoundedMemory(t *testing.T) {
	chunk := `<div><p>Lorem ipsum dolor sit amet, consectetur adipiscing elit &amp; more.
<a href="/some/path/to/a/page?id=12345" rel="nofollow ugc">link</a> <span data-nosnippet>secret text</span>
<meta name="robots" content="max-snippet:50"><section><b>unclosed bold<i>italic
`
	size := int64(50 << 20)
	if raceEnabled {
		size = 8 << 20
		t.Logf("race detector on: streaming %d MB instead of 50 MB", size>>20)
	}
	g := newGen(`<!DOCTYPE html><html><head><meta name="robots" content="noarchive"></head><body>`, chunk, `<meta name="robots" content="noindex"></body></html>`, size)
	base := heapNow()
	p, err := ParseLines(nil, g, Options{MaxBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	if p.BytesRead < size || p.Stop != StopEOF {
		t.Fatalf("read %d bytes, stop %s; want the whole %d", p.BytesRead, p.Stop, size)
	}
	pol := p.Policy("googlebot", Google, mustTime(t, "2026-06-01T00:00:00Z"))
	if pol.Archive || pol.MaxSnippet.N != 50 {
		t.Errorf("policy lost early rules: archive=%v max-snippet=%v", pol.Archive, pol.MaxSnippet)
	}
	if len(p.Links) != min(100000, int(size/int64(len(chunk)))) || len(p.NoSnippet) != 10000 || len(p.Sources) != 1000 {
		t.Errorf("kept %d links, %d regions, %d sources; want the caps", len(p.Links), len(p.NoSnippet), len(p.Sources))
	}
	codes := map[string]bool{}
	for _, d := range p.Diagnostics {
		codes[d.Code] = true
	}
	want := []string{"limit-regions", "limit-sources", "limit-depth"}
	if size/int64(len(chunk)) > 100000 {
		want = append(want, "limit-links")
	}
	for _, c := range want {
		if !codes[c] {
			t.Errorf("no %s diagnostic", c)
		}
	}
	grew := int64(g.peak) - int64(base)
	t.Logf("%d MB page: peak live heap %.1f MB above baseline, %d diagnostics", size>>20, float64(grew)/(1<<20), len(p.Diagnostics))
	if grew > 64<<20 {
		t.Errorf("peak live heap grew by %d MB while streaming 50 MB", grew>>20)
	}
	runtime.KeepAlive(p)
}

// TestMaxBytes: the default cap stops at 15 MiB, and says so.
func TestMaxBytes(t *testing.T) {
	g := newGen("<html><body>", "<p>filler text</p>\n", `<meta name="robots" content="noindex">`, 20<<20)
	p, err := ParseLines(nil, g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Stop != StopMaxBytes || p.BytesRead != 15<<20 {
		t.Fatalf("stop %s after %d bytes, want max-bytes after %d", p.Stop, p.BytesRead, 15<<20)
	}
	if pol := p.Policy("googlebot", Google, mustTime(t, "2026-06-01T00:00:00Z")); !pol.Index {
		t.Error("a meta after the cap was applied")
	}
}

// TestMaxToken: one enormous text run stops the read with a diagnostic
// instead of buffering it.
func TestMaxToken(t *testing.T) {
	doc := `<meta name="robots" content="nofollow"><p>` + strings.Repeat("x", 2<<20) + `<meta name="robots" content="noindex">`
	p, err := ParseLines(nil, strings.NewReader(doc), Options{MaxToken: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if p.Stop != StopToken || len(p.Rules) != 1 {
		t.Fatalf("stop %s with %d rules", p.Stop, len(p.Rules))
	}
}

// TestDeepNesting: 10,000 nested elements of several kinds parse with a
// bounded stack, and what follows them is still read.
func TestDeepNesting(t *testing.T) {
	const n = 10000
	for _, tc := range []struct{ name, open, close string }{
		{"div", "<div>", "</div>"},
		{"span", "<span>", "</span>"},
		{"custom", "<x-a>", "</x-a>"},
		{"svg", "<svg>", "</svg>"},
		{"template", "<template>", "</template>"},
		{"table", "<table><tr><td>", "</td></tr></table>"},
		{"unclosed-p", "<p>", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := `<html><body><div data-nosnippet>start ` + strings.Repeat(tc.open, n) + "deep" +
				strings.Repeat(tc.close, n) + ` end</div><p>after</p><meta name="robots" content="noindex"><a href="/x">x</a>`
			base := heapNow()
			p, err := ParseLines(nil, strings.NewReader(doc), Options{})
			if err != nil {
				t.Fatal(err)
			}
			grew := int64(heapNow()) - int64(base)
			if grew > 4<<20 {
				t.Errorf("retained %d KB after parsing", grew>>10)
			}
			pol := p.Policy("googlebot", Google, mustTime(t, "2026-06-01T00:00:00Z"))
			if pol.Index {
				t.Error("meta after the nesting was not read")
			}
			if tc.name == "template" {
				if len(p.Links) != 1 || len(p.NoSnippet) != 1 || p.NoSnippet[0].Text != "start end" {
					t.Errorf("template: links %v regions %+v", p.Links, p.NoSnippet)
				}
				return
			}
			if len(p.NoSnippet) != 1 || !strings.HasPrefix(p.NoSnippet[0].Text, "start deep") {
				t.Errorf("regions %+v", p.NoSnippet)
			}
		})
	}
}
