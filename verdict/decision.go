package verdict

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rep-toolkit/rep/aipref"
	"github.com/rep-toolkit/rep/internal/enum"
	wirepkg "github.com/rep-toolkit/rep/internal/wire"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
)

// Decision is the answer to "may this crawler fetch this URL?": the
// verdict with its evidence (the deciding rule and its line, the group and
// why it applies, the engine), and how the origin's robots.txt was fetched
// when it was. Every door of rep renders this one type.
type Decision struct {
	// Decision is the verdict and its deciding rule (Line 0 when none);
	// when Fetch.Verdict is AllowAll or DisallowAll no rule was matched.
	robotstxt.Decision
	// URL is the URL asked about.
	URL string
	// Agent is the crawler asked for; nil only in a zero Decision.
	Agent *Agent
	// Fetch is how the robots.txt in force was fetched and read; nil when
	// the file was given, not fetched. It is shared and must not be
	// modified.
	Fetch *robotsfetch.Outcome
	// Usage is the usage-preference verdict robots.txt gives for URL:
	// the agent's Content-Usage line for its path (only when the URL may
	// be crawled) and Content-Signal lines. It is nil when the file has no
	// Content-Usage or Content-Signal line, or was not used (a fetch that
	// allows or disallows everything, DecideIn). A page's own carriers are
	// added by the crawler SDK's page verdict (rep.PageVerdict.Usage).
	Usage *aipref.Usage
}

// Decide answers for the agent against a robots.txt already parsed (read
// from a file, pasted): the group the agent obeys, then its deciding rule.
// rawurl is matched in its wire form, "/café" as "/caf%C3%A9", and an
// escape of an unreserved character ("/%70") is read both as written and
// decoded, the stricter verdict winning (see package internal/wire).
func (a *Agent) Decide(f *robotstxt.File, rawurl string) Decision {
	m := a.memo(f)
	d := Decision{URL: rawurl, Agent: a}
	wire := checkWire(&d.Decision, m.g, rawurl)
	d.Usage = m.usage(wire, d.Allowed)
	return d
}

// checkWire decides rawurl in its wire form with g into d, and returns
// that form.
func checkWire(d *robotstxt.Decision, g *robotstxt.Matcher, rawurl string) string {
	var wire string
	*d, wire = wirepkg.Check(g, rawurl)
	return wire
}

// usage is the usage verdict of the memo's file for rawurl, or nil when
// the file states no usage preference (most files: then it costs nothing).
func (m *groupMemo) usage(rawurl string, allowed bool) *aipref.Usage {
	if !m.hasUsage {
		return nil
	}
	v := aipref.Combine(aipref.Robots(m.f, m.g, rawurl, allowed))
	return &v
}

// DecideFetched answers for the agent against a fetched robots.txt: the
// fetch's verdict when it allows or disallows everything (a 4xx, an
// unreachable origin), else the file's rules as the agent's engine groups
// them (robotsfetch.Robots.FileFor: one fetch serves every engine).
func (a *Agent) DecideFetched(r *robotsfetch.Robots, rawurl string) Decision {
	if r.Outcome.Verdict != robotsfetch.UseRules {
		return a.DecideIn(r, nil, rawurl)
	}
	m := a.memo(r.FileFor(a.ParseOptions()))
	d := a.DecideIn(r, m.g, rawurl)
	if m.hasUsage {
		wire, _ := wirepkg.Form(rawurl)
		d.Usage = m.usage(wire, d.Allowed)
	}
	return d
}

// DecideIn is DecideFetched with the group already resolved: g is
// a.Group(r.FileFor(a.ParseOptions())), kept by callers that answer many
// URLs of one file (the audit keeps one per crawler and robots.txt
// version). The verdict is robotsfetch.Robots.Decide's. It does not
// allocate for a URL already in its wire form (see Decide).
func (a *Agent) DecideIn(r *robotsfetch.Robots, g *robotstxt.Matcher, rawurl string) Decision {
	return Decision{Decision: r.Decide(g, rawurl), URL: rawurl, Agent: a, Fetch: &r.Outcome}
}

// FromFetch reports whether the verdict comes from how robots.txt was
// fetched (absent, unreachable...) rather than from a rule of the file.
func (d Decision) FromFetch() bool {
	return d.Fetch != nil && d.Fetch.Verdict != robotsfetch.UseRules
}

// Why says in a few words why the verdict came out as it did: the
// deciding line, or no rule, or the fetch's reading ("robots.txt 503:
// unreachable ...: everything disallowed").
func (d Decision) Why() string {
	if d.FromFetch() {
		o := d.Fetch
		if o.Refused {
			return "robots.txt not fetched: its address is loopback, private or link-local, which this fetcher refuses: everything disallowed"
		}
		if o.Status != 0 {
			return fmt.Sprintf("robots.txt %d: %s", o.Status, o.Case.Explain())
		}
		return "robots.txt: " + o.Case.Explain()
	}
	why := "no rule matched"
	if d.Rule.Line > 0 {
		why = fmt.Sprintf("line %d: %s", d.Rule.Line, d.Rule)
	}
	switch d.Reason {
	case robotstxt.RobotsTxt, robotstxt.EmptyRuleMatched, robotstxt.IndexHTML:
		why += " (" + d.Reason.String() + ")"
	}
	return why
}

