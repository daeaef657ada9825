package robotstxt

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"
)

// TestFileOwnsItsMemory: a parse grows the arena, rules, groups,
// user-agent, Sitemap and unknown lines in scratch that the next parse
// reuses. A File must keep none of it, so parsing other files afterwards
// leaves it as it was; nor may it keep the input, which the caller may
// overwrite.
func TestFileOwnsItsMemory(t *testing.T) {
	a := []byte("User-agent: a\nUser-agent: b\nDisallow: /a/\nUser-agent: *\nAllow: /x/index.html\nDisallow: /%7e\nDisallow: /*.pdf$\n" +
		"Sitemap: https://example.com/s.xml\nFoo: bar\nUser-agent: bot/1.0\nDisallow /no-colon\n")
	other := bytes.Repeat([]byte("User-agent: zzzzzzzz\nDisallow: /zzzzzzzzzzzzzzzz\nAllow: /yyyyyyyy*\nSitemap: https://zzz.test/zzzzzz\nQqqqq: qqqqqqqqqq\n"), 40)
	// The pool hands a parse the scratch the parse before it put back
	// (under -race it drops some of what is put back), so each round grows
	// the scratch past what a needs, parses a into it, then parses over it.
	for round := range 20 {
		Parse(other)
		f := Parse(a)
		// A copy of what f holds, taken now: a File parsed later could
		// share the very scratch f would wrongly share.
		want := snapshot(f)
		Parse(other)
		Parse(other)
		if got := snapshot(f); got != want {
			t.Fatalf("round %d: a File changed when later files were parsed:\n got %s\nwant %s", round, got, want)
		}
	}
	in := bytes.Clone(a)
	f := Parse(in)
	want := snapshot(f)
	for i := range in {
		in[i] = 'x'
	}
	if got := snapshot(f); got != want {
		t.Fatalf("a File changed when its input was overwritten:\n got %s\nwant %s", got, want)
	}
	if len(f.Sitemaps()) != 1 || len(f.Unknown()) != 1 || len(f.Diagnostics()) < 2 {
		t.Fatalf("the test file lost its point: sitemaps %v, unknown %v, diagnostics %v", f.Sitemaps(), f.Unknown(), f.Diagnostics())
	}
	if d := f.Matcher("b").Check("/a/x"); d.Allowed || d.Rule.Line != 3 {
		t.Errorf("b, /a/x: %+v, want disallowed by line 3", d)
	}
	if d := f.Star().Check("/x/"); !d.Allowed || d.Reason != IndexHTML || d.Rule.Line != 5 {
		t.Errorf("*, /x/: %+v, want allowed by the index.html rule on line 5", d)
	}
}

// snapshot renders what a File keeps from its parse into a new string.
func snapshot(f *File) string {
	return fmt.Sprintf("arena %q\nrules %v\ngroups %v\nuas %v\nsitemaps %+v\nunknown %+v\ndiagnostics %+v",
		f.arena, f.rules, f.groups, f.uas, f.sitemaps, f.unknown, f.diags)
}

// TestParseSizesFromLimit: what a parse allocates follows the part of the
// input it reads, not the size of a body the limit cuts. A 10 MB body read
// to the default 500 KiB once made 18.7 MB of scratch; now 3.2 MB on the
// first parse and 1.0 MB once the pool holds its scratch.
func TestParseSizesFromLimit(t *testing.T) {
	line := []byte("User-agent: *\nDisallow: /private/x\nAllow: /public/y\n")
	data := bytes.Repeat(line, 10<<20/len(line))
	Parse(data) // the first call fills the pools either way
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f := Parse(data)
	runtime.ReadMemStats(&after)
	if !f.Truncated() {
		t.Fatal("a 10 MB body is not cut at the default limit")
	}
	if got, most := after.TotalAlloc-before.TotalAlloc, uint64(8*DefaultMaxBytes); got > most {
		t.Errorf("parsing a 10 MB body read to %d bytes allocated %d bytes; want at most %d", f.ParsedBytes(), got, most)
	}
}

