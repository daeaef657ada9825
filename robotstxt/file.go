package robotstxt

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// File is a parsed robots.txt. It is immutable and safe for concurrent use.
type File struct {
	// First the fields a warm check reads (FileFor's profile test, then
	// the caller's remembered value): one cache line for both when a
	// crawler cycles through more files than its caches hold.
	profile Profile
	cdEnds  bool     // Options.CrawlDelayEndsGroup
	memo    fileMemo // see Remember

	arena string            // every compared pattern and every lower-cased token
	rules []rule            // every rule, by number; indexes are built from them on first use
	raw   map[uint32]string // pattern as written, by arena offset, where it differs from the compared form

	agents  []agentEntry // sorted by token
	star    agentEntry   // the "*" groups, when hasStar
	hasStar bool
	// entInts holds every entry's user-agent lines and groups.
	entInts []int
	// byGroup is the index of each group a token names alone (nil for the
	// others). Such an index keeps its group's rules in index order in
	// rules itself, sorted when it is built: see lazyIndex.
	byGroup []*lazyIndex

	groups   []group
	uas      []uaLine
	sitemaps []Sitemap
	exts     []Extension
	unknown  []Unknown
	diags    []Diagnostic

	size      int
	parsedLen int
	limited   bool
}

// MaxRemembered is how many keys a File remembers values for (Remember):
// one per crawler that asks about it, in practice; past it, Remember
// keeps nothing, and the callers compute the value each time.
const MaxRemembered = 64

// fileMemo holds what callers derived from the file, per caller: the
// first memoSlots keys inline, where a lookup reads the slot itself (no
// pointer to follow), the rest in a map.
type fileMemo struct {
	slots [memoSlots]memoSlot
	m     sync.Map   // read without a lock
	mu    sync.Mutex // serialises stores into m, so the bound is exact
	n     int        // keys in m; guarded by mu
}

// memoSlots is how many keys a File holds inline: a crawler, or the few
// crawlers a server answers for most.
const memoSlots = 4

// memoSlot is one inline key and its value. state goes from slotEmpty to
// slotWriting (one writer won it) to slotSet, after which key and v never
// change: they are written before state is set and read after it is
// loaded, which orders them.
type memoSlot struct {
	state atomic.Uint32
	key   any
	v     any
}

const (
	slotEmpty = iota
	slotWriting
	slotSet
)

// Recall returns the value remembered under key (see Remember), or nil.
// It does not allocate when key is a pointer.
func (f *File) Recall(key any) any {
	for i := range f.memo.slots {
		s := &f.memo.slots[i]
		if s.state.Load() != slotSet {
			// Slots fill in order: the key is in none after it, nor in
			// the map (a slot being written may hold it in a moment:
			// the caller computes the value and Remember finds it).
			return nil
		}
		if s.key == key {
			return s.v
		}
	}
	v, _ := f.memo.m.Load(key)
	return v
}

// Remember keeps v with the file under key, a pointer that identifies the
// caller, and returns the value kept: v, or the one another goroutine
// kept first. It lets a caller that asks about many files in turn (a
// crawler's agent, alternating between the sites it crawls) resolve what
// it needs once per file and find it again in the file, so alternating
// files costs what one file costs. The value lives as long as the file;
// past MaxRemembered keys nothing more is kept and v is returned.
func (f *File) Remember(key, v any) any {
	for i := range f.memo.slots {
		s := &f.memo.slots[i]
		for {
			st := s.state.Load()
			if st == slotEmpty && s.state.CompareAndSwap(slotEmpty, slotWriting) {
				s.key, s.v = key, v
				s.state.Store(slotSet)
				return v
			}
			if st == slotSet {
				break
			}
			// Another goroutine is writing the slot (a few stores): its
			// key may be this one, so wait for it rather than skip it.
			runtime.Gosched()
		}
		if s.key == key {
			return s.v
		}
	}
	if a, ok := f.memo.m.Load(key); ok {
		return a
	}
	// The slow path runs once per key and file. Under the lock, two
	// goroutines storing the same key cannot both count it, so the bound
	// is exact: MaxRemembered keys are kept whatever the interleaving.
	f.memo.mu.Lock()
	defer f.memo.mu.Unlock()
	if a, ok := f.memo.m.Load(key); ok {
		return a
	}
	if f.memo.n >= MaxRemembered-memoSlots {
		return v
	}
	f.memo.m.Store(key, v)
	f.memo.n++
	return v
}

// Profile returns the profile the file was parsed with.
func (f *File) Profile() Profile { return f.profile }

// CrawlDelayEndsGroup reports whether the file was parsed with
// Options.CrawlDelayEndsGroup: whether its groups are those of the engines
// that read Crawl-delay.
func (f *File) CrawlDelayEndsGroup() bool { return f.cdEnds }

// Groups returns the groups as written, in file order. The slice is built
// on each call.
func (f *File) Groups() []Group {
	out := make([]Group, len(f.groups))
	for i, g := range f.groups {
		G := &out[i]
		for _, u := range f.uas[g.uaLo:g.uaHi] {
			G.Agents = append(G.Agents, u.text(f.arena))
			G.Tokens = append(G.Tokens, u.tok(f.arena))
			G.AgentLines = append(G.AgentLines, int(u.line))
		}
		G.Rules = f.appendRules(nil, i)
	}
	return out
}

