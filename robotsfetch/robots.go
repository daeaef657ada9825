package robotsfetch

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/rep-toolkit/rep/internal/wire"
	"github.com/rep-toolkit/rep/robotstxt"
)

// Robots is the answer for one origin: the fetch outcome and, when the
// verdict is UseRules, the parsed file. It is immutable and safe for
// concurrent use.
//
// One fetch serves every engine: File is the body parsed with the
// Fetcher's Options (Profile, CrawlDelayEndsGroup), and FileFor parses the
// same body as another engine groups it, once, on first use.
type Robots struct {
	Outcome Outcome
	// File holds the rules in force when Outcome.Verdict is UseRules, as
	// the Fetcher's Options parse them; nil otherwise. FileFor gives them
	// as another engine parses them.
	File *robotstxt.File
	// Body is the file's bytes as crawlers read them (after content
	// decoding, at most MaxBytes+1) when Outcome.Verdict is UseRules; nil
	// otherwise. It is shared and must not be modified.
	Body []byte
	memo atomic.Pointer[matcherMemo]
	// parses holds the other parses of Body, shared by the copies of one
	// answer (the one handed to the callers of a fetch and the one kept in
	// memory); nil for a Robots built by hand.
	parses *parses
}

// parses memoises a body's parses per way of grouping it.
type parses struct {
	maxBytes int
	mu       sync.Mutex
	m        map[parseKey]*robotstxt.File
}

// parseKey is what an engine changes about a parse (engine.Engine's
// ParseOptions); the size limit is the Fetcher's.
type parseKey struct {
	profile robotstxt.Profile
	cdEnds  bool
}

// FileFor returns the rules in force parsed with o's Profile and
// CrawlDelayEndsGroup (engine.Engine.ParseOptions gives an engine's;
// o.MaxBytes is ignored, the Fetcher's limit applies): File when it was
// parsed so, else Body parsed once on first use and remembered, so N
// engines asking about one origin cost one fetch and at most one parse
// each. A Robots built without a Body answers with File. Nil when no file
// is in force.
func (r *Robots) FileFor(o robotstxt.Options) *robotstxt.File {
	f := r.File
	if f == nil || r.Body == nil || (f.Profile() == o.Profile && f.CrawlDelayEndsGroup() == o.CrawlDelayEndsGroup) {
		return f
	}
	k := parseKey{o.Profile, o.CrawlDelayEndsGroup}
	p := r.parses
	if p == nil {
		return robotstxt.ParseWith(r.Body, robotstxt.Options{Profile: k.profile, CrawlDelayEndsGroup: k.cdEnds})
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if pf := p.m[k]; pf != nil {
		return pf
	}
	pf := robotstxt.ParseWith(r.Body, robotstxt.Options{Profile: k.profile, CrawlDelayEndsGroup: k.cdEnds, MaxBytes: p.maxBytes})
	if p.m == nil {
		p.m = map[parseKey]*robotstxt.File{}
	}
	p.m[k] = pf
	return pf
}

type matcherMemo struct {
	names   []string
	matcher *robotstxt.Matcher
}

// Matcher returns File's robotstxt.Matcher for a fallback chain of crawler
// names, resolved once and remembered for the last chain asked (a crawler
// asks with the same names every time); nil when no file is in force.
func (r *Robots) Matcher(names ...string) *robotstxt.Matcher {
	if r.File == nil {
		return nil
	}
	if m := r.memo.Load(); m != nil && slices.Equal(m.names, names) {
		return m.matcher
	}
	m := r.File.Matcher(names...)
	r.memo.Store(&matcherMemo{names: slices.Clone(names), matcher: m})
	return m
}

// Agent is Matcher.
//
// Deprecated: use Robots.Matcher (robotstxt.Agent is now robotstxt.Matcher).
func (r *Robots) Agent(names ...string) *robotstxt.Matcher { return r.Matcher(names...) }

// Check decides rawurl for the crawler names in File, as Decide does with
// their group. It knows no crawler registry (no * group exceptions, no
// engine): verdict.Agent.DecideFetched is the verdict every door gives.
func (r *Robots) Check(rawurl string, names ...string) robotstxt.Decision {
	return r.Decide(r.Matcher(names...), rawurl)
}

// Decide decides rawurl against the fetch: the fetch's verdict when it
// allows or disallows everything (no rule matched, Reason Unavailable or
// Unreachable, Group.Via ViaFetch), else g's rules, g being the group the
// crawler obeys in the file in force. rawurl is matched in its wire form,
// and an escape of an unreserved character is read both as written and
// decoded, the stricter verdict winning (see package wire). It is the one
// verdict of a fetched robots.txt: verdict's Agent.DecideIn is built on it.
func (r *Robots) Decide(g *robotstxt.Matcher, rawurl string) robotstxt.Decision {
	switch r.Outcome.Verdict {
	case UseRules:
		d, _ := wire.Check(g, rawurl)
		return d
	case AllowAll:
		d := robotstxt.Decision{Allowed: true, Reason: robotstxt.Unavailable}
		d.Group.Via = robotstxt.ViaFetch
		return d
	default:
		d := robotstxt.Decision{Reason: robotstxt.Unreachable}
		d.Group.Via = robotstxt.ViaFetch
		return d
	}
}
