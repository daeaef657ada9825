package audit

import (
	"bytes"
	"context"
	"io"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/accesslog"
	"github.com/rep-toolkit/rep/internal/testkit/loggen"
)

// cpuTime returns the process's user+system CPU time: on a shared machine
// wall time measures the neighbours, CPU time measures us.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchLog is a generated combined log held in memory.
func benchLog(b *testing.B) ([]byte, *History) {
	b.Helper()
	var buf bytes.Buffer
	tr, err := loggen.Generate(&buf, loggen.Config{Seed: 1, Requests: 200000, BadEvery: -1})
	if err != nil {
		b.Fatal(err)
	}
	return buf.Bytes(), history(b, tr)
}

// run reads data once, auditing it when a is not nil, and returns the lines.
func run(b *testing.B, data []byte, a *Auditor) int64 {
	r, err := accesslog.NewReader(bytes.NewReader(data), "bench", accesslog.MustFormat("combined"), accesslog.Options{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var n int64
	for {
		rec, err := r.Next()
		if err != nil {
			if err != io.EOF {
				b.Fatal(err)
			}
			return n
		}
		if a != nil {
			a.Add(ctx, rec)
		}
		n++
	}
}

func report(b *testing.B, lines int64, cpu0 time.Duration) {
	b.ReportMetric(float64(lines)/b.Elapsed().Seconds(), "lines/s")
	b.ReportMetric(float64(lines)/(cpuTime()-cpu0).Seconds(), "lines/cpu-s")
}

// BenchmarkParse measures reading and parsing a combined log.
func BenchmarkParse(b *testing.B) {
	data, _ := benchLog(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	cpu0 := cpuTime()
	var n int64
	for b.Loop() {
		n += run(b, data, nil)
	}
	report(b, n, cpu0)
}

// BenchmarkAudit measures the full audit without -verify: parse, classify,
// robots.txt history with grace, Crawl-delay gaps, aggregates.
func BenchmarkAudit(b *testing.B) {
	data, h := benchLog(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	cpu0 := cpuTime()
	var n int64
	for b.Loop() {
		a := New(Options{Robots: h}, false)
		n += run(b, data, a)
		a.Finish(context.Background(), accesslog.Stats{}, "bench")
	}
	report(b, n, cpu0)
}

// BenchmarkAuditFile runs the same on a file named by REP_AUDIT_BENCH_LOG
// (see bench/audit.sh, which generates a 1 GB log), with the robots.txt
// history in REP_AUDIT_BENCH_ROBOTS1 and REP_AUDIT_BENCH_ROBOTS2.
func BenchmarkAuditFile(b *testing.B) { benchFile(b, true) }

// BenchmarkParseFile is BenchmarkAuditFile without the audit.
func BenchmarkParseFile(b *testing.B) { benchFile(b, false) }

func benchFile(b *testing.B, audit bool) {
	path := os.Getenv("REP_AUDIT_BENCH_LOG")
	if path == "" {
		b.Skip("set REP_AUDIT_BENCH_LOG to a combined log (bench/audit.sh does)")
	}
	tr, err := loggen.Generate(io.Discard, loggen.Config{Seed: 1, Requests: 1})
	if err != nil {
		b.Fatal(err)
	}
	h := history(b, tr)
	b.ResetTimer()
	cpu0 := cpuTime()
	var n int64
	for b.Loop() {
		r, err := accesslog.Open(path, accesslog.MustFormat("combined"), accesslog.Options{})
		if err != nil {
			b.Fatal(err)
		}
		var a *Auditor
		if audit {
			a = New(Options{Robots: h}, false)
		}
		ctx := context.Background()
		for {
			rec, err := r.Next()
			if err != nil {
				break
			}
			if a != nil {
				a.Add(ctx, rec)
			}
			n++
		}
		r.Close()
	}
	report(b, n, cpu0)
}

// BenchmarkAdd measures Add on a crawler request seen before: the steady
// state of a long log, which must not allocate.
func BenchmarkAdd(b *testing.B) {
	h, err := NewHistory(
		Version{Source: "v1", File: parseRobots("User-agent: *\nDisallow: /private/\n\nUser-agent: bingbot\nCrawl-delay: 5\nDisallow: /private/\n")},
		Version{Since: time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC), Source: "v2", File: parseRobots("User-agent: *\nDisallow: /\n")},
	)
	if err != nil {
		b.Fatal(err)
	}
	a := New(Options{Robots: h}, false)
	rec := accesslog.Record{
		Time:   time.Date(2026, 3, 2, 1, 0, 0, 0, time.UTC).UnixNano(),
		IP:     []byte("157.55.39.1"),
		Host:   []byte("www.example.com"),
		Target: []byte("/private/products/item-12345?color=red"), Status: 200, Bytes: 5000,
		UserAgent:    []byte("Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"),
		HasUserAgent: true,
	}
	ctx := context.Background()
	a.Add(ctx, &rec)
	b.ReportAllocs()
	for b.Loop() {
		rec.Time += 1e9
		a.Add(ctx, &rec)
	}
}
