package verdict

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rep-toolkit/rep/robotstxt"
)

func TestFor(t *testing.T) {
	const msnbot = "User-agent: msnbot\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n"
	const both = "User-agent: msnbot\nDisallow: /a\n\nUser-agent: bingbot\nDisallow: /b\n"
	const star = "User-agent: *\nDisallow: /x\n"
	for _, tc := range []struct {
		agent, robots string
		parserOnly    bool
		want, not     []string // parts some note has; parts no note has
	}{
		{agent: "bingbot", robots: msnbot, want: []string{"no group names bingbot: it falls back to the msnbot group (line 1), as Microsoft documents", "follows the bing engine"}},
		{agent: "bingbot", robots: both, want: []string{"follows the bing engine"}, not: []string{"falls back"}},
		{agent: "bingbot", robots: star, not: []string{"falls back"}},
		{agent: "bingbot,msnbot", robots: msnbot, want: []string{"falls back"}},                                       // the registry's own chain, given in full
		{agent: "Googlebot-Image,bingbot", robots: "User-agent: bingbot\nDisallow: /\n", not: []string{"falls back"}}, // a chain of the user's own
		{agent: "AdsBot-Google", robots: star, want: []string{"AdsBot-Google ignores the * group: only a group naming it applies, and none does"}},
		{agent: "AdsBot-Google", robots: "User-agent: AdsBot-Google\nDisallow: /\n", not: []string{"ignores the * group"}},
		{agent: "Googlebto", robots: star, want: []string{"unknown crawler Googlebto — did you mean Googlebot?"}},
		{agent: "Googlebto", robots: star, parserOnly: true, want: []string{"parser only"}, not: []string{"did you mean"}},
		{agent: "ExampleBot", robots: star, not: []string{"did you mean", "unknown"}},
		{agent: "Googlebot", robots: star, not: []string{""}}, // no note at all
		{agent: "Google-Extended", robots: "User-agent: Google-Extended\nDisallow: /\n", want: []string{"Google-Extended is a robots.txt control token, not a crawler: no request carries it; its group controls what Google does with the pages its crawlers fetch"}},
		{agent: "Applebot-Extended", robots: star, want: []string{"Applebot-Extended is a robots.txt control token"}},
	} {
		a, err := NewAgent(tc.agent, AgentOptions{ParserOnly: tc.parserOnly})
		if err != nil {
			t.Fatal(err)
		}
		f := robotstxt.ParseWith([]byte(tc.robots), a.ParseOptions())
		got := NotesFor(a, a.Group(f).Group())
		all := strings.Join(got, "\n")
		for _, w := range tc.want {
			if !strings.Contains(all, w) {
				t.Errorf("%s on %q: notes %q, want one with %q", tc.agent, tc.robots, got, w)
			}
		}
		for _, n := range tc.not {
			if n == "" && len(got) > 0 || n != "" && strings.Contains(all, n) {
				t.Errorf("%s on %q: notes %q, want none with %q", tc.agent, tc.robots, got, n)
			}
		}
	}
	// A fetch that decided: no group notes.
	a, _ := NewAgent("AdsBot-Google", AgentOptions{})
	if got := NotesFor(a, robotstxt.GroupMatch{Via: robotstxt.ViaFetch}); len(got) != 0 {
		t.Errorf("notes for a fetch's verdict: %q", got)
	}
}

// TestNoteCache: an agent's noteCache gives the notes worked out from
// nothing, and keeps them for a run of answers from one group choice.
func TestNoteCache(t *testing.T) {
	a, err := NewAgent("bingbot", AgentOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tell := newNoteCache(a)
	for _, robots := range []string{"User-agent: msnbot\nDisallow: /a\n", "User-agent: bingbot\nDisallow: /b\n", "User-agent: msnbot\n\nUser-agent: x\nDisallow: /a\n"} {
		f := robotstxt.ParseWith([]byte(robots), a.ParseOptions())
		g := a.Group(f).Group()
		for range 2 {
			if got, want := tell.For(g), notesFor(a, g); !slices.Equal(got, want) {
				t.Errorf("%q: cached %q, worked out %q", robots, got, want)
			}
		}
	}
}

func BenchmarkNoteCacheUnknown(b *testing.B) {
	a, _ := NewAgent("Googlebto", AgentOptions{})
	g := robotstxt.GroupMatch{Agent: "*", Via: robotstxt.ViaStar, Lines: []int{1}}
	tell := newNoteCache(a)
	b.ReportAllocs()
	for b.Loop() {
		tell.For(g)
	}
}

// BenchmarkForUnknown is the cost the noteCache saves per URL: notesFor
// asks the registry for suggestions each time.
func BenchmarkForUnknown(b *testing.B) {
	a, _ := NewAgent("Googlebto", AgentOptions{})
	g := robotstxt.GroupMatch{Agent: "*", Via: robotstxt.ViaStar, Lines: []int{1}}
	b.ReportAllocs()
	for b.Loop() {
		notesFor(a, g)
	}
}

// TestNoteCacheConcurrent: one noteCache answers many goroutines at once
// (the server keeps one agent per name) with the notes worked out from
// nothing, and a group choice that adds no note costs no allocation.
func TestNoteCacheConcurrent(t *testing.T) {
	a, err := NewAgent("bingbot", AgentOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tell := newNoteCache(a)
	var groups []robotstxt.GroupMatch
	for _, robots := range []string{"User-agent: msnbot\nDisallow: /a\n", "User-agent: bingbot\nDisallow: /b\n", "User-agent: *\nDisallow: /c\n", "User-agent: msnbot\n\nUser-agent: x\nDisallow: /a\n"} {
		groups = append(groups, a.Group(robotstxt.ParseWith([]byte(robots), a.ParseOptions())).Group())
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 200 {
				g := groups[(i+j)%len(groups)]
				if got, want := tell.For(g), notesFor(a, g); !slices.Equal(got, want) {
					t.Errorf("cached %q, worked out %q", got, want)
					return
				}
			}
		})
	}
	wg.Wait()
	if n := testing.AllocsPerRun(100, func() { tell.For(groups[1]) }); n != 0 {
		t.Errorf("%v allocations for a group that adds no note", n)
	}
}

// TestDecisionJSONNotes: the verdict shape with the notes that apply, not
// every note of Agent.Notes; Unknown is the "did you mean" note of For.
func TestDecisionJSONNotes(t *testing.T) {
	a, err := NewAgent("bingbot", AgentOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f := robotstxt.ParseWith([]byte("User-agent: bingbot\nDisallow: /b\n"), a.ParseOptions())
	d := a.Decide(f, "/b/x")
	j := d.JSON()
	if !strings.Contains(strings.Join(a.Notes, "\n"), "falls back") {
		t.Fatalf("agent notes %q: the test needs the fallback note there", a.Notes)
	}
	if !slices.Equal(j.Notes, notesFor(a, d.Group)) || strings.Contains(strings.Join(j.Notes, "\n"), "falls back") {
		t.Errorf("JSON notes %q, want %q", j.Notes, notesFor(a, d.Group))
	}
	if j.URL != "/b/x" || j.Allowed || j.Line != 2 {
		t.Errorf("JSON verdict %+v", j)
	}
	u, _ := NewAgent("Googlebto", AgentOptions{})
	if got := UnknownNote(u); got == "" || !slices.Contains(NotesFor(u, robotstxt.GroupMatch{Via: robotstxt.ViaFetch}), got) {
		t.Errorf("Unknown %q not among For's notes", got)
	}
	if got := UnknownNote(a); got != "" {
		t.Errorf("UnknownNote(bingbot) = %q", got)
	}
}
