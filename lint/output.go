package lint

import (
	"bufio"
	"encoding/json"
	"io"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

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

// SARIF 2.1.0 (OASIS), the subset rep writes.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifRule struct {
	ID                   string      `json:"id"`
	ShortDescription     sarifText   `json:"shortDescription"`
	FullDescription      sarifText   `json:"fullDescription"`
	HelpURI              string      `json:"helpUri"`
	DefaultConfiguration sarifConfig `json:"defaultConfiguration"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID       string             `json:"ruleId"`
	RuleIndex    int                `json:"ruleIndex"`
	Level        string             `json:"level"`
	Message      sarifText          `json:"message"`
	Locations    []sarifLocation    `json:"locations"`
	Suppressions []sarifSuppression `json:"suppressions,omitempty"`
}

// sarifSuppression is SARIF 2.1.0 §3.35: kind inSource for a comment in
// the file, external for a baseline.
type sarifSuppression struct {
	Kind          string `json:"kind"`
	Status        string `json:"status"`
	Justification string `json:"justification"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
}

func sarifLevel(s Severity) string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "note"
}

// DocsURL is where the lint codes are documented; SARIF rules link to it.
const DocsURL = "https://github.com/rep-toolkit/rep/blob/main/docs/lint.md"

// WriteSARIF writes the findings at or above min as a SARIF 2.1.0 log, so
// code-scanning tools show them on the file. Suppressed findings are
// written too, each with its SARIF suppression (inSource for a
// "# rep:ignore" comment, external for a baseline). name is the artifact's URI
// (a path relative to the repository root, or the URL fetched); columns
// are counted in Unicode code points.
func (r *Report) WriteSARIF(w io.Writer, name string, min Severity) error {
	run := sarifRun{
		Tool:       sarifTool{Driver: sarifDriver{Name: "rep lint", InformationURI: "https://github.com/rep-toolkit/rep", Rules: []sarifRule{}}},
		ColumnKind: "unicodeCodePoints",
		Results:    []sarifResult{},
	}
	index := map[string]int{}
	uri := sarifURI(name)
	for _, d := range r.Findings {
		if d.Severity < min {
			continue
		}
		i, ok := index[d.Code]
		if !ok {
			i = len(run.Tool.Driver.Rules)
			index[d.Code] = i
			c, _ := Explain(d.Code)
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
				ID: d.Code, ShortDescription: sarifText{c.Title}, FullDescription: sarifText{c.Doc},
				HelpURI: DocsURL + "#" + d.Code, DefaultConfiguration: sarifConfig{sarifLevel(c.Severity)},
			})
		}
		msg := d.Message
		if d.Hint != "" {
			msg += "\nHint: " + d.Hint
		}
		loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: uri}}}
		if d.Line > 0 {
			loc.PhysicalLocation.Region = &sarifRegion{StartLine: d.Line, StartColumn: r.codePointColumn(d.Line, d.Column)}
		}
		res := sarifResult{RuleID: d.Code, RuleIndex: i, Level: sarifLevel(d.Severity),
			Message: sarifText{msg}, Locations: []sarifLocation{loc}}
		switch d.Suppressed {
		case SuppressedInline:
			res.Suppressions = []sarifSuppression{{"inSource", "accepted", "a '# " + IgnoreDirective + "' comment in the file"}}
		case SuppressedBaseline:
			res.Suppressions = []sarifSuppression{{"external", "accepted", "in the baseline given to rep lint"}}
		}
		run.Results = append(run.Results, res)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
}

// codePointColumn converts a 1-based byte column into a 1-based column in
// code points (an invalid byte counts as one).
func (r *Report) codePointColumn(line, col int) int {
	if col < 1 {
		return 1
	}
	t := r.lines[line]
	if col-1 > len(t) {
		return col - len(t) + utf8.RuneCountInString(t)
	}
	return utf8.RuneCountInString(t[:col-1]) + 1
}

// sarifURI makes a file name or URL a valid URI reference.
func sarifURI(name string) string {
	if u, err := url.Parse(name); err == nil && u.Scheme != "" && u.Host != "" {
		return u.String()
	}
	return (&url.URL{Path: strings.ReplaceAll(name, "\\", "/")}).String()
}

// controls says what a control token's rules decide, from the registry.
func (a *AgentView) controls() string {
	if a.crawler != nil && a.crawler.Controls != "" {
		return a.crawler.Controls
	}
	return "the use of content, not fetching"
}
