package robotsmeta_test

import (
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/robotsmeta"
)

// TestMaxBytesEdge: Options.MaxBytes cuts a body longer than it, with a
// limit-bytes warning; a body of exactly MaxBytes is read whole and not
// reported as cut; a negative MaxBytes reads everything.
func TestMaxBytesEdge(t *testing.T) {
	const doc = `<meta name="robots" content="noindex">` // 38 bytes
	for _, tc := range []struct {
		max   int64
		stop  robotsmeta.Stop
		read  int64
		rules int
	}{
		{37, robotsmeta.StopMaxBytes, 37, 0},
		{38, robotsmeta.StopEOF, 38, 1},
		{39, robotsmeta.StopEOF, 38, 1},
		{1, robotsmeta.StopMaxBytes, 1, 0},
		{-1, robotsmeta.StopEOF, 38, 1},
	} {
		p, err := robotsmeta.ParseLines(nil, strings.NewReader(doc), robotsmeta.Options{MaxBytes: tc.max})
		if err != nil {
			t.Fatal(err)
		}
		warned := false
		for _, d := range p.Diagnostics {
			warned = warned || d.Code == "limit-bytes"
		}
		if p.Stop != tc.stop || p.BytesRead != tc.read || len(p.Rules) != tc.rules || warned != (tc.stop == robotsmeta.StopMaxBytes) {
			t.Errorf("MaxBytes %d: stop %s after %d bytes, %d rules, findings %v; want %s after %d, %d rules",
				tc.max, p.Stop, p.BytesRead, len(p.Rules), p.Diagnostics, tc.stop, tc.read, tc.rules)
		}
	}
}
