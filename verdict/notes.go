package verdict

// Notes say, beside a verdict, what the crawler registry changed about it:
// a fallback group, the * group ignored, a crawler documented not to obey
// robots.txt, the engine the crawler follows, what a control token is, and
// "did you mean" for a name the registry does not know. A note is given
// only when it applies to the answer shown: "bingbot falls back to the
// msnbot group" only when no group names bingbot and a group names msnbot.
// Every door takes its notes from here, in text (NotesFor) and in JSON
// (Decision.JSON); both ask the agent's own noteCache, so that a stream
// of answers for one agent works its notes out once.
//
// Agent.Notes lists every note the registry could add for a crawler,
// whatever the file; NotesFor keeps those that apply to one group choice.

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/internal/enum"
	"github.com/rep-toolkit/rep/robotstxt"
)

// NotesFor returns the notes that apply to an answer for a whose group was
// chosen as g (Decision.Group; Via robotstxt.ViaFetch when the fetch of
// robots.txt decided and no group was chosen): "did you mean" for an
// unknown name close to registry names; what a control token is
// (Google-Extended); then a.Notes that hold whatever
// the file (parser only, documented not to obey robots.txt, the engine the
// crawler follows); then the fallback group, only when the group came from
// the registry's fallback chain, and the * group ignored, only when no
// group names the crawler.
// The list is the caller's own.
func NotesFor(a *Agent, g robotstxt.GroupMatch) []string {
	if a == nil {
		return nil
	}
	return slices.Clone(a.notes().For(g))
}

// notesFor is NotesFor worked out from nothing.
func notesFor(a *Agent, g robotstxt.GroupMatch) []string {
	return forAgent(a, baseNotes(a, suggestions(a)), g)
}

// noteCache gives the notes of one agent's answers, one after another (rep
// check over a stream of URLs) or at once (the server's /api/allowed): what
// depends on the agent alone (the registry's suggestions for an unknown
// name, what a control token is, a.Notes that hold whatever the file) is
// worked out once, and the notes of the last group choice that adds one
// (a fallback group, the * group ignored) are kept, so that a run of URLs
// answered from one file costs a comparison each and allocates nothing.
// It is safe for concurrent use.
type noteCache struct {
	a       *Agent
	suggest []string // Suggestions
	base    []string // the notes that hold whatever the group choice
	last    atomic.Pointer[told]
}

// told is the notes of one group choice.
type told struct {
	g     robotstxt.GroupMatch
	notes []string
}

func newNoteCache(a *Agent) *noteCache {
	s := suggestions(a)
	return &noteCache{a: a, suggest: slices.Clip(s), base: slices.Clip(baseNotes(a, s))}
}

// notes returns a's own noteCache, made on first use: NotesFor and
// Decision.JSON ask it, so that many answers for one agent neither look
// up the registry's suggestions nor build its notes again each time.
func (a *Agent) notes() *noteCache {
	if t := a.tell.Load(); t != nil {
		return t
	}
	a.tell.CompareAndSwap(nil, newNoteCache(a))
	return a.tell.Load()
}

// For returns NotesFor(a, g), shared with other calls: not to be modified.
func (t *noteCache) For(g robotstxt.GroupMatch) []string {
	if t == nil || t.a == nil {
		return nil
	}
	if !groupDependent(t.a, g) {
		return t.base
	}
	if l := t.last.Load(); l != nil && g.Via == l.g.Via && g.Agent == l.g.Agent && slices.Equal(g.Lines, l.g.Lines) {
		return l.notes
	}
	n := slices.Clip(forAgent(t.a, t.base, g))
	t.last.Store(&told{g: robotstxt.GroupMatch{Agent: g.Agent, Via: g.Via, Lines: slices.Clone(g.Lines)}, notes: n})
	return n
}

