package lint

import (
	"encoding/json"
	"io"
	"net/url"
	"strings"
	"unicode/utf8"
)

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
