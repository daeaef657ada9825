package clickhouse

import (
	"bufio"
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
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/rep-toolkit/rep/audit"
	"github.com/rep-toolkit/rep/internal/testkit/clickhousetest"
	"github.com/rep-toolkit/rep/internal/testkit/loggen"
)

// The commands the tests run, in the log's directory, with the rep binary
// and clickhouse-client on PATH and the shards' native ports in SHARD_1
// and SHARD_2. docs/scale-out.md shows each of them verbatim
// (TestClickHouseDocs).
const (
	cmdSchema = `clickhouse-client --port $SHARD_1 --multiquery < schema.sql
clickhouse-client --port $SHARD_2 --multiquery < schema.sql`
	cmdLoad = `rep audit enrich -tsv -format combined -verify -offline \
    -robots robots-1.txt@2026-01-30T00:00:00Z -robots robots-2.txt@2026-03-03T00:00:00Z access.log |
  clickhouse-client --port $SHARD_1 --insert_distributed_sync=1 \
    --query 'INSERT INTO rep.enrich_v2 FORMAT TabSeparated'`
	cmdReport = `clickhouse-client --port $SHARD_1 --output_format_json_quote_64bit_integers=0 < report.sql > figures.ndjson`
	cmdAudit  = `rep audit -json -format combined -verify -offline \
    -robots robots-1.txt@2026-01-30T00:00:00Z -robots robots-2.txt@2026-03-03T00:00:00Z access.log > report.json ||
  [ $? -le 1 ]   # 1: the audit found disallowed requests or spoofed crawlers`
	cmdServer = clickhousetest.Command
)

// chServer is one clickhouse-server of the cluster "rep".
type chServer = clickhousetest.Server

// startShards starts two ClickHouse servers that form the cluster "rep"
// of two shards, and returns them.
func startShards(t testing.TB) []*chServer { return clickhousetest.Start(t, 2) }

var (
	repOnce sync.Once
	repDir  string
	repErr  error
)

// buildRep builds the rep command once per test binary, into a directory
// that then goes first on the commands' PATH.
func buildRep(t testing.TB) string {
	t.Helper()
	repOnce.Do(func() {
		dir, err := os.MkdirTemp("", "rep-clickhouse-bin-")
		if err != nil {
			repErr = err
			return
		}
		repDir = dir
		out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "rep"), "github.com/rep-toolkit/rep/cmd/rep").CombinedOutput()
		if err != nil {
			repErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if repErr != nil {
		t.Fatal(repErr)
	}
	return repDir
}

func TestMain(m *testing.M) {
	// Debian installs clickhouse-server in /usr/sbin, which a user's PATH
	// may lack.
	if !slices.Contains(filepath.SplitList(os.Getenv("PATH")), "/usr/sbin") {
		os.Setenv("PATH", os.Getenv("PATH")+string(os.PathListSeparator)+"/usr/sbin")
	}
	code := m.Run()
	if repDir != "" {
		os.RemoveAll(repDir)
	}
	os.Exit(code)
}

// run runs one of the commands above in dir and returns how long it took.
func run(t testing.TB, dir string, servers []*chServer, script string) time.Duration {
	t.Helper()
	cmd := exec.Command("sh", "-c", "set -e\n"+script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+buildRep(t)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"SHARD_1="+strconv.Itoa(servers[0].TCP), "SHARD_2="+strconv.Itoa(servers[1].TCP))
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s\n: %v\n%s", script, err, out)
	}
	return time.Since(start)
}

// query runs one statement on a server and returns its output.
func query(t testing.TB, s *chServer, q string) string {
	t.Helper()
	out, err := exec.Command("clickhouse-client", "--port", strconv.Itoa(s.TCP), "--query", q).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", q, err, out)
	}
	return strings.TrimSpace(string(out))
}

// figures is one row of report.sql's answer.
type figures struct {
	counts
	Status     [2][]any `json:"status"`
	Days       [2][]any `json:"days"`
	VerifiedBy [2][]any `json:"verified_by"`
	Reasons    [2][]any `json:"signature_reasons"`
}

// counts are the figures compared as they are.
type counts struct {
	Crawler            string  `json:"crawler"`
	Requests           int64   `json:"requests"`
	Bytes              int64   `json:"bytes"`
	Verified           int64   `json:"verified"`
	Spoofed            int64   `json:"spoofed"`
	Unverifiable       int64   `json:"unverifiable"`
	RDNSOnly           int64   `json:"rdns_only"`
	SigVerified        int64   `json:"signatures_verified"`
	SigInvalid         int64   `json:"signatures_invalid"`
	SigUnverified      int64   `json:"signatures_unverified"`
	DisallowedRequests int64   `json:"disallowed_requests"`
	GraceRequests      int64   `json:"grace_requests"`
	RobotsFetches      int64   `json:"robots_fetches"`
	CheckedGaps        int64   `json:"checked_gaps"`
	TooFast            int64   `json:"too_fast"`
	Shortest           float64 `json:"shortest_gap_seconds"`
	Delay              float64 `json:"delay_seconds"`
}

