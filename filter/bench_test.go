package filter

import (
	"bytes"
	"encoding/json"
	"io"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user+system CPU time: on a shared machine the
// wall clock counts time the benchmark waited for a core, so the per-core
// figure is documents per CPU-second ("docs/cpu-s"), beside docs/s of the
// wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// The benchmarks run with the corpus's 1,613 hosts parsed (the cache
// warmed by one pass) and the Apertus list; docs/s is per core (one
// goroutine). BenchmarkPipeline/bare reads the same JSONL and writes each
// URL back without a decision: the floor the filter's input and output
// cost.

func benchDocs(b *testing.B) (*Filter, []string) {
	fx := newFixture(b, apertus)
	docs := fx.docs(100000, 11)
	f, err := New(fx.st, Options{Agents: fx.agents})
	if err != nil {
		b.Fatal(err)
	}
	for _, u := range docs {
		f.Decide(u, time.Time{})
	}
	return f, docs
}

func BenchmarkDecide(b *testing.B) {
	f, docs := benchDocs(b)
	var v Verdict
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cpuTime()
	for i := 0; i < b.N; i++ {
		f.DecideInto(&v, docs[i%len(docs)], time.Time{})
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "docs/s")
	b.ReportMetric(float64(b.N)/(cpuTime()-c0).Seconds(), "docs/cpu-s")
}

func BenchmarkPipeline(b *testing.B) {
	f, docs := benchDocs(b)
	var in bytes.Buffer
	enc := json.NewEncoder(&in)
	for i, u := range docs {
		enc.Encode(map[string]any{"id": i, "url": u, "date": "2024-05-01", "text": "lorem ipsum dolor sit amet"})
	}
	data := in.Bytes()
	run := func(b *testing.B, decide bool) {
		var d Doc
		var v Verdict
		var out []byte
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		b.ResetTimer()
		c0 := cpuTime()
		n := 0
		for i := 0; i < b.N; i++ {
			r := NewJSONLReader(bytes.NewReader(data), "url", "date")
			for {
				if err := r.Next(&d); err == io.EOF {
					break
				} else if err != nil {
					b.Fatal(err)
				}
				n++
				if decide {
					f.DecideInto(&v, d.URL, time.Time{})
					out = v.AppendJSON(out[:0], d.URL)
				} else {
					out = append(append(out[:0], d.URL...), '\n')
				}
			}
		}
		b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "docs/s")
		b.ReportMetric(float64(n)/(cpuTime()-c0).Seconds(), "docs/cpu-s")
	}
	b.Run("lib=rep", func(b *testing.B) { run(b, true) })
	b.Run("lib=bare", func(b *testing.B) { run(b, false) })
}
