package server

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/robotsfetch"
)

// family is one metric family of an exposition.
type family struct {
	typ, help string
	samples   []sample
}

type sample struct {
	name   string
	labels map[string]string
	key    string // name and labels, canonical
	value  float64
}

var (
	metricName = regexp.MustCompile(`^[a-zA-Z_:][a-zA-Z0-9_:]*$`)
	labelName  = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)
)

// parseExposition reads the Prometheus text format (version 0.0.4)
// strictly: HELP and TYPE before a family's samples, one TYPE per family,
// known types, well-formed names, quoted and escaped label values, no
// duplicate series, numeric values, samples of a family together, and for
// histograms, buckets in increasing le ending at +Inf, cumulative, with
// _count equal to the +Inf bucket and a _sum.
func parseExposition(t fatalT, r io.Reader) map[string]*family {
	t.Helper()
	fams := map[string]*family{}
	seen := map[string]bool{}
	var cur string
	done := map[string]bool{}
	sc := bufio.NewScanner(r)
	n := 0
	fail := func(format string, a ...any) {
		t.Helper()
		t.Fatalf("line %d: %s", n, fmt.Sprintf(format, a...))
	}
	for sc.Scan() {
		n++
		line := sc.Text()
		if line == "" {
			fail("empty line")
		}
		if strings.HasPrefix(line, "#") {
			f := strings.SplitN(line, " ", 4)
			if len(f) < 3 || (f[1] != "HELP" && f[1] != "TYPE") {
				fail("comment %q is neither HELP nor TYPE", line)
			}
			name := f[2]
			if !metricName.MatchString(name) {
				fail("bad metric name %q", name)
			}
			if done[name] {
				fail("%s declared again after its samples", name)
			}
			fam := fams[name]
			if fam == nil {
				fam = &family{}
				fams[name] = fam
			}
			if cur != "" && cur != name {
				done[cur] = true
			}
			cur = name
			if len(f) < 4 {
				fail("%s without text", f[1])
			}
			switch f[1] {
			case "HELP":
				if fam.help != "" {
					fail("second HELP for %s", name)
				}
				fam.help = f[3]
			case "TYPE":
				if fam.typ != "" {
					fail("second TYPE for %s", name)
				}
				switch f[3] {
				case "counter", "gauge", "histogram", "summary", "untyped":
				default:
					fail("unknown type %q", f[3])
				}
				if len(fam.samples) > 0 {
					fail("TYPE for %s after its samples", name)
				}
				fam.typ = f[3]
			}
			continue
		}
		s := parseSample(t, n, line)
		base := s.name
		for _, suf := range []string{"_bucket", "_sum", "_count"} {
			if b, ok := strings.CutSuffix(s.name, suf); ok && fams[b] != nil && fams[b].typ == "histogram" {
				base = b
			}
		}
		fam := fams[base]
		if fam == nil || fam.typ == "" {
			fail("sample %s without a TYPE", s.name)
		}
		if base != cur {
			fail("sample %s apart from its family %s", s.name, cur)
		}
		if seen[s.key] {
			fail("duplicate series %s", s.key)
		}
		seen[s.key] = true
		if fam.typ == "counter" && (s.value < 0 || math.IsNaN(s.value)) {
			fail("counter %s = %v", s.key, s.value)
		}
		fam.samples = append(fam.samples, s)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%v", err)
	}
	for name, fam := range fams {
		if fam.typ == "histogram" {
			checkHistogram(t, name, fam)
		}
	}
	return fams
}

func parseSample(t fatalT, n int, line string) sample {
	t.Helper()
	s := sample{labels: map[string]string{}}
	i := strings.IndexAny(line, "{ ")
	if i < 0 {
		t.Fatalf("line %d: no value: %q", n, line)
	}
	s.name = line[:i]
	if !metricName.MatchString(s.name) {
		t.Fatalf("line %d: bad metric name %q", n, s.name)
	}
	rest := line[i:]
	var keys []string
	if rest[0] == '{' {
		rest = rest[1:]
		for {
			if rest == "" {
				t.Fatalf("line %d: labels do not end", n)
			}
			if rest[0] == '}' {
				rest = rest[1:]
				break
			}
			eq := strings.IndexByte(rest, '=')
			if eq < 0 || !labelName.MatchString(rest[:eq]) || len(rest) < eq+2 || rest[eq+1] != '"' {
				t.Fatalf("line %d: bad label at %q", n, rest)
			}
			name := rest[:eq]
			rest = rest[eq+2:]
			var v strings.Builder
			closed := false
			for len(rest) > 0 && !closed {
				c := rest[0]
				rest = rest[1:]
				switch c {
				case '\\':
					if rest == "" {
						t.Fatalf("line %d: escape at the end", n)
					}
					switch rest[0] {
					case '\\', '"':
						v.WriteByte(rest[0])
					case 'n':
						v.WriteByte('\n')
					default:
						t.Fatalf("line %d: bad escape \\%c", n, rest[0])
					}
					rest = rest[1:]
				case '"':
					closed = true
				case '\n':
					t.Fatalf("line %d: newline in a label value", n)
				default:
					v.WriteByte(c)
				}
			}
			if !closed {
				t.Fatalf("line %d: label value does not end", n)
			}
			if _, dup := s.labels[name]; dup {
				t.Fatalf("line %d: label %s twice", n, name)
			}
			s.labels[name] = v.String()
			keys = append(keys, name+"="+strconv.Quote(v.String()))
			if rest != "" && rest[0] == ',' {
				rest = rest[1:]
			}
		}
	}
	if rest == "" || rest[0] != ' ' {
		t.Fatalf("line %d: no space before the value: %q", n, line)
	}
	f := strings.Fields(rest)
	if len(f) < 1 || len(f) > 2 {
		t.Fatalf("line %d: want a value and an optional timestamp: %q", n, rest)
	}
	v, err := parseValue(f[0])
	if err != nil {
		t.Fatalf("line %d: value %q: %v", n, f[0], err)
	}
	if len(f) == 2 {
		if _, err := strconv.ParseInt(f[1], 10, 64); err != nil {
			t.Fatalf("line %d: timestamp %q: %v", n, f[1], err)
		}
	}
	s.value = v
	s.key = s.name + "{" + strings.Join(keys, ",") + "}"
	return s
}

