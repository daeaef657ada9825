package robotsdiff

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/rep-toolkit/rep/aipref"
	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
	"github.com/rep-toolkit/rep/verdict"
)

// Version is one side of a comparison: a robots.txt as crawlers read it.
type Version struct {
	// Name is how reports name it: a file name, a URL, "<standard input>".
	Name string
	// Body is the file's bytes as crawlers read them. It is ignored when
	// Fetch's verdict allows or disallows everything.
	Body []byte
	// Fetch is how the file was fetched; nil when it was given, not
	// fetched.
	Fetch *robotsfetch.Outcome
}

// Defaults for the zero Options.
const (
	DefaultMaxWitnesses = 4096
	DefaultMaxFlips     = 200
	DefaultMaxRules     = 1000
)

// Options configure Compare.
type Options struct {
	// Agents are the crawlers compared; nil means DefaultAgents.
	Agents []*verdict.Agent
	// URLs are URLs or paths to decide on both sides beside the witness
	// paths: a sample, a sitemap's URLs, the paths of an access log.
	URLs []string
	// MaxWitnesses bounds the witness paths derived for one crawler (0:
	// DefaultMaxWitnesses); Crawler.WitnessesCut says when it was reached.
	MaxWitnesses int
	// MaxFlips bounds the flips kept per crawler (0: DefaultMaxFlips);
	// the counts in Crawler still count every flip.
	MaxFlips int
	// MaxRules bounds the rules added and removed kept per crawler (0:
	// DefaultMaxRules); AddedCount and RemovedCount count them all.
	MaxRules int
}

// Diff is what changed between two versions of a robots.txt, per crawler.
// It is immutable once Compare returns it.
type Diff struct {
	Old, New Side
	// TextChanged is set when the bytes differ.
	TextChanged bool
	// Fetch is the change in how the file was fetched; nil when both were
	// fetched alike, or either was given as a file.
	Fetch *FetchChange
	// Sitemaps are the Sitemap lines added and removed (file-wide).
	Sitemaps []SitemapChange
	// Crawlers are every crawler compared, in the order given.
	Crawlers []*Crawler
	// URLs counts the URLs given; Witnesses the distinct witness paths
	// decided, for all crawlers.
	URLs      int
	Witnesses int
}

// Side describes one version.
type Side struct {
	Name  string               `json:"name"`
	Bytes int                  `json:"bytes"`
	Fetch *robotsfetch.Outcome `json:"fetch,omitempty"`
	// Verdict is what the fetch means for every URL: use-rules for a
	// file given or fetched with 2xx.
	Verdict robotsfetch.Class `json:"verdict"`
}

// FetchChange is a change in how the origin answers for its robots.txt.
type FetchChange struct {
	Before, After *robotsfetch.Outcome
	// What says each change in words, e.g. "status 200 → 503".
	What []string
}

// SitemapChange is one Sitemap line added or removed.
type SitemapChange struct {
	URL   string `json:"url"`
	Added bool   `json:"added"`
	// Line is the line in the new file (added) or the old one (removed).
	Line int `json:"line"`
}

// Crawler is the change for one crawler.
type Crawler struct {
	Agent *verdict.Agent
	// Before and After are the groups the crawler obeys; nil on a side
	// whose fetch allows or disallows everything.
	Before, After *robotstxt.GroupMatch
	// Added and Removed are the rules in force added and removed after
	// normalisation, with their lines in the new and old file, in line
	// order, up to Options.MaxRules each; AddedCount and RemovedCount
	// count them all.
	Added, Removed           []robotstxt.Rule
	AddedCount, RemovedCount int
	// Delay is the change of the interval the crawler's engine reads
	// (Crawl-delay, Request-rate); nil when it is the same.
	Delay *DelayChange
	// Usage are the usage-preference statements (Content-Usage,
	// Content-Signal) that apply to the crawler, added and removed.
	Usage []UsageChange
	// Flips are the URLs whose verdict flips (crawling, or a usage
	// category), sample URLs first, then witness paths, up to
	// Options.MaxFlips.
	Flips []Flip
	// Blocked and Unblocked count the URLs newly disallowed and newly
	// allowed; UsageFlips those whose usage verdict alone changed. They
	// count every flip, kept or not.
	Blocked, Unblocked, UsageFlips int
	// Witnesses counts the witness paths decided; WitnessesCut is set when
	// Options.MaxWitnesses stopped their derivation.
	Witnesses    int
	WitnessesCut bool

	rulesChanged, usageChanged, verdictChanged bool
}

