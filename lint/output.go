package lint

import (
	"bufio"
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/internal/termsafe"
	"github.com/rep-toolkit/rep/robotstxt"
)

// Summary counts a report's findings.
type Summary struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
	// Shown is how many findings are at or above the severity asked for.
	Shown int `json:"shown"`
	// Suppressed counts the findings "# rep:ignore" comments or a
	// baseline accept; they are not in the other counts.
	Suppressed int `json:"suppressed,omitempty"`
}

// Summary counts the findings that are not suppressed; Shown counts those
// at or above min, Suppressed the others.
func (r *Report) Summary(min Severity) Summary {
	var s Summary
	for _, d := range r.Findings {
		if d.Suppressed != "" {
			s.Suppressed++
			continue
		}
		switch d.Severity {
		case Error:
			s.Errors++
		case Warning:
			s.Warnings++
		default:
			s.Infos++
		}
		if d.Severity >= min {
			s.Shown++
		}
	}
	return s
}

// WriteText writes the findings at or above min like a compiler does,
// "name:line:col: severity: [code] message" with the hint indented below,
// then the per-crawler view and a summary line.
//
// Control characters from the robots.txt (an ESC sequence in a rule, a
// BEL) are escaped (termsafe), so printing the report on a terminal is
// safe whatever the file holds.
func (r *Report) WriteText(w io.Writer, name string, min Severity) error {
	ts := termsafe.NewWriter(w)
	bw := bufio.NewWriter(ts)
	for _, d := range r.Findings {
		if d.Severity < min || d.Suppressed != "" {
			continue
		}
		if d.Line > 0 {
			bw.WriteString(name + ":" + strconv.Itoa(d.Line) + ":" + strconv.Itoa(d.Column) + ": ")
		} else {
			bw.WriteString(name + ": ")
		}
		bw.WriteString(d.Severity.String() + ": [" + d.Code + "] " + d.Message + "\n")
		if d.Hint != "" {
			bw.WriteString("    hint: " + d.Hint + "\n")
		}
	}
	for _, a := range r.Agents {
		r.writeAgentText(bw, a)
	}
	s := r.Summary(min)
	bw.WriteString(name + ": " + plural(s.Errors, "error") + ", " + plural(s.Warnings, "warning") + ", " + plural(s.Infos, "info"))
	if hidden := s.Errors + s.Warnings + s.Infos - s.Shown; hidden > 0 {
		bw.WriteString(" (" + strconv.Itoa(hidden) + " below " + min.String() + " not shown)")
	}
	if s.Suppressed > 0 {
		bw.WriteString("; " + strconv.Itoa(s.Suppressed) + " suppressed")
	}
	bw.WriteString("\n")
	if err := bw.Flush(); err != nil {
		return err
	}
	return ts.Flush()
}

func (r *Report) writeAgentText(bw *bufio.Writer, a AgentView) {
	bw.WriteString("\nagent " + a.Name + " (" + a.Engine.String() + " rules): ")
	switch a.Group.Via {
	case robotstxt.ViaNone:
		bw.WriteString(a.Group.Via.String() + ": everything is allowed\n")
	default:
		bw.WriteString("obeys " + a.Group.Via.String() + ", user-agent lines " + intList(a.Group.Lines) + "\n")
	}
	for _, n := range a.Notes {
		bw.WriteString("  note: " + n + "\n")
	}
	if a.Kind == crawlers.KindControlToken {
		bw.WriteString("  kind: control token: it never fetches; its rules decide " + a.controls() + "\n")
	}
	bw.WriteString("  rules in force:\n")
	if len(a.Rules) == 0 {
		bw.WriteString("    (none: every URL is allowed)\n")
	}
	for _, ru := range a.Rules {
		bw.WriteString("    " + strconv.Itoa(ru.Line) + ": " + ru.String() + "\n")
	}
	if a.CrawlDelay > 0 {
		bw.WriteString("  crawl-delay: line " + strconv.Itoa(a.CrawlDelay))
		if a.CrawlDelayInherited {
			bw.WriteString(" (inherited from the * group: Bing's exception)")
		}
		bw.WriteString("\n")
	}
	if len(a.Ignored) > 0 {
		bw.WriteString("  rules of other groups it ignores:\n")
		for _, ru := range a.Ignored {
			bw.WriteString("    " + strconv.Itoa(ru.Line) + ": " + ru.String() + "  (" + a.groupOf(r, ru.Line) + ")\n")
		}
	}
}

