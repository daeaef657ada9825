package audit

import (
	"slices"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/accesslog"
	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/crawlers/botauth"
	"github.com/rep-toolkit/rep/crawlers/identity"
	"github.com/rep-toolkit/rep/robotstxt"
)

// TestEnrichRows holds the enrich rows, NDJSON and TabSeparated, to the
// fields docs/scale-out.md documents, byte for byte: what each field
// holds, when a field is absent (and the TabSeparated default then), and
// how strings are escaped.
func TestEnrichRows(t *testing.T) {
	h, err := NewHistory(
		Version{Source: "robots.txt", File: robotstxt.Parse([]byte("User-agent: *\nAllow: /\n"))},
		Version{Since: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), Source: "new.txt", File: robotstxt.Parse([]byte("User-agent: *\nDisallow: /private/\n"))},
	)
	if err != nil {
		t.Fatal(err)
	}
	google := &crawlers.Crawler{Name: "Googlebot", Operator: "Google", Purpose: crawlers.PurposeSearch}
	anon := &crawlers.Crawler{Name: "ExampleBot", Purpose: crawlers.PurposeSEO} // no operator
	const at = 1772368496 * int64(time.Second)                                  // 2026-03-01T12:34:56Z
	s := func(v string) []byte { return []byte(v) }
	for _, tt := range []struct {
		name      string
		src       string
		rec       accesslog.Record
		row       Row
		json, tsv string
	}{
		{
			name: "every field",
			src:  "access.log",
			rec: accesslog.Record{Line: 12, Time: at, IP: s("66.249.66.1"), Host: s("www.example.com"), Method: s("GET"),
				Target: s("/private/a!b?q=1"), Status: 200, Bytes: 5120, UserAgent: s("Mozilla/5.0 (compatible; Googlebot/2.1)"), HasUserAgent: true},
			row: Row{Crawler: google, Identity: identity.Verified, Method: identity.ByRanges,
				Signature: botauth.Unverified, SignatureReason: botauth.NoKeySource,
				Robots: RobotsDisallowed, Rule: robotstxt.Rule{Pattern: "/private/", Line: 12}, Version: 1,
				Gap: 15 * time.Second, Delay: 1500 * time.Millisecond},
			json: `{"src":"access.log","line":12,"time":"2026-03-01T12:34:56Z","ip":"66.249.66.1","host":"www.example.com","method":"GET","path":"/private/a!b?q=1","status":200,"bytes":5120,"ua":"Mozilla/5.0 (compatible; Googlebot/2.1)","crawler":"Googlebot","operator":"Google","purpose":"search","verified":"verified","verified_by":"ranges","signature":"unverified","signature_reason":"no key source","robots":"disallow","rule":"Disallow: /private/","rule_line":12,"robots_version":"new.txt","gap_ms":15000,"crawl_delay_s":1.5}` + "\n",
			tsv: "access.log\t12\t2026-03-01 12:34:56\t66.249.66.1\twww.example.com\tGET\t/private/a!b?q=1\t200\t5120\tMozilla/5.0 (compatible; Googlebot/2.1)\t" +
				"Googlebot\tGoogle\tsearch\tverified\tranges\tunverified\tno key source\tdisallow\tDisallow: /private/\t12\tnew.txt\t15000\t1.5\t\t\t\n",
		},
		{
			// No time, no status, no host, no operator; a spoofed request
			// has no verified_by whatever its method; an allow without a
			// rule; a gap of 0 is a gap, a Crawl-delay of 0 none.
			name: "zero values",
			src:  "s",
			rec:  accesslog.Record{Line: 11, IP: s("192.0.2.1"), Method: s("GET"), Target: s("/"), Bytes: 0, UserAgent: s("x"), HasUserAgent: true},
			row:  Row{Crawler: anon, Identity: identity.Spoofed, Method: identity.ByRanges, Robots: RobotsAllowed, Version: 0},
			json: `{"src":"s","line":11,"ip":"192.0.2.1","method":"GET","path":"/","bytes":0,"ua":"x","crawler":"ExampleBot","purpose":"seo","verified":"spoofed","robots":"allow","robots_version":"robots.txt","gap_ms":0}` + "\n",
			tsv:  "s\t11\t1970-01-01 00:00:00\t192.0.2.1\t\tGET\t/\t0\t0\tx\tExampleBot\t\tseo\tspoofed\t\t\t\tallow\t\t0\trobots.txt\t0\t0\t\t\t\n",
		},
		{
			// A rule on line 1, no gap, the shortest Crawl-delay, no
			// identity checked, no bytes logged.
			name: "boundaries",
			src:  "s",
			rec:  accesslog.Record{Line: 13, Time: at, IP: s("192.0.2.2"), Target: s("/a"), Status: 404, Bytes: -1, UserAgent: s("x"), HasUserAgent: true},
			row: Row{Crawler: anon, Signature: botauth.Verified, Robots: RobotsGrace, Rule: robotstxt.Rule{Allow: true, Pattern: "/a", Line: 1}, Version: 1,
				Gap: -1, Delay: time.Nanosecond},
			json: `{"src":"s","line":13,"time":"2026-03-01T12:34:56Z","ip":"192.0.2.2","path":"/a","status":404,"ua":"x","crawler":"ExampleBot","purpose":"seo","signature":"verified","robots":"grace","rule":"Allow: /a","rule_line":1,"robots_version":"new.txt","crawl_delay_s":0.000000001}` + "\n",
			tsv:  "s\t13\t2026-03-01 12:34:56\t192.0.2.2\t\t\t/a\t404\t\\N\tx\tExampleBot\t\tseo\t\t\tverified\t\tgrace\tAllow: /a\t1\tnew.txt\t\\N\t0.000000001\t\t\t\n",
		},
		{
			// Not a crawler: none of the crawler's fields, whatever the row
			// holds. The User-Agent holds what each encoding escapes.
			name: "escapes",
			src:  "s",
			rec: accesslog.Record{Line: 14, IP: s("192.0.2.3"), Target: s("/"), Status: 200, Bytes: 1,
				UserAgent: s("\"\\<>&!\x01\x1f\x7f\t\n\r é \ufffd \x80\xff"), HasUserAgent: true},
			row:  Row{Robots: RobotsAllowed, Version: -1, Gap: 5 * time.Second, Delay: time.Second},
			json: `{"src":"s","line":14,"ip":"192.0.2.3","path":"/","status":200,"bytes":1,"ua":"\"\\\u003c\u003e\u0026!\u0001\u001f` + "\x7f" + `\u0009\u000a\u000d é ` + "\ufffd" + ` \ufffd\ufffd"}` + "\n",
			tsv: "s\t14\t1970-01-01 00:00:00\t192.0.2.3\t\t\t/\t200\t1\t" + `"\\<>&!\x01\x1f\x7f\t\n\r é ` + "\ufffd \ufffd\ufffd" +
				"\t\t\t\t\t\t\t\t\t\t0\t\t\\N\t0\t\t\t\n",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(AppendRow(nil, tt.src, &tt.rec, tt.row, h)); got != tt.json {
				t.Errorf("AppendRow\n got %q\nwant %q", got, tt.json)
			}
			if got := string(AppendRowTSV(nil, tt.src, &tt.rec, tt.row, h)); got != tt.tsv {
				t.Errorf("AppendRowTSV\n got %q\nwant %q", got, tt.tsv)
			}
		})
	}
}