// DelayChange is a change of the crawl interval the engine reads.
type DelayChange struct {
	Before, After time.Duration // 0: none
	// From says where each comes from, e.g. "crawl-delay (line 4)".
	BeforeFrom, AfterFrom string
}

// UsageChange is one usage-preference statement added or removed.
type UsageChange struct {
	Added bool `json:"added"`
	// Line is in the new file (added) or the old one (removed).
	Line int `json:"line"`
	// Text is the line as written, e.g. "Content-Usage: /docs/ train-ai=n".
	Text string `json:"text"`
}

// Flip is one URL whose verdict differs.
type Flip struct {
	URL string
	// Witness is set for a path derived from the patterns, not given.
	Witness bool
	// Before and After are the verdicts, each with its deciding line.
	Before, After verdict.Decision
}

// Crawl reports whether the crawling verdict flips (else only a usage
// category does).
func (f Flip) Crawl() bool { return f.Before.Allowed != f.After.Allowed }

// Blocks reports whether the URL becomes disallowed.
func (f Flip) Blocks() bool { return f.Before.Allowed && !f.After.Allowed }

// UsageFlips lists the usage categories whose preference changed, each as
// category, before, after.
func (f Flip) UsageFlips() []CategoryChange {
	var out []CategoryChange
	for _, c := range aipref.Categories() {
		b, a := pref(f.Before.Usage, c), pref(f.After.Usage, c)
		if b != a {
			out = append(out, CategoryChange{Category: c, Before: b, After: a})
		}
	}
	return out
}

// CategoryChange is one usage category whose preference changed for a URL.
type CategoryChange struct {
	Category      aipref.Category `json:"category"`
	Before, After aipref.Pref
}

func pref(v *aipref.Usage, c aipref.Category) aipref.Pref {
	if v == nil {
		return aipref.Unknown
	}
	return v.Get(c)
}

// Changed reports whether anything the crawler reads changed: its rules in
// force, its crawl interval, its usage preferences, or the fetch verdict.
// The group it obeys may change without this (the same rules, written in
// a group of its own).
func (c *Crawler) Changed() bool {
	return c.rulesChanged || c.usageChanged || c.verdictChanged || c.Delay != nil || c.Blocked+c.Unblocked+c.UsageFlips > 0
}

// GroupChanged reports whether the crawler obeys another group: a group
// chosen by another token or another way (its own, a fallback's, "*").
func (c *Crawler) GroupChanged() bool {
	b, a := c.Before, c.After
	if b == nil || a == nil {
		return b != a
	}
	return b.Agent != a.Agent || b.Via != a.Via
}

// FlipCount is the number of URLs that flip for the crawler, kept or not.
func (c *Crawler) FlipCount() int { return c.Blocked + c.Unblocked + c.UsageFlips }

// Changed reports whether the two versions differ in meaning for any
// crawler, in their sitemaps, or in how they were fetched.
func (d *Diff) Changed() bool {
	if d.Fetch != nil || len(d.Sitemaps) > 0 {
		return true
	}
	for _, c := range d.Crawlers {
		if c.Changed() {
			return true
		}
	}
	return false
}

// Flips counts the flips of every crawler: newly blocked, newly allowed,
// usage only.
func (d *Diff) Flips() (blocked, unblocked, usageOnly int) {
	for _, c := range d.Crawlers {
		blocked += c.Blocked
		unblocked += c.Unblocked
		usageOnly += c.UsageFlips
	}
	return
}

