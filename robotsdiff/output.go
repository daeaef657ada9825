package robotsdiff

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
	"github.com/rep-toolkit/rep/verdict"
)

// Cluster is crawlers for which the change is the same: the same rules
// added and removed, the same group tokens, delay, usage statements and
// flips (URL, verdicts and deciding lines). Reports print each cluster
// once, so that a "Disallow: /" does not print fifty times.
type Cluster struct {
	Crawlers []*Crawler
}

// First is the cluster's first crawler, whose details stand for all.
func (c Cluster) First() *Crawler { return c.Crawlers[0] }

// Names are the crawlers' names.
func (c Cluster) Names() []string {
	out := make([]string, len(c.Crawlers))
	for i, x := range c.Crawlers {
		out[i] = x.Agent.Name
	}
	return out
}

// Engines says whose rules the crawlers follow, e.g. "google rules",
// "google and bing rules".
func (c Cluster) Engines() string {
	var es []string
	for _, x := range c.Crawlers {
		if e := x.Agent.Engine.String(); !slices.Contains(es, e) {
			es = append(es, e)
		}
	}
	if len(es) > 1 {
		return strings.Join(es[:len(es)-1], ", ") + " and " + es[len(es)-1] + " rules"
	}
	return es[0] + " rules"
}

// Clusters groups the crawlers whose meaning changed by the change they
// see, in the order of their first crawler.
func (d *Diff) Clusters() []Cluster {
	var out []Cluster
	index := map[string]int{}
	for _, c := range d.Crawlers {
		if !c.Changed() {
			continue
		}
		k := c.signature()
		if i, ok := index[k]; ok {
			out[i].Crawlers = append(out[i].Crawlers, c)
			continue
		}
		index[k] = len(out)
		out = append(out, Cluster{Crawlers: []*Crawler{c}})
	}
	return out
}

// Unchanged lists the crawlers for which nothing changed in meaning.
func (d *Diff) Unchanged() []*Crawler {
	var out []*Crawler
	for _, c := range d.Crawlers {
		if !c.Changed() {
			out = append(out, c)
		}
	}
	return out
}

func (c *Crawler) signature() string {
	var b strings.Builder
	g := func(m *robotstxt.GroupMatch) string {
		if m == nil {
			return "-"
		}
		return m.Agent
	}
	fmt.Fprintf(&b, "%s>%s|%v|", g(c.Before), g(c.After), c.verdictChanged)
	for _, r := range c.Added {
		fmt.Fprintf(&b, "+%v%s@%d", r.Allow, r.Pattern, r.Line)
	}
	for _, r := range c.Removed {
		fmt.Fprintf(&b, "-%v%s@%d", r.Allow, r.Pattern, r.Line)
	}
	if c.Delay != nil {
		fmt.Fprintf(&b, "|d%v>%v", c.Delay.Before, c.Delay.After)
	}
	for _, u := range c.Usage {
		fmt.Fprintf(&b, "|u%v%d%s", u.Added, u.Line, u.Text)
	}
	fmt.Fprintf(&b, "|%d/%d/%d", c.Blocked, c.Unblocked, c.UsageFlips)
	for _, f := range c.Flips {
		fmt.Fprintf(&b, "|%s%v%d%v%d%v", f.URL, f.Before.Allowed, f.Before.Rule.Line, f.After.Allowed, f.After.Rule.Line, f.UsageFlips())
	}
	return b.String()
}

