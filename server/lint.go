package server

import "github.com/rep-toolkit/rep/robotstxt"

// lint returns the parser's diagnostics as findings, in line order.
func lint(data []byte, f *robotstxt.File, o robotstxt.Options) []lintFinding {
	out := []lintFinding{}
	for _, d := range f.Diagnostics() {
		out = append(out, lintFinding{Line: d.Line, Column: d.Column, Severity: d.Severity.String(), Code: d.Code, Message: d.Message, Hint: d.Hint})
	}
	return out
}