// ReasonText is the reason in words: the rule-level reason, or, when the
// verdict comes from the fetch (Reason Unavailable or Unreachable), the
// fetch's own reading of it.
func (d Decision) ReasonText() string {
	if d.FromFetch() {
		return d.Why()
	}
	return d.Reason.String()
}

// GroupText says which group applied and why, e.g. "googlebot (line 4):
// groups naming a fallback agent".
func (d Decision) GroupText() string {
	if d.FromFetch() {
		return "no group: " + d.Fetch.Verdict.String()
	}
	g := d.Group
	name := g.Agent
	if name == "" {
		name = "none"
	}
	if len(g.Lines) > 0 {
		ls := make([]string, len(g.Lines))
		for i, l := range g.Lines {
			ls[i] = fmt.Sprint(l)
		}
		name += " (line " + strings.Join(ls, ", ") + ")"
	}
	return name + ": " + g.Via.String()
}

// String explains the decision in one line, e.g.
// "disallowed by line 2: Disallow: /private (https://example.com/robots.txt: 200, success (use-rules))".
func (d Decision) String() string {
	verdict := "allowed"
	if !d.Allowed {
		verdict = "disallowed"
	}
	s := verdict + " by " + d.Why()
	if d.Rule.Line == 0 {
		s = verdict + ": " + d.Why()
	}
	if d.Fetch != nil {
		s += " (" + d.Fetch.String() + ")"
	}
	return s
}

var viaCodes = enum.New[robotstxt.Via]("via", "none", "token", "fallback", "star", "fetch") // ViaNone … ViaFetch

// ViaCode is how a group was chosen as the JSON spells it: "none",
// "token", "fallback", "star" or "fetch"; "" for a value robotstxt does
// not define.
func ViaCode(v robotstxt.Via) string {
	if !viaCodes.Has(v) {
		return ""
	}
	return viaCodes.String(v)
}

// DecisionJSON is the one JSON shape of a verdict, shared by rep check
// -json, the server's API and every other door (Decision.MarshalJSON
// writes it). url, agent, allowed, line, rule, group and reason are a
// contract: scripts read them. A door that reports more beside a verdict
// (the server's per-query errors) embeds it.
type DecisionJSON struct {
	URL        string               `json:"url"`
	Agent      string               `json:"agent"`
	Allowed    bool                 `json:"allowed"`
	Line       int                  `json:"line"`
	Rule       string               `json:"rule"`
	Group      string               `json:"group"`
	Reason     string               `json:"reason"`
	Via        string               `json:"via"`
	GroupLines []int                `json:"group_lines"`
	Engine     string               `json:"engine"`
	Tokens     []string             `json:"tokens"`
	ParserOnly bool                 `json:"parser_only,omitempty"`
	Notes      []string             `json:"notes,omitempty"`
	Fetch      *robotsfetch.Outcome `json:"fetch,omitempty"`
	// Usage is the usage-preference verdict (train_ai, ai_use, search and
	// the evidence behind them), when there is one.
	Usage *aipref.Usage `json:"usage,omitempty"`
}

// MarshalJSON renders the decision in the one verdict shape: url, agent,
// allowed, line, rule, group (the token that selected it, "*", or "" for
// none), reason, via (token, fallback, star, none, or fetch), group_lines,
// engine, tokens, parser_only, notes, fetch when robots.txt was
// fetched, and usage when robots.txt states usage preferences.
func (d Decision) MarshalJSON() ([]byte, error) { return json.Marshal(d.JSON()) }

// JSON returns the decision in its one JSON shape (see MarshalJSON).
// Its notes are those that apply to the group chosen (NotesFor), not
// every note the registry could add (Agent.Notes).
func (d Decision) JSON() DecisionJSON {
	j := d.json()
	if d.Agent != nil {
		j.Notes = d.Agent.notes().For(d.Group)
	}
	return j
}

// json is JSON without the notes.
func (d Decision) json() DecisionJSON {
	j := DecisionJSON{
		URL: d.URL, Allowed: d.Allowed, Line: d.Rule.Line, Rule: d.Rule.String(),
		Group: d.Group.Agent, Reason: d.ReasonText(), GroupLines: d.Group.Lines, Fetch: d.Fetch, Usage: d.Usage,
	}
	if j.GroupLines == nil {
		j.GroupLines = []int{}
	}
	j.Via = ViaCode(d.Group.Via)
	if a := d.Agent; a != nil {
		j.Agent, j.Engine, j.Tokens, j.ParserOnly = a.Name, a.Engine.String(), a.Tokens, a.ParserOnly
	}
	return j
}