// DefaultAgents are the crawlers Compare answers for when none are given:
// every crawler of the registry that is not retired, in registry order;
// then each product token the files' user-agent lines name that none of
// those is; then "*", any other crawler. e is the engine to apply
// (engine.Auto: each crawler's own).
func DefaultAgents(e engine.Engine, files ...[]byte) []*verdict.Agent {
	var out []*verdict.Agent
	seen := map[string]bool{}
	add := func(a *verdict.Agent) {
		if k := strings.ToLower(a.Token()); !seen[k] {
			seen[k] = true
			out = append(out, a)
		}
	}
	for _, c := range crawlers.All() {
		if c.Source != crawlers.SourceRegistry || c.Retired || len(c.Tokens) == 0 {
			continue
		}
		add(verdict.AgentFor(c, e))
	}
	for _, data := range files {
		for _, g := range robotstxt.Parse(data).Groups() {
			for _, t := range g.Tokens {
				if t == "*" || t == "" || seen[t] {
					continue
				}
				if a, err := verdict.NewAgent(t, verdict.AgentOptions{Engine: e}); err == nil {
					add(a)
				}
			}
		}
	}
	if a, err := verdict.NewAgent("*", verdict.AgentOptions{Engine: e}); err == nil {
		add(a)
	}
	return out
}

// side is a Version read for comparison: parsed once per way of parsing.
type side struct {
	v       Version
	verdict robotsfetch.Class
	files   map[robotstxt.Options]*robotstxt.File
	// rules memoises ruleSet per group: most crawlers obey the same one.
	rules map[string]map[ruleKey]robotstxt.Rule
}

// groupKey names the group g of f: the file as parsed, the token that
// chose it and how, and its user-agent lines.
func groupKey(f *robotstxt.File, g *robotstxt.Matcher) string {
	if g == nil {
		return "-"
	}
	m := g.Group()
	return fmt.Sprintf("%p|%s|%d|%v", f, m.Agent, m.Via, m.Lines)
}

func (s *side) ruleSet(f *robotstxt.File, g *robotstxt.Matcher) (map[ruleKey]robotstxt.Rule, string) {
	k := groupKey(f, g)
	m, ok := s.rules[k]
	if !ok {
		m = ruleSet(g)
		s.rules[k] = m
	}
	return m, k
}

func newSide(v Version) *side {
	s := &side{v: v, files: map[robotstxt.Options]*robotstxt.File{}, rules: map[string]map[ruleKey]robotstxt.Rule{}}
	if v.Fetch != nil {
		s.verdict = v.Fetch.Verdict
	}
	return s
}

// file is the version parsed as engine e parses; nil when the fetch's
// verdict stands for the file.
func (s *side) file(e engine.Engine) *robotstxt.File {
	if s.verdict != robotsfetch.UseRules {
		return nil
	}
	po := e.ParseOptions()
	f := s.files[po]
	if f == nil {
		f = robotstxt.ParseWith(s.v.Body, po)
		s.files[po] = f
	}
	return f
}

// decide is the verdict of the one path: verdict.Agent.Decide for a file
// given, DecideFetched for a file fetched.
func (s *side) decide(a *verdict.Agent, u string) verdict.Decision {
	f := s.file(a.Engine)
	if s.v.Fetch == nil {
		return a.Decide(f, u)
	}
	return a.DecideFetched(&robotsfetch.Robots{Outcome: *s.v.Fetch, File: f, Body: s.v.Body}, u)
}

