package audit

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestReportSchema: a Report says it is of schema 2 and gives durations
// in seconds; Merge takes schema 2 and refuses the others, naming both.
func TestReportSchema(t *testing.T) {
	r := auditBytes(t, []byte(`66.249.66.1 - - [01/Mar/2026:00:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "Googlebot/2.1"`+"\n"), nil, Options{Grace: 90 * time.Minute})
	js, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`{"schema":2,`, `"grace":5400,`} {
		if !strings.Contains(string(js), want) {
			t.Errorf("report JSON lacks %s: %s", want, js)
		}
	}
	for _, tt := range []struct {
		js  string
		err string // "": merges
	}{
		{`{"schema":2,"lines":1,"grace":1.5}`, ""},
		{`{"schema":1,"lines":1,"grace":1.5}`, "report schema 1, want 2"},
		{`{"schema":3,"lines":1,"grace":1.5}`, "report schema 3, want 2"},
	} {
		var p Report
		if err := json.Unmarshal([]byte(tt.js), &p); err != nil {
			t.Fatal(err)
		}
		m, err := Merge(0, &p)
		switch {
		case tt.err == "" && (err != nil || time.Duration(m.Grace) != 1500*time.Millisecond):
			t.Errorf("%s: %v; want a merge with a grace of 1.5 s", tt.js, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s: %v; want an error saying %q", tt.js, err, tt.err)
		}
	}
}
