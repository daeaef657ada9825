// Package notes says, beside a verdict, what the crawler registry changed
// about it: a fallback group, the * group ignored, a crawler documented not
// to obey robots.txt, the engine the crawler follows, and "did you mean"
// for a name the registry does not know. Every door that prints a verdict
// (rep check, rep fetch, the web tester's check) takes its notes from For,
// so that a note is printed only when it applies to the answer shown: "bingbot
// falls back to the msnbot group" only when no group names bingbot and a
// group names msnbot.
//
// rep.Agent.Notes lists every note the registry could add for a crawler,
// whatever the file; For keeps those that apply to one group choice.
package notes

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/robotstxt"
)

// For returns the notes that apply to an answer for a whose group was
// chosen as g (rep.Decision.Group; Via robotstxt.ViaFetch when the fetch of
// robots.txt decided and no group was chosen). The notes, in order:
//   - an unknown name close to registry names: "did you mean";
//   - the bare parser was asked for (-parser-only);
//   - the group came from the registry's fallback chain;
//   - the crawler ignores the * group, and no group names it;
//   - the crawler is documented not to obey robots.txt;
//   - the crawler follows another engine's rules than Google's.
func For(a *rep.Agent, g robotstxt.GroupMatch) []string {
	if a == nil {
		return nil
	}
	var out []string
	if s := Suggestions(a); len(s) > 0 {
		out = append(out, fmt.Sprintf("unknown crawler %s — did you mean %s?", a.Token(), orList(s)))
	}
	if a.ParserOnly {
		return append(out, "parser only: the crawler registry's fallback chains and * group exceptions are not applied")
	}
	c := a.Crawler
	if c == nil {
		return out
	}
	tok := a.Token()
	if g.Via == robotstxt.ViaFallback && registryChain(a) {
		out = append(out, fmt.Sprintf("no group names %s: it falls back to the %s group (line %s), as %s documents", tok, g.Agent, lineList(g.Lines), operator(c)))
	}
	if a.IgnoresStar && g.Via == robotstxt.ViaNone {
		out = append(out, fmt.Sprintf("%s ignores the * group: only a group naming it applies, and none does, so everything is allowed", tok))
	}
	if a.IgnoresRobots {
		msg := c.Name + " is documented not to obey robots.txt: the verdict is what the file asks of it"
		if c.Note != "" {
			msg += " (" + strings.TrimSuffix(c.Note, ".") + ")"
		}
		out = append(out, msg)
	}
	if e := c.Engine.Or(engine.Google); e != engine.Google && a.Engine == e {
		out = append(out, fmt.Sprintf("%s follows the %s engine's rules (%s)", tok, e, c.Operator))
	}
	return out
}

// Suggestions returns the registry names a's name may be a misspelling of
// (crawlers.Suggest): none when the registry knows the name, when a is a
// fallback chain given in full, or when the registry was not asked.
func Suggestions(a *rep.Agent) []string {
	if a == nil || a.Crawler != nil || a.ParserOnly || len(a.Tokens) != 1 {
		return nil
	}
	return crawlers.Suggest(a.Token())
}

// registryChain reports whether a's tokens after its own are the
// registry's fallback chain, not one the user gave.
func registryChain(a *rep.Agent) bool {
	return a.Crawler != nil && len(a.Tokens) > 1 && slices.EqualFunc(a.Tokens[1:], a.Crawler.RobotsFallback, strings.EqualFold)
}

func operator(c *crawlers.Crawler) string {
	if c.Operator != "" {
		return c.Operator
	}
	return "the registry"
}

func lineList(ls []int) string {
	s := make([]string, len(ls))
	for i, l := range ls {
		s[i] = fmt.Sprint(l)
	}
	return strings.Join(s, ", ")
}

// orList joins names as "A", "A or B", "A, B or C".
func orList(s []string) string {
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}