// Compare compares old and new for every crawler of o.Agents.
func Compare(old, new Version, o Options) *Diff {
	if o.MaxWitnesses <= 0 {
		o.MaxWitnesses = DefaultMaxWitnesses
	}
	if o.MaxFlips <= 0 {
		o.MaxFlips = DefaultMaxFlips
	}
	if o.MaxRules <= 0 {
		o.MaxRules = DefaultMaxRules
	}
	agents := o.Agents
	if agents == nil {
		agents = DefaultAgents(engine.Auto, bodyOf(old), bodyOf(new))
	}
	so, sn := newSide(old), newSide(new)
	d := &Diff{
		Old:  Side{Name: old.Name, Bytes: len(old.Body), Fetch: old.Fetch, Verdict: so.verdict},
		New:  Side{Name: new.Name, Bytes: len(new.Body), Fetch: new.Fetch, Verdict: sn.verdict},
		URLs: len(o.URLs),
	}
	d.TextChanged = !bytes.Equal(bodyOf(old), bodyOf(new))
	d.Fetch = fetchChange(old.Fetch, new.Fetch)
	d.Sitemaps = sitemapChanges(so.file(engine.Google), sn.file(engine.Google))
	all := map[string]bool{}
	memo := map[string]witnessMemo{}
	for _, a := range agents {
		c := compareAgent(a, so, sn, o, all, memo)
		d.Crawlers = append(d.Crawlers, c)
	}
	d.Witnesses = len(all)
	return d
}

// bodyOf is the bytes crawlers read of v: none when the fetch's verdict
// stands for the file.
func bodyOf(v Version) []byte {
	if v.Fetch != nil && v.Fetch.Verdict != robotsfetch.UseRules {
		return nil
	}
	return v.Body
}

// ruleKey is a rule after normalisation: allow or disallow, and the
// pattern escaped as the parser escapes it.
type ruleKey struct {
	allow   bool
	pattern string
}

// ruleSet is the normalised rules in force: each with its first line.
func ruleSet(g *robotstxt.Matcher) map[ruleKey]robotstxt.Rule {
	m := map[ruleKey]robotstxt.Rule{}
	if g == nil {
		return m
	}
	for _, r := range g.Rules() {
		if r.Pattern == "" {
			continue // an empty rule never decides a verdict
		}
		k := ruleKey{r.Allow, robotstxt.EscapePattern(r.Pattern)}
		if _, ok := m[k]; !ok {
			m[k] = r
		}
	}
	return m
}

// witnessMemo is the witness paths of one pair of groups, shared by the
// crawlers that obey that pair.
type witnessMemo struct {
	paths   []string
	cut     bool
	usageAt map[string]bool
}

func compareAgent(a *verdict.Agent, so, sn *side, o Options, all map[string]bool, memo map[string]witnessMemo) *Crawler {
	c := &Crawler{Agent: a}
	fo, fn := so.file(a.Engine), sn.file(a.Engine)
	var go_, gn *robotstxt.Matcher
	if fo != nil {
		go_ = a.Group(fo)
		m := go_.Group()
		c.Before = &m
	}
	if fn != nil {
		gn = a.Group(fn)
		m := gn.Group()
		c.After = &m
	}
	c.verdictChanged = so.verdict != sn.verdict
	ro, ko := so.ruleSet(fo, go_)
	rn, kn := sn.ruleSet(fn, gn)
	for k, r := range rn {
		if _, ok := ro[k]; !ok {
			c.Added = append(c.Added, r)
		}
	}
	for k, r := range ro {
		if _, ok := rn[k]; !ok {
			c.Removed = append(c.Removed, r)
		}
	}
	byLine := func(s []robotstxt.Rule) {
		sort.Slice(s, func(i, j int) bool { return s[i].Line < s[j].Line })
	}
	byLine(c.Added)
	byLine(c.Removed)
	c.AddedCount, c.RemovedCount = len(c.Added), len(c.Removed)
	c.rulesChanged = len(c.Added)+len(c.Removed) > 0
	c.Delay = delayChange(a, fo, fn)
	uo, un := statements(fo, go_), statements(fn, gn)
	c.Usage, c.usageChanged = usageChanges(uo, un)
	if !c.rulesChanged && !c.usageChanged && !c.verdictChanged {
		return c // no URL can flip
	}
	wm, ok := memo[ko+"\n"+kn]
	if !ok {
		wm = c.witnesses(ro, rn, uo, un, o.MaxWitnesses)
		memo[ko+"\n"+kn] = wm
	}
	ws, usageAt := wm.paths, wm.usageAt
	defer c.cutRules(o.MaxRules)
	c.Witnesses, c.WitnessesCut = len(ws), wm.cut
	// The probes: the URLs given, then the witnesses not among them. All
	// are decided against the old file first, then the new one, so that
	// the agent resolves its group once per file, not once per URL.
	type probe struct {
		u                string
		witness, usageOK bool
	}
	given := make(map[string]bool, len(o.URLs))
	probes := make([]probe, 0, len(o.URLs)+len(ws))
	for _, u := range o.URLs {
		given[u] = true
		probes = append(probes, probe{u, false, true})
	}
	for _, w := range ws {
		all[w] = true
		if !given[w] {
			probes = append(probes, probe{w, true, usageAt[w]})
		}
	}
	before := make([]verdict.Decision, len(probes))
	for i, p := range probes {
		before[i] = so.decide(a, p.u)
	}
	for i, p := range probes {
		c.record(Flip{URL: p.u, Witness: p.witness, Before: before[i], After: sn.decide(a, p.u)}, p.usageOK, o.MaxFlips)
	}
	return c
}

