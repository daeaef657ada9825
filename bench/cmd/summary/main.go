// Command summary turns raw `go test -bench` output of this module into the
// Markdown tables of a run's summary.md: rep beside its peers, the ratio of rep to
// the fastest peer, and each target of issue 2 with a verdict. Values are
// medians over every run of a benchmark (-count, or repeated invocations);
// benchstat gives their confidence intervals.
//
//	go run ./cmd/summary [-agree agreement.tsv] bench.txt... > summary.md
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// results maps a benchmark name (without the -GOMAXPROCS suffix) and a unit
// to every value measured.
type results map[string]map[string][]float64

var procSuffix = regexp.MustCompile(`-\d+$`)

func read(r io.Reader, res results) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		name := procSuffix.ReplaceAllString(f[0], "")
		if res[name] == nil {
			res[name] = map[string][]float64{}
		}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return fmt.Errorf("%s: bad value %q", name, f[i])
			}
			res[name][f[i+1]] = append(res[name][f[i+1]], v)
		}
	}
	return sc.Err()
}

// get returns the median of a benchmark's unit, and whether it was measured.
func (r results) get(name, unit string) (float64, bool) {
	vs := append([]float64(nil), r[name][unit]...)
	if len(vs) == 0 {
		return 0, false
	}
	sort.Float64s(vs)
	if n := len(vs); n%2 == 0 {
		return (vs[n/2-1] + vs[n/2]) / 2, true
	}
	return vs[len(vs)/2], true
}

// perRun is the range, over runs, of ratio(rep's value, the peer's value)
// taken run by run: run.sh runs every benchmark once per run, so the i-th
// values of two benchmarks were measured minutes apart, under the same
// load. The median ratio alone hides how much that load moved it. It is
// "–" unless both have the same number of runs, at least two.
func (r results) perRun(rep, peer, unit string, ratio func(rep, peer float64) float64) string {
	a, b := r[rep][unit], r[peer][unit]
	if len(a) != len(b) || len(a) < 2 {
		return "–"
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range a {
		q := ratio(a[i], b[i])
		lo, hi = min(lo, q), max(hi, q)
	}
	return fmt.Sprintf("%.1f–%.1f×", lo, hi)
}

// runs is the largest number of runs of any benchmark.
func (r results) runs() int {
	n := 0
	for _, units := range r {
		n = max(n, len(units["ns/op"]))
	}
	return n
}

func fmtNs(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.3g s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.3g ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.3g µs", ns/1e3)
	}
	return fmt.Sprintf("%.3g ns", ns)
}

var peers = []string{"temoto", "grobotstxt", "slyrz"}

// pathPeers are the peers whose check is handed the path, not the URL.
var pathPeers = []string{"temoto", "slyrz"}

// checkLib is the benchmark name of a library in check-type benchmarks:
// grobotstxt answers one-shot.
func checkLib(lib string) string {
	if lib == "grobotstxt" {
		return "grobotstxt-oneshot"
	}
	return lib
}

var classes = []string{"small", "typical", "large", "huge"}

var patho = []string{"star9-a2k", "star40-a2k", "star-rules1000-a2k", "random500k", "longline500k", "garbage500k", "groups10k", "url64k", "slashstar-deep"}

type agreement struct{ disagree, queries int }

