package robotstxt_test

import (
	"bufio"
	"math/rand/v2"
	"net/url"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/internal/testkit/corpus"
	"github.com/rep-toolkit/rep/robotstxt"
)

// Benchmarks here measure rep alone; bench/ (a separate module) runs the
// same workloads beside the peer libraries in one run for BENCHMARKS.md.

type classQuery struct {
	a    *robotstxt.Matcher
	url  string
	path string // path and query of url, as a crawler that already split its URL holds them
}

func sizeClass(n int) string {
	switch {
	case n < 1<<10:
		return "small"
	case n < 8<<10:
		return "typical"
	case n < 100<<10:
		return "large"
	}
	return "huge"
}

func loadQueries(b *testing.B) map[string][]classQuery {
	files := readCorpus(b)
	agents := map[string]*robotstxt.Matcher{}
	for name, data := range files {
		agents[name] = robotstxt.ParseWith(data, robotstxt.Options{MaxBytes: -1}).Matcher("ExampleBot")
	}
	fh, err := os.Open(corpus.Path(b, "urls.tsv"))
	if err != nil {
		b.Fatal(err)
	}
	defer fh.Close()
	qs := map[string][]classQuery{}
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		c := sizeClass(len(files[f[0]]))
		u, err := url.Parse(f[2])
		if err != nil {
			b.Fatal(err)
		}
		qs[c] = append(qs[c], classQuery{agents[f[0]], f[2], u.EscapedPath() + queryPart(u.RawQuery)})
	}
	return qs
}

func queryPart(q string) string {
	if q == "" {
		return ""
	}
	return "?" + q
}

// BenchmarkCheck answers one query per op, cycling over every URL of a size
// class: in=url hands Check the full URL, in=path its path and query.
func BenchmarkCheck(b *testing.B) {
	qs := loadQueries(b)
	for _, c := range []string{"small", "typical", "large", "huge"} {
		q := qs[c]
		for _, in := range []string{"url", "path"} {
			b.Run("class="+c+"/in="+in, func(b *testing.B) {
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					x := &q[i]
					if in == "url" {
						x.a.Check(x.url)
					} else {
						x.a.Check(x.path)
					}
					i++
					if i == len(q) {
						i = 0
					}
				}
			})
		}
	}
}

// BenchmarkCheckOrder splits the cost of a check (path given) into the
// work, the branches and the caches, by the order of the queries: order=once
// is BenchmarkCheck's (each file's URLs in a row, then the next file's);
// order=twice-same runs each file's URLs twice in a row, so the second pass
// finds the file in cache and the branch predictor trained on the very same
// sequence; order=twice-reversed runs them again backwards, in cache but
// with no sequence to replay. The second pass costs 2×twice − once: with
// twice-same that is the work itself; twice-reversed minus twice-same is
// what the branch predictor's history saves; once minus twice-reversed what
// the cache saves. BENCHMARKS.md reads it.
func BenchmarkCheckOrder(b *testing.B) {
	qs := loadQueries(b)
	for _, c := range []string{"small", "typical"} {
		q := qs[c]
		orders := []struct {
			name string
			pass func(file []classQuery) []classQuery
		}{
			{"once", func([]classQuery) []classQuery { return nil }},
			{"twice-same", func(file []classQuery) []classQuery { return file }},
			{"twice-reversed", func(file []classQuery) []classQuery {
				r := slices.Clone(file)
				slices.Reverse(r)
				return r
			}},
		}
		for _, o := range orders {
			// A file's URLs are one run of q (urls.tsv lists them host by
			// host); a file met twice would make "twice" mean nothing.
			seen := map[*robotstxt.Matcher]bool{}
			var seq []classQuery
			for i := 0; i < len(q); {
				if seen[q[i].a] {
					b.Fatalf("class %s: the URLs of one file are not in one run (query %d)", c, i)
				}
				seen[q[i].a] = true
				j := i + 1
				for j < len(q) && q[j].a == q[i].a {
					j++
				}
				seq = append(seq, q[i:j]...)
				seq = append(seq, o.pass(q[i:j])...)
				i = j
			}
			b.Run("class="+c+"/order="+o.name, func(b *testing.B) {
				i := 0
				for b.Loop() {
					x := &seq[i]
					x.a.Check(x.path)
					if i++; i == len(seq) {
						i = 0
					}
				}
			})
		}
	}
}

