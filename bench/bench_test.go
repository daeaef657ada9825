package bench

import (
	"bytes"
	"runtime"
	"sync"
	"testing"

	"github.com/jimsmart/grobotstxt"
	"github.com/rep-toolkit/rep/bench/harness"
	"github.com/rep-toolkit/rep/robotstxt"
	slyrz "github.com/slyrz/robots"
	temoto "github.com/temoto/robotstxt"
)

// Benchmark names follow Benchmark<What>/<key=value>.../lib=<library> so that
// `benchstat -col /lib` puts the libraries side by side. grobotstxt's
// check-type results carry lib=grobotstxt-oneshot: it re-parses the body on
// every query.

var (
	corpusOnce sync.Once
	corpus     *harness.Corpus
	corpusErr  error
)

func loadCorpus(tb testing.TB) *harness.Corpus {
	tb.Helper()
	corpusOnce.Do(func() { corpus, corpusErr = harness.Load(harness.Dir()) })
	if corpusErr != nil {
		tb.Fatal(corpusErr)
	}
	return corpus
}

// Sinks keep results alive so the compiler cannot drop the work.
var (
	sinkBool   bool
	sinkAgent  *robotstxt.Matcher
	sinkTemoto *temoto.RobotsData
	sinkSlyrz  *slyrz.Robots
)

// noop is the grobotstxt parse handler that does nothing: parsing alone.
type noop struct{}

func (noop) HandleRobotsStart()                      {}
func (noop) HandleRobotsEnd()                        {}
func (noop) HandleUserAgent(int, string)             {}
func (noop) HandleAllow(int, string)                 {}
func (noop) HandleDisallow(int, string)              {}
func (noop) HandleSitemap(int, string)               {}
func (noop) HandleUnknownAction(int, string, string) {}

// repReady parses body and resolves the agent: rep builds a group's
// matching index on first use (File.Matcher), so this is the work done before
// the first check can run — what slyrz's New(body, agent) and temoto's
// FromBytes do up front. Parse alone defers the index.
func repReady(body []byte, o robotstxt.Options) *robotstxt.Matcher {
	return robotstxt.ParseWith(body, o).Matcher(harness.Agent)
}

// temotoParse is temoto.FromBytes with a rejected file read as "allow all",
// as a crawler would: its group then has no rules.
func temotoParse(tb testing.TB, body []byte) *temoto.RobotsData {
	r, err := temoto.FromBytes(body)
	if err != nil {
		tb.Logf("temoto rejects a %d-byte file (%v): checked as allow-all", len(body), err)
		r, _ = temoto.FromBytes(nil)
	}
	return r
}

// BenchmarkParse parses the whole corpus once per op; MB/s is corpus bytes.
// rep parses and resolves the agent (see repReady); slyrz parses for one agent (its API keeps only that agent's rules);
// grobotstxt parses with a handler that does nothing.
func BenchmarkParse(b *testing.B) {
	c := loadCorpus(b)
	datas := make([][]byte, len(c.Files))
	strs := make([]string, len(c.Files))
	for i, f := range c.Files {
		datas[i], strs[i] = f.Data, string(f.Data)
	}
	run := func(name string, parse func()) {
		b.Run("lib="+name, func(b *testing.B) {
			b.SetBytes(int64(c.Bytes))
			b.ReportAllocs()
			for b.Loop() {
				parse()
			}
		})
	}
	run("rep", func() {
		for _, d := range datas {
			sinkAgent = repReady(d, harness.RepOptions)
		}
	})
	run("temoto", func() {
		for _, d := range datas {
			sinkTemoto, _ = temoto.FromBytes(d)
		}
	})
	run("grobotstxt", func() {
		for _, s := range strs {
			grobotstxt.Parse(s, noop{})
		}
	})
	run("slyrz", func() {
		for _, d := range datas {
			sinkSlyrz = slyrz.New(bytes.NewReader(d), harness.Agent)
		}
	})
}

// query is one URL of urls.tsv, with the index of its file in the class.
type query struct {
	f    int
	url  string // full URL: rep and grobotstxt
	path string // path and query: temoto and slyrz
}

func classQueries(c *harness.Corpus, cl harness.Class) ([]*harness.File, []query) {
	files := c.Class(cl)
	var qs []query
	for i, f := range files {
		for _, u := range f.URLs {
			qs = append(qs, query{f: i, url: u, path: harness.PathQuery(u)})
		}
	}
	return files, qs
}

