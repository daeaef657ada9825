package server

import (
	"context"

	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/lint"
)

// lintFindings runs lint.Run (which includes the parser's diagnostics) and
// returns its findings in line order.
func lintFindings(ctx context.Context, data []byte, e engine.Engine, url string) (out []lintFinding, total int, err error) {
	rep, err := lint.RunContext(ctx, data, lint.Options{Engine: e, URL: url})
	if err != nil {
		return nil, 0, err // the client is gone: stop, answer nothing
	}
	out = []lintFinding{}
	for _, d := range rep.Findings {
		if len(out) == MaxLintFindings {
			break
		}
		out = append(out, lintFinding{Line: d.Line, Column: d.Column, Severity: d.Severity.String(), Code: d.Code, Message: d.Message, Hint: d.Hint})
	}
	return out, len(rep.Findings), nil
}

// MaxLintFindings caps the findings /api/lint returns, the first in line
// order (findings_total counts them all): a 1 MB file of misspelt lines
// has 50,000 findings and an 11 MB answer otherwise.
const MaxLintFindings = 5000