// names lists up to max names, then "and N more".
func names(ns []string, max int) string {
	if len(ns) <= max {
		return strings.Join(ns, ", ")
	}
	return strings.Join(ns[:max], ", ") + fmt.Sprintf(" and %d more", len(ns)-max)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// distinctFlips counts the distinct URLs among the flips kept: newly
// disallowed for some crawler, newly allowed for some crawler, another
// usage preference only.
func (d *Diff) distinctFlips() (blocked, unblocked, usageOnly int) {
	seen := map[string]bool{}
	for _, c := range d.Crawlers {
		for _, f := range c.Flips {
			k := flipWord(f) + " " + f.URL
			if seen[k] {
				continue
			}
			seen[k] = true
			switch flipWord(f) {
			case "blocked":
				blocked++
			case "allowed":
				unblocked++
			default:
				usageOnly++
			}
		}
	}
	return
}

// Summary says in one line what changed, e.g. "meaning changed for 6 of
// 52 crawlers: 3 URLs newly disallowed, 1 newly allowed".
func (d *Diff) Summary() string {
	if !d.Changed() {
		s := fmt.Sprintf("no change in meaning for any of %s", plural(len(d.Crawlers), "crawler"))
		if d.TextChanged {
			s += " (the text changed: comments, blank lines, order, case of keys or duplicate rules)"
		} else {
			s += " (the files are the same)"
		}
		return s
	}
	n := 0
	for _, c := range d.Crawlers {
		if c.Changed() {
			n++
		}
	}
	s := fmt.Sprintf("meaning changed for %d of %s", n, plural(len(d.Crawlers), "crawler"))
	b, u, o := d.distinctFlips()
	atLeast := ""
	for _, c := range d.Crawlers {
		if c.FlipCount() > len(c.Flips) {
			atLeast = "at least " // distinct URLs are counted among the flips kept
		}
	}
	var parts []string
	if b > 0 {
		parts = append(parts, fmt.Sprintf("%s%s newly disallowed", atLeast, plural(b, "URL")))
	}
	if u > 0 {
		parts = append(parts, fmt.Sprintf("%s%s newly allowed", atLeast, plural(u, "URL")))
	}
	if o > 0 {
		parts = append(parts, fmt.Sprintf("%s%s with another usage preference", atLeast, plural(o, "URL")))
	}
	if len(parts) == 0 {
		parts = append(parts, "no URL flips")
	}
	if pb, pu, po := d.Flips(); pb+pu+po > b+u+o {
		parts[len(parts)-1] += fmt.Sprintf(" (%d crawler-URL pairs)", pb+pu+po)
	}
	s += ": " + strings.Join(parts, ", ")
	if n == 0 {
		s = "no crawler's rules changed"
	}
	// An unreachable robots.txt is not a file that disallows: say so
	// first (RFC 9309 §2.3.1.4: crawlers stop until it answers).
	switch {
	case d.New.Verdict == robotsfetch.DisallowAll && d.Old.Verdict != robotsfetch.DisallowAll:
		s = "robots.txt is now unreachable, which crawlers read as everything disallowed until it answers; " + s
	case d.New.Verdict == robotsfetch.AllowAll && d.Old.Verdict != robotsfetch.AllowAll:
		s = "robots.txt is now unavailable (4xx), which crawlers read as no restrictions; " + s
	}
	return s
}

func ruleText(r robotstxt.Rule) string { return r.String() }

func delayText(d time.Duration) string {
	if d == 0 {
		return "none"
	}
	return d.String()
}

func groupText(m *robotstxt.GroupMatch) string {
	if m == nil {
		return "(no file)"
	}
	if m.Agent == "" {
		return "(none)"
	}
	return m.Agent
}

// flipWord is how a flip is named: blocked, allowed, or usage.
func flipWord(f Flip) string {
	switch {
	case f.Blocks():
		return "blocked"
	case f.Crawl():
		return "allowed"
	}
	return "usage"
}

func usageText(f Flip) string {
	var parts []string
	for _, c := range f.UsageFlips() {
		parts = append(parts, fmt.Sprintf("%s %s → %s", c.Category, c.Before, c.After))
	}
	return strings.Join(parts, ", ")
}

// WriteText writes the diff for a terminal: a summary, the fetch and
// sitemap changes, then each cluster of crawlers with its rules, delay,
// usage and up to maxFlips flips (0: all kept), and the crawlers for which
// nothing changed.
func (d *Diff) WriteText(w io.Writer, maxFlips int) error {
	ew := &errWriter{w: w}
	p := func(format string, a ...any) { fmt.Fprintf(ew, format, a...) }
	p("%s → %s: %s\n", d.Old.Name, d.New.Name, d.Summary())
	if d.Fetch != nil {
		for _, s := range d.Fetch.What {
			p("  fetch      %s\n", s)
		}
	}
	for _, s := range d.Sitemaps {
		if s.Added {
			p("  sitemap    added %s (new line %d)\n", s.URL, s.Line)
		} else {
			p("  sitemap    removed %s (old line %d)\n", s.URL, s.Line)
		}
	}
	for _, cl := range d.Clusters() {
		c := cl.First()
		p("\n%s (%s)\n", names(cl.Names(), 8), cl.Engines())
		if c.GroupChanged() {
			p("  group      %s → %s\n", groupText(c.Before), groupText(c.After))
		}
		ruleLines(p, "removed", "old", c.Removed, c.RemovedCount, maxFlips)
		ruleLines(p, "added", "new", c.Added, c.AddedCount, maxFlips)
		if dl := c.Delay; dl != nil {
			p("  delay      %s → %s%s\n", delayText(dl.Before), delayText(dl.After), fromText(dl.AfterFrom, dl.BeforeFrom))
		}
		for _, u := range c.Usage {
			if u.Added {
				p("  usage      added %s (new line %d)\n", u.Text, u.Line)
			} else {
				p("  usage      removed %s (old line %d)\n", u.Text, u.Line)
			}
		}
		shown := c.Flips
		if maxFlips > 0 && len(shown) > maxFlips {
			shown = shown[:maxFlips]
		}
		for _, f := range shown {
			src := ""
			if f.Witness {
				src = " (witness)"
			}
			if f.Crawl() {
				p("  %-10s %s%s: %s → %s\n", flipWord(f), f.URL, src, f.Before.Why(), f.After.Why())
			} else {
				p("  %-10s %s%s: %s\n", "usage", f.URL, src, usageText(f))
			}
		}
		if more := c.FlipCount() - len(shown); more > 0 {
			p("  ... and %d more\n", more)
		}
		if c.Changed() && c.FlipCount() == 0 {
			p("  (no URL flips: %s decided the same on both sides)\n", plural(c.Witnesses+d.URLs, "URL"))
		}
		if c.WitnessesCut {
			p("  (witness paths cut at %d)\n", c.Witnesses)
		}
	}
	if un := d.Unchanged(); len(un) > 0 && d.Changed() {
		ns := make([]string, len(un))
		for i, c := range un {
			ns[i] = c.Agent.Name
		}
		p("\nno change in meaning for %s: %s\n", plural(len(un), "crawler"), names(ns, 12))
	}
	return ew.err
}

// ruleLines prints up to max of rules (0: all kept), then how many more
// there are, kept or not.
func ruleLines(p func(string, ...any), word, file string, rules []robotstxt.Rule, count, max int) {
	shown := rules
	if max > 0 && len(shown) > max {
		shown = shown[:max]
	}
	for _, r := range shown {
		p("  %-10s %s (%s line %d)\n", word, ruleText(r), file, r.Line)
	}
	if n := count - len(shown); n > 0 {
		p("  ... and %d more %s\n", n, word)
	}
}

// fromText says where the new (else the old) interval comes from.
func fromText(after, before string) string {
	if after != "" {
		return " (" + after + ")"
	}
	if before != "" {
		return " (was " + before + ")"
	}
	return ""
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(b []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(b)
	e.err = err
	return n, err
}

// mdCode quotes s as Markdown inline code, safe inside a table cell.
func mdCode(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		pad = " "
	}
	return fence + pad + s + pad + fence
}

// mdText escapes s for Markdown text in a table cell.
func mdText(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`", "<", "&lt;", ">", "&gt;", "[", `\[`, "]", `\]`, "\n", " ", "\r", " ")
	return r.Replace(s)
}

func mdWhy(d verdict.Decision) string {
	verdict := "allowed"
	if !d.Allowed {
		verdict = "**disallowed**"
	}
	if d.Rule.Line > 0 && !d.FromFetch() {
		return fmt.Sprintf("%s by line %d %s", verdict, d.Rule.Line, mdCode(d.Rule.String()))
	}
	return verdict + ": " + mdText(d.Why())
}

// WriteMarkdown writes the diff as GitHub-flavoured Markdown for a
// pull-request comment: the summary, a table of flips per cluster of
// crawlers (up to maxFlips per cluster; 0: all kept), then the rules,
// delays, usage statements and sitemaps that changed.
func (d *Diff) WriteMarkdown(w io.Writer, maxFlips int) error {
	ew := &errWriter{w: w}
	p := func(format string, a ...any) { fmt.Fprintf(ew, format, a...) }
	p("### robots.txt: %s → %s\n\n", mdCode(d.Old.Name), mdCode(d.New.Name))
	if !d.Changed() {
		p("**No change in meaning** for any of %s.", plural(len(d.Crawlers), "crawler"))
		if d.TextChanged {
			p(" The text changed (comments, blank lines, order, case of keys or duplicate rules), not what any crawler reads.")
		}
		p("\n")
		return ew.err
	}
	p("**%s**\n", mdText(upperFirst(d.Summary())))
	if d.Fetch != nil {
		p("\nFetch:\n")
		for _, s := range d.Fetch.What {
			p("- %s\n", mdText(s))
		}
	}
	clusters := d.Clusters()
	var flips bool
	for _, cl := range clusters {
		if len(cl.First().Flips) > 0 {
			flips = true
		}
	}
	if flips {
		p("\n| Crawlers | URL | Before | After |\n|---|---|---|---|\n")
		for _, cl := range clusters {
			c := cl.First()
			who := mdText(names(cl.Names(), 4))
			shown := c.Flips
			if maxFlips > 0 && len(shown) > maxFlips {
				shown = shown[:maxFlips]
			}
			for _, f := range shown {
				u := mdCode(f.URL)
				if f.Witness {
					u += " (witness)"
				}
				if f.Crawl() {
					p("| %s | %s | %s | %s |\n", who, u, mdWhy(f.Before), mdWhy(f.After))
				} else {
					var b, a []string
					for _, x := range f.UsageFlips() {
						b = append(b, fmt.Sprintf("%s %s", x.Category, x.Before))
						a = append(a, fmt.Sprintf("%s **%s**", x.Category, x.After))
					}
					p("| %s | %s | %s | %s |\n", who, u, strings.Join(b, ", "), strings.Join(a, ", "))
				}
			}
			if more := c.FlipCount() - len(shown); more > 0 {
				p("| %s | … and %d more | | |\n", who, more)
			}
		}
	}
	p("\n<details><summary>What changed for each crawler</summary>\n\n")
	for _, cl := range clusters {
		c := cl.First()
		p("**%s** (%s)\n\n", mdText(names(cl.Names(), 12)), cl.Engines())
		if c.GroupChanged() {
			p("- group %s → %s\n", mdCode(groupText(c.Before)), mdCode(groupText(c.After)))
		}
		mdRules(p, "removed", "old", c.Removed, c.RemovedCount, maxFlips)
		mdRules(p, "added", "new", c.Added, c.AddedCount, maxFlips)
		if dl := c.Delay; dl != nil {
			p("- crawl interval %s → %s\n", delayText(dl.Before), delayText(dl.After))
		}
		for _, u := range c.Usage {
			if u.Added {
				p("- added %s (new line %d)\n", mdCode(u.Text), u.Line)
			} else {
				p("- removed %s (old line %d)\n", mdCode(u.Text), u.Line)
			}
		}
		if c.FlipCount() == 0 {
			p("- no URL flips\n")
		}
		p("\n")
	}
	if len(d.Sitemaps) > 0 {
		p("Sitemaps:\n\n")
	}
	for _, s := range d.Sitemaps {
		if s.Added {
			p("- Sitemap added: %s (new line %d)\n", mdCode(s.URL), s.Line)
		} else {
			p("- Sitemap removed: %s (old line %d)\n", mdCode(s.URL), s.Line)
		}
	}
	if un := d.Unchanged(); len(un) > 0 {
		ns := make([]string, len(un))
		for i, c := range un {
			ns[i] = c.Agent.Name
		}
		p("\nNo change in meaning for %s: %s\n\n", plural(len(un), "crawler"), mdText(names(ns, 12)))
	}
	p("</details>\n")
	return ew.err
}

// mdRules is ruleLines for Markdown.
func mdRules(p func(string, ...any), word, file string, rules []robotstxt.Rule, count, max int) {
	shown := rules
	if max > 0 && len(shown) > max {
		shown = shown[:max]
	}
	for _, r := range shown {
		p("- %s %s (%s line %d)\n", word, mdCode(r.String()), file, r.Line)
	}
	if n := count - len(shown); n > 0 {
		p("- … and %d more %s\n", n, word)
	}
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// JSON shapes.

type ruleJSON struct {
	Line int    `json:"line"`
	Rule string `json:"rule"`
}

type groupJSON struct {
	Agent string `json:"agent"`
	Via   string `json:"via"`
	Lines []int  `json:"lines"`
}

func groupJSONOf(m *robotstxt.GroupMatch) *groupJSON {
	if m == nil {
		return nil
	}
	g := &groupJSON{Agent: m.Agent, Lines: m.Lines}
	if g.Lines == nil {
		g.Lines = []int{}
	}
	g.Via = verdict.ViaCode(m.Via)
	return g
}

type delayJSON struct {
	BeforeSeconds float64 `json:"before_seconds"`
	AfterSeconds  float64 `json:"after_seconds"`
	BeforeFrom    string  `json:"before_from,omitempty"`
	AfterFrom     string  `json:"after_from,omitempty"`
}

type categoryJSON struct {
	Category string `json:"category"`
	Before   string `json:"before"`
	After    string `json:"after"`
}

type flipJSON struct {
	URL     string               `json:"url"`
	Witness bool                 `json:"witness"`
	Kind    string               `json:"kind"` // blocked, allowed, usage
	Usage   []categoryJSON       `json:"usage,omitempty"`
	Before  verdict.DecisionJSON `json:"before"`
	After   verdict.DecisionJSON `json:"after"`
}

type crawlerJSON struct {
	Agent        string        `json:"agent"`
	Engine       string        `json:"engine"`
	Tokens       []string      `json:"tokens"`
	Notes        []string      `json:"notes,omitempty"`
	Changed      bool          `json:"changed"`
	GroupChanged bool          `json:"group_changed"`
	GroupBefore  *groupJSON    `json:"group_before"`
	GroupAfter   *groupJSON    `json:"group_after"`
	Added        []ruleJSON    `json:"added"`
	Removed      []ruleJSON    `json:"removed"`
	AddedCount   int           `json:"added_count"`
	RemovedCount int           `json:"removed_count"`
	Delay        *delayJSON    `json:"delay,omitempty"`
	Usage        []UsageChange `json:"usage"`
	Blocked      int           `json:"blocked"`
	Unblocked    int           `json:"unblocked"`
	UsageFlips   int           `json:"usage_flips"`
	Witnesses    int           `json:"witnesses"`
	WitnessesCut bool          `json:"witnesses_cut,omitempty"`
	Flips        []flipJSON    `json:"flips"`
}

type fetchJSON struct {
	What []string `json:"what"`
}

type diffJSON struct {
	Old         Side            `json:"old"`
	New         Side            `json:"new"`
	TextChanged bool            `json:"text_changed"`
	Changed     bool            `json:"changed"`
	Summary     string          `json:"summary"`
	Fetch       *fetchJSON      `json:"fetch,omitempty"`
	Sitemaps    []SitemapChange `json:"sitemaps"`
	URLs        int             `json:"urls"`
	Witnesses   int             `json:"witnesses"`
	Blocked     int             `json:"blocked"`
	Unblocked   int             `json:"unblocked"`
	UsageFlips  int             `json:"usage_flips"`
	Crawlers    []crawlerJSON   `json:"crawlers"`
	// Clusters lists the crawlers whose meaning changed, grouped by the
	// change they see (Diff.Clusters), by name.
	Clusters [][]string `json:"clusters"`
}

func rulesJSON(rs []robotstxt.Rule) []ruleJSON {
	out := make([]ruleJSON, len(rs))
	for i, r := range rs {
		out[i] = ruleJSON{Line: r.Line, Rule: r.String()}
	}
	return out
}

// MarshalJSON writes the flip in the shape of the flips of Diff.MarshalJSON.
func (f Flip) MarshalJSON() ([]byte, error) { return json.Marshal(f.json()) }

func (f Flip) json() flipJSON {
	j := flipJSON{URL: f.URL, Witness: f.Witness, Kind: flipWord(f), Before: f.Before.JSON(), After: f.After.JSON()}
	for _, c := range f.UsageFlips() {
		j.Usage = append(j.Usage, categoryJSON{Category: string(c.Category), Before: c.Before.String(), After: c.After.String()})
	}
	return j
}

// MarshalJSON writes the diff in its one JSON shape: old and new (name,
// bytes, fetch, verdict), text_changed, changed, summary, fetch (what
// changed), sitemaps, urls, witnesses, the flip counts, and every crawler
// with its groups, rules added and removed, delay, usage statements,
// counts and flips, each flip's before and after in the verdict shape of
// verdict.Decision; and clusters, the names of the crawlers that see the same
// change.
func (d *Diff) MarshalJSON() ([]byte, error) {
	j := diffJSON{Old: d.Old, New: d.New, TextChanged: d.TextChanged, Changed: d.Changed(), Summary: d.Summary(),
		Sitemaps: d.Sitemaps, URLs: d.URLs, Witnesses: d.Witnesses, Crawlers: []crawlerJSON{}}
	if j.Sitemaps == nil {
		j.Sitemaps = []SitemapChange{}
	}
	j.Blocked, j.Unblocked, j.UsageFlips = d.Flips()
	if d.Fetch != nil {
		j.Fetch = &fetchJSON{What: d.Fetch.What}
	}
	j.Clusters = [][]string{}
	for _, cl := range d.Clusters() {
		j.Clusters = append(j.Clusters, cl.Names())
	}
	for _, c := range d.Crawlers {
		cj := crawlerJSON{
			Agent: c.Agent.Name, Engine: c.Agent.Engine.String(), Tokens: c.Agent.Tokens, Notes: diffNotes(c.Agent, c.Before, c.After),
			Changed: c.Changed(), GroupChanged: c.GroupChanged(), GroupBefore: groupJSONOf(c.Before), GroupAfter: groupJSONOf(c.After),
			Added: rulesJSON(c.Added), Removed: rulesJSON(c.Removed), AddedCount: c.AddedCount, RemovedCount: c.RemovedCount, Usage: c.Usage,
			Blocked: c.Blocked, Unblocked: c.Unblocked, UsageFlips: c.UsageFlips,
			Witnesses: c.Witnesses, WitnessesCut: c.WitnessesCut, Flips: []flipJSON{},
		}
		if cj.Usage == nil {
			cj.Usage = []UsageChange{}
		}
		if dl := c.Delay; dl != nil {
			cj.Delay = &delayJSON{BeforeSeconds: dl.Before.Seconds(), AfterSeconds: dl.After.Seconds(), BeforeFrom: dl.BeforeFrom, AfterFrom: dl.AfterFrom}
		}
		for _, f := range c.Flips {
			cj.Flips = append(cj.Flips, f.json())
		}
		j.Crawlers = append(j.Crawlers, cj)
	}
	return json.Marshal(j)
}

// diffNotes are the notes that apply to the crawler's group in either
// version (verdict.NotesFor), the new version's first, each once.
func diffNotes(a *verdict.Agent, before, after *robotstxt.GroupMatch) []string {
	var out []string
	for _, g := range []*robotstxt.GroupMatch{after, before} {
		if g == nil {
			continue
		}
		for _, n := range verdict.NotesFor(a, *g) {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}