// mix turns a [keys, counts] pair into the report's map form.
func mix(t *testing.T, p [2][]any, key func(any) string) map[string]int64 {
	t.Helper()
	m := map[string]int64{}
	for i, k := range p[0] {
		m[key(k)] = int64(p[1][i].(float64))
	}
	return m
}

// writeLog generates a log of n requests with loggen into dir/access.log
// and its two robots.txt versions beside it, as the commands expect.
func writeLog(t *testing.T, dir string, n int64) *loggen.Truth {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "access.log"))
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	tr, err := loggen.Generate(w, loggen.Config{Seed: 23, Requests: n, Format: "combined"})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	want := []string{"2026-01-30T00:00:00Z", "2026-03-03T00:00:00Z"}
	if len(tr.Robots) != 2 {
		t.Fatalf("%d robots.txt versions, want 2", len(tr.Robots))
	}
	for i, v := range tr.Robots {
		if got := v.Since.UTC().Format(time.RFC3339); got != want[i] {
			t.Fatalf("robots.txt version %d from %s, the commands say %s", i+1, got, want[i])
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("robots-%d.txt", i+1)), []byte(v.Body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, s := range map[string]string{"schema.sql": Schema, "report.sql": Report} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

// lines is the size of the generated log; REP_CLICKHOUSE_LINES sets
// another (for the figures in BENCHMARKS.md).
func lines(t *testing.T) int64 {
	if s := os.Getenv("REP_CLICKHOUSE_LINES"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 1 {
			t.Fatalf("REP_CLICKHOUSE_LINES=%q", s)
		}
		return n
	}
	return 1_000_000
}

// TestClickHouseFigures loads the enrich rows of a generated log of a
// million requests (a robots.txt change mid-log, genuine and forged
// crawlers, bad lines) into two ClickHouse shards through the Distributed
// table and requires report.sql's per-crawler figures to equal those of
// rep audit -json on the same log, exactly.
func TestClickHouseFigures(t *testing.T) {
	dir := t.TempDir()
	n := lines(t)
	tr := writeLog(t, dir, n)
	servers := startShards(t)
	run(t, dir, servers, cmdSchema)
	load := run(t, dir, servers, cmdLoad)
	var total int64
	for i, s := range servers {
		c, _ := strconv.ParseInt(query(t, s, "SELECT count() FROM rep.enrich_v2_local"), 10, 64)
		if c == 0 {
			t.Fatalf("shard %d holds no rows", i+1)
		}
		total += c
	}
	if total != tr.Lines {
		t.Fatalf("the shards hold %d rows, the log has %d lines", total, tr.Lines)
	}
	report := run(t, dir, servers, cmdReport)
	auditTime := run(t, dir, servers, cmdAudit)
	t.Logf("%d lines: load (enrich | insert into 2 shards) %v, %.0f rows/s; report.sql %v; rep audit -json %v",
		tr.Lines, load.Round(time.Millisecond), float64(tr.Lines)/load.Seconds(), report.Round(time.Millisecond), auditTime.Round(time.Millisecond))

	rep, sum := compare(t, dir)
	// The log must exercise what is compared.
	if sum.spoofed == 0 || sum.verified == 0 || sum.verifiedBy == 0 || sum.disallowed == 0 || sum.grace == 0 || len(rep.Crawlers) < 5 {
		t.Errorf("too easy a log: %d crawlers, %+v", len(rep.Crawlers), sum)
	}
	t.Logf("%d crawlers equal: %d verified, %d spoofed, %d disallowed, %d grace requests", len(rep.Crawlers), sum.verified, sum.spoofed, sum.disallowed, sum.grace)
}

// totals sums what compare compared, to show the log exercised it.
type totals struct {
	verified, verifiedBy, spoofed, disallowed, grace int64
	signatures, sigReasons                           int64
}

// compare reads report.json (rep audit -json) and figures.ndjson
// (report.sql) in dir and requires every crawler's figures to be equal.
func compare(t *testing.T, dir string) (*audit.Report, totals) {
	t.Helper()
	js, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep audit.Report
	if err := json.Unmarshal(js, &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]figures{}
	fs, err := os.ReadFile(filepath.Join(dir, "figures.ndjson"))
	if err != nil {
		t.Fatal(err)
	}
	for l := range strings.Lines(string(fs)) {
		var f figures
		if err := json.Unmarshal([]byte(l), &f); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		got[f.Crawler] = f
	}
	var sum totals
	for _, c := range rep.Crawlers {
		f, ok := got[c.Name]
		if !ok {
			t.Errorf("%s: in the audit, not in ClickHouse", c.Name)
			continue
		}
		delete(got, c.Name)
		want := counts{Crawler: c.Name, Requests: c.Requests, Bytes: c.Bytes, Verified: c.Verified, Spoofed: c.Spoofed,
			Unverifiable: c.Unverifiable, RDNSOnly: c.RDNSOnly, DisallowedRequests: c.DisallowedRequests,
			GraceRequests: c.GraceRequests, RobotsFetches: c.RobotsFetches}
		if g := c.Signatures; g != nil {
			want.SigVerified, want.SigInvalid, want.SigUnverified = g.Verified, g.Invalid, g.Unverified
			sum.signatures += g.Verified + g.Invalid + g.Unverified
		}
		if d := c.CrawlDelay; d != nil && d.CheckedGaps > 0 {
			want.CheckedGaps, want.TooFast, want.Shortest, want.Delay = d.CheckedGaps, d.TooFast, d.Shortest, d.Delay
		}
		if f.counts != want {
			t.Errorf("%s:\nClickHouse %+v\n     audit %+v", c.Name, f.counts, want)
		}
		status := mix(t, f.Status, func(k any) string { return fmt.Sprintf("%03d", int(k.(float64))) })
		if !maps.Equal(status, c.Status) {
			t.Errorf("%s: status mix\nClickHouse %v\n     audit %v", c.Name, status, c.Status)
		}
		days := mix(t, f.Days, func(k any) string { return k.(string) })
		if !maps.Equal(days, c.Days) {
			t.Errorf("%s: days\nClickHouse %v\n     audit %v", c.Name, days, c.Days)
		}
		by := mix(t, f.VerifiedBy, func(k any) string { return k.(string) })
		if !maps.Equal(by, c.VerifiedBy) {
			t.Errorf("%s: verified by\nClickHouse %v\n     audit %v", c.Name, by, c.VerifiedBy)
		}
		var reasons map[string]int64
		if c.Signatures != nil {
			reasons = c.Signatures.Reasons
		}
		if why := mix(t, f.Reasons, func(k any) string { return k.(string) }); !maps.Equal(why, reasons) {
			t.Errorf("%s: signature reasons\nClickHouse %v\n     audit %v", c.Name, why, reasons)
		}
		sum.verifiedBy += int64(len(by))
		sum.sigReasons += int64(len(reasons))
		sum.spoofed += c.Spoofed
		sum.verified += c.Verified
		sum.disallowed += c.DisallowedRequests
		sum.grace += c.GraceRequests
	}
	for _, name := range slices.Sorted(maps.Keys(got)) {
		t.Errorf("%s: in ClickHouse, not in the audit", name)
	}
	return &rep, sum
}

// TestClickHouseSignatures loads the enrich rows of the JSON log with Web
// Bot Auth signatures that cmd/rep's audit_signatures script audits (with
// its saved key directory) and requires report.sql's figures, the
// signature counts, reasons and verified_by mixes among them, to equal
// rep audit -json's.
func TestClickHouseSignatures(t *testing.T) {
	dir := t.TempDir()
	ar, err := txtar.ParseFile("../../cmd/rep/testdata/script/audit_signatures.txtar")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"schema.sql": Schema, "report.sql": Report}
	for _, f := range ar.Files {
		files[f.Name] = string(f.Data)
	}
	for _, name := range []string{"access.json", "agent.jwks"} {
		if files[name] == "" {
			t.Fatalf("audit_signatures.txtar has no %s", name)
		}
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	servers := startShards(t)
	run(t, dir, servers, cmdSchema)
	const flags = "-format json -verify -offline -keys https://agent.bot.goog=agent.jwks"
	run(t, dir, servers, `rep audit enrich -tsv `+flags+` access.json |
  clickhouse-client --port $SHARD_1 --insert_distributed_sync=1 --query 'INSERT INTO rep.enrich_v2 FORMAT TabSeparated'`)
	run(t, dir, servers, cmdReport)
	run(t, dir, servers, `rep audit -json `+flags+` access.json > report.json || [ $? -le 1 ]`)
	_, sum := compare(t, dir)
	if sum.signatures == 0 || sum.sigReasons < 2 || sum.verifiedBy < 2 {
		t.Errorf("too easy a log: %+v", sum)
	}
	t.Logf("equal: %+v", sum)
}

// TestClickHouseFormats loads the same enrich rows as NDJSON
// (JSONEachRow) and as TabSeparated (-tsv) and requires equal tables:
// the TSV columns are the schema's, in order, and escape what needs it.
// The log mixes generated lines with hard ones: a tab, backslashes,
// escaped quotes, control bytes and invalid UTF-8 in the fields, blank
// and bad lines.
func TestClickHouseFormats(t *testing.T) {
	dir := t.TempDir()
	writeLog(t, dir, 20_000)
	hard := "\n" +
		"66.249.66.1 - - [02/Mar/2026:10:00:00 +0000] \"GET /a\\tb?q=\\\\x HTTP/1.1\" 200 12 \"-\" \"Mozilla/5.0 (compatible; Googlebot/2.1;\t+http://www.google.com/bot.html)\"\n" +
		"66.249.66.2 - - [02/Mar/2026:10:00:01 +0000] \"GET /private/\xff\xfe\x01 HTTP/1.1\" 404 - \"-\" \"Mozilla/5.0 (compatible; \\\"Googlebot\\\"/2.1; +http://www.google.com/bot.html)\"\n" +
		"203.0.113.9 - - [02/Mar/2026:10:00:02 +0000] \"GET /robots.txt?x=<&> HTTP/1.1\" 200 300 \"-\" \"GPTBot/1.2 \\x22quoted\\x22\"\n" +
		"not a log line \\ with \t a tab\n" +
		"\n"
	f, err := os.OpenFile(filepath.Join(dir, "access.log"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(hard); err != nil {
		t.Fatal(err)
	}
	f.Close()
	servers := startShards(t)
	run(t, dir, servers, cmdSchema)
	s := servers[0]
	for _, table := range []string{"json_rows", "tsv_rows"} {
		query(t, s, "CREATE TABLE rep."+table+" AS rep.enrich_v2_local")
	}
	run(t, dir, servers, `R="-robots robots-1.txt@2026-01-30T00:00:00Z -robots robots-2.txt@2026-03-03T00:00:00Z"
rep audit enrich -format combined -verify -offline $R access.log |
  clickhouse-client --port $SHARD_1 --date_time_input_format=best_effort --query 'INSERT INTO rep.json_rows FORMAT JSONEachRow'
rep audit enrich -tsv -format combined -verify -offline $R access.log |
  clickhouse-client --port $SHARD_1 --query 'INSERT INTO rep.tsv_rows FORMAT TabSeparated'`)
	dump := func(table string) string {
		return query(t, s, "SELECT * FROM rep."+table+" ORDER BY src, line FORMAT TabSeparated")
	}
	j, v := dump("json_rows"), dump("tsv_rows")
	if j != v {
		jl, vl := strings.Split(j, "\n"), strings.Split(v, "\n")
		for i := range min(len(jl), len(vl)) {
			if jl[i] != vl[i] {
				t.Fatalf("row %d differs:\nJSONEachRow  %q\nTabSeparated %q", i, jl[i], vl[i])
			}
		}
		t.Fatalf("JSONEachRow %d rows, TabSeparated %d rows", len(jl), len(vl))
	}
	n := strings.Count(j, "\n") + 1
	if n < 20_000 {
		t.Fatalf("%d rows", n)
	}
	if cols := query(t, s, "SELECT count() FROM system.columns WHERE database = 'rep' AND table = 'enrich_v2_local'"); cols != strconv.Itoa(len(audit.RowColumns)) {
		t.Errorf("the table has %s columns, audit.RowColumns %d", cols, len(audit.RowColumns))
	}
	names := query(t, s, "SELECT name FROM system.columns WHERE database = 'rep' AND table = 'enrich_v2_local'")
	if got := strings.Fields(names); !slices.Equal(got, audit.RowColumns) {
		t.Errorf("table columns %v, audit.RowColumns %v", got, audit.RowColumns)
	}
	t.Logf("%d rows equal in both formats; the hard rows:\n%s", n, strings.Join(strings.Split(v, "\n")[n-6:], "\n"))
}

// TestClickHouseDocs: docs/scale-out.md shows the configuration, the SQL
// and the commands these tests run, verbatim.
func TestClickHouseDocs(t *testing.T) {
	doc, err := os.ReadFile("../../docs/scale-out.md")
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{"schema.sql": Schema, "report.sql": Report,
		"server": cmdServer, "schema": cmdSchema, "load": cmdLoad, "report": cmdReport, "audit": cmdAudit,
		"config.xml": clickhousetest.Config, "users.xml": clickhousetest.Users}
	for _, name := range slices.Sorted(maps.Keys(texts)) {
		if !bytes.Contains(doc, []byte(strings.TrimSpace(texts[name]))) {
			t.Errorf("docs/scale-out.md does not show %s as the tests run it:\n%s", name, texts[name])
		}
	}
}
