package accesslog

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"testing"
)

// seedLines adds every line of a testdata log to the fuzz corpus.
func seedLines(f *testing.F, name string) {
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		f.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f.Add(sc.Bytes())
	}
}

// fuzzParser parses each input line and checks the invariants every
// successful parse must keep.
func fuzzParser(f *testing.F, format string, seeds ...string) {
	for _, s := range seeds {
		seedLines(f, s)
	}
	fm := MustFormat(format)
	f.Fuzz(func(t *testing.T, line []byte) {
		p, err := fm.NewParser(Options{ClientIP: "X-Forwarded-For"})
		if err != nil {
			t.Fatal(err)
		}
		var r Record
		// Feed a #Fields line first for W3C so data lines get exercised.
		if format == "w3c" {
			p.Parse([]byte("#Fields: date time c-ip cs-method cs-uri-stem cs-uri-query sc-status sc-bytes cs(User-Agent) cs(Referer) cs-host"), &r)
		}
		if err := p.Parse(line, &r); err != nil {
			return
		}
		if r.Status != 0 && (r.Status < 100 || r.Status > 999) {
			t.Errorf("status %d out of range", r.Status)
		}
		if r.Bytes < -1 {
			t.Errorf("bytes %d", r.Bytes)
		}
		_ = r.Path()
		_ = r.TargetHost()
	})
}

func FuzzCombined(f *testing.F)   { fuzzParser(f, "combined", "combined.log") }
func FuzzW3C(f *testing.F)        { fuzzParser(f, "w3c", "w3c.log") }
func FuzzCloudFront(f *testing.F) { fuzzParser(f, "cloudfront", "cloudfront.log") }
func FuzzALB(f *testing.F)        { fuzzParser(f, "alb", "alb.log") }
func FuzzJSON(f *testing.F)       { fuzzParser(f, "caddy", "caddy.log", "json.log", "json_sig.log") }

// FuzzDirective compiles arbitrary nginx and Apache format strings and
// parses a line with each.
func FuzzDirective(f *testing.F) {
	for _, c := range goldenCases {
		if c.format[0] == 'n' || c.format[0] == 'a' {
			data, _ := os.ReadFile("testdata/" + c.log)
			line, _, _ := bytes.Cut(data, []byte("\n"))
			f.Add(c.format, line)
		}
	}
	f.Add("apache:%h %{sec}t %U%q", []byte("1.2.3.4 1772323201 /a?b"))
	f.Fuzz(func(t *testing.T, spec string, line []byte) {
		fm, err := ParseFormat(spec)
		if err != nil || fm == nil {
			return
		}
		p, err := fm.NewParser(Options{ClientIP: "CF-Connecting-IP"})
		if err != nil {
			t.Fatal(err)
		}
		var r Record
		p.Parse(line, &r)
	})
}

// FuzzReader feeds whole streams through detection and the Reader, which
// must count every line exactly once.
func FuzzReader(f *testing.F) {
	for _, c := range goldenCases {
		data, _ := os.ReadFile("testdata/" + c.log)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewReader(bytes.NewReader(data), "fuzz", nil, Options{})
		if err != nil {
			return
		}
		defer r.Close()
		for {
			if _, err := r.Next(); err != nil {
				if err != io.EOF {
					return // corrupt compressed input
				}
				break
			}
		}
		st := r.Stats()
		if st.Lines != st.Records+st.Bad+st.Directives+st.Blank {
			t.Errorf("stats do not add up: %+v", st)
		}
		if want := int64(bytes.Count(data, []byte("\n"))); len(data) > 0 && data[len(data)-1] != '\n' {
			want++
			if st.Lines != want && data[0] != 0x1f && data[0] != 0x28 && data[0] != 'B' {
				t.Errorf("lines = %d, want %d", st.Lines, want)
			}
		} else if st.Lines != want && data[0] != 0x1f && data[0] != 0x28 && data[0] != 'B' {
			t.Errorf("lines = %d, want %d", st.Lines, want)
		}
	})
}
