package server

import (
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/robotstxt"
)

// lint runs robotstxt.Lint (which includes the parser's diagnostics) and
// returns its findings in line order.
func lint(data []byte, e engine.Engine, url string) []lintFinding {
	lp, ok := robotstxt.ParseLintProfile(e.String())
	if !ok {
		lp = robotstxt.LintGoogle
	}
	rep := robotstxt.Lint(data, robotstxt.LintOptions{Profile: lp, URL: url})
	out := []lintFinding{}
	for _, d := range rep.Diagnostics {
		out = append(out, lintFinding{Line: d.Line, Column: d.Column, Severity: d.Severity.String(), Code: d.Code, Message: d.Message, Hint: d.Hint})
	}
	return out
}