// record counts f when it flips, its crawling verdict or, when usage says
// so, a usage preference alone, and keeps it up to max.
func (c *Crawler) record(f Flip, usage bool, max int) {
	switch {
	case f.Blocks():
		c.Blocked++
	case f.Crawl():
		c.Unblocked++
	case usage && (c.usageChanged || c.verdictChanged) && len(f.UsageFlips()) > 0:
		c.UsageFlips++
	default:
		return
	}
	if len(c.Flips) < max {
		c.Flips = append(c.Flips, f)
	}
}

func delayChange(a *verdict.Agent, fo, fn *robotstxt.File) *DelayChange {
	get := func(f *robotstxt.File) (time.Duration, string) {
		if f == nil {
			return 0, ""
		}
		d, from, ok := a.SiteDelay(&robotsfetch.Robots{File: f})
		if !ok {
			return 0, ""
		}
		return d, from
	}
	db, fb := get(fo)
	da, fa := get(fn)
	if db == da {
		return nil
	}
	return &DelayChange{Before: db, After: da, BeforeFrom: fb, AfterFrom: fa}
}

// statement is a usage-preference line that applies to a crawler,
// normalised: its key, its path (Content-Usage) and its preferences.
type statement struct {
	key  robotstxt.Key
	path string
	norm string
	line int
	text string
}

// statements are the usage lines that apply to the crawler of group g:
// its Content-Usage lines in order (of equally long paths, the first
// written wins), then the Content-Signal lines of its groups and of no
// group, sorted (they combine, the most restrictive winning).
func statements(f *robotstxt.File, g *robotstxt.Matcher) []statement {
	if f == nil || g == nil {
		return nil
	}
	mk := func(e robotstxt.Extension) statement {
		var b strings.Builder
		for i, p := range e.Pairs {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strings.ToLower(p.Key) + "=" + strings.ToLower(p.Value))
		}
		s := statement{key: e.Key, norm: b.String(), line: e.Line, text: e.Name + ": " + e.Value}
		if e.Path != "" {
			s.path = robotstxt.EscapePattern(e.Path)
		}
		return s
	}
	var out, signals []statement
	for _, e := range g.Extensions(robotstxt.KeyContentUsage) {
		out = append(out, mk(e))
	}
	for _, e := range g.Extensions(robotstxt.KeyContentSignal) {
		signals = append(signals, mk(e))
	}
	for _, e := range f.Extensions() {
		if e.Key == robotstxt.KeyContentSignal && e.Group < 0 && e.Err == "" {
			signals = append(signals, mk(e))
		}
	}
	sort.SliceStable(signals, func(i, j int) bool { return signals[i].norm < signals[j].norm })
	// A statement repeated says nothing more: of equal Content-Usage
	// lines the first decides, and Content-Signal lines combine.
	seen := map[string]bool{}
	kept := out[:0]
	for _, s := range append(out, signals...) {
		if !seen[s.id()] {
			seen[s.id()] = true
			kept = append(kept, s)
		}
	}
	return kept
}

