package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/crawlers/identity"
	"github.com/rep-toolkit/rep/internal/testkit/loggen"
	"github.com/rep-toolkit/rep/robotstxt"
)

// canonical renders a Report as JSON without what legitimately differs
// between a whole and its merged parts: the source names and the line
// numbers of bad-line samples (relative to each part).
func canonical(t *testing.T, r *Report) string {
	t.Helper()
	c := *r
	c.Sources = nil
	c.BadSamples = nil
	for _, b := range r.BadSamples {
		b.Source, b.Line = "", 0
		c.BadSamples = append(c.BadSamples, b)
	}
	js, err := json.MarshalIndent(&c, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(js)
}

// TestMergeProperty splits generated logs at random line boundaries into
// random numbers of parts, audits each part, merges the parts' Reports
// (through JSON, as "rep audit merge" does, and in shuffled order) and
// requires the Report of the whole.
func TestMergeProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 12 {
		f := loggen.Formats[trial%len(loggen.Formats)]
		data, tr := generate(t, loggen.Config{Seed: uint64(trial), Requests: 3000 + int64(rng.IntN(3000)), Format: f, BadEvery: 211})
		format := formatOf(f)
		if format == nil {
			format = detect(t, data)
		}
		opt := Options{Robots: history(t, tr), Verifier: &identity.Verifier{}}
		whole := canonical(t, auditBytes(t, data, format, opt))

		header, body := splitHeader(data)
		lines := bytes.SplitAfter(body, []byte("\n"))
		k := 2 + rng.IntN(5)
		cuts := []int{0}
		for range k - 1 {
			cuts = append(cuts, rng.IntN(len(lines)))
		}
		cuts = append(cuts, len(lines))
		sortInts(cuts)
		var parts []*Report
		extra := int64(0) // directive lines repeated in parts
		for i := 0; i+1 < len(cuts); i++ {
			part := append([]byte(nil), header...)
			if i > 0 {
				extra += int64(bytes.Count(header, []byte("\n")))
				// A W3C part needs the #Fields in force where it starts.
				for j := cuts[i] - 1; j >= 0; j-- {
					if bytes.HasPrefix(lines[j], []byte("#Fields:")) {
						part = append(part, lines[j]...)
						extra++
						break
					}
				}
			}
			part = append(part, bytes.Join(lines[cuts[i]:cuts[i+1]], nil)...)
			rep := auditBytes(t, part, format, opt)
			js, _ := json.Marshal(rep)
			var back Report
			if err := json.Unmarshal(js, &back); err != nil {
				t.Fatal(err)
			}
			parts = append(parts, &back)
		}
		rng.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
		merged, err := Merge(0, parts...)
		if err != nil {
			t.Fatal(err)
		}
		// Headers are repeated in every part; the whole read them once.
		m := *merged
		m.Lines -= extra
		if got := canonical(t, &m); got != whole {
			t.Fatalf("trial %d (%s, %d parts): merged report differs from the whole:\n%s", trial, f, len(parts), diff(whole, got))
		}
	}
}