func parseValue(s string) (float64, error) {
	switch s {
	case "+Inf":
		return math.Inf(1), nil
	case "-Inf":
		return math.Inf(-1), nil
	case "NaN":
		return math.NaN(), nil
	}
	return strconv.ParseFloat(s, 64)
}

func checkHistogram(t fatalT, name string, fam *family) {
	t.Helper()
	type series struct {
		les     []float64
		counts  []float64
		sum     bool
		count   float64
		hasCnt  bool
		lastInf bool
	}
	all := map[string]*series{}
	keyOf := func(s sample) string {
		var parts []string
		for k, v := range s.labels {
			if k != "le" {
				parts = append(parts, k+"="+v)
			}
		}
		return strings.Join(sortStrings(parts), ",")
	}
	for _, s := range fam.samples {
		k := keyOf(s)
		se := all[k]
		if se == nil {
			se = &series{}
			all[k] = se
		}
		switch s.name {
		case name + "_bucket":
			le, ok := s.labels["le"]
			if !ok {
				t.Fatalf("%s: bucket without le", s.key)
			}
			v, err := parseValue(le)
			if err != nil {
				t.Fatalf("%s: le %q", s.key, le)
			}
			if n := len(se.les); n > 0 && (v <= se.les[n-1] || s.value < se.counts[n-1]) {
				t.Fatalf("%s: buckets out of order or not cumulative", s.key)
			}
			se.les, se.counts = append(se.les, v), append(se.counts, s.value)
			se.lastInf = math.IsInf(v, 1)
		case name + "_sum":
			se.sum = true
		case name + "_count":
			se.count, se.hasCnt = s.value, true
		default:
			t.Fatalf("%s in histogram %s", s.name, name)
		}
	}
	for k, se := range all {
		if !se.lastInf || !se.sum || !se.hasCnt || se.counts[len(se.counts)-1] != se.count {
			t.Fatalf("histogram %s{%s}: +Inf bucket %v, _sum %v, _count %v equal to +Inf: %v", name, k, se.lastInf, se.sum, se.hasCnt, se.hasCnt && se.counts[len(se.counts)-1] == se.count)
		}
	}
}

func sortStrings(s []string) []string {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s
}

// value returns the sample of fam with the given labels.
func (f *family) value(t *testing.T, labels ...string) float64 {
	t.Helper()
	for _, s := range f.samples {
		ok := len(s.labels) == len(labels)/2
		for i := 0; ok && i < len(labels); i += 2 {
			ok = s.labels[labels[i]] == labels[i+1]
		}
		if ok {
			return s.value
		}
	}
	t.Fatalf("no sample with labels %v", labels)
	return 0
}

