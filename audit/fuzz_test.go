package audit

import (
	"context"
	"encoding/json"
	"testing"

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
	})
}

// FuzzMerge feeds arbitrary JSON to Merge, as "rep audit merge" reads
// untrusted files: it must return a report or an error, never panic.
func FuzzMerge(f *testing.F) {
	f.Add([]byte(`{"schema":1,"lines":3,"requests":2,"first":"2026-03-01T00:00:00Z","crawlers":[{"name":"bingbot","requests":2,"status":{"200":2},"crawl_delay":{"delay_seconds":5,"checked_gaps":1},"edges":[{"host":"h","first":1,"last":5,"first_delay_ns":5000000000}],"top_paths":[{"path":"/","count":2}]}]}`))
	f.Add([]byte(`{"schema":1,"crawlers":[null]}`))
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
