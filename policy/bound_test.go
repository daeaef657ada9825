package policy

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/lint"
)

func TestPrescan(t *testing.T) {
	deep := strings.Repeat("a.", MaxKeyParts) + "b = 1\n" // MaxKeyParts+1 parts
	for _, tc := range []struct {
		name, src string
		line      int // 0: within the bounds
	}{
		{"dotted usage", "usage.content_usage = \"train-ai=n\"\n", 0},
		{"dots in strings and comments", "# a.b.c.d.e.f.g.h.i.j\nsitemaps = [\"https://a.b.c.d.e.f.g.h.i.j.k/s.xml\", 'x.y.z.a.b.c.d.e.f.g']\n", 0},
		{"multi-line strings", "[[group]]\ncomment = \"\"\"\na.b.c.d.e.f.g.h.i.j\n\"\"\"\nagents = [\"*\"]\n" + deep, 6},
		{"literal multi-line", "x = '''a.b.c.d.e.f.g.h.i.j.k'''\n", 0},
		{"float", "crawl_delay = 1.5\n", 0},
		{"key at the bound", strings.Repeat("a.", MaxKeyParts-1) + "b = 1\n", 0},
		{"key over the bound", "\n" + deep, 2},
		{"quoted parts", "\"a\".'b'.\"c\".d.e.f.g.h.i = 1\n", 1},
		{"spaced parts", "a . b . c . d . e . f . g . h . i = 1\n", 1},
		{"table name", "[" + strings.TrimSuffix(deep, " = 1\n") + "]\n", 1},
		{"array of tables name", "[[" + strings.TrimSuffix(deep, " = 1\n") + "]]\n", 1},
		{"inline table key", "x = { " + deep[:len(deep)-1] + " }\n", 1},
		{"nested arrays", "x = " + strings.Repeat("[", MaxNesting+1) + strings.Repeat("]", MaxNesting+1) + "\n", 1},
		{"nested at the bound", "x = " + strings.Repeat("[", MaxNesting) + strings.Repeat("]", MaxNesting) + "\n", 0},
		{"keys", strings.Repeat("[[group]]\n", MaxKeys/2) + strings.Repeat("a = 1\n", MaxKeys/2+1), MaxKeys + 1},
		{"escaped quote", "x = \"a\\\"b.c.d.e.f.g.h.i.j\"\n", 0},
		{"unterminated string", "x = \"a.b\ny = 1\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line, why := prescan([]byte(tc.src))
			if line != tc.line || (why == "") != (tc.line == 0) {
				t.Errorf("line %d (%s), want %d", line, why, tc.line)
			}
			if tc.line == 0 {
				return
			}
			_, err := Parse("p.toml", []byte(tc.src))
			var pe *Error
			if !errors.As(err, &pe) || !errors.Is(err, ErrInvalid) || pe.Line != tc.line {
				t.Errorf("Parse: %v, want an invalid-policy error on line %d", err, tc.line)
			}
		})
	}
	for _, name := range []string{"issue.toml", "ai.toml", "staging.toml", "overlap.toml", "pdf.toml"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if line, why := prescan(data); why != "" {
			t.Errorf("%s: line %d: %s", name, line, why)
		}
	}
}

func FuzzPrescan(f *testing.F) {
	for _, s := range []string{"a.b.c = 1\n", "x = \"\"\"a\n.b\"\"\"\n", "[[group]]\nagents = ['*']\n", "x = [[1], {a.b = 2}]\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		line, why := prescan(data)
		if n := strings.Count(string(data), "\n") + 1; line < 0 || line > n || (line == 0) != (why == "") {
			t.Fatalf("line %d of %d, %q", line, n, why)
		}
	})
}

// TestDottedKeysMemory: 400 KB of dotted keys, which the TOML decoder
// alone took 15 GB to read, is refused or parsed under 256 MB. The bound
// is the bytes allocated while parsing (TotalAlloc, which is never less
// than the peak heap): generous, since the decoder itself allocates some
// hundred bytes per key.
func TestDottedKeysMemory(t *testing.T) {
	const size, bound = 400 << 10, 256 << 20
	within := strings.Repeat("a.", MaxKeyParts-1) + "b"
	var many strings.Builder
	for i := 0; many.Len() < size; i++ {
		fmt.Fprintf(&many, "%s%d = 1\n", within, i) // distinct keys, each at the bound
	}
	for _, tc := range []struct {
		name, src string
	}{
		{"one long key", strings.Repeat("a.", size/2) + "b = 1\n"},
		{"nested keys", strings.Repeat("a.", size/4) + "b = 1\n" + strings.Repeat("a.", size/4) + "c = 1\n"},
		{"many keys", many.String()},
		{"many tables", manyTables(size, within)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Parse("big.toml", []byte(tc.src))
			runtime.ReadMemStats(&after)
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("%d bytes: %v; %d MB allocated", len(tc.src), err, alloc>>20)
			if err == nil {
				t.Fatal("a policy of unknown keys parsed")
			}
			if alloc > bound {
				t.Errorf("%d MB allocated, bound %d MB", alloc>>20, bound>>20)
			}
		})
	}
}

func manyTables(size int, name string) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "[%s%d]\nx = 1\n", name, i)
	}
	return b.String()
}