func readAgree(path string) (map[string]map[string]agreement, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]agreement{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 6 {
			return nil, fmt.Errorf("%s: bad line %q", path, line)
		}
		q, err1 := strconv.Atoi(f[2])
		d, err2 := strconv.Atoi(f[3])
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%s: bad line %q", path, line)
		}
		if out[f[0]] == nil {
			out[f[0]] = map[string]agreement{}
		}
		out[f[0]][f[1]] = agreement{d, q}
	}
	return out, nil
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("summary", flag.ContinueOnError)
	fs.SetOutput(stderr)
	agreeFile := fs.String("agree", "", "agreement TSV written by cmd/agree -tsv")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: summary [-agree FILE] bench.txt...")
		return 2
	}
	res := results{}
	for _, p := range fs.Args() {
		fh, err := os.Open(p)
		if err != nil {
			fmt.Fprintln(stderr, "summary:", err)
			return 2
		}
		err = read(fh, res)
		fh.Close()
		if err != nil {
			fmt.Fprintln(stderr, "summary:", err)
			return 2
		}
	}
	var agree map[string]map[string]agreement
	if *agreeFile != "" {
		var err error
		if agree, err = readAgree(*agreeFile); err != nil {
			fmt.Fprintln(stderr, "summary:", err)
			return 2
		}
	}
	w := stdout
	libs := append([]string{"rep"}, peers...)

	// Summary table.
	fmt.Fprintf(w, "Medians over up to %d runs per benchmark. Check = one query against a parsed file; grobotstxt has no parsed form and re-parses per query (one-shot).\n\n", res.runs())
	fmt.Fprintln(w, "| library | parse MB/s | check small | check typical | check large | check huge | allocs/check (s/t/l/h) | retained B/inputB (B/file) | worst adversarial check | verdicts ≠ Google (Googlebot / ExampleBot) |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|")
	for _, lib := range append([]string{"rep", "rep-path"}, peers...) {
		row := []string{lib}
		switch lib {
		case "grobotstxt":
			row[0] = "grobotstxt (check one-shot)"
		case "rep-path":
			if _, ok := res.get("BenchmarkCheck/class=small/lib=rep-path", "ns/op"); !ok {
				continue
			}
			row[0] = "rep, check given the path"
		}
		if v, ok := res.get("BenchmarkParse/lib="+lib, "MB/s"); ok {
			row = append(row, fmt.Sprintf("%.1f", v))
		} else {
			row = append(row, "–")
		}
		var allocs []string
		for _, cl := range classes {
			n := "BenchmarkCheck/class=" + cl + "/lib=" + checkLib(lib)
			v, ok := res.get(n, "ns/op")
			a, _ := res.get(n, "allocs/op")
			if !ok {
				row = append(row, "–")
				allocs = append(allocs, "–")
				continue
			}
			row = append(row, fmtNs(v))
			allocs = append(allocs, fmt.Sprintf("%g", a))
		}
		row = append(row, strings.Join(allocs, "/"))
		if v, ok := res.get("BenchmarkRetained/lib="+lib, "B/inputB"); ok {
			f, _ := res.get("BenchmarkRetained/lib="+lib, "B/file")
			row = append(row, fmt.Sprintf("%.2f (%.1f KiB)", v, f/1024))
		} else {
			row = append(row, "–")
		}
		if worst, wcase := worstPatho(res, checkLib(lib)); worst > 0 {
			row = append(row, fmt.Sprintf("%s (%s)", fmtNs(worst), wcase))
		} else {
			row = append(row, "–")
		}
		row = append(row, agreeCell(agree, lib))
		fmt.Fprintln(w, "| "+strings.Join(row, " | ")+" |")
	}

	// Ratios to the fastest peer.
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Ratios in this run: how many times faster rep is than the fastest peer (> 1 means rep is faster).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| measure | rep | fastest peer | ratio | per run | issue target | met |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	if r, ok := res.get("BenchmarkParse/lib=rep", "MB/s"); ok {
		best, bestLib := 0.0, ""
		for _, p := range peers {
			if v, ok := res.get("BenchmarkParse/lib="+p, "MB/s"); ok && v > best {
				best, bestLib = v, p
			}
		}
		ratio := r / best
		runs := res.perRun("BenchmarkParse/lib=rep", "BenchmarkParse/lib="+bestLib, "MB/s", func(r, p float64) float64 { return r / p })
		fmt.Fprintf(w, "| parse (corpus) | %.1f MB/s | %s %.1f MB/s | %.2f× | %s | ≥ 2× | %s |\n", r, bestLib, best, ratio, runs, yes(ratio >= 2))
	}
	checkRatios := func(lib, label string, against []string) {
		for _, cl := range classes {
			r, ok := res.get("BenchmarkCheck/class="+cl+"/lib="+lib, "ns/op")
			if !ok {
				continue
			}
			best, bestLib := math.Inf(1), ""
			for _, p := range against {
				if v, ok := res.get("BenchmarkCheck/class="+cl+"/lib="+checkLib(p), "ns/op"); ok && v < best {
					best, bestLib = v, checkLib(p)
				}
			}
			ratio := best / r
			runs := res.perRun("BenchmarkCheck/class="+cl+"/lib="+lib, "BenchmarkCheck/class="+cl+"/lib="+bestLib, "ns/op", func(r, p float64) float64 { return p / r })
			fmt.Fprintf(w, "| check %s%s | %s | %s %s | %.1f× | %s | ≥ 5× | %s |\n", cl, label, fmtNs(r), bestLib, fmtNs(best), ratio, runs, yes(ratio >= 5))
		}
	}
	checkRatios("rep", "", peers)
	// Like for like: rep handed the path, beside the peers that are.
	checkRatios("rep-path", ", path given to both", pathPeers)
	if r, _ := worstPatho(res, "rep"); r > 0 {
		best, bestLib := math.Inf(1), ""
		for _, p := range peers {
			if v, c := worstPatho(res, checkLib(p)); v > 0 && v < best {
				best, bestLib = v, checkLib(p)+" ("+c+")"
			}
		}
		fmt.Fprintf(w, "| worst adversarial check | %s | %s %s | %.1f× | – | – | – |\n", fmtNs(r), bestLib, fmtNs(best), best/r)
	}

	// Absolute targets.
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Absolute targets of issue 2 (this machine; machine.txt gives the load during the run):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| target | rep | met |")
	fmt.Fprintln(w, "|---|---|---|")
	for _, t := range []struct {
		cl    string
		limit float64
	}{{"typical", 50}, {"huge", 150}} {
		n := "BenchmarkCheck/class=" + t.cl + "/lib=rep"
		v, ok := res.get(n, "ns/op")
		a, _ := res.get(n, "allocs/op")
		if ok {
			fmt.Fprintf(w, "| check %s ≤ %g ns, 0 allocs | %s, %g allocs | %s |\n", t.cl, t.limit, fmtNs(v), a, yes(v <= t.limit && a == 0))
		}
	}
	if v, c := worstPatho(res, "rep"); v > 0 {
		fmt.Fprintf(w, "| worst adversarial check ≤ 100 µs | %s (%s) | %s |\n", fmtNs(v), c, yes(v <= 100e3))
	}
	if v, ok := res.get("BenchmarkParse/lib=rep", "MB/s"); ok {
		fmt.Fprintf(w, "| parse ≥ 300 MB/s | %.1f MB/s | %s |\n", v, yes(v >= 300))
	}
	if v, ok := res.get("BenchmarkRetained/lib=rep", "B/inputB"); ok {
		fmt.Fprintf(w, "| retained ≤ 1 byte per input byte | %.2f | %s |\n", v, yes(v <= 1))
	}

	// One-shot.
	fmt.Fprintln(w)
	fmt.Fprintln(w, "One-shot: parse the raw body and answer one query (what a crawler pays without keeping the parsed file).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| class | "+strings.Join(libs, " | ")+" |")
	fmt.Fprintln(w, "|---"+strings.Repeat("|---", len(libs))+"|")
	for _, cl := range classes {
		row := []string{cl}
		for _, lib := range libs {
			if v, ok := res.get("BenchmarkOneShot/class="+cl+"/lib="+checkLib(lib), "ns/op"); ok {
				row = append(row, fmtNs(v))
			} else {
				row = append(row, "–")
			}
		}
		fmt.Fprintln(w, "| "+strings.Join(row, " | ")+" |")
	}

	// Adversarial inputs.
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Adversarial inputs, parse / check (grobotstxt: parse with a no-op handler / one-shot query). **Bold**: over 1 ms per check.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| case | "+strings.Join(libs, " | ")+" |")
	fmt.Fprintln(w, "|---"+strings.Repeat("|---", len(libs))+"|")
	for _, c := range patho {
		row := []string{c}
		for _, lib := range libs {
			p, ok1 := res.get("BenchmarkPatho/case="+c+"/op=parse/lib="+lib, "ns/op")
			k, ok2 := res.get("BenchmarkPatho/case="+c+"/op=check/lib="+checkLib(lib), "ns/op")
			a, _ := res.get("BenchmarkPatho/case="+c+"/op=check/lib="+checkLib(lib), "allocs/op")
			if !ok1 || !ok2 {
				row = append(row, "–")
				continue
			}
			ks := fmtNs(k)
			if k > 1e6 {
				ks = "**" + ks + "**"
			}
			if a > 0 {
				ks += fmt.Sprintf(" (%g allocs)", a)
			}
			row = append(row, fmtNs(p)+" / "+ks)
		}
		fmt.Fprintln(w, "| "+strings.Join(row, " | ")+" |")
	}
	return 0
}

// worstPatho is the slowest check of a library over the adversarial cases.
func worstPatho(res results, lib string) (float64, string) {
	worst, wcase := 0.0, "–"
	for _, c := range patho {
		if v, ok := res.get("BenchmarkPatho/case="+c+"/op=check/lib="+lib, "ns/op"); ok && v > worst {
			worst, wcase = v, c
		}
	}
	return worst, wcase
}

func agreeCell(agree map[string]map[string]agreement, lib string) string {
	a := agree[lib]
	if a == nil {
		return "–"
	}
	var parts []string
	for _, agent := range []string{"Googlebot", "ExampleBot"} {
		x := a[agent]
		parts = append(parts, fmt.Sprintf("%d (%.2f%%)", x.disagree, 100*float64(x.disagree)/float64(x.queries)))
	}
	return strings.Join(parts, " / ")
}

func yes(ok bool) string {
	if ok {
		return "yes"
	}
	return "**no**"
}
