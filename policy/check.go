package policy

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/lint"
	"github.com/rep-toolkit/rep/robotstxt"
	"github.com/rep-toolkit/rep/verdict"
)

// Severity ranks findings, as lint's do.
type Severity = robotstxt.Severity

// Finding is one thing Check found in a policy.
type Finding struct {
	Line     int // line in the policy file; 0 when about the whole file
	Severity Severity
	Code     string // stable, kebab-case: "unknown-agent", "round-trip", ...
	Message  string
}

func (f Finding) String() string {
	return fmt.Sprintf("%d: %s: %s [%s]", f.Line, f.Severity, f.Message, f.Code)
}

// Codes of Check's findings.
const (
	CodeUnknownAgent    = "unknown-agent"    // a token the registry does not know
	CodeUnknownCategory = "unknown-category" // not a registry purpose
	CodeEmptyCategory   = "empty-category"   // a purpose no registry crawler has
	CodeNamedTwice      = "named-twice"      // a crawler named by several groups
	CodeCrawlDelay      = "crawl-delay-ignored"
	CodeUsageSyntax     = "usage-syntax"      // a malformed Content-Usage or Content-Signal
	CodeRobotsLint      = "robots-lint"       // the generated robots.txt has a lint finding
	CodeRoundTrip       = "round-trip"        // a crawler's verdict differs from the intent
	CodeHeaderNoMatch   = "header-robots-txt" // a [[header]] matching /robots.txt only
)

// purposes are the registry's purposes, the legal categories.
func purposes() map[string]int {
	n := map[string]int{}
	for _, p := range []crawlers.Purpose{crawlers.PurposeSearch, crawlers.PurposeAITraining, crawlers.PurposeAISearch,
		crawlers.PurposeUserFetch, crawlers.PurposeAds, crawlers.PurposeMonitoring, crawlers.PurposeSEO,
		crawlers.PurposePreview, crawlers.PurposeFeed, crawlers.PurposeArchive, crawlers.PurposeResearch,
		crawlers.PurposeScanner, crawlers.PurposeLibrary, crawlers.PurposeAutomation, crawlers.PurposeAI,
		crawlers.PurposeOther} {
		n[string(p)] = 0
	}
	for _, c := range crawlers.All() {
		n[string(c.Purpose)]++
	}
	return n
}

// known reports whether the registry knows token t: a crawler's token or
// a group token such as "Yandex".
func known(t string) bool {
	if _, ok := crawlers.ByName(t); ok {
		return true
	}
	for _, g := range crawlers.Groups() {
		if strings.EqualFold(g.Token, t) {
			return true
		}
	}
	return false
}

// closestToken returns ", did you mean X?" for the registry name or token
// a misspelt t most likely meant (crawlers.Suggest), else "".
func closestToken(t string) string {
	if s := crawlers.Suggest(t); len(s) > 0 {
		return ", did you mean " + s[0] + "?"
	}
	return ""
}

// Check lints the policy and the robots.txt it generates: tokens and
// categories the registry does not know, crawlers named by several groups
// (robots.txt merges such groups, so the later rules join the earlier),
// Crawl-delay for crawlers documented to ignore it, malformed usage
// preferences, lint findings of warning level or above in the generated
// robots.txt, and every place the round trip fails. Findings of Error
// severity make Build fail.
func (p *Policy) Check() []Finding {
	out, _ := p.CheckContext(context.Background())
	return out
}

