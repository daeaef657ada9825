package audit

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/rep-toolkit/rep/crawlers/identity"
	"github.com/rep-toolkit/rep/internal/loggen"
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
