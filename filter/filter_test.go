package filter

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/internal/testkit/corpus"
	"github.com/rep-toolkit/rep/robotstxt"
	"github.com/rep-toolkit/rep/survey"
)

// apertus is the crawler list of the Apertus models' robots.txt filter.
var apertus = []string{"AI2Bot", "Applebot-Extended", "Bytespider", "CCBot", "CCBot/1.0", "CCBot/2.0", "ClaudeBot",
	"cohere-training-data-crawler", "Diffbot", "Meta-ExternalAgent", "Google-Extended", "GPTBot", "PanguBot"}

type fixture struct {
	parsed map[string]*robotstxt.File // host + parse options
	st     *survey.Store
	files  map[string][]byte
	hosts  []string
	agents []*rep.Agent
}

func newFixture(t testing.TB, agents []string) *fixture {
	t.Helper()
	fx := &fixture{files: corpus.Robots(t), parsed: map[string]*robotstxt.File{}}
	for h := range fx.files {
		fx.hosts = append(fx.hosts, h)
	}
	sort.Strings(fx.hosts)
	st, err := survey.NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, h := range fx.hosts {
		if err := st.Add(survey.Capture{Host: h, Status: 200, Body: fx.files[h]}); err != nil {
			t.Fatal(err)
		}
	}
	fx.st = st
	if fx.agents, err = survey.Agents(agents); err != nil {
		t.Fatal(err)
	}
	return fx
}

// docs generates n document URLs over the corpus's hosts: paths taken
// from the rules of the hosts' files (so many are disallowed) and random
// ones, a few on hosts with no capture.
func (fx *fixture) docs(n int, seed uint64) []string {
	r := rand.New(rand.NewPCG(seed, 1))
	paths := map[string][]string{}
	for _, h := range fx.hosts {
		f := robotstxt.Parse(fx.files[h])
		for _, g := range f.Groups() {
			for _, rl := range g.Rules {
				if rl.Pattern != "" {
					paths[h] = append(paths[h], survey.Sample(rl.Pattern))
				}
			}
		}
	}
	out := make([]string, n)
	for i := range out {
		h := fx.hosts[r.IntN(len(fx.hosts))]
		scheme := "https://"
		if r.IntN(4) == 0 {
			scheme = "http://"
		}
		switch k := r.IntN(20); {
		case k == 0:
			out[i] = scheme + "uncaptured-" + fmt.Sprint(r.IntN(50)) + ".test/page"
		case k < 12 && len(paths[h]) > 0:
			out[i] = scheme + h + paths[h][r.IntN(len(paths[h]))] + fmt.Sprintf("x%d", r.IntN(3))
		default:
			out[i] = scheme + h + fmt.Sprintf("/p/%d/item?id=%d", r.IntN(100), r.IntN(1000))
		}
	}
	return out
}

// want is the verdict from the root package alone: each agent's Decide on
// the file parsed with its own options; any-of keeps a document when
// every agent may fetch it.
func (fx *fixture) want(u string, mode Mode) (keep bool, captured bool) {
	h, err := survey.HostOf(u)
	if err != nil {
		panic(err)
	}
	body, ok := fx.files[h]
	if !ok {
		return true, false
	}
	n := 0
	for _, a := range fx.agents {
		k := fmt.Sprint(h, a.ParseOptions())
		f := fx.parsed[k]
		if f == nil {
			f = robotstxt.ParseWith(body, a.ParseOptions())
			fx.parsed[k] = f
		}
		if a.Decide(f, u).Allowed {
			n++
		}
	}
	if mode == AllOf {
		return n > 0, true
	}
	return n == len(fx.agents), true
}

// TestAgreesWithDecide filters generated documents and compares every
// verdict with the root package's Agent.Decide, for the Apertus list and
// for the registry's AI-training and search crawlers, any-of and all-of,
// with a cache large enough for every host and with one that holds a few.
func TestAgreesWithDecide(t *testing.T) {
	for _, agents := range [][]string{apertus, {"ai-training", "search", "AdsBot-Google"}} {
		fx := newFixture(t, agents)
		docs := fx.docs(10000, 7)
		for _, mode := range []Mode{AnyOf, AllOf} {
			caches := []int64{0}
			if mode == AnyOf && len(agents) == len(apertus) {
				caches = append(caches, 64<<10) // a cache that holds a few hosts: built and evicted all along
			}
			for _, cache := range caches {
				f, err := New(fx.st, Options{Agents: fx.agents, Mode: mode, CacheBytes: cache})
				if err != nil {
					t.Fatal(err)
				}
				dropped, diff := 0, 0
				for _, u := range docs {
					v := f.Decide(u, time.Time{})
					keep, captured := fx.want(u, mode)
					if v.Keep != keep || (v.Class == survey.ClassMissing) == captured {
						diff++
						if diff < 5 {
							t.Errorf("%v mode %d: %s: keep %v class %v (%s), Decide says keep %v", agents[:2], mode, u, v.Keep, v.Class, v.Reason(), keep)
						}
					}
					if !v.Keep {
						dropped++
						if mode == AnyOf && (v.Crawler == "" || v.Line == 0) {
							t.Errorf("%s dropped without a crawler and line: %+v", u, v)
						}
					}
				}
				if cache > 0 && f.CacheBytes() > cache+3*500<<10+2048 {
					t.Errorf("cache holds %d bytes, bound %d", f.CacheBytes(), cache)
				}
				if dropped == 0 || dropped == len(docs) {
					t.Errorf("%v mode %d: %d of %d dropped: the documents do not exercise the filter", agents[:2], mode, dropped, len(docs))
				}
				t.Logf("%v mode %d cache %d: %d of %d dropped, %d differ", agents[:2], mode, cache, dropped, len(docs), diff)
			}
		}
	}
}