// TestEnrichOtherRows: the rows of a line that did not parse and of a
// blank or directive line, in both encodings.
func TestEnrichOtherRows(t *testing.T) {
	bad := accesslog.BadLine{Source: "s", Line: 12, Error: "e <1>", Text: "t\tu"}
	for _, tt := range []struct{ name, got, want string }{
		{"bad", string(AppendBadRow(nil, bad)), `{"src":"s","line":12,"error":"e \u003c1\u003e","text":"t\u0009u"}` + "\n"},
		{"bad tsv", string(AppendBadRowTSV(nil, bad)), "s\t12\t1970-01-01 00:00:00\t\t\t\t\t0\t\\N\t\t\t\t\t\t\t\t\t\t\t0\t\t\\N\t0\te <1>\tt\\tu\t\n"},
		{"directive", string(AppendSkipRow(nil, "s", 15, true)), `{"src":"s","line":15,"skip":"directive"}` + "\n"},
		{"blank", string(AppendSkipRow(nil, "s", 16, false)), `{"src":"s","line":16,"skip":"blank"}` + "\n"},
		{"directive tsv", string(AppendSkipRowTSV(nil, "s", 15, true)), "s\t15\t1970-01-01 00:00:00\t\t\t\t\t0\t\\N\t\t\t\t\t\t\t\t\t\t\t0\t\t\\N\t0\t\t\tdirective\n"},
		{"blank tsv", string(AppendSkipRowTSV(nil, "s", 16, false)), "s\t16\t1970-01-01 00:00:00\t\t\t\t\t0\t\\N\t\t\t\t\t\t\t\t\t\t\t0\t\t\\N\t0\t\t\tblank\n"},
	} {
		if tt.got != tt.want {
			t.Errorf("%s\n got %q\nwant %q", tt.name, tt.got, tt.want)
		}
	}
}

// TestRowSchema pins the enrich row of schema version 2, whose column
// order the ClickHouse tables (enrich_v2) read by position.
func TestRowSchema(t *testing.T) {
	want := []string{"src", "line", "time", "ip", "host", "method", "path", "status", "bytes", "ua",
		"crawler", "operator", "purpose", "verified", "verified_by", "signature", "signature_reason",
		"robots", "rule", "rule_line", "robots_version", "gap_ms", "crawl_delay_s", "error", "text", "skip"}
	if RowSchema != 2 || !slices.Equal(RowColumns, want) {
		t.Errorf("schema %d, columns %q; want schema 2, columns %q", RowSchema, RowColumns, want)
	}
}
