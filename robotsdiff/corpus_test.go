package robotsdiff

import (
	"bytes"
	"sort"
	"testing"

	"github.com/rep-toolkit/rep/internal/testkit/corpus"
)

// cosmetic rewrites a robots.txt without changing what it means: CRLF
// line ends, every line written twice, a comment after each. Duplicate
// lines add nothing (a repeated group, rule, delay or statement), comments
// and line ends are not read.
func cosmetic(data []byte) []byte {
	var b bytes.Buffer
	for i, l := range bytes.Split(data, []byte("\n")) {
		l = bytes.TrimSuffix(l, []byte("\r"))
		if i == 0 {
			b.Write(l) // a byte order mark stays first
			b.WriteString("\r\n")
		}
		b.Write(l)
		b.WriteString("\r\n# reviewed\r\n")
	}
	return b.Bytes()
}

// TestCorpusCosmetic: every sixth file of the real-world corpus (the whole
// corpus took 17 s on the project's shared 2-core machine), rewritten
// cosmetically, means the same to every default crawler; and compared
// with another file of the corpus, the diff of the two orders is
// symmetric. Files near the size limit (where added bytes would push rules
// past it), with NUL bytes (which end lines) or lines near the length
// limit are left out, and counted.
func TestCorpusCosmetic(t *testing.T) {
	files := corpus.Robots(t)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	o := Options{MaxWitnesses: 512}
	n, skipped := 0, 0
	for i, name := range names {
		if i%6 != 0 {
			continue
		}
		data := files[name]
		long := false
		for _, l := range bytes.Split(data, []byte("\n")) {
			long = long || len(l) > 8000
		}
		if len(data) > 100<<10 || bytes.IndexByte(data, 0) >= 0 || long || bytes.Contains(data, []byte("\r")) && !bytes.Contains(data, []byte("\n")) {
			skipped++
			continue
		}
		n++
		d := Compare(Version{Name: name, Body: data}, Version{Name: name + " (cosmetic)", Body: cosmetic(data)}, o)
		if d.Changed() {
			var b bytes.Buffer
			d.WriteText(&b, 5)
			t.Errorf("%s: a cosmetic rewrite changed its meaning:\n%s", name, b.String())
		}
		if i%36 == 0 && i+1 < len(names) {
			other := files[names[i+1]]
			ab := Compare(Version{Body: data}, Version{Body: other}, o)
			ba := Compare(Version{Body: other}, Version{Body: data}, o)
			b1, u1, o1 := ab.Flips()
			b2, u2, o2 := ba.Flips()
			if b1 != u2 || u1 != b2 || o1 != o2 {
				t.Errorf("%s vs %s: flips %d/%d/%d, reverse %d/%d/%d", name, names[i+1], b1, u1, o1, b2, u2, o2)
			}
		}
	}
	t.Logf("%d files rewritten and compared, %d left out", n, skipped)
	if n < 250 {
		t.Errorf("only %d corpus files compared", n)
	}
}