func BenchmarkParse(b *testing.B) {
	files := readCorpus(b)
	names := make([]string, 0, len(files))
	total := 0
	for n, d := range files {
		names = append(names, n)
		total += len(d)
	}
	sort.Strings(names)
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		for _, n := range names {
			robotstxt.ParseWith(files[n], robotstxt.Options{MaxBytes: -1})
		}
	}
}

// BenchmarkRetained reports the heap kept by parsed files per input byte:
// op=parse right after parsing (indexes are built on first use), op=query
// after one Agent and one Check per file, as a crawler keeps them. The heap
// is read after two GCs, as bench/'s BenchmarkRetained reads it: a
// sync.Pool's scratch survives one GC and is no file's memory.
func BenchmarkRetained(b *testing.B) {
	files := readCorpus(b)
	total := 0
	for _, d := range files {
		total += len(d)
	}
	for _, query := range []bool{false, true} {
		name := "op=parse"
		if query {
			name = "op=query"
		}
		b.Run(name, func(b *testing.B) {
			var kept []*robotstxt.File
			for b.Loop() {
				kept = nil
				var m0, m1 runtime.MemStats
				runtime.GC()
				runtime.GC()
				runtime.ReadMemStats(&m0)
				for _, d := range files {
					f := robotstxt.ParseWith(d, robotstxt.Options{MaxBytes: -1})
					if query {
						f.Matcher("ExampleBot").Check("/")
					}
					kept = append(kept, f)
				}
				runtime.GC()
				runtime.GC()
				runtime.ReadMemStats(&m1)
				b.ReportMetric((float64(m1.HeapAlloc)-float64(m0.HeapAlloc))/float64(total), "B/inputB")
			}
			runtime.KeepAlive(kept)
		})
	}
}

// BenchmarkWorstCase measures inputs built to make one check slow. Matching
// is linear in the URL for each wildcard rule that survives the byte filter,
// so the cost grows with (such rules) × (URL length): case=wild20k-a2k is a
// 500 KiB file of ~20,000 distinct wildcard rules over the URL's own
// alphabet, none of which matches, against a 2 KiB URL — the known worst
// shape (see BENCHMARKS.md). The other cases are those of the issue.
func BenchmarkWorstCase(b *testing.B) {
	a2k := "https://example.com/" + strings.Repeat("a", 2048)
	var rules1000 strings.Builder
	rules1000.WriteString("User-agent: *\n")
	for i := range 1000 {
		rules1000.WriteString("Disallow: /*a*a*a*a*a*" + itoaBench(i) + "\n")
	}
	r := rand.New(rand.NewPCG(1, 2))
	ab := func(n int) string {
		w := make([]byte, n)
		for i := range w {
			w[i] = "ab"[r.IntN(2)]
		}
		return string(w)
	}
	var wild strings.Builder
	wild.WriteString("User-agent: *\n")
	for wild.Len() < 500<<10-40 {
		wild.WriteString("Disallow: /*b" + ab(11) + "c\n")
	}
	// Segments that are suffixes of each other (a, aa, aaa, ...) all occur
	// at every position of a run of a's: the most occurrences per byte.
	var nested strings.Builder
	nested.WriteString("User-agent: *\n")
	for i := 1; nested.Len()+i+20 < 500<<10; i++ {
		nested.WriteString("Disallow: /*" + strings.Repeat("a", i) + "*c\n")
	}
	cases := []struct{ name, robots, url string }{
		{"star9-a2k", "User-agent: *\nDisallow: /" + strings.Repeat("*a", 9) + "*b\n", a2k},
		{"star-rules1000-a2k", rules1000.String(), a2k},
		{"longline500k", "User-agent: *\nDisallow: /" + strings.Repeat("a", 500<<10-30) + "\n", a2k},
		{"url64k", "User-agent: *\nDisallow: /*.pdf$\nDisallow: /*?sid=\nAllow: /a/\nDisallow: /private/\n", "https://example.com/" + strings.Repeat("x/", 32<<10)},
		{"wild20k-a2k", wild.String(), "https://example.com/" + ab(2048) + strings.Repeat("a", 12) + "c"},
		{"nested1000-a2k", nested.String(), "https://example.com/c" + strings.Repeat("a", 2048)},
	}
	for _, c := range cases {
		a := robotstxt.Parse([]byte(c.robots)).Matcher("ExampleBot")
		b.Run("case="+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				a.Check(c.url)
			}
		})
	}
}

func itoaBench(i int) string { return fmtInt(i) }
