package harness

import (
	"fmt"
	"strings"

	"github.com/rep-toolkit/rep/robotstxt"
)

// Agreement is one library's agreement with Google's verdicts for one agent.
type Agreement struct {
	Lib, Agent string
	Queries    int
	// Disagree counts verdicts that differ from Google's, apart from
	// ByDesign.
	Disagree int
	// ByDesign counts queries for /robots.txt that Google disallows and the
	// library allows, as RFC 9309 §2.2.2 requires (rep does so on purpose).
	ByDesign int
	// LineDisagree counts queries where the verdict agrees but the deciding
	// line differs (rep only: the peers do not report lines); -1 when the
	// library cannot say.
	LineDisagree int
	Files        int // files with at least one disagreement
	Rejected     int // files the library refused to parse (counted as allow-all)
	// Examples are the first few disagreements.
	Examples []string
}

// Rate is the share of queries that disagree.
func (a Agreement) Rate() float64 {
	if a.Queries == 0 {
		return 0
	}
	return float64(a.Disagree) / float64(a.Queries)
}

// IsRobotsTxt reports whether rawurl asks for /robots.txt itself.
func IsRobotsTxt(rawurl string) bool {
	p := PathQuery(rawurl)
	return p == "/robots.txt" || strings.HasPrefix(p, "/robots.txt?")
}

// Agree compares lib's verdicts with Google's for every answer of one
// agent. Queries for /robots.txt that the library allows while Google does
// not are counted apart (RFC 9309 §2.2.2), for every library.
func Agree(c *Corpus, answers []Answer, lib Lib, agent string) (Agreement, error) {
	ag := Agreement{Lib: lib.Name, Agent: agent, LineDisagree: -1}
	prepared := map[string]func(string) bool{}
	bad := map[string]bool{}
	for _, a := range answers {
		if a.Agent != agent {
			continue
		}
		check, ok := prepared[a.Host]
		if !ok {
			f := c.File(a.Host)
			if f == nil {
				return ag, fmt.Errorf("agreement: no corpus file for %s", a.Host)
			}
			var err error
			check, err = lib.Prepare(f.Data, agent)
			if err != nil {
				ag.Rejected++
				check = func(string) bool { return true }
			}
			prepared[a.Host] = check
		}
		ag.Queries++
		got := check(a.URL)
		if got == a.Allowed {
			continue
		}
		if got && IsRobotsTxt(a.URL) {
			ag.ByDesign++
			continue
		}
		ag.Disagree++
		bad[a.Host] = true
		if len(ag.Examples) < 5 {
			ag.Examples = append(ag.Examples, fmt.Sprintf("%s %s: allowed=%v, Google allowed=%v (line %d)", a.Host, a.URL, got, a.Allowed, a.Line))
		}
	}
	ag.Files = len(bad)
	return ag, nil
}

// AgreeLines is Agree for rep, which also reports the deciding line: it
// counts the queries where the verdict agrees but the line does not.
func AgreeLines(c *Corpus, answers []Answer, opts robotstxt.Options, agent string) (Agreement, error) {
	ag := Agreement{Lib: "rep", Agent: agent}
	agents := map[string]*robotstxt.Matcher{}
	bad := map[string]bool{}
	for _, a := range answers {
		if a.Agent != agent {
			continue
		}
		ra := agents[a.Host]
		if ra == nil {
			f := c.File(a.Host)
			if f == nil {
				return ag, fmt.Errorf("agreement: no corpus file for %s", a.Host)
			}
			ra = robotstxt.ParseWith(f.Data, opts).Matcher(agent)
			agents[a.Host] = ra
		}
		ag.Queries++
		d := ra.Check(a.URL)
		switch {
		case d.Allowed == a.Allowed && d.Rule.Line == a.Line:
			continue
		case d.Allowed && !a.Allowed && IsRobotsTxt(a.URL):
			ag.ByDesign++
			continue
		case d.Allowed == a.Allowed:
			ag.LineDisagree++
		default:
			ag.Disagree++
		}
		bad[a.Host] = true
		if len(ag.Examples) < 5 {
			ag.Examples = append(ag.Examples, fmt.Sprintf("%s %s: allowed=%v line %d (%s), Google allowed=%v line %d",
				a.Host, a.URL, d.Allowed, d.Rule.Line, d.Rule, a.Allowed, a.Line))
		}
	}
	ag.Files = len(bad)
	return ag, nil
}
