package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/accesslog"
	"github.com/rep-toolkit/rep/robotstxt"
)

// FuzzEnrichRow checks that every parsed line becomes one valid JSON row,
// whatever bytes its fields hold.
func FuzzEnrichRow(f *testing.F) {
	f.Add([]byte(`66.249.66.1 - - [01/Mar/2026:00:00:00 +0000] "GET /private/x?a=<b> HTTP/1.1" 200 5 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`))
	f.Add([]byte("1.2.3.4 - - [01/Mar/2026:00:00:00 +0000] \"GET /\xff\x00\\\" HTTP/1.1\" 200 5 \"-\" \"bingbot \\u2028\""))
	h, err := NewHistory(Version{Source: "r", File: robotstxt.Parse([]byte("User-agent: *\nDisallow: /private/\nCrawl-delay: 1\n"))})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		p, _ := accesslog.MustFormat("combined").NewParser(accesslog.Options{})
		var rec accesslog.Record
		if p.Parse(line, &rec) != nil {
			return
		}
		a := New(Options{Robots: h}, true)
		row := a.Add(context.Background(), &rec)
		out := AppendRow(nil, "src\x00\"", &rec, row, h)
		if !json.Valid(out) {
			t.Fatalf("invalid JSON row: %s", out)
		}
		bad := AppendBadRow(nil, accesslog.BadLine{Source: "s", Line: 1, Error: "e", Text: string(line)})
		if !json.Valid(bad) {
			t.Fatalf("invalid JSON bad row: %s", bad)
		}
		sameRow(t, out, AppendRowTSV(nil, "src\x00\"", &rec, row, h))
		sameRow(t, bad, AppendBadRowTSV(nil, accesslog.BadLine{Source: "s", Line: 1, Error: "e", Text: string(line)}))
	})
}

// sameRow requires a TabSeparated row to hold what the JSON row holds,
// field by field, with the defaults AppendRowTSV documents for the fields
// the JSON row omits.
func sameRow(t *testing.T, js, tsv []byte) {
	t.Helper()
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(js))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		t.Fatal(err)
	}
	line, ok := bytes.CutSuffix(tsv, []byte("\n"))
	if !ok || bytes.IndexByte(line, '\n') >= 0 {
		t.Fatalf("TSV row is not one line: %q", tsv)
	}
	fields := strings.Split(string(line), "\t")
	if len(fields) != len(RowColumns) {
		t.Fatalf("TSV row has %d fields, want %d: %q", len(fields), len(RowColumns), tsv)
	}
	absent := map[string]string{"time": "1970-01-01 00:00:00", "status": "0", "bytes": `\N`, "rule_line": "0", "gap_ms": `\N`, "crawl_delay_s": "0"}
	for i, col := range RowColumns {
		got := unescapeTSV(fields[i])
		want, ok := absent[col]
		switch v := m[col].(type) {
		case nil:
		case string:
			want = v
			if col == "time" {
				tm, err := time.Parse(time.RFC3339, v)
				if err != nil {
					t.Fatal(err)
				}
				want = tm.Format(time.DateTime)
			}
		case json.Number:
			want = v.String()
		default:
			t.Fatalf("%s: %T in the JSON row", col, v)
		}
		if m[col] == nil && !ok {
			want = ""
		}
		if got != want {
			t.Errorf("%s: TSV %q, JSON %q\n%s\n%q", col, got, want, js, tsv)
		}
	}
}

// unescapeTSV reverses ClickHouse's TabSeparated escapes as AppendRowTSV
// writes them.
func unescapeTSV(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'x':
			n, _ := strconv.ParseUint(s[i+1:i+3], 16, 8)
			b.WriteByte(byte(n))
			i += 2
		case 'N':
			b.WriteString(`\N`)
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// FuzzMerge feeds arbitrary JSON to Merge, as "rep audit merge" reads
// untrusted files: it must return a report or an error, never panic.
func FuzzMerge(f *testing.F) {
	f.Add([]byte(`{"schema":2,"lines":3,"requests":2,"first":"2026-03-01T00:00:00Z","crawlers":[{"name":"bingbot","requests":2,"status":{"200":2},"crawl_delay":{"delay_seconds":5,"checked_gaps":1},"edges":[{"host":"h","first":1,"last":5,"first_delay_ns":5000000000}],"top_paths":[{"path":"/","count":2}]}]}`))
	f.Add([]byte(`{"schema":2,"crawlers":[null]}`))
	f.Add([]byte(`{"schema":2,"lines":2,"requests":2,"crawlers":[{"name":"Google-Agent","requests":2,"verified":1,"verified_by":{"signature":1},"signatures":{"verified":1,"invalid":1,"reasons":{"expired":1},"first_invalid":{"time":"2026-03-01T00:00:00Z","ip":"192.0.2.1","path":"/","error":"expired"}}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var a, b Report
		if json.Unmarshal(data, &a) != nil || json.Unmarshal(data, &b) != nil {
			return
		}
		b.Lines++ // another part, not the same one twice (which Merge refuses)
		m, err := Merge(3, &a, &b)
		if err != nil {
			return
		}
		if _, err := json.Marshal(m); err != nil {
			t.Fatal(err)
		}
	})
}
