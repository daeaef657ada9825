// Package spark holds the PySpark job that runs rep over Spark partitions
// (rep_spark.py) and its test, which runs it in Spark local mode and
// requires the result to equal the CLI's.
package spark

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/internal/testkit/corpus"
)

// python returns the Python with pyspark: $REP_SPARK_PYTHON, else the
// virtual environment `make deps` creates beside this file. Missing, the
// test fails: it never skips.
func python(t *testing.T) string {
	t.Helper()
	py := os.Getenv("REP_SPARK_PYTHON")
	if py == "" {
		abs, _ := filepath.Abs(filepath.Join(".venv", "bin", "python"))
		py = abs
	}
	if err := exec.Command(py, "-c", "import pyspark").Run(); err != nil {
		t.Fatalf("no pyspark at %s (%v): run `make deps`, or set REP_SPARK_PYTHON to a Python with pyspark", py, err)
	}
	if _, err := exec.LookPath("java"); err != nil {
		t.Fatalf("no java on PATH: run `make deps` (Debian's default-jre-headless)")
	}
	return py
}

// data writes captures of every 8th of the corpus's hosts (about 200:
// every 5th answers 404, every 11th 503, every 7th with a 301 to its
// https robots.txt) and ndocs documents over them and an uncaptured host.
// Small, since the test is about Spark's partitions giving the CLI's
// lines, not about scale.
func data(t *testing.T, dir string, ndocs int) (captures, docs string) {
	files := corpus.Robots(t)
	var all []string
	for h := range files {
		all = append(all, h)
	}
	sort.Strings(all)
	var hosts []string
	for i := 0; i < len(all); i += 8 {
		hosts = append(hosts, all[i])
	}
	captures, docs = filepath.Join(dir, "captures.jsonl"), filepath.Join(dir, "docs.jsonl")
	cf, err := os.Create(captures)
	if err != nil {
		t.Fatal(err)
	}
	enc := json.NewEncoder(cf)
	for i, h := range hosts {
		m := map[string]any{"url": "https://" + h + "/robots.txt", "status": 200, "body": string(files[h]), "fetch_time": "2025-01-15T00:00:00Z"}
		switch {
		case i%5 == 0:
			m["status"], m["body"] = 404, ""
		case i%11 == 0:
			m["status"], m["body"] = 503, ""
		case i%7 == 0:
			enc.Encode(map[string]any{"url": "http://" + h + "/robots.txt", "status": 301, "location": "https://" + h + "/robots.txt", "fetch_time": "2025-01-15T00:00:00Z"})
		}
		enc.Encode(m)
	}
	cf.Close()
	df, err := os.Create(docs)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(df)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range ndocs {
		h := hosts[r.IntN(len(hosts))]
		if r.IntN(30) == 0 {
			h = "uncaptured.test"
		}
		fmt.Fprintf(w, `{"id":%d,"url":"https://%s/%s/%d","text":"x"}`+"\n", i, h, []string{"search", "private", "wp-admin", "p", "cgi-bin", "api"}[r.IntN(6)], r.IntN(100))
	}
	w.Flush()
	df.Close()
	return captures, docs
}

func sortedLines(t *testing.T, s string) []string {
	var l []string
	for x := range strings.SplitSeq(strings.TrimSpace(s), "\n") {
		if x != "" {
			l = append(l, x)
		}
	}
	sort.Strings(l)
	return l
}

func readParts(t *testing.T, dir string) []string {
	parts, err := filepath.Glob(filepath.Join(dir, "part-*"))
	if err != nil || len(parts) == 0 {
		t.Fatalf("no part files in %s: %v", dir, err)
	}
	var all strings.Builder
	for _, p := range parts {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
		all.WriteByte('\n')
	}
	return sortedLines(t, all.String())
}

// TestSparkLocalEqualsCLI runs rep_spark.py's filter and survey jobs in
// one Spark application in local mode (Spark starts once: its start-up is
// most of the test's time), over 4 partitions each, and requires the same
// lines as the CLI.
func TestSparkLocalEqualsCLI(t *testing.T) {
	py := python(t)
	dir := t.TempDir()
	rep := filepath.Join(dir, "rep")
	if out, err := exec.Command("go", "build", "-o", rep, "../../cmd/rep").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	captures, docs := data(t, dir, 2000)

	cli := func(stdin string, args ...string) []string {
		cmd := exec.Command(rep, args...)
		in, err := os.Open(stdin)
		if err != nil {
			t.Fatal(err)
		}
		defer in.Close()
		cmd.Stdin = in
		var errb strings.Builder
		cmd.Stderr = &errb
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("rep %v: %v\n%s", args, err, errb.String())
		}
		return sortedLines(t, string(out))
	}
	compare := func(what string, got, want []string) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: Spark wrote %d lines, the CLI %d", what, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: first difference:\n spark %s\n cli   %s", what, got[i], want[i])
			}
		}
		t.Logf("%s: %d lines equal", what, len(got))
	}

	filterOut, surveyOut := filepath.Join(dir, "filter"), filepath.Join(dir, "survey")
	cmd := exec.Command(py, "rep_spark.py", "--rep", rep, "--master", "local[2]",
		"filter", "--captures", captures, "--agent", "ai-training", "--input", docs, "--output", filterOut, "--partitions", "4",
		"survey", "--agent", "ai-training,Googlebot", "--input", captures, "--output", surveyOut, "--partitions", "4")
	// The driver's JVM compiles with C1 only: a test's Spark lives seconds,
	// and C2's compilations cost a third of its CPU time.
	cmd.Env = append(os.Environ(), "SPARK_LOCAL_IP=127.0.0.1", "SPARK_LOCAL_HOSTNAME=127.0.0.1", "PYSPARK_PYTHON="+py, "PYSPARK_DRIVER_PYTHON="+py,
		"PYSPARK_SUBMIT_ARGS=--driver-java-options -XX:TieredStopAtLevel=1 pyspark-shell")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("rep_spark.py: %v\n%s", err, b)
	}

	want := cli(docs, "filter", "-captures", captures, "-agent", "ai-training", "-")
	compare("filter", readParts(t, filterOut), want)
	dropped := 0
	for _, l := range want {
		if strings.Contains(l, `"keep":false`) {
			dropped++
		}
	}
	if dropped == 0 || dropped == len(want) {
		t.Fatalf("%d of %d documents dropped: the data do not exercise the filter", dropped, len(want))
	}

	want = cli(captures, "survey", "-agent", "ai-training,Googlebot", "-format", "jsonl", "-")
	compare("survey", readParts(t, surveyOut), want)
	classes := map[string]int{}
	for _, l := range want {
		var r struct{ Class, Restriction string }
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		classes[r.Class+"/"+r.Restriction]++
	}
	for _, c := range []string{"rules/full", "rules/partial", "rules/none", "allow-all/none", "disallow-all/full"} {
		if classes[c] == 0 {
			t.Errorf("no survey row of class/restriction %s: the data do not exercise the survey (%v)", c, classes)
		}
	}
}