// TestPickAndMissing pins which capture applies and what no capture
// means.
func TestPickAndMissing(t *testing.T) {
	st, err := survey.NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	jan, mar := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	add := func(c survey.Capture) {
		if err := st.Add(c); err != nil {
			t.Fatal(err)
		}
	}
	add(survey.Capture{Host: "a.test", Time: jan, Status: 200, Body: []byte("User-agent: *\nAllow: /\n")})
	add(survey.Capture{Host: "a.test", Time: mar, Status: 200, Body: []byte("User-agent: GPTBot\nDisallow: /\n")})
	add(survey.Capture{Host: "b.test", Time: jan, Status: 503})
	add(survey.Capture{Host: "c.test", Time: jan, Status: 404})
	add(survey.Capture{Host: "d.test", Time: jan, Status: 301, Location: "https://gone.test/robots.txt"})
	as, _ := survey.Agents([]string{"GPTBot"})
	feb := time.Date(2024, 2, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		pick    Pick
		missing Missing
		url     string
		date    time.Time
		keep    bool
		class   survey.Class
	}{
		{Latest, MissingKeep, "https://a.test/x", feb, false, survey.ClassRules}, // retroactive: March's file
		{AsOf, MissingKeep, "https://a.test/x", feb, true, survey.ClassRules},    // January's file
		{AsOf, MissingKeep, "https://a.test/x", mar, false, survey.ClassRules},   // at the capture's time
		{AsOf, MissingKeep, "https://a.test/x", time.Time{}, true, survey.ClassMissing},
		{AsOf, MissingDrop, "https://a.test/x", jan.Add(-time.Hour), false, survey.ClassMissing},
		{Latest, MissingKeep, "https://b.test/x", feb, false, survey.ClassDisallowAll},
		{Latest, MissingDrop, "https://c.test/x", feb, true, survey.ClassAllowAll},
		{Latest, MissingDrop, "https://d.test/x", feb, false, survey.ClassMissing},
		{Latest, MissingKeep, "https://d.test/x", feb, true, survey.ClassMissing},
		{Latest, MissingDrop, "https://z.test/x", feb, false, survey.ClassMissing},
		{Latest, MissingKeep, "HTTPS://A.TEST:443/x", feb, false, survey.ClassRules},
	}
	for _, tt := range tests {
		f, err := New(st, Options{Agents: as, Pick: tt.pick, Missing: tt.missing})
		if err != nil {
			t.Fatal(err)
		}
		v := f.Decide(tt.url, tt.date)
		if v.Keep != tt.keep || v.Class != tt.class {
			t.Errorf("pick %d missing %d %s %v: keep %v class %v, want %v %v", tt.pick, tt.missing, tt.url, tt.date.Format("2006-01-02"), v.Keep, v.Class, tt.keep, tt.class)
		}
	}
}

// TestReaders reads the same documents as JSONL, CSV and TSV.
func TestReaders(t *testing.T) {
	jl := "{\"id\":1,\"url\":\"https://a.test/x\",\"date\":\"2024-01-01\",\"meta\":{\"url\":\"no\"}}\n\n{\"url\":\"https:\\/\\/b.test\\/y\"}\n{\"text\":\"no url\"}\n"
	cs := "id,url,date\n1,https://a.test/x,2024-01-01\n2,https://b.test/y,\n"
	ts := "id\turl\tdate\n1\thttps://a.test/x\t2024-01-01\n2\thttps://b.test/y\t\n"
	for name, r := range map[string]DocReader{
		"jsonl": NewJSONLReader(strings.NewReader(jl), "url", "date"),
		"csv":   NewCSVReader(strings.NewReader(cs), ',', "url", "date"),
		"tsv":   NewCSVReader(strings.NewReader(ts), '\t', "url", "date"),
	} {
		var got []string
		var d Doc
		bad := 0
		for {
			err := r.Next(&d)
			if err != nil {
				if _, ok := err.(*DocError); ok {
					bad++
					continue
				}
				break
			}
			got = append(got, d.URL+" "+d.Date)
		}
		if strings.Join(got, ",") != "https://a.test/x 2024-01-01,https://b.test/y " {
			t.Errorf("%s: %q", name, got)
		}
		if name == "jsonl" && bad != 1 {
			t.Errorf("jsonl: %d bad documents, want 1", bad)
		}
	}
}

// TestAppendJSON writes the verdict shape.
func TestAppendJSON(t *testing.T) {
	v := Verdict{Keep: false, Class: survey.ClassRules, Crawler: "GPTBot", Group: "*", Line: 2, Rule: robotstxt.Rule{Pattern: "/", Line: 2}}
	got := string(v.AppendJSON(nil, "https://a.test/\"x"))
	want := `{"url":"https://a.test/\"x","keep":false,"class":"rules","crawler":"GPTBot","group":"*","line":2,"rule":"Disallow: /"}` + "\n"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if !bytes.HasSuffix((&Verdict{Keep: true}).AppendJSON(nil, "u"), []byte(`"keep":true,"class":"rules"}`+"\n")) {
		t.Error("keep verdict shape")
	}
}