// BenchmarkCheck answers one query per op, cycling over every URL of every
// file of a size class. Each file is parsed and its agent resolved
// beforehand (rep: f.Matcher once; temoto: FindGroup once; slyrz: New for the
// agent); grobotstxt, which has no parsed form, parses per query.
func BenchmarkCheck(b *testing.B) {
	c := loadCorpus(b)
	for _, cl := range harness.Classes {
		b.Run("class="+cl.String(), func(b *testing.B) {
			files, qs := classQueries(c, cl)
			reps := make([]*robotstxt.Matcher, len(files))
			temotos := make([]*temoto.Group, len(files))
			slyrzs := make([]*slyrz.Robots, len(files))
			bodies := make([]string, len(files))
			for i, f := range files {
				reps[i] = robotstxt.ParseWith(f.Data, harness.RepOptions).Matcher(harness.Agent)
				temotos[i] = temotoParse(b, f.Data).FindGroup(harness.Agent)
				slyrzs[i] = slyrz.New(bytes.NewReader(f.Data), harness.Agent)
				bodies[i] = string(f.Data)
			}
			b.Run("lib=rep", func(b *testing.B) {
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					q := &qs[i]
					sinkBool = reps[q.f].Check(q.url).Allowed
					if i++; i == len(qs) {
						i = 0
					}
				}
			})
			// rep-path: rep handed the path, as temoto and slyrz are, so
			// the like-for-like ratio leaves out the work of taking the
			// path out of a full URL.
			b.Run("lib=rep-path", func(b *testing.B) {
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					q := &qs[i]
					sinkBool = reps[q.f].Check(q.path).Allowed
					if i++; i == len(qs) {
						i = 0
					}
				}
			})
			b.Run("lib=temoto", func(b *testing.B) {
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					q := &qs[i]
					sinkBool = temotos[q.f].Test(q.path)
					if i++; i == len(qs) {
						i = 0
					}
				}
			})
			b.Run("lib=grobotstxt-oneshot", func(b *testing.B) {
				b.ReportAllocs()
				m := grobotstxt.NewRobotsMatcher()
				i := 0
				for b.Loop() {
					q := &qs[i]
					sinkBool = m.AgentAllowed(bodies[q.f], harness.Agent, q.url)
					if i++; i == len(qs) {
						i = 0
					}
				}
			})
			b.Run("lib=slyrz", func(b *testing.B) {
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					q := &qs[i]
					sinkBool = slyrzs[q.f].Allow(q.path)
					if i++; i == len(qs) {
						i = 0
					}
				}
			})
		})
	}
}

// BenchmarkOneShot parses the raw body and answers one query per op, the
// only mode grobotstxt has: what a crawler pays when it does not keep the
// parsed file.
func BenchmarkOneShot(b *testing.B) {
	c := loadCorpus(b)
	for _, cl := range harness.Classes {
		b.Run("class="+cl.String(), func(b *testing.B) {
			files, qs := classQueries(c, cl)
			bodies := make([]string, len(files))
			for i, f := range files {
				bodies[i] = string(f.Data)
			}
			cycle := func(name string, check func(q *query) bool) {
				b.Run("lib="+name, func(b *testing.B) {
					b.ReportAllocs()
					i := 0
					for b.Loop() {
						sinkBool = check(&qs[i])
						if i++; i == len(qs) {
							i = 0
						}
					}
				})
			}
			cycle("rep", func(q *query) bool {
				return robotstxt.ParseWith(files[q.f].Data, harness.RepOptions).Matcher(harness.Agent).Check(q.url).Allowed
			})
			cycle("temoto", func(q *query) bool {
				r, err := temoto.FromBytes(files[q.f].Data)
				return err != nil || r.FindGroup(harness.Agent).Test(q.path)
			})
			m := grobotstxt.NewRobotsMatcher()
			cycle("grobotstxt-oneshot", func(q *query) bool {
				return m.AgentAllowed(bodies[q.f], harness.Agent, q.url)
			})
			cycle("slyrz", func(q *query) bool {
				return slyrz.New(bytes.NewReader(files[q.f].Data), harness.Agent).Allow(q.path)
			})
		})
	}
}

