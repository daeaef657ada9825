package survey

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// TestWriters writes the same rows as JSONL, CSV and Parquet and reads
// each back: the columns, their order and the schema version.
func TestWriters(t *testing.T) {
	rows := surveyAll(t, []string{"GPTBot", "bingbot"}, func(s *Store) error {
		return s.Add(Capture{Host: "a.test", Status: 200, Body: []byte("User-agent: bingbot\nCrawl-delay: 2.5\nDisallow: /x\n")})
	})
	for _, format := range []string{"jsonl", "csv", "parquet"} {
		var b bytes.Buffer
		w, err := NewWriter(&b, format)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(rows); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		var back []Row
		switch format {
		case "jsonl":
			dec := json.NewDecoder(&b)
			for dec.More() {
				var r Row
				if err := dec.Decode(&r); err != nil {
					t.Fatal(err)
				}
				back = append(back, r)
			}
		case "csv":
			recs, err := csv.NewReader(&b).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range recs[0] {
				if c != Columns[i] {
					t.Fatalf("CSV column %d is %q, want %q", i, c, Columns[i])
				}
			}
			for i, rec := range recs[1:] {
				if got := rows[i].record(nil); strconv.Quote(join(got)) != strconv.Quote(join(rec)) {
					t.Errorf("CSV row %d: %q", i, rec)
				}
			}
			back = rows
		case "parquet":
			f, err := parquet.OpenFile(bytes.NewReader(b.Bytes()), int64(b.Len()))
			if err != nil {
				t.Fatal(err)
			}
			if v, ok := f.Lookup(ParquetSchemaKey); !ok || v != "1" {
				t.Errorf("Parquet schema metadata %q %v", v, ok)
			}
			back = make([]Row, len(rows))
			n, _ := parquet.NewGenericReader[Row](bytes.NewReader(b.Bytes())).Read(back)
			back = back[:n]
		}
		if len(back) != len(rows) {
			t.Fatalf("%s: %d rows back, wrote %d", format, len(back), len(rows))
		}
		for i := range rows {
			if back[i] != rows[i] {
				t.Errorf("%s row %d:\n%+v\nwrote\n%+v", format, i, back[i], rows[i])
			}
		}
	}
	if rows[1].CrawlDelay != 2.5 || rows[1].Restriction != "partial" {
		t.Errorf("bingbot row %+v", rows[1])
	}
}

func join(l []string) string {
	var b bytes.Buffer
	for _, s := range l {
		b.WriteString(s)
		b.WriteByte(0)
	}
	return b.String()
}