// baseNotes are a's notes that hold whatever the group choice: "did you
// mean" for an unknown name (suggest), what a control token is, and
// a.Notes but those of the group choice (fallback, * ignored), which
// forAgent adds where they apply.
func baseNotes(a *Agent, suggest []string) []string {
	if a == nil {
		return nil
	}
	var out []string
	if len(suggest) > 0 {
		out = append(out, unknownNote(a, suggest))
	}
	if c := a.Crawler; c != nil && c.TokenOnly() && !a.ParserOnly {
		out = append(out, fmt.Sprintf("%s is a robots.txt control token, not a crawler: no request carries it; its group controls what %s does with the pages its crawlers fetch, not what they fetch", a.Token(), operator(c)))
	}
	// NewAgent's notes of the group choice, said whatever the file:
	// replaced by forAgent with what applies.
	for _, n := range a.Notes {
		if n != a.fallbackNote && n != a.starNote {
			out = append(out, n)
		}
	}
	return out
}

// groupDependent reports whether the group choice g adds a note for a:
// the group came from the registry's fallback chain, or a crawler that
// ignores the * group found no group naming it.
func groupDependent(a *Agent, g robotstxt.GroupMatch) bool {
	if a.Crawler == nil || a.ParserOnly {
		return false
	}
	return g.Via == robotstxt.ViaFallback && registryChain(a) || a.IgnoresStar && g.Via == robotstxt.ViaNone
}

func forAgent(a *Agent, base []string, g robotstxt.GroupMatch) []string {
	if a == nil {
		return nil
	}
	if !groupDependent(a, g) {
		return base
	}
	out := slices.Clip(slices.Clone(base))
	c := a.Crawler
	if g.Via == robotstxt.ViaFallback && registryChain(a) {
		out = append(out, fmt.Sprintf("no group names %s: it falls back to the %s group (%s), as %s documents", a.Token(), g.Agent, lineList(g.Lines), operator(c)))
	}
	if a.IgnoresStar && g.Via == robotstxt.ViaNone {
		out = append(out, fmt.Sprintf("%s ignores the * group: only a group naming it applies, and none does, so everything is allowed", a.Token()))
	}
	return out
}

// UnknownNote returns the note of NotesFor that says a's name is unknown, "unknown
// crawler Googlebto — did you mean Googlebot?", or "" when there is none:
// for a door that says it elsewhere (on standard error) and leaves it out
// of the notes it prints.
func UnknownNote(a *Agent) string {
	if a == nil {
		return ""
	}
	if s := a.notes().suggest; len(s) > 0 {
		return unknownNote(a, s)
	}
	return ""
}

func unknownNote(a *Agent, suggest []string) string {
	return fmt.Sprintf("unknown crawler %s — did you mean %s?", a.Token(), enum.Or(suggest))
}

// Suggestions returns the registry names a's name may be a misspelling of
// (crawlers.Suggest): none when the registry knows the name, when a is a
// fallback chain given in full, or when the registry was not asked.
// The registry is asked once per agent; the list is the caller's own.
func Suggestions(a *Agent) []string {
	if a == nil {
		return nil
	}
	return slices.Clone(a.notes().suggest)
}

// suggestions is Suggestions asked of the registry.
func suggestions(a *Agent) []string {
	if a == nil || a.Crawler != nil || a.ParserOnly || len(a.Tokens) != 1 {
		return nil
	}
	return crawlers.Suggest(a.Token())
}

// registryChain reports whether a's tokens after its own are the
// registry's fallback chain, not one the user gave.
func registryChain(a *Agent) bool {
	return a.Crawler != nil && len(a.Tokens) > 1 && slices.EqualFunc(a.Tokens[1:], a.Crawler.RobotsFallback, strings.EqualFold)
}

func operator(c *crawlers.Crawler) string {
	if c.Operator != "" {
		return c.Operator
	}
	return "the registry"
}

// lineList writes "line 5" or "lines 5, 8".
func lineList(ls []int) string {
	word := "line "
	if len(ls) > 1 {
		word = "lines "
	}
	s := make([]string, len(ls))
	for i, l := range ls {
		s[i] = fmt.Sprint(l)
	}
	return word + strings.Join(s, ", ")
}
