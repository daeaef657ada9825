package clickhouse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/internal/testkit/clickhousetest"
	"github.com/rep-toolkit/rep/internal/testkit/corpus"
	"github.com/rep-toolkit/rep/survey"
)

// startServer starts one clickhouse-server (internal/testkit/clickhousetest)
// and returns its native port.
func startServer(t *testing.T) int { return clickhousetest.Start(t, 1)[0].TCP }

func TestMain(m *testing.M) {
	if !slices.Contains(filepath.SplitList(os.Getenv("PATH")), "/usr/sbin") {
		os.Setenv("PATH", os.Getenv("PATH")+string(os.PathListSeparator)+"/usr/sbin")
	}
	os.Exit(m.Run())
}

// TestClickHouseReport loads the rows of a survey for the AI-training
// and search crawlers into rep.survey_v1 and requires report.sql's,
// purposes.sql's and classes.sql's counts to equal those of the report
// rep survey -report json wrote in the same run as the rows, period by
// period: over the corpus as a directory (one period, no time), and over
// captures spread over three months with ties.
func TestClickHouseReport(t *testing.T) {
	dir := t.TempDir()
	rep := filepath.Join(dir, "rep")
	if out, err := exec.Command("go", "build", "-o", rep, "../../cmd/rep").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for name, s := range map[string]string{"schema.sql": Schema, "report.sql": Report, "purposes.sql": Purposes, "classes.sql": Classes} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	port := startServer(t)
	robots := corpus.Path(t, "robots")
	sh := func(t *testing.T, script string) string {
		t.Helper()
		cmd := exec.Command("sh", "-c", "set -e\n"+script)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port), "REP="+rep, "ROBOTS="+robots)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s\n: %v\n%s", script, err, out)
		}
		return string(out)
	}
	// Captures over time: every 4th corpus host, a third of them first
	// closed to everyone in 2024, every 5th 404 and every 7th 503 in 2025.
	// Ties: every 12th host also captured over http at the same time,
	// closed to GPTBot only; every 20th also captured at the same time
	// with a 503, every 36th with a redirect to a host not captured.
	// Every 9th host also has a capture without a time (older than any),
	// every 26th only that; every 11th host a February capture too.
	files := corpus.Robots(t)
	hosts := slices.Sorted(maps.Keys(files))
	var caps bytes.Buffer
	enc := json.NewEncoder(&caps)
	add := func(c map[string]any) {
		if err := enc.Encode(c); err != nil {
			t.Fatal(err)
		}
	}
	for i, h := range hosts {
		u := "https://" + h + "/robots.txt"
		if i%26 == 0 {
			add(map[string]any{"url": u, "status": 200, "body": string(files[h])})
			continue
		}
		if i%4 != 0 && i%9 != 0 && i%11 != 0 {
			continue
		}
		const jan = "2025-01-15T00:00:00Z"
		if i%3 == 0 {
			add(map[string]any{"url": u, "status": 200, "body": "User-agent: *\nDisallow: /\n", "time": "2024-03-01T00:00:00Z"})
		}
		c := map[string]any{"url": u, "status": 200, "body": string(files[h]), "time": jan}
		switch {
		case i%5 == 0:
			c["status"], c["body"] = 404, ""
		case i%7 == 0:
			c["status"], c["body"] = 503, ""
		}
		add(c)
		if i%12 == 0 {
			add(map[string]any{"url": "http://" + h + "/robots.txt", "status": 200, "body": "User-agent: GPTBot\nDisallow: /\n", "time": jan})
		}
		if i%20 == 0 {
			add(map[string]any{"url": u, "status": 503, "time": jan})
		}
		if i%36 == 0 {
			add(map[string]any{"url": u, "status": 301, "location": "https://elsewhere.invalid/robots.txt", "time": jan})
		}
		if i%9 == 0 {
			add(map[string]any{"url": u, "status": 200, "body": "User-agent: *\nAllow: /\n"})
		}
		if i%11 == 0 {
			add(map[string]any{"url": u, "status": 200, "body": "User-agent: CCBot\nDisallow: /search\n", "time": "2025-02-03T10:00:00Z"})
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "captures.jsonl"), caps.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sh(t, `clickhouse-client --port $PORT --multiquery < schema.sql`)
	for _, input := range []string{"$ROBOTS", "captures.jsonl"} {
		t.Run(strings.TrimPrefix(input, "$"), func(t *testing.T) {
			sh(t, `clickhouse-client --port $PORT --query 'TRUNCATE TABLE rep.survey_v1'`)
			var want survey.Report
			if err := json.Unmarshal([]byte(sh(t, `$REP survey -agent ai-training,search -o rows.csv -report json `+input)), &want); err != nil {
				t.Fatal(err)
			}
			sh(t, `clickhouse-client --port $PORT --query 'INSERT INTO rep.survey_v1 FORMAT CSVWithNames' < rows.csv`)
			q := func(file string) string {
				return sh(t, `clickhouse-client --port $PORT --output_format_json_quote_64bit_integers=0 < `+file)
			}
			compare(t, q("report.sql"), q("purposes.sql"), q("classes.sql"), &want)
		})
	}
}