// Sitemaps returns the Sitemap lines, in file order.
func (f *File) Sitemaps() []Sitemap { return f.sitemaps }

// Unknown returns the lines with keys rep does not interpret.
func (f *File) Unknown() []Unknown { return f.unknown }

// Diagnostics returns the problems found while parsing, in line order.
func (f *File) Diagnostics() []Diagnostic { return f.diags }

// Size returns the size of the input in bytes.
func (f *File) Size() int { return f.size }

// Truncated reports whether the input was over the size limit; ParsedBytes
// is then how much of it was read.
func (f *File) Truncated() bool { return f.limited }

// ParsedBytes returns how many bytes of the input were read.
func (f *File) ParsedBytes() int { return f.parsedLen }

// Agents returns the product tokens the file names (lower-cased, as
// matched), without "*".
func (f *File) Agents() []string {
	out := make([]string, len(f.agents))
	for i, e := range f.agents {
		out[i] = e.token
	}
	return out
}

// agentEntry is one product token named in the file and the merged rules of
// every group that names it.
type agentEntry struct {
	token string     // lower-cased, cut as Google cuts it
	idx   *lazyIndex // nil when the groups have no rules
	// File.entInts[linesLo:groupsLo] are the user-agent lines naming the
	// token; [groupsLo:groupsHi] the groups naming it, in file order.
	linesLo, groupsLo, groupsHi uint32
}

func (f *File) entLines(e *agentEntry) []int {
	return f.entInts[e.linesLo:e.groupsLo:e.groupsLo]
}

func (f *File) entGroups(e *agentEntry) []int {
	return f.entInts[e.groupsLo:e.groupsHi:e.groupsHi]
}

// group is the compact form of a Group: its user-agent lines and its rules
// are ranges of File.uas and File.rules (a group's lines are contiguous).
type group struct {
	uaLo, uaHi     uint32
	ruleLo, ruleHi uint32
}

// uaLine is one user-agent line. Its value as written is arena[off:] and
// its token (lower-cased and cut) follows it there, unless it is "*".
type uaLine struct {
	off     uint32
	line    int32
	group   int32
	textLen uint16 // a line is at most MaxLineBytes
	tokLen  uint16 // starTok for "*"
}

const starTok = 0xFFFF

func (u *uaLine) text(arena string) string {
	return arena[u.off : u.off+uint32(u.textLen)]
}

func (u *uaLine) tok(arena string) string {
	if u.tokLen == starTok {
		return "*"
	}
	at := u.off + uint32(u.textLen)
	return arena[at : at+uint32(u.tokLen)]
}

// Group is one group as written: its user-agent lines and the line span of
// its rules. Groups naming the same token are merged when matching.
type Group struct {
	// Agents are the user-agent values as written.
	Agents []string
	// Tokens are the product tokens matched against, lower-cased and cut at
	// the first character outside [A-Za-z_-] ("*" for the star group).
	Tokens []string
	// AgentLines are the line numbers of the user-agent lines.
	AgentLines []int
	// Rules are the group's allow and disallow rules in file order.
	Rules []Rule
}

// Sitemap is a Sitemap line: file-wide, it belongs to no group.
type Sitemap struct {
	URL  string
	Line int
}

// Unknown is a line whose key rep does not interpret; it is kept so tools
// can report it, and it does not end a group (RFC 9309 §2.2.4).
type Unknown struct {
	Key, Value string
	Line       int
	Group      int // index into Groups(), -1 outside any group
}

// lazyIndex is the index of one set of merged groups, built on first use.
// Parsing only records the rules: a crawler uses one group of a file, so
// building the index of every group up front would be work thrown away.
// The build runs once, under sync.Once, so a File stays safe for concurrent
// use and answers the same whenever its indexes are built.
type lazyIndex struct {
	groups []int
	once   sync.Once
	ix     *index
}

// get returns the index, building it on the first call.
//
// The index of a group that a token names alone (File.byGroup) is built in
// place: its group's rules in File.rules are reordered into index order, so
// they are stored once. Everything else that reads a group's rules first
// makes sure that reordering is done (sortedRules), which keeps readers and
// the reordering ordered by the sync.Once.
func (l *lazyIndex) get(f *File) *index {
	l.once.Do(func() {
		inPlace := len(l.groups) == 1 && f.byGroup[l.groups[0]] == l
		if !inPlace {
			for _, g := range l.groups {
				f.sortedRules(g)
			}
		}
		l.ix = buildIndex(f, l.groups, inPlace)
	})
	return l.ix
}

// sortedRules returns group g's rules, once any in-place reordering of them
// is done: in index order when g has its own index, else in file order.
func (f *File) sortedRules(g int) []rule {
	if f.byGroup != nil {
		if l := f.byGroup[g]; l != nil {
			l.get(f)
		}
	}
	return f.rules[f.groups[g].ruleLo:f.groups[g].ruleHi]
}
