package server

import (
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/lint"
)

// lintFindings runs lint.Run (which includes the parser's diagnostics) and
// returns its findings in line order.
func lintFindings(data []byte, e engine.Engine, url string) []lintFinding {
	rep := lint.Run(data, lint.Options{Engine: e, URL: url})
	out := []lintFinding{}
	for _, d := range rep.Findings {
		out = append(out, lintFinding{Line: d.Line, Column: d.Column, Severity: d.Severity.String(), Code: d.Code, Message: d.Message, Hint: d.Hint})
	}
	return out
}