// bigPolicy is a policy of n groups, each naming a crawler of its own with
// a Disallow and an Allow, then a "*" group.
func bigPolicy(n int) string {
	var b strings.Builder
	for i := range n {
		tok := "Bot"
		for j := i + 1; j > 0; j /= 26 {
			tok += string(rune('a' + j%26))
		}
		fmt.Fprintf(&b, "[[group]]\nagents = [%q]\ndisallow = [\"/p%d/\"]\nallow = [\"/p%d/ok/\"]\n\n", tok, i, i)
	}
	b.WriteString("[[group]]\nagents = [\"*\"]\ndisallow = [\"/private/\"]\n")
	return b.String()
}

// TestLargePolicy: a 3,000-group policy is checked with work that grows
// with the groups times the registry, not with the square of the groups.
// The count is of paths asked of a crawler one by one; asking every
// crawler every path, as the round trip did, is 3,054 × 30,000.
func TestLargePolicy(t *testing.T) {
	p, err := Parse("big.toml", []byte(bigPolicy(3000)))
	if err != nil {
		t.Fatal(err)
	}
	fs, err := p.CheckContext(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		if f.Code == CodeRoundTrip {
			t.Fatalf("round trip: %s", f.Message)
		}
	}
	paths, agents := len(p.Paths()), len(p.Agents())
	asked := p.asked.Load()
	t.Logf("%d agents, %d paths, %d asked one by one", agents, paths, asked)
	if limit := int64(len(crawlers.All()) * paths); asked > limit {
		t.Errorf("%d paths asked, more than the registry (%d) × the paths (%d)", asked, len(crawlers.All()), paths)
	}
	if len(p.Blocked()) != 0 {
		t.Errorf("blocked %v", p.Blocked())
	}
	for _, o := range p.Outputs() {
		if len(o.Data) == 0 {
			t.Errorf("%s empty", o.Name)
		}
	}
}

// countdown is a context whose Err turns to Canceled after n calls: the
// round trip must ask it as it goes and stop at once.
type countdown struct {
	context.Context
	n atomic.Int64
}

func (c *countdown) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

func TestCheckCancelled(t *testing.T) {
	src := bigPolicy(3000)
	// A file that says otherwise than the policy, so that every crawler
	// is asked every path: the slowest the round trip gets.
	p, err := Parse("big.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p.robotsOnce.Do(func() {})
	p.robots = []byte("User-agent: *\nDisallow: /\n")
	ctx := &countdown{Context: context.Background()}
	ctx.n.Store(5)
	fs, err := p.CheckContext(ctx)
	if !errors.Is(err, context.Canceled) || fs != nil {
		t.Fatalf("CheckContext = %d findings, %v; want context.Canceled", len(fs), err)
	}
	// Each call to Err is at most 256 paths apart.
	if asked := p.asked.Load(); asked > 5*256 {
		t.Errorf("%d paths asked after a cancel on the 5th look at the context", asked)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.CheckContext(cancelled); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled context: %v", err)
	}
}

// TestRoundTripBounded: a generated file that is not the policy gives a
// bounded report and bounded work, however many groups the policy has.
func TestRoundTripBounded(t *testing.T) {
	// Every crawler disagrees: at most MaxMismatchesPerCrawler each and
	// MaxMismatches in all, then a finding that says so.
	p, err := Parse("big.toml", []byte(bigPolicy(3000)))
	if err != nil {
		t.Fatal(err)
	}
	p.robotsOnce.Do(func() {})
	p.robots = []byte("User-agent: *\nDisallow: /\n")
	ms, err := p.RoundTripContext(context.Background())
	if err != nil || len(ms) != MaxMismatches {
		t.Fatalf("%d mismatches, %v; want %d", len(ms), err, MaxMismatches)
	}
	per := map[string]int{}
	for _, m := range ms {
		if per[m.Agent.Token()]++; per[m.Agent.Token()] > MaxMismatchesPerCrawler {
			t.Fatalf("more than %d mismatches for %s", MaxMismatchesPerCrawler, m.Agent.Token())
		}
	}
	fs := p.Check()
	found := false
	for _, f := range fs {
		found = found || f.Code == CodeRoundTrip && strings.Contains(f.Message, "there may be more")
	}
	if !found {
		t.Error("no finding says the list is cut")
	}

	// Crawlers whose rules differ from the policy's but whose verdicts
	// agree on every path are asked path by path; more of them than the
	// registry holds stop the round trip with ErrRoundTripBudget.
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "[[group]]\nagents = [\"Bot%s\"]\nallow = [\"/p%d/\"]\n", strings.Repeat("x", i%20)+string(rune('a'+i%26))+string(rune('a'+i/26%26))+string(rune('a'+i/676)), i)
	}
	p, err = Parse("allow.toml", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	p.robotsOnce.Do(func() {})
	p.robots = []byte("User-agent: *\nDisallow:\n")
	ms, err = p.RoundTripContext(context.Background())
	if !errors.Is(err, ErrRoundTripBudget) || len(ms) != 0 {
		t.Fatalf("%d mismatches, %v; want ErrRoundTripBudget", len(ms), err)
	}
	if limit := int64(len(crawlers.All())+1) * int64(len(p.Paths())); p.asked.Load() > limit {
		t.Errorf("%d paths asked, over the budget %d", p.asked.Load(), limit)
	}
	if fs := p.Check(); !slices.ContainsFunc(fs, func(f Finding) bool { return f.Code == CodeRoundTrip && f.Severity == lint.Error }) {
		t.Error("no round-trip error for a stopped round trip")
	}
}