// splitHeader separates leading "#" directive lines (W3C, CloudFront),
// which every part needs.
func splitHeader(data []byte) (header, body []byte) {
	i := 0
	for i < len(data) && data[i] == '#' {
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
	}
	return data[:i], data[i:]
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// diff shows the first differing line of two texts with context.
func diff(a, b string) string {
	al, bl := bytes.Split([]byte(a), []byte("\n")), bytes.Split([]byte(b), []byte("\n"))
	for i := 0; i < len(al) && i < len(bl); i++ {
		if !bytes.Equal(al[i], bl[i]) {
			lo := max(0, i-5)
			return "whole:\n" + string(bytes.Join(al[lo:min(len(al), i+5)], []byte("\n"))) + "\nmerged:\n" + string(bytes.Join(bl[lo:min(len(bl), i+5)], []byte("\n")))
		}
	}
	return "lengths differ"
}

// TestMergeRefuses holds Merge to refusing what it cannot add up: the same
// part twice, and parts judged against different robots.txt histories or
// grace periods (merged only with MixedRobots, and then marked).
func TestMergeRefuses(t *testing.T) {
	const g = `"-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`
	log1 := []byte(`66.249.66.1 - - [01/Mar/2026:00:00:00 +0000] "GET /private/a HTTP/1.1" 200 5 ` + g + "\n")
	log2 := []byte(`66.249.66.1 - - [02/Mar/2026:00:00:00 +0000] "GET /private/b HTTP/1.1" 200 5 ` + g + "\n")
	hist := func(vs ...Version) *History {
		h, err := NewHistory(vs...)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	v1 := robotstxt.Parse([]byte("User-agent: *\nDisallow: /private/\n"))
	v1copy := robotstxt.Parse([]byte("User-agent: *\nDisallow: /private/ # the same rules\n\n# another comment\n"))
	v2 := robotstxt.Parse([]byte("User-agent: *\nDisallow: /public/\n"))
	day2 := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	base := Options{Robots: hist(Version{Source: "robots.txt", File: v1})}
	p1 := auditBytes(t, log1, nil, base)

	for _, c := range []struct {
		name string
		opt  Options
		kind ConflictKind // 0: merges
		want string
	}{
		{"same rules, other name", Options{Robots: hist(Version{Source: "/srv/www/robots.txt", File: v1copy})}, 0, ""},
		{"other rules, same name", Options{Robots: hist(Version{Source: "robots.txt", File: v2})}, RobotsDiffer, "(rules "},
		{"a version more", Options{Robots: hist(Version{Source: "robots.txt", File: v1}, Version{Since: day2, Source: "new.txt", File: v2})}, RobotsDiffer, "robots.txt, new.txt from 2026-03-02T00:00:00Z"},
		{"no robots.txt", Options{}, RobotsDiffer, "no robots.txt"},
		{"other grace", Options{Robots: base.Robots, Grace: time.Hour}, RobotsDiffer, "grace 24h0m0s in part 1, 1h0m0s in part 2"},
	} {
		p2 := auditBytes(t, log2, nil, c.opt)
		p2.Sources = nil // name it "part 2"
		a := *p1
		a.Sources = nil
		m, err := Merge(0, &a, p2)
		if c.kind == 0 {
			if err != nil || m.MixedRobots || m.Requests != 2 {
				t.Errorf("%s: %v, mixed %v, %d requests; want a merge of 2 requests", c.name, err, m != nil && m.MixedRobots, m.Requests)
			}
			continue
		}
		me, ok := errors.AsType[*MergeError](err)
		if !ok || me.Kind != c.kind || me.A != 0 || me.B != 1 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v; want a MergeError of kind %d naming parts 0 and 1 and saying %q", c.name, err, c.kind, c.want)
			continue
		}
		m, err = MergeWith(MergeOptions{MixedRobots: true}, &a, p2)
		if err != nil || !m.MixedRobots || m.Requests != 2 {
			t.Errorf("%s with MixedRobots: %v; want a merge marked MixedRobots", c.name, err)
			continue
		}
		// The mark survives a further merge with a part of the same
		// (mixed) history.
		p3 := *m
		p3.Lines, p3.First = p3.Lines+1, p3.First.Add(time.Hour)
		if m2, err := Merge(0, m, &p3); err != nil || !m2.MixedRobots {
			t.Errorf("%s: merging a mixed report again: %v; want it still marked MixedRobots", c.name, err)
		}
	}

	// The same part twice, even after a round trip through JSON and under
	// another name, and even with MixedRobots.
	js, _ := json.Marshal(p1)
	var again Report
	if err := json.Unmarshal(js, &again); err != nil {
		t.Fatal(err)
	}
	again.Sources = []string{"copy.log"}
	p2 := auditBytes(t, log2, nil, base)
	_, err := MergeWith(MergeOptions{MixedRobots: true}, p1, p2, &again)
	if me, ok := errors.AsType[*MergeError](err); !ok || me.Kind != SamePart || me.A != 0 || me.B != 2 || !strings.Contains(err.Error(), "count it twice") {
		t.Errorf("same part twice: %v; want a SamePart MergeError for parts 0 and 2", err)
	}
	// Empty parts add nothing, however often they come.
	empty := auditBytes(t, nil, nil, base)
	if _, err := Merge(0, p1, empty, empty); err != nil {
		t.Errorf("empty parts: %v", err)
	}
}