// CheckContext is Check stopping when ctx is done (the round trip, the
// longest part, asks ctx as it goes), with ctx's error and no findings.
func (p *Policy) CheckContext(ctx context.Context) ([]Finding, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []Finding
	add := func(line int, s Severity, code, format string, args ...any) {
		out = append(out, Finding{Line: line, Severity: s, Code: code, Message: fmt.Sprintf(format, args...)})
	}
	cats := purposes()
	namedBy := map[string][]int{}
	for i, g := range p.Groups {
		if i%256 == 255 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		for _, a := range g.Agents {
			if a != "*" && !known(a) {
				add(p.pos.inTable("group", i, "agents"), lint.Warning, CodeUnknownAgent,
					"group %d: the registry does not know %q: check the spelling%s (crawlers/data/registry.json lists the known ones, docs/verify.md describes it); it is written as given", i+1, a, closestToken(a))
			}
		}
		for _, c := range g.Categories {
			n, ok := cats[c]
			switch {
			case !ok:
				names := make([]string, 0, len(cats))
				for k := range cats {
					names = append(names, k)
				}
				slices.Sort(names)
				add(p.pos.inTable("group", i, "categories"), lint.Error, CodeUnknownCategory,
					"group %d: %q is not a crawler purpose: want one of %s", i+1, c, strings.Join(names, ", "))
			case n == 0:
				add(p.pos.inTable("group", i, "categories"), lint.Warning, CodeEmptyCategory,
					"group %d: no registry crawler has the purpose %q: the category names nobody", i+1, c)
			}
		}
		for _, t := range p.Tokens(i) {
			l := strings.ToLower(t)
			namedBy[l] = append(namedBy[l], i)
		}
		if g.CrawlDelay > 0 {
			var ignore []string
			for _, t := range p.Tokens(i) {
				if c, ok := crawlers.ByName(t); ok && c.CrawlDelay == crawlers.No {
					ignore = append(ignore, t)
				}
			}
			if len(ignore) > 0 {
				add(p.pos.inTable("group", i, "crawl_delay"), lint.Warning, CodeCrawlDelay,
					"group %d: crawl_delay is ignored by %s (documented not to honour Crawl-delay): slow them down by other means", i+1, strings.Join(ignore, ", "))
			}
		}
		if err := checkUsage(g.ContentUsage, aiprefKeys, "y", "n"); err != nil {
			add(p.pos.inTable("group", i, "content_usage"), lint.Warning, CodeUsageSyntax, "group %d: content_usage: %v", i+1, err)
		}
	}
	for i, g := range p.Groups {
		for _, t := range p.Tokens(i) {
			if gs := namedBy[strings.ToLower(t)]; len(gs) > 1 && gs[0] != i {
				how := "names"
				if !slices.Contains(g.Agents, t) {
					how = "by its categories names"
				}
				add(g.Line, lint.Warning, CodeNamedTwice,
					"group %d %s %s, which group %d names already: crawlers merge the two groups' rules", i+1, how, t, gs[0]+1)
			}
		}
	}
	for i, h := range p.Headers {
		if err := checkUsage(h.ContentUsage, aiprefKeys, "y", "n"); err != nil {
			add(p.pos.inTable("header", i, "content_usage"), lint.Warning, CodeUsageSyntax, "header %d: content_usage: %v", i+1, err)
		}
	}
	if err := checkUsage(p.Usage.ContentUsage, aiprefKeys, "y", "n"); err != nil {
		add(p.pos.inTable("usage", 0, "content_usage"), lint.Warning, CodeUsageSyntax, "usage.content_usage: %v", err)
	}
	if err := checkUsage(p.Usage.ContentSignal, signalKeys, "yes", "no"); err != nil {
		add(p.pos.inTable("usage", 0, "content_signal"), lint.Warning, CodeUsageSyntax, "usage.content_signal: %v", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	lr := p.Lint()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, f := range lr.Findings {
		if f.Severity < lint.Warning || p.Staging && f.Code == "disallow-all" {
			continue // a staging site means it
		}
		hint := ""
		if f.Code == "disallow-all" {
			hint = " (for a site that must never be crawled, write staging = true)"
		}
		add(0, f.Severity, CodeRobotsLint, "generated robots.txt line %d: %s [%s]%s", f.Line, f.Message, f.Code, hint)
	}
	ms, err := p.RoundTripContext(ctx)
	if err != nil && !errors.Is(err, ErrRoundTripBudget) {
		return nil, err
	}
	for _, m := range ms {
		add(m.line, lint.Error, CodeRoundTrip, "%s", m)
	}
	switch {
	case err != nil:
		add(0, lint.Error, CodeRoundTrip, "%v", err)
	case len(ms) == MaxMismatches:
		add(0, lint.Error, CodeRoundTrip, "round trip: %d mismatches listed, and there may be more (at most %d per crawler)", MaxMismatches, MaxMismatchesPerCrawler)
	}
	slices.SortStableFunc(out, func(a, b Finding) int { return a.Line - b.Line })
	return out, nil
}

// Preference vocabularies: IETF aipref (draft-ietf-aipref-vocab) and
// Cloudflare's Content Signals.
var (
	aiprefKeys = []string{"train-ai", "ai-use", "search", "train-genai", "bots"}
	signalKeys = []string{"search", "ai-input", "ai-train"}
)

// checkUsage checks a comma-separated list of key=value preferences.
func checkUsage(s string, keys []string, yes, no string) error {
	if s == "" {
		return nil
	}
	for item := range strings.SplitSeq(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok {
			return fmt.Errorf("%q is not key=%s|%s", strings.TrimSpace(item), yes, no)
		}
		if !slices.Contains(keys, k) {
			return fmt.Errorf("unknown preference %q: want %s", k, strings.Join(keys, ", "))
		}
		if v != yes && v != no {
			return fmt.Errorf("%s=%s: want %s or %s", k, v, yes, no)
		}
	}
	return nil
}

// Lint lints the generated robots.txt, as Google reads it.
func (p *Policy) Lint() *lint.Report {
	return lint.Run(p.RobotsTxt(), lint.Options{})
}

// Mismatch is a place where the generated robots.txt and the policy
// disagree: the verdict rep gives the crawler for the path is not the one
// the policy means.
type Mismatch struct {
	Agent    *verdict.Agent   // the crawler
	Path     string           // the path asked for
	Intended bool             // the policy's intent
	Decision verdict.Decision // the generated file's verdict and its evidence
	line     int              // the policy line of the group meant
}

func (m Mismatch) String() string {
	verdict := func(b bool) string {
		if b {
			return "allowed"
		}
		return "disallowed"
	}
	return fmt.Sprintf("round trip: %s %s: the policy means %s, the generated robots.txt says %s (%s)",
		m.Agent.Token(), m.Path, verdict(m.Intended), verdict(m.Decision.Allowed), m.Decision.Why())
}

// Paths returns the paths the round trip asks about: "/", "/robots.txt",
// and for every pattern of the policy (rules and headers) the path it
// names, with "*" filled in, and one below it.
func (p *Policy) Paths() []string {
	set := map[string]bool{"/": true, "/robots.txt": true}
	add := func(pat string) {
		end := strings.HasSuffix(pat, "$")
		pat = strings.TrimSuffix(pat, "$")
		for _, fill := range []string{"", "x/y"} {
			s := strings.ReplaceAll(pat, "*", fill)
			if !strings.HasPrefix(s, "/") {
				s = "/" + s
			}
			set[s] = true
			if !end {
				set[s+"z"] = true
				set[strings.TrimSuffix(s, "/")+"/sub/page.html"] = true
			}
		}
	}
	for _, g := range p.Groups {
		for _, r := range g.Allow {
			add(r)
		}
		for _, r := range g.Disallow {
			add(r)
		}
	}
	for _, h := range p.Headers {
		add(h.Path)
	}
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// Agents returns the crawlers the round trip asks for: every registry
// crawler as it behaves (verdict.AgentFor), then every token the policy names
// that the registry does not know, then a crawler no group names.
func (p *Policy) Agents() []*verdict.Agent {
	var out []*verdict.Agent
	for _, c := range crawlers.All() {
		out = append(out, verdict.AgentFor(c, engine.Auto))
	}
	seen := map[string]bool{}
	for i := range p.Groups {
		for _, t := range p.Tokens(i) {
			if l := strings.ToLower(t); t != "*" && !known(t) && !seen[l] {
				seen[l] = true
				if a, err := verdict.NewAgent(t, verdict.AgentOptions{}); err == nil {
					out = append(out, a)
				}
			}
		}
	}
	if a, err := verdict.NewAgent(unlisted, verdict.AgentOptions{}); err == nil && !seen[strings.ToLower(unlisted)] {
		out = append(out, a)
	}
	return out
}

// unlisted is the crawler Agents adds for "every other crawler".
const unlisted = "UnlistedBot"

// RoundTrip asks the generated robots.txt, through rep's engine with each
// crawler's documented behaviour, about every crawler of Agents and every
// path of Paths, and returns where its verdict is not the policy's intent.
// None means the file says what the policy means.
func (p *Policy) RoundTrip() []Mismatch {
	out, _ := p.RoundTripContext(context.Background())
	return out
}

// RoundTripContext is RoundTrip stopping when ctx is done, with ctx's
// error.
//
// Its work grows with the number of groups times the registry's size, not
// with the square of the groups: crawlers that obey the same rules of the
// file and are meant to obey the same groups of the policy get the same
// verdict on every path, so each such class is asked once; and a class
// read with Google's profile (how the intent is read) whose rules in the
// file are the intended rules, neither more nor fewer, gets the intended
// verdict on every path by construction, so it is not asked path by path.
func (p *Policy) RoundTripContext(ctx context.Context) ([]Mismatch, error) {
	files := map[robotstxt.Options]*robotstxt.File{} // one per way an engine groups the file
	classes := map[string][]string{}                 // class → paths where the verdict is not the intent
	var out []Mismatch
	paths := p.Paths()
	budget := int64(len(crawlers.All())+1) * int64(len(paths))
	var asked int64
	var key []byte
	for n, a := range p.Agents() {
		if n%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		po := a.ParseOptions()
		f := files[po]
		if f == nil {
			f = robotstxt.ParseWith(p.RobotsTxt(), po)
			files[po] = f
		}
		gs := p.GroupsFor(a)
		intent := func(string) bool { return true } // no group: everything allowed
		if len(gs) > 0 {
			ia := p.intent(gs)
			intent = func(path string) bool { return ia.Check(path).Allowed }
		}
		got := a.Group(f).Rules()
		key = fmt.Appendf(key[:0], "%v|%s|", po, groupSetKey(gs))
		for _, r := range got {
			key = strconv.AppendInt(key, int64(r.Line), 10)
			key = append(key, ',')
		}
		bad, ok := classes[string(key)]
		if !ok {
			if po.Profile != robotstxt.Google || !sameRules(got, p.rules(gs)) {
				for i, path := range paths {
					if i%256 == 0 {
						if err := ctx.Err(); err != nil {
							return nil, err
						}
					}
					if asked++; asked > budget {
						return out, ErrRoundTripBudget
					}
					p.asked.Add(1)
					if a.Decide(f, path).Allowed != intent(path) {
						if bad = append(bad, path); len(bad) == MaxMismatchesPerCrawler {
							break
						}
					}
				}
			}
			classes[string(key)] = bad
		}
		for _, path := range bad {
			if len(out) == MaxMismatches {
				return out, nil
			}
			line := 0
			if len(gs) > 0 {
				line = p.Groups[gs[0]].Line
			}
			out = append(out, Mismatch{Agent: a, Path: path, Intended: intent(path), Decision: a.Decide(f, path), line: line})
		}
	}
	return out, nil
}

// Bounds on the round trip's report: a file that is not the policy (one
// cut short at the 500 KiB crawlers read, say) would otherwise give a
// mismatch for nearly every crawler and path.
const (
	MaxMismatchesPerCrawler = 5
	MaxMismatches           = 200
)

// ErrRoundTripBudget is returned, with the mismatches found until then,
// when the round trip has asked as many paths one by one as the registry
// holds crawlers (plus one) times the paths: more crawlers than that read
// other rules than the policy's, so the file is not the policy.
var ErrRoundTripBudget = errors.New("round trip stopped: more crawlers than the registry holds read the generated robots.txt otherwise than the policy means")

// rules returns the rules of the groups gs.
func (p *Policy) rules(gs []int) []robotstxt.Rule {
	var out []robotstxt.Rule
	for _, i := range gs {
		for _, r := range p.Groups[i].Allow {
			out = append(out, robotstxt.Rule{Allow: true, Pattern: r})
		}
		for _, r := range p.Groups[i].Disallow {
			out = append(out, robotstxt.Rule{Pattern: r})
		}
	}
	return out
}

// sameRules reports whether two lists hold the same rules, as a set of
// (allow, pattern) and leaving out empty Disallow lines, which never
// decide: under Google's reading (the longest match wins, Allow a tie) the
// order and repetition of rules do not change a verdict.
func sameRules(a, b []robotstxt.Rule) bool {
	type r struct {
		allow   bool
		pattern string
	}
	set := func(rs []robotstxt.Rule) map[r]bool {
		m := make(map[r]bool, len(rs))
		for _, x := range rs {
			if x.Pattern != "" {
				m[r{x.Allow, x.Pattern}] = true
			}
		}
		return m
	}
	sa, sb := set(a), set(b)
	if len(sa) != len(sb) {
		return false
	}
	for k := range sa {
		if !sb[k] {
			return false
		}
	}
	return true
}
