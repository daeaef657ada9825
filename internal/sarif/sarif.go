// Package sarif holds the subset of SARIF 2.1.0 (OASIS Static Analysis
// Results Interchange Format) rep writes for code-scanning tools: one run of
// one tool, its rules, and results located by file and line.
package sarif

import (
	"encoding/json"
	"io"
	"net/url"
	"strings"
)

// Schema and Version are written in every log.
const (
	Schema  = "https://json.schemastore.org/sarif-2.1.0.json"
	Version = "2.1.0"
)

// Log is a SARIF log.
type Log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []Run  `json:"runs"`
}

// Run is one run of a tool.
type Run struct {
	Tool       Tool     `json:"tool"`
	ColumnKind string   `json:"columnKind,omitempty"`
	Results    []Result `json:"results"`
}

// Tool names the tool and its rules.
type Tool struct {
	Driver Driver `json:"driver"`
}

// Driver is the tool's main component.
type Driver struct {
	Name           string `json:"name"`
	InformationURI string `json:"informationUri"`
	Rules          []Rule `json:"rules"`
}

// Text is a message.
type Text struct {
	Text string `json:"text"`
}

// Rule is one kind of result.
type Rule struct {
	ID                   string `json:"id"`
	ShortDescription     Text   `json:"shortDescription"`
	FullDescription      *Text  `json:"fullDescription,omitempty"`
	HelpURI              string `json:"helpUri,omitempty"`
	DefaultConfiguration Config `json:"defaultConfiguration"`
}

// Config is a rule's default level: error, warning or note.
type Config struct {
	Level string `json:"level"`
}

// Result is one finding.
type Result struct {
	RuleID       string        `json:"ruleId"`
	RuleIndex    int           `json:"ruleIndex"`
	Level        string        `json:"level"`
	Message      Text          `json:"message"`
	Locations    []Location    `json:"locations"`
	Suppressions []Suppression `json:"suppressions,omitempty"`
}

// Suppression is SARIF 2.1.0 §3.35: a result accepted, kind inSource
// for a comment in the file, external for a list kept elsewhere (a
// baseline).
type Suppression struct {
	Kind          string `json:"kind"`
	Status        string `json:"status"`
	Justification string `json:"justification"`
}

// Location is where a result is.
type Location struct {
	PhysicalLocation Physical `json:"physicalLocation"`
}

// Physical is a file and a region of it.
type Physical struct {
	ArtifactLocation Artifact `json:"artifactLocation"`
	Region           *Region  `json:"region,omitempty"`
}

// Artifact is a file, by URI reference.
type Artifact struct {
	URI string `json:"uri"`
}

// Region is a line, and a column when known (1-based).
type Region struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// At is the location of line (none when 0) in the file or URL name.
func At(name string, line int) Location {
	l := Location{PhysicalLocation: Physical{ArtifactLocation: Artifact{URI: URI(name)}}}
	if line > 0 {
		l.PhysicalLocation.Region = &Region{StartLine: line}
	}
	return l
}

// URI makes a file name or URL a valid URI reference.
func URI(name string) string {
	if u, err := url.Parse(name); err == nil && u.Scheme != "" && u.Host != "" {
		return u.String()
	}
	return (&url.URL{Path: strings.ReplaceAll(name, "\\", "/")}).String()
}

// Write writes a log of one run, indented, HTML characters unescaped.
func Write(w io.Writer, run Run) error {
	if run.Results == nil {
		run.Results = []Result{}
	}
	if run.Tool.Driver.Rules == nil {
		run.Tool.Driver.Rules = []Rule{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(Log{Schema: Schema, Version: Version, Runs: []Run{run}})
}
