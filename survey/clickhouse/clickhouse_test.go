package clickhouse

import (
	"bytes"
	"encoding/json"
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

// TestClickHouseReport loads the rows of the corpus's survey for the
// AI-training and search crawlers into rep.survey_v1 and requires
// report.sql's counts to equal rep survey -report json's, crawler by
// crawler.
func TestClickHouseReport(t *testing.T) {
	dir := t.TempDir()
	rep := filepath.Join(dir, "rep")
	if out, err := exec.Command("go", "build", "-o", rep, "../../cmd/rep").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for name, s := range map[string]string{"schema.sql": Schema, "report.sql": Report} {
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
	files := corpus.Robots(t)
	hosts := slices.Sorted(maps.Keys(files))
	var caps bytes.Buffer
	enc := json.NewEncoder(&caps)
	for i := 0; i < len(hosts); i += 4 {
		h := hosts[i]
		if i%3 == 0 {
			enc.Encode(map[string]any{"url": "https://" + h + "/robots.txt", "status": 200, "body": "User-agent: *\nDisallow: /\n", "time": "2024-03-01T00:00:00Z"})
		}
		c := map[string]any{"url": "https://" + h + "/robots.txt", "status": 200, "body": string(files[h]), "time": "2025-01-15T00:00:00Z"}
		switch {
		case i%5 == 0:
			c["status"], c["body"] = 404, ""
		case i%7 == 0:
			c["status"], c["body"] = 503, ""
		}
		enc.Encode(c)
	}
	if err := os.WriteFile(filepath.Join(dir, "captures.jsonl"), caps.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sh(t, `clickhouse-client --port $PORT --multiquery < schema.sql`)
	for _, input := range []string{"$ROBOTS", "captures.jsonl"} {
		t.Run(strings.TrimPrefix(input, "$"), func(t *testing.T) {
			sh(t, `clickhouse-client --port $PORT --query 'TRUNCATE TABLE rep.survey_v1'`)
			sh(t, `$REP survey -agent ai-training,search -out csv `+input+` | clickhouse-client --port $PORT --query 'INSERT INTO rep.survey_v1 FORMAT CSVWithNames'`)
			got := sh(t, `clickhouse-client --port $PORT --output_format_json_quote_64bit_integers=0 < report.sql`)
			var want survey.Report
			if err := json.Unmarshal([]byte(sh(t, `$REP survey -agent ai-training,search -report json `+input)), &want); err != nil {
				t.Fatal(err)
			}
			compare(t, got, &want)
		})
	}
}

// compare requires report.sql's answer to hold the counts of the report's
// overall period, crawler by crawler.
func compare(t *testing.T, got string, want *survey.Report) {
	type counts struct {
		Crawler, Purpose             string
		Full, Partial, None, Unknown int
	}
	sql := map[string]counts{}
	for l := range strings.Lines(got) {
		var c counts
		if err := json.Unmarshal([]byte(l), &c); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		sql[c.Crawler] = c
	}
	all := want.Periods[0]
	if len(all.Crawlers) < 10 || len(sql) != len(all.Crawlers) {
		t.Fatalf("%d crawlers in ClickHouse, %d in the report", len(sql), len(all.Crawlers))
	}
	restricted := 0
	for _, c := range all.Crawlers {
		w := counts{c.Crawler, c.Purpose, c.Full, c.Partial, c.None, c.Unknown}
		if sql[c.Crawler] != w {
			t.Errorf("%s: ClickHouse %+v, rep survey %+v", c.Crawler, sql[c.Crawler], w)
		}
		restricted += c.Full + c.Partial
	}
	if restricted == 0 {
		t.Error("no host restricts any crawler: the data do not exercise the report")
	}
	t.Logf("%d crawlers equal over %d hosts", len(all.Crawlers), all.Hosts)
}
