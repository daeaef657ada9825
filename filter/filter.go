// Package filter decides, for documents of a data set (a URL and
// optionally a date), whether to keep each one given robots.txt captures
// of its host: the filter training-set builders run to honour AI crawlers'
// opt-outs (the Apertus pipeline's "remove what any of these crawlers may
// not fetch"), at a million documents a second per core once the hosts
// are parsed.
//
// The semantics are chosen by Options and documented in docs/survey.md:
// which crawlers (rep.AgentsFor: names or registry purposes), AnyOf (drop
// when any crawler is disallowed) or AllOf (drop only when every one is),
// which capture applies (Latest: the latest of all, the retroactive rule;
// AsOf: the latest at or before the document's date), and what a document
// with no capture means (Missing).
//
// Every verdict goes through rep's one verdict path: rep.Agent.DecideIn
// with the group the agent obeys (rep.Agent.Group), the fetch class read
// with robotsfetch's status table (package survey). A host's capture is
// parsed once per parser profile and kept, with every crawler's group, in
// a cache bounded in bytes; crawlers that obey the same group are checked
// once; a group with no Disallow rule keeps every document without a
// check.
package filter

import (
	"errors"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
	"github.com/rep-toolkit/rep/survey"
)

// Mode combines the crawlers' verdicts.
type Mode uint8

const (
	// AnyOf drops a document when any crawler is disallowed from it.
	AnyOf Mode = iota
	// AllOf drops a document only when every crawler is disallowed.
	AllOf
)

// Pick chooses the capture that applies to a document.
type Pick uint8

const (
	// Latest applies the host's latest capture to every document,
	// whatever its date: today's wishes, retroactively (as Apertus did).
	Latest Pick = iota
	// AsOf applies the latest capture at or before the document's date; a
	// document dated before every capture of its host, or with no date,
	// has no capture (see Missing) unless the capture's time is unknown.
	AsOf
)

// Missing says what a document with no applicable capture gets, and a
// capture whose class is missing (a redirect to a capture not in the
// input).
type Missing uint8

const (
	// MissingKeep keeps it: no robots.txt seen, no opt-out (Apertus's
	// rule).
	MissingKeep Missing = iota
	// MissingDrop drops it.
	MissingDrop
)

// Options configure a Filter.
type Options struct {
	Agents  []*rep.Agent
	Mode    Mode
	Pick    Pick
	Missing Missing
	// CacheBytes bounds the parsed files kept (estimated as robotsfetch
	// does: three times the body plus 2 KiB each); 0 means 256 MiB.
	CacheBytes int64
}

// Verdict is the decision for one document, with its reason.
type Verdict struct {
	Keep bool
	// Class is the fetch class of the capture applied (ClassMissing when
	// none applied).
	Class survey.Class
	// Crawler is the crawler whose verdict decided, when one did: the
	// first disallowed in the list for a drop under AnyOf, the first
	// allowed for a keep under AllOf. Empty when the class decided
	// (allow-all, disallow-all, missing) or no crawler is disallowed.
	Crawler string
	// Line and Rule are the deciding rule of Crawler's verdict (0, "" when
	// none); Group its group ("*", a token, "" for none).
	Line  int
	Rule  robotstxt.Rule
	Group string
	// Capture is the capture applied (its index in the Store, -1 none).
	Capture int
}

// Reason says in words why, e.g. "GPTBot: line 3: Disallow: /".
func (v *Verdict) Reason() string {
	switch {
	case v.Crawler != "" && v.Line > 0:
		return v.Crawler + ": line " + strconv.Itoa(v.Line) + ": " + v.Rule.String()
	case v.Crawler != "":
		return v.Crawler + ": no rule matched"
	}
	return v.Class.String()
}

// Filter decides documents against the captures of a Store. It is not
// safe for concurrent use (its cache and the agents' group memos are its
// own): make one per goroutine over the same Store.
type Filter struct {
	st    *survey.Store
	o     Options
	hosts map[string][]int32 // host → captures by time
	times []int64            // by capture: unix nanoseconds (0 unknown)
	cache *cache
}

// ErrNoAgents is returned by New without crawlers.
var ErrNoAgents = errors.New("filter: no crawlers to decide for")

// New returns a Filter over st (which it calls Done on).
func New(st *survey.Store, o Options) (*Filter, error) {
	if len(o.Agents) == 0 {
		return nil, ErrNoAgents
	}
	if o.CacheBytes <= 0 {
		o.CacheBytes = 256 << 20
	}
	st.Done()
	f := &Filter{st: st, o: o, hosts: st.Hosts(), times: make([]int64, st.Len()), cache: newCache(st.Len(), o.CacheBytes)}
	for i := range f.times {
		if t := st.Time(i); !t.IsZero() {
			f.times[i] = t.UnixNano()
		}
	}
	return f, nil
}

// Hosts returns how many hosts have captures.
func (f *Filter) Hosts() int { return len(f.hosts) }

// CacheBytes returns the estimated bytes of the parsed files kept.
func (f *Filter) CacheBytes() int64 { return f.cache.bytes }

