package filter

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/survey"
)

// TestRowFilterAgrees decides generated documents from survey rows
// written as JSONL, CSV and Parquet: on every host that each crawler
// restricts fully or not at all, the verdict is the captures' one.
func TestRowFilterAgrees(t *testing.T) {
	fx := newFixture(t, apertus[:6])
	sv := survey.NewSurveyor(fx.agents)
	var rows []survey.Row
	for i := 0; i < fx.st.Len(); i++ {
		r, err := fx.st.Record(i)
		if err != nil {
			t.Fatal(err)
		}
		rows = sv.Survey(rows, r)
	}
	mixed := map[string]bool{}
	for _, r := range rows {
		if r.Restriction == string(survey.Partial) {
			mixed[r.Host] = true
		}
	}
	capf, err := New(fx.st, Options{Agents: fx.agents})
	if err != nil {
		t.Fatal(err)
	}
	docs := fx.docs(5000, 9)
	for _, format := range []string{"jsonl", "csv", "parquet"} {
		p := filepath.Join(t.TempDir(), "rows."+format)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		w, err := survey.NewWriter(f, format)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(rows); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		f.Close()
		rf, err := NewRowFilter(func(fn func(*survey.Row) error) error { return survey.ReadRows(p, fn) }, Options{Agents: fx.agents}, PartialKeep)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, u := range docs {
			h, _ := survey.HostOf(u)
			if mixed[h] {
				continue
			}
			n++
			var a, b Verdict
			capf.DecideInto(&a, u, time.Time{})
			rf.DecideInto(&b, u, time.Time{})
			if a.Keep != b.Keep || a.Class != b.Class {
				t.Fatalf("%s %s: rows keep %v class %v, captures keep %v class %v", format, u, b.Keep, b.Class, a.Keep, a.Class)
			}
		}
		if n < 100 {
			t.Fatalf("only %d documents on hosts without partial restrictions", n)
		}
	}
}
