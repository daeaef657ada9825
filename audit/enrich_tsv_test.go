package audit

import (
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/accesslog"
)

// TestRowTSVColumns: every TabSeparated row has one field per RowColumns
// entry, and what needs escaping is escaped.
func TestRowTSVColumns(t *testing.T) {
	rec := accesslog.Record{Line: 3, Time: 1, IP: []byte("192.0.2.1"), Method: []byte("GET"),
		Target: []byte("/a\tb\\c\nd\re\x01\xff"), Status: 200, Bytes: -1, UserAgent: []byte("x"), HasUserAgent: true}
	rows := []string{
		string(AppendRowTSV(nil, "s", &rec, Row{Version: -1, Gap: -1}, nil)),
		string(AppendBadRowTSV(nil, accesslog.BadLine{Source: "s", Line: 4, Error: "e\t", Text: "t\n"})),
		string(AppendSkipRowTSV(nil, "s", 5, true)),
		string(AppendSkipRowTSV(nil, "s", 6, false)),
	}
	for _, r := range rows {
		if !strings.HasSuffix(r, "\n") || strings.Count(r, "\n") != 1 {
			t.Errorf("%q: not one line", r)
		}
		if n := strings.Count(r, "\t") + 1; n != len(RowColumns) {
			t.Errorf("%q: %d fields, want %d", r, n, len(RowColumns))
		}
	}
	if want := "\t/a\\tb\\\\c\\nd\\re\\x01\ufffd\t200\t\\N\tx\t"; !strings.Contains(rows[0], want) {
		t.Errorf("%q lacks %q", rows[0], want)
	}
	if want := "\te\\t\tt\\n\t\n"; !strings.HasSuffix(rows[1], want) {
		t.Errorf("%q does not end in %q", rows[1], want)
	}
}
