// Command loggen writes a synthetic access log, the robots.txt versions in
// force while it was written, and the counts an audit must report:
//
//	go run ./internal/loggen/cmd/loggen -format combined -requests 100000 -o access.log -robots robots -truth truth.json
//	go run ./internal/loggen/cmd/loggen -size 1GB -o big.log      # for benchmarks
//
// The robots.txt files are written as DIR/robots-1.txt and DIR/robots-2.txt;
// the truth file lists the -robots FILE@TIME arguments that give rep audit
// the same history.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rep-toolkit/rep/internal/testkit/loggen"
)

func main() {
	var cfg loggen.Config
	var size, out, robots, truth string
	flag.Uint64Var(&cfg.Seed, "seed", 1, "random seed")
	flag.Int64Var(&cfg.Requests, "requests", 10000, "request lines to write")
	flag.StringVar(&size, "size", "", "write until the log reaches this size (e.g. 200MB, 1GB) instead of -requests")
	flag.StringVar(&cfg.Format, "format", "combined", "log format: "+strings.Join(loggen.Formats, ", "))
	flag.IntVar(&cfg.Days, "days", 4, "days the log spans")
	flag.Int64Var(&cfg.BadEvery, "bad-every", 997, "write a malformed line after every N requests (-1: none)")
	flag.StringVar(&out, "o", "-", "output file (- for stdout)")
	flag.StringVar(&robots, "robots", "", "directory to write robots-1.txt and robots-2.txt into")
	flag.StringVar(&truth, "truth", "", "file to write the expected counts (JSON) into")
	flag.Parse()
	if size != "" {
		n, err := parseSize(size)
		if err != nil {
			fmt.Fprintln(os.Stderr, "loggen:", err)
			os.Exit(2)
		}
		cfg.Bytes = n
	}
	w := os.Stdout
	if out != "-" {
		f, err := os.Create(out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "loggen:", err)
			os.Exit(1)
		}
		defer f.Close()
		w = f
	}
	tr, err := loggen.Generate(w, cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loggen:", err)
		os.Exit(1)
	}
	var args []string
	if robots != "" {
		if err := os.MkdirAll(robots, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "loggen:", err)
			os.Exit(1)
		}
		for i, v := range tr.Robots {
			p := filepath.Join(robots, fmt.Sprintf("robots-%d.txt", i+1))
			if err := os.WriteFile(p, []byte(v.Body), 0o644); err != nil {
				fmt.Fprintln(os.Stderr, "loggen:", err)
				os.Exit(1)
			}
			args = append(args, "-robots", p+"@"+v.Since.Format(time.RFC3339))
		}
	}
	if truth != "" {
		js, _ := json.MarshalIndent(struct {
			*loggen.Truth
			AuditArgs []string `json:"audit_args,omitempty"`
		}{tr, args}, "", "  ")
		if err := os.WriteFile(truth, append(js, '\n'), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "loggen:", err)
			os.Exit(1)
		}
	}
	fmt.Fprintf(os.Stderr, "loggen: %d lines, %d requests, %d bad lines (%s) %s\n", tr.Lines, tr.Requests, tr.BadLines, tr.Format, strings.Join(args, " "))
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	u := strings.ToUpper(s)
	for _, suf := range []struct {
		s string
		m int64
	}{{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}} {
		if strings.HasSuffix(u, suf.s) {
			mult, u = suf.m, strings.TrimSuffix(u, suf.s)
			break
		}
	}
	n, err := strconv.ParseFloat(u, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("bad -size %q: want e.g. 200MB or 1GB", s)
	}
	return int64(n * float64(mult)), nil
}