func scrape(t *testing.T, base string) map[string]*family {
	t.Helper()
	res, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/plain; version=0.0.4; charset=utf-8" {
		t.Fatalf("/metrics: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	return parseExposition(t, res.Body)
}

// TestMetrics scrapes /metrics after known traffic and reads it with a
// strict parser of the text format.
func TestMetrics(t *testing.T) {
	o := newRobotsCounter(t, "User-agent: *\nDisallow: /private\n")
	gone := newOrigin(t, func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) })
	ts, _ := newGuardedServer(t, Config{})
	fams := scrape(t, ts.URL)
	if v := fams["rep_robots_fetches_total"].value(t, "case", "success"); v != 0 {
		t.Fatalf("fresh server: %v fetches", v)
	}
	for _, p := range []string{"/private/a", "/b", "/c"} {
		getStatus(t, allowedURL(ts.URL, o.URL+p))
	}
	getStatus(t, allowedURL(ts.URL, gone.URL+"/"))
	call(t, "POST", ts.URL+"/api/check", `{"robots":"User-agent: *\nDisallow: /","agent":"x","urls":["/a","/robots.txt"]}`)
	getStatus(t, allowedURL(ts.URL, "http://10.0.0.1/")) // refused: an error, not a verdict

	fams = scrape(t, ts.URL)
	want := []struct {
		fam    string
		labels []string
		v      float64
	}{
		{"rep_robots_fetches_total", []string{"case", "success"}, 1},
		{"rep_robots_fetches_total", []string{"case", "unreachable"}, 1},
		{"rep_robots_fetches_total", []string{"case", "unavailable"}, 0},
		{"rep_robots_cache_hits_total", nil, 2},
		{"rep_robots_cache_misses_total", nil, 2},
		{"rep_store_errors_total", []string{"op", "get"}, 0},
		{"rep_answers_total", []string{"endpoint", "allowed", "verdict", "allowed"}, 2},
		{"rep_answers_total", []string{"endpoint", "allowed", "verdict", "disallowed"}, 2},
		{"rep_answers_total", []string{"endpoint", "allowed", "verdict", "error"}, 1},
		{"rep_answers_total", []string{"endpoint", "check", "verdict", "disallowed"}, 1},
		{"rep_answers_total", []string{"endpoint", "check", "verdict", "allowed"}, 1},
		{"rep_http_request_duration_seconds_count", []string{"route", "/api/allowed"}, 5},
		{"rep_http_request_duration_seconds_count", []string{"route", "/api/check"}, 1},
		{"rep_http_request_duration_seconds_count", []string{"route", "/metrics"}, 1},
	}
	for _, w := range want {
		name := w.fam
		f := fams[name]
		if f == nil {
			f = fams[strings.TrimSuffix(name, "_count")]
			// histogram samples are filed under the family
		}
		if f == nil {
			t.Fatalf("no family %s", name)
		}
		got := -1.0
		for _, s := range f.samples {
			if s.name != name {
				continue
			}
			ok := len(s.labels) == len(w.labels)/2
			for i := 0; ok && i < len(w.labels); i += 2 {
				ok = s.labels[w.labels[i]] == w.labels[i+1]
			}
			if ok {
				got = s.value
			}
		}
		if got != w.v {
			t.Errorf("%s%v = %v, want %v", name, w.labels, got, w.v)
		}
	}
	for name, f := range fams {
		if f.help == "" {
			t.Errorf("%s has no HELP", name)
		}
	}
}

// TestMetricsStoreErrors: a Store that fails is counted.
func TestMetricsStoreErrors(t *testing.T) {
	o := newRobotsCounter(t, "User-agent: *\nDisallow: /private\n")
	ts, _ := newGuardedServer(t, Config{Store: failingStore{}})
	getStatus(t, allowedURL(ts.URL, o.URL+"/"))
	fams := scrape(t, ts.URL)
	if v := fams["rep_store_errors_total"].value(t, "op", "get"); v < 1 {
		t.Errorf("store get errors = %v", v)
	}
}

// TestParseExpositionStrict: the parser refuses what the format forbids.
func TestParseExpositionStrict(t *testing.T) {
	bad := []string{
		"x 1\n",                              // no TYPE
		"# TYPE x counter\nx{a=b} 1\n",       // unquoted label
		"# TYPE x counter\nx 1\nx 2\n",       // duplicate
		"# TYPE x counter\nx{a=\"\\q\"} 1\n", // bad escape
		"# TYPE x counter\nx one\n",          // not a number
		"# TYPE x histogram\nx_bucket{le=\"1\"} 2\nx_bucket{le=\"+Inf\"} 1\nx_sum 1\nx_count 1\n", // not cumulative
		"# TYPE x histogram\nx_bucket{le=\"1\"} 1\nx_sum 1\nx_count 1\n",                          // no +Inf
		"# TYPE x counter\nx 1\n# TYPE y counter\ny 1\nx{a=\"b\"} 1\n",                            // family split
	}
	for _, b := range bad {
		ft := &fakeT{}
		func() {
			defer func() { recover() }()
			parseExposition(ft, strings.NewReader(b))
		}()
		if !ft.failed {
			t.Errorf("accepted %q", b)
		}
	}
}

// fatalT is the part of testing.T the parser uses, so that its own test
// can watch it fail.
type fatalT interface {
	Helper()
	Fatalf(format string, args ...any)
}

type fakeT struct{ failed bool }

func (f *fakeT) Helper() {}

func (f *fakeT) Fatalf(format string, args ...any) {
	f.failed = true
	panic(f)
}

// failingStore is a Store that is always down.
type failingStore struct{}

var errStoreDown = errors.New("store down")

func (failingStore) Get(context.Context, string) (*robotsfetch.Entry, error) {
	return nil, errStoreDown
}

func (failingStore) Put(context.Context, string, *robotsfetch.Entry, time.Duration) error {
	return errStoreDown
}
