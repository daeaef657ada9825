package server

import (
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/lint"
)

// lintFindings runs lint.Run (which includes the parser's diagnostics) and
// returns its findings in line order.
func lintFindings(data []byte, e engine.Engine, url string) (out []lintFinding, total int) {
	rep := lint.Run(data, lint.Options{Engine: e, URL: url})
	out = []lintFinding{}
	for _, d := range rep.Findings {
		if len(out) == MaxLintFindings {
			break
		}
		out = append(out, lintFinding{Line: d.Line, Column: d.Column, Severity: d.Severity.String(), Code: d.Code, Message: d.Message, Hint: d.Hint})
	}
	return out, len(rep.Findings)
}

// MaxLintFindings caps the findings /api/lint returns, the first in line
// order (findings_total counts them all): a 1 MB file of misspelt lines
// has 50,000 findings and an 11 MB answer otherwise.
const MaxLintFindings = 5000