// compare requires the answers of report.sql, purposes.sql and
// classes.sql to hold the report's counts, period by period.
func compare(t *testing.T, crawlers, purposes, classes string, want *survey.Report) {
	type crawlerCounts struct {
		Period, Crawler, Purpose            string
		Hosts, Full, Partial, None, Unknown int
	}
	type purposeCounts struct {
		Period, Purpose               string
		Known, AnyRestricted, AllFull int
	}
	type classCounts struct {
		Period, Class string
		Hosts         int
	}
	gotC, gotP, gotK := map[crawlerCounts]bool{}, map[purposeCounts]bool{}, map[classCounts]bool{}
	decode := func(out string, fn func([]byte) error) {
		for l := range strings.Lines(out) {
			if err := fn([]byte(l)); err != nil {
				t.Fatalf("%v: %s", err, l)
			}
		}
	}
	decode(crawlers, func(b []byte) error {
		var c crawlerCounts
		err := json.Unmarshal(b, &c)
		gotC[c] = true
		return err
	})
	decode(purposes, func(b []byte) error {
		var c struct {
			Period, Purpose string
			Known           int
			AnyRestricted   int `json:"any_restricted"`
			AllFull         int `json:"all_full"`
		}
		err := json.Unmarshal(b, &c)
		gotP[purposeCounts{c.Period, c.Purpose, c.Known, c.AnyRestricted, c.AllFull}] = true
		return err
	})
	decode(classes, func(b []byte) error {
		var c classCounts
		err := json.Unmarshal(b, &c)
		gotK[c] = true
		return err
	})
	wantC, wantP, wantK := map[crawlerCounts]bool{}, map[purposeCounts]bool{}, map[classCounts]bool{}
	restricted := 0
	for _, pd := range want.Periods {
		for _, c := range pd.Crawlers {
			wantC[crawlerCounts{pd.Month, c.Crawler, c.Purpose, pd.Hosts, c.Full, c.Partial, c.None, c.Unknown}] = true
			restricted += c.Full + c.Partial
		}
		for _, p := range pd.Purposes {
			wantP[purposeCounts{pd.Month, p.Purpose, p.Known, p.Any, p.AllFull}] = true
		}
		for class, n := range pd.Classes {
			wantK[classCounts{pd.Month, class, n}] = true
		}
	}
	if len(wantC) < 10 || len(wantP) < 2 || restricted == 0 {
		t.Fatalf("%d crawler counts, %d purpose counts, %d restrictions: the data do not exercise the report", len(wantC), len(wantP), restricted)
	}
	same(t, "crawlers", gotC, wantC)
	same(t, "purposes", gotP, wantP)
	same(t, "classes", gotK, wantK)
	t.Logf("%d periods: %d crawler, %d purpose and %d class counts equal", len(want.Periods), len(wantC), len(wantP), len(wantK))
}

// same requires two sets of counts to be equal, and names the counts in
// one and not the other.
func same[K comparable](t *testing.T, name string, got, want map[K]bool) {
	t.Helper()
	var extra, missing []string
	for k := range got {
		if !want[k] {
			extra = append(extra, fmt.Sprintf("%+v", k))
		}
	}
	for k := range want {
		if !got[k] {
			missing = append(missing, fmt.Sprintf("%+v", k))
		}
	}
	slices.Sort(extra)
	slices.Sort(missing)
	if len(extra)+len(missing) > 0 {
		t.Errorf("%s: ClickHouse only:\n  %s\nrep survey only:\n  %s", name, strings.Join(extra, "\n  "), strings.Join(missing, "\n  "))
	}
}