// Decide decides one document: its URL (absolute http or https) and date
// (zero when unknown).
func (f *Filter) Decide(rawurl string, date time.Time) Verdict {
	var v Verdict
	f.DecideInto(&v, rawurl, date)
	return v
}

// DecideInto is Decide writing into v, the form for a hot loop.
func (f *Filter) DecideInto(v *Verdict, rawurl string, date time.Time) {
	*v = Verdict{Capture: -1, Class: survey.ClassMissing}
	caps := f.lookup(rawurl)
	ci := f.pick(caps, date)
	if ci < 0 {
		v.Keep = f.o.Missing == MissingKeep
		return
	}
	v.Capture = int(ci)
	e := f.entry(ci)
	v.Class = e.class
	switch e.class {
	case survey.ClassAllowAll:
		v.Keep = true
		return
	case survey.ClassDisallowAll:
		v.Keep = false
		return
	case survey.ClassMissing:
		v.Keep = f.o.Missing == MissingKeep
		return
	}
	all := f.o.Mode == AllOf
	for i := range e.groups {
		g := &e.groups[i]
		if g.allowAll {
			if all {
				v.Keep, v.Crawler = true, f.o.Agents[g.agent].Token()
				v.Group = g.g.Group().Agent
				return
			}
			continue
		}
		a := f.o.Agents[g.agent]
		d := a.DecideIn(e.robots[g.file], g.g, rawurl)
		if d.Allowed == all {
			v.Keep, v.Crawler, v.Line, v.Rule, v.Group = all, a.Token(), d.Rule.Line, d.Rule, d.Group.Agent
			return
		}
	}
	v.Keep = !all
}

// lookup returns the captures of rawurl's host.
func (f *Filter) lookup(rawurl string) []int32 {
	h, ok := fastHost(rawurl)
	if ok {
		return f.hosts[h]
	}
	hs, err := survey.HostOf(rawurl)
	if err != nil {
		return nil
	}
	return f.hosts[hs]
}

// pick returns the capture that applies, or -1.
func (f *Filter) pick(caps []int32, date time.Time) int32 {
	if len(caps) == 0 {
		return -1
	}
	if f.o.Pick == Latest {
		return caps[len(caps)-1]
	}
	// AsOf: the latest capture at or before date; a capture of unknown
	// time (sorted first) applies to every date.
	if date.IsZero() {
		if f.times[caps[0]] == 0 {
			return caps[0]
		}
		return -1
	}
	t := date.UnixNano()
	i := sort.Search(len(caps), func(i int) bool {
		ct := f.times[caps[i]]
		return ct != 0 && ct > t
	})
	if i == 0 {
		return -1
	}
	return caps[i-1]
}

// entry is a capture parsed for the filter's crawlers.
type entry struct {
	ci     int32
	class  survey.Class
	robots []*robotsfetch.Robots // one per parse options
	groups []group               // distinct groups, in order of their first crawler
	size   int64
	ref    bool // used since the cache's hand last passed
}

// group is a group obeyed by one or more crawlers; agent is the first.
type group struct {
	agent    int
	file     int
	g        *robotstxt.Matcher
	allowAll bool // no Disallow rule with a pattern: every URL allowed
}

func (f *Filter) entry(ci int32) *entry {
	if e := f.cache.get(ci); e != nil {
		return e
	}
	e := f.build(ci)
	f.cache.put(e)
	return e
}

func (f *Filter) build(ci int32) *entry {
	e := &entry{ci: ci, size: 2048}
	rec, err := f.st.Record(int(ci))
	if err != nil {
		// The spool cannot be read: nothing is known of this capture.
		e.class = survey.ClassMissing
		return e
	}
	e.class = rec.Class
	if rec.Class != survey.ClassRules {
		return e
	}
	e.size += 3 * int64(len(rec.FinalBody))
	out := rec.Outcome()
	files := map[robotstxt.Options]int{}
	seen := map[string]bool{}
	for ai, a := range f.o.Agents {
		o := a.ParseOptions()
		fi, ok := files[o]
		if !ok {
			fi = len(e.robots)
			files[o] = fi
			e.robots = append(e.robots, &robotsfetch.Robots{Outcome: out, File: robotstxt.ParseWith(rec.FinalBody, o)})
		}
		g := a.Group(e.robots[fi].File)
		m := g.Group()
		key := strconv.Itoa(fi) + "|" + m.Via.String() + "|" + m.Agent + "|" + intsKey(m.Lines)
		if seen[key] {
			continue
		}
		seen[key] = true
		allowAll := true
		for _, r := range g.Rules() {
			if !r.Allow && r.Pattern != "" {
				allowAll = false
				break
			}
		}
		e.groups = append(e.groups, group{agent: ai, file: fi, g: g, allowAll: allowAll})
	}
	return e
}

func intsKey(l []int) string {
	var b strings.Builder
	for _, n := range l {
		b.WriteString(strconv.Itoa(n))
		b.WriteByte(',')
	}
	return b.String()
}