// groupOf names the group a rule line belongs to, as the agent's engine
// groups the file.
func (a *AgentView) groupOf(r *Report, line int) string {
	f := a.file
	if f == nil {
		f = r.file
	}
	for _, g := range f.Groups() {
		for _, ru := range g.Rules {
			if ru.Line == line {
				return "User-agent: " + strings.Join(g.Agents, ", ")
			}
		}
	}
	return ""
}

func intList(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

type jsonDiag struct {
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Message  string `json:"message"`
	Hint     string `json:"hint"`
}

type jsonRule struct {
	Line  int    `json:"line"`
	Rule  string `json:"rule"`
	Group string `json:"group,omitempty"`
}

type jsonAgent struct {
	Name                string     `json:"name"`
	Kind                string     `json:"kind"`
	Engine              string     `json:"engine"`
	Notes               []string   `json:"notes,omitempty"`
	Group               string     `json:"group"`
	Via                 string     `json:"via"`
	GroupLines          []int      `json:"group_lines"`
	Rules               []jsonRule `json:"rules"`
	Ignored             []jsonRule `json:"ignored"`
	CrawlDelayLine      int        `json:"crawl_delay_line,omitempty"`
	CrawlDelayInherited bool       `json:"crawl_delay_inherited,omitempty"`
}

type jsonReport struct {
	File        string      `json:"file"`
	Profile     string      `json:"profile"`
	Diagnostics []jsonDiag  `json:"diagnostics"`
	Summary     Summary     `json:"summary"`
	Agents      []jsonAgent `json:"agents,omitempty"`
}

// WriteJSON writes the findings at or above min as one JSON object:
// {"file", "profile", "diagnostics": [{"line", "column", "severity",
// "code", "message", "hint"}], "summary": {...}, "agents": [...]}.
// Findings about the fetch have line 0.
func (r *Report) WriteJSON(w io.Writer, name string, min Severity) error {
	out := jsonReport{File: name, Profile: r.Engine.String(), Diagnostics: []jsonDiag{}, Summary: r.Summary(min)}
	for _, d := range r.Findings {
		if d.Severity >= min && d.Suppressed == "" {
			out.Diagnostics = append(out.Diagnostics, jsonDiag{d.Line, d.Column, d.Severity.String(), d.Code, d.Message, d.Hint})
		}
	}
	for _, a := range r.Agents {
		ja := jsonAgent{Name: a.Name, Kind: string(a.Kind), Engine: a.Engine.String(), Notes: a.Notes, Group: a.Group.Agent, Via: a.Group.Via.String(), GroupLines: a.Group.Lines,
			Rules: []jsonRule{}, Ignored: []jsonRule{}, CrawlDelayLine: a.CrawlDelay, CrawlDelayInherited: a.CrawlDelayInherited}
		if ja.GroupLines == nil {
			ja.GroupLines = []int{}
		}
		for _, ru := range a.Rules {
			ja.Rules = append(ja.Rules, jsonRule{Line: ru.Line, Rule: ru.String()})
		}
		for _, ru := range a.Ignored {
			ja.Ignored = append(ja.Ignored, jsonRule{Line: ru.Line, Rule: ru.String(), Group: a.groupOf(r, ru.Line)})
		}
		out.Agents = append(out.Agents, ja)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// controls says what a control token's rules decide, from the registry.
func (a *AgentView) controls() string {
	if a.crawler != nil && a.crawler.Controls != "" {
		return a.crawler.Controls
	}
	return "the use of content, not fetching"
}
