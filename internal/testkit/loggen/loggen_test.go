package loggen

import (
	"bytes"
	"io"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/accesslog"
)

// TestRoundTrip writes every format and reads it back with package
// accesslog (detecting the format where it can): every request must come
// back, every planted bad line must be counted, and nothing else.
func TestRoundTrip(t *testing.T) {
	for _, f := range Formats {
		t.Run(f, func(t *testing.T) {
			var buf bytes.Buffer
			tr, err := Generate(&buf, Config{Seed: 7, Requests: 3000, Format: f, BadEvery: 101})
			if err != nil {
				t.Fatal(err)
			}
			var format *accesslog.Format
			switch f {
			case "nginx":
				format = accesslog.MustFormat("nginx:" + NginxFormat)
			}
			r, err := accesslog.NewReader(&buf, f, format, accesslog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if format == nil {
				want := f
				if f == "apache" {
					want = "apache:vhost_combined"
				}
				if got := r.Format().String(); got != want {
					t.Errorf("detected %q", got)
				}
			}
			var n, bots int64
			for {
				rec, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				n++
				if bytes.Contains(rec.UserAgent, []byte("bot")) {
					bots++
				}
				if rec.Time < tr.Start.UnixNano() || rec.Time >= tr.End.Add(time.Second).UnixNano() {
					t.Fatalf("line %d: time %v outside %v–%v", rec.Line, rec.When(), tr.Start, tr.End)
				}
			}
			st := r.Stats()
			if n != tr.Requests || st.Bad != tr.BadLines || st.Lines != tr.Lines {
				t.Errorf("read %d records, %d bad, %d lines; truth %d, %d, %d; samples %+v", n, st.Bad, st.Lines, tr.Requests, tr.BadLines, tr.Lines, st.Samples)
			}
			if f != "common" && bots == 0 {
				t.Error("no crawler User-Agents read back")
			}
		})
	}
}

// TestDeterministic checks that a seed fixes the output.
func TestDeterministic(t *testing.T) {
	var a, b, c bytes.Buffer
	Generate(&a, Config{Seed: 3, Requests: 500})
	Generate(&b, Config{Seed: 3, Requests: 500})
	Generate(&c, Config{Seed: 4, Requests: 500})
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("same seed, different logs")
	}
	if bytes.Equal(a.Bytes(), c.Bytes()) {
		t.Error("different seeds, same log")
	}
}

// TestTruthPlanted checks that the generated log plants what the audit
// tests rely on: forged and genuine claims, violations before, during and
// after the grace window, and Crawl-delay bursts.
func TestTruthPlanted(t *testing.T) {
	tr, err := Generate(io.Discard, Config{Seed: 1, Requests: 20000})
	if err != nil {
		t.Fatal(err)
	}
	g := tr.Crawlers["Googlebot"]
	b := tr.Crawlers["bingbot"]
	c := tr.Crawlers["ClaudeBot"]
	switch {
	case g == nil || b == nil || c == nil:
		t.Fatalf("crawlers missing: %v", tr.SortedCrawlers())
	case g.Genuine == 0 || g.Forged == 0:
		t.Errorf("Googlebot genuine %d forged %d", g.Genuine, g.Forged)
	case g.Disallowed == 0 || c.Disallowed == 0 || c.Grace == 0:
		t.Errorf("Googlebot disallowed %d, ClaudeBot disallowed %d grace %d", g.Disallowed, c.Disallowed, c.Grace)
	case b.TooFast == 0:
		t.Error("no Crawl-delay violations planted")
	case tr.Crawlers["Google-Extended"].Genuine != 0:
		t.Error("Google-Extended never crawls; all its requests are forged")
	case tr.BadLines == 0:
		t.Error("no bad lines")
	}
}

func BenchmarkGenerate(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Generate(io.Discard, Config{Seed: 1, Requests: 10000})
	}
}
