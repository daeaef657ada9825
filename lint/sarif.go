package lint

import (
	"io"
	"unicode/utf8"

	"github.com/rep-toolkit/rep/internal/sarif"
)

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
	run := sarif.Run{
		Tool:       sarif.Tool{Driver: sarif.Driver{Name: "rep lint", InformationURI: "https://github.com/rep-toolkit/rep", Rules: []sarif.Rule{}}},
		ColumnKind: "unicodeCodePoints",
		Results:    []sarif.Result{},
	}
	index := map[string]int{}
	uri := sarif.URI(name)
	for _, d := range r.Findings {
		if d.Severity < min {
			continue
		}
		i, ok := index[d.Code]
		if !ok {
			i = len(run.Tool.Driver.Rules)
			index[d.Code] = i
			c, _ := Explain(d.Code)
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarif.Rule{
				ID: d.Code, ShortDescription: sarif.Text{Text: c.Title}, FullDescription: &sarif.Text{Text: c.Doc},
				HelpURI: DocsURL + "#" + d.Code, DefaultConfiguration: sarif.Config{Level: sarifLevel(c.Severity)},
			})
		}
		msg := d.Message
		if d.Hint != "" {
			msg += "\nHint: " + d.Hint
		}
		loc := sarif.Location{PhysicalLocation: sarif.Physical{ArtifactLocation: sarif.Artifact{URI: uri}}}
		if d.Line > 0 {
			// Never 0, so never left out: codePointColumn is at least 1.
			loc.PhysicalLocation.Region = &sarif.Region{StartLine: d.Line, StartColumn: r.codePointColumn(d.Line, d.Column)}
		}
		res := sarif.Result{RuleID: d.Code, RuleIndex: i, Level: sarifLevel(d.Severity),
			Message: sarif.Text{Text: msg}, Locations: []sarif.Location{loc}}
		switch d.Suppressed {
		case SuppressedInline:
			res.Suppressions = []sarif.Suppression{{Kind: "inSource", Status: "accepted", Justification: "a '# " + IgnoreDirective + "' comment in the file"}}
		case SuppressedBaseline:
			res.Suppressions = []sarif.Suppression{{Kind: "external", Status: "accepted", Justification: "in the baseline given to rep lint"}}
		}
		run.Results = append(run.Results, res)
	}
	return sarif.Write(w, run)
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