// TestScratchBudget: the pool keeps a scratch by the memory it holds in
// all, so no kind of record can pin more than maxPooledScratch; put leaves
// the scratch empty and its diagnostics cleared, whether it is kept or not.
func TestScratchBudget(t *testing.T) {
	// What the largest corpus file, cut at the default limit, leaves.
	sc := &parseScratch{arena: make([]byte, 0, 320<<10), rules: make([]rule, 0, 19200), uas: make([]uaLine, 0, 4)}
	if n, want := sc.bytes(), 320<<10+19200*16+4*16; n != want || n > maxPooledScratch {
		t.Errorf("scratch of a default-limit file: %d bytes (want %d), kept only up to %d", n, want, maxPooledScratch)
	}
	// Diagnostics are large records: 32 Ki of them are over the budget
	// although the arena and the rules are small.
	sc = &parseScratch{diags: make([]Diagnostic, 1, 32<<10)}
	sc.diags[0] = Diagnostic{Line: 1, Message: "m"}
	if sc.bytes() <= maxPooledScratch {
		t.Errorf("32 Ki diagnostics (%d bytes) fit the budget of %d", sc.bytes(), maxPooledScratch)
	}
	sc.put()
	if len(sc.diags) != 0 || sc.diags[:1][0] != (Diagnostic{}) {
		t.Errorf("put left diagnostics: %v", sc.diags[:1])
	}
}

// TestScratchBytes: bytes counts every array the scratch holds, at its
// capacity times its record size (rule, group and uaLine records are 16
// bytes (on 64-bit platforms, as TestScratchBudget assumes), textLine 20, Diagnostic 72, order's int32 4).
func TestScratchBytes(t *testing.T) {
	for _, c := range []struct {
		name string
		sc   parseScratch
		want int
	}{
		{"empty", parseScratch{}, 0},
		{"arena", parseScratch{arena: make([]byte, 1, 100)}, 100},
		{"rules", parseScratch{rules: make([]rule, 0, 10)}, 160},
		{"groups", parseScratch{groups: make([]group, 0, 10)}, 160},
		{"uas", parseScratch{uas: make([]uaLine, 0, 10)}, 160},
		{"sitemaps", parseScratch{sitemaps: make([]textLine, 0, 10)}, 200},
		{"unknown", parseScratch{unknown: make([]textLine, 0, 10)}, 200},
		{"diags", parseScratch{diags: make([]Diagnostic, 0, 10)}, 720},
		{"order", parseScratch{order: make([]int32, 0, 10)}, 40},
		{"all", parseScratch{arena: make([]byte, 0, 100), rules: make([]rule, 0, 10), groups: make([]group, 0, 10),
			uas: make([]uaLine, 0, 10), sitemaps: make([]textLine, 0, 10), unknown: make([]textLine, 0, 10),
			diags: make([]Diagnostic, 0, 10), order: make([]int32, 0, 10)}, 1740},
	} {
		if got := c.sc.bytes(); got != c.want {
			t.Errorf("%s: bytes() = %d, want %d", c.name, got, c.want)
		}
	}
}

// TestNoListWithoutLines: a file without Sitemap or unknown lines gets no
// list for them (nil, not an allocated empty slice); one such line gets a
// list of one.
func TestNoListWithoutLines(t *testing.T) {
	f := Parse([]byte("User-agent: *\nDisallow: /\n"))
	if f.Sitemaps() != nil || f.Unknown() != nil {
		t.Errorf("no Sitemap or unknown line: Sitemaps() = %#v, Unknown() = %#v; want nil", f.Sitemaps(), f.Unknown())
	}
	f = Parse([]byte("Sitemap: https://example.com/s.xml\nNoindex: /x\n"))
	if len(f.Sitemaps()) != 1 || len(f.Unknown()) != 1 {
		t.Errorf("one of each: Sitemaps() = %v, Unknown() = %v", f.Sitemaps(), f.Unknown())
	}
}
