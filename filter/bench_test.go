package filter

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strings"
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

// BenchmarkPipeline is rep filter's loop: JSONL documents read, each
// decided and its verdict written as JSON into a 64 KiB buffered writer
// (lib=rep), beside the same reading and writing with no decision, the
// document's URL written back (lib=bare). text=short is the documents of
// bench/cmd/filterdata (a 26-byte text), text=4k a FineWeb-like 4 KiB
// text of prose (quotes and line ends to escape) before the URL.
func BenchmarkPipeline(b *testing.B) {
	f, docs := benchDocs(b)
	for _, text := range []struct {
		name string
		n    int
	}{{"short", 0}, {"4k", 4096}} {
		var in bytes.Buffer
		enc := json.NewEncoder(&in)
		// Prose: a quoted sentence in three, a line end every two.
		const sentence = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. "
		var prose strings.Builder
		for k := 0; prose.Len() < text.n; k++ {
			if k%3 == 2 {
				prose.WriteString(`"` + sentence[:len(sentence)-1] + `" `)
			} else {
				prose.WriteString(sentence)
			}
			if k%2 == 1 {
				prose.WriteString("\n")
			}
		}
		long := prose.String()[:text.n]
		for i, u := range docs {
			if text.n == 0 {
				enc.Encode(map[string]any{"id": i, "url": u, "date": "2024-05-01", "text": "lorem ipsum dolor sit amet"})
			} else {
				enc.Encode(map[string]any{"id": i, "text": long, "url": u, "date": "2024-05-01"})
			}
		}
		data := in.Bytes()
		run := func(b *testing.B, decide bool) {
			var d Doc
			var v Verdict
			out := bufio.NewWriterSize(io.Discard, 64<<10)
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
					w := out.AvailableBuffer()
					if decide {
						f.DecideInto(&v, d.URL, time.Time{})
						w = v.AppendJSON(w, d.URL)
					} else {
						w = append(append(w, d.URL...), '\n')
					}
					out.Write(w)
				}
			}
			out.Flush()
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "docs/s")
			b.ReportMetric(float64(n)/(cpuTime()-c0).Seconds(), "docs/cpu-s")
		}
		b.Run("text="+text.name+"/lib=rep", func(b *testing.B) { run(b, true) })
		b.Run("text="+text.name+"/lib=bare", func(b *testing.B) { run(b, false) })
	}
}