// BenchmarkRetained parses the whole corpus and keeps every parsed form
// alive; the live heap it adds, per file and per input byte, is what a
// crawler holding many files pays. rep's File is kept after resolving the
// agent, so the index built then is counted. Each body is copied first and
// the copy dropped, so a library that keeps its input pays for it; for
// grobotstxt the retained form is the body itself, as a string.
//
// The heap is read after two GCs, not one: a sync.Pool's contents survive
// one GC (as its victim cache) and go with the second, and they are a
// fixed cache of scratch, not part of any parsed file. rep's pools keep at
// most 2 MiB of parse scratch and 1.5 MiB of sort scratch each; after one
// GC they would add about 1.4 MiB to a figure meant to grow with the
// files kept (0.3 B/inputB on this corpus).
func BenchmarkRetained(b *testing.B) {
	c := loadCorpus(b)
	run := func(name string, parse func([]byte) any) {
		b.Run("lib="+name, func(b *testing.B) {
			keep := make([]any, len(c.Files))
			var retained uint64
			for b.Loop() {
				clear(keep)
				var before, after runtime.MemStats
				runtime.GC()
				runtime.GC()
				runtime.ReadMemStats(&before)
				for i, f := range c.Files {
					keep[i] = parse(bytes.Clone(f.Data))
				}
				runtime.GC()
				runtime.GC()
				runtime.ReadMemStats(&after)
				retained = after.HeapAlloc - before.HeapAlloc
			}
			runtime.KeepAlive(keep)
			b.ReportMetric(float64(retained)/float64(len(c.Files)), "B/file")
			b.ReportMetric(float64(retained)/float64(c.Bytes), "B/inputB")
		})
	}
	run("rep", func(d []byte) any {
		f := robotstxt.ParseWith(d, harness.RepOptions)
		f.Matcher(harness.Agent) // builds the agent's index, kept in f
		return f
	})
	run("temoto", func(d []byte) any { r, _ := temoto.FromBytes(d); return r })
	run("grobotstxt", func(d []byte) any { return string(d) })
	run("slyrz", func(d []byte) any { return slyrz.New(bytes.NewReader(d), harness.Agent) })
}

// BenchmarkPatho parses (op=parse) and checks (op=check, cycling over the
// case's URLs, parsed and resolved beforehand) each adversarial input.
// rep's parse includes resolving the agent (see repReady).
// grobotstxt parses with a no-op handler and checks one-shot.
func BenchmarkPatho(b *testing.B) {
	for _, pc := range harness.Patho() {
		b.Run("case="+pc.Name, func(b *testing.B) {
			paths := make([]string, len(pc.URLs))
			for i, u := range pc.URLs {
				paths[i] = harness.PathQuery(u)
			}
			body := string(pc.Body)
			parse := func(name string, fn func()) {
				b.Run("op=parse/lib="+name, func(b *testing.B) {
					b.SetBytes(int64(len(pc.Body)))
					b.ReportAllocs()
					for b.Loop() {
						fn()
					}
				})
			}
			parse("rep", func() { sinkAgent = repReady(pc.Body, robotstxt.Options{}) })
			parse("temoto", func() { sinkTemoto, _ = temoto.FromBytes(pc.Body) })
			parse("grobotstxt", func() { grobotstxt.Parse(body, noop{}) })
			parse("slyrz", func() { sinkSlyrz = slyrz.New(bytes.NewReader(pc.Body), harness.Agent) })

			check := func(name string, fn func(i int) bool) {
				b.Run("op=check/lib="+name, func(b *testing.B) {
					b.ReportAllocs()
					i := 0
					for b.Loop() {
						sinkBool = fn(i)
						if i++; i == len(pc.URLs) {
							i = 0
						}
					}
				})
			}
			ra := robotstxt.Parse(pc.Body).Matcher(harness.Agent)
			check("rep", func(i int) bool { return ra.Check(pc.URLs[i]).Allowed })
			tg := temotoParse(b, pc.Body).FindGroup(harness.Agent)
			check("temoto", func(i int) bool { return tg.Test(paths[i]) })
			m := grobotstxt.NewRobotsMatcher()
			check("grobotstxt-oneshot", func(i int) bool { return m.AgentAllowed(body, harness.Agent, pc.URLs[i]) })
			sr := slyrz.New(bytes.NewReader(pc.Body), harness.Agent)
			check("slyrz", func(i int) bool { return sr.Allow(paths[i]) })
		})
	}
}