func (s statement) id() string { return s.key.String() + "\x00" + s.path + "\x00" + s.norm }

// usageChanges lists the statements added and removed; changed is set
// when the lists differ in anything that can change a verdict (including
// the order of Content-Usage lines).
func usageChanges(old, new []statement) (out []UsageChange, changed bool) {
	changed = len(old) != len(new)
	for i := 0; !changed && i < len(old); i++ {
		changed = old[i].id() != new[i].id()
	}
	if !changed {
		return nil, false
	}
	count := map[string]int{}
	for _, s := range old {
		count[s.id()]++
	}
	for _, s := range new {
		if count[s.id()] > 0 {
			count[s.id()]--
			continue
		}
		out = append(out, UsageChange{Added: true, Line: s.line, Text: s.text})
	}
	left := map[string]int{}
	for _, s := range new {
		left[s.id()]++
	}
	for _, s := range old {
		if left[s.id()] > 0 {
			left[s.id()]--
			continue
		}
		out = append(out, UsageChange{Line: s.line, Text: s.text})
	}
	return out, true
}

func sitemapChanges(fo, fn *robotstxt.File) []SitemapChange {
	list := func(f *robotstxt.File) map[string]int {
		m := map[string]int{}
		if f == nil {
			return m
		}
		for _, s := range f.Sitemaps() {
			if _, ok := m[s.URL]; !ok {
				m[s.URL] = s.Line
			}
		}
		return m
	}
	mo, mn := list(fo), list(fn)
	var out []SitemapChange
	for u, l := range mo {
		if _, ok := mn[u]; !ok {
			out = append(out, SitemapChange{URL: u, Line: l})
		}
	}
	for u, l := range mn {
		if _, ok := mo[u]; !ok {
			out = append(out, SitemapChange{URL: u, Added: true, Line: l})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Added != out[j].Added {
			return !out[i].Added
		}
		return out[i].Line < out[j].Line
	})
	return out
}

// witnesses derives the witness paths of the crawler's change: from the
// rules that changed, the usage lines that changed, and the root.
func (c *Crawler) witnesses(ro, rn map[ruleKey]robotstxt.Rule, uo, un []statement, max int) witnessMemo {
	// The witness paths: from the rules that changed, the usage lines that
	// changed, and the root. A fetch that allows or disallows everything
	// on one side makes every rule of the other side a change.
	var pats []string
	for _, r := range c.Added {
		pats = append(pats, r.Pattern)
	}
	for _, r := range c.Removed {
		pats = append(pats, r.Pattern)
	}
	if c.verdictChanged {
		for _, m := range []map[ruleKey]robotstxt.Rule{ro, rn} {
			for _, r := range m {
				pats = append(pats, r.Pattern)
			}
		}
	}
	// Usage witnesses: the root and the paths of the usage lines that
	// changed. A usage change alone is reported on them (and on the URLs
	// given), not on every rule's witness, where it would repeat the same
	// site-wide preference.
	usageAt := map[string]bool{"/": true}
	if c.usageChanged {
		var ups []string
		for _, s := range append(slices.Clone(uo), un...) {
			if s.path != "" {
				ups = append(ups, s.path)
			}
		}
		sort.Strings(ups)
		uws, _ := witnessPaths(ups, max)
		for _, w := range uws {
			usageAt[w] = true
		}
		pats = append(pats, ups...)
	}
	sort.Strings(pats)
	ws, cut := witnessPaths(pats, max)
	return witnessMemo{paths: ws, cut: cut, usageAt: usageAt}
}

// cutRules keeps at most max rules added and removed.
func (c *Crawler) cutRules(max int) {
	if len(c.Added) > max {
		c.Added = c.Added[:max:max]
	}
	if len(c.Removed) > max {
		c.Removed = c.Removed[:max:max]
	}
}
