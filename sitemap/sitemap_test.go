package sitemap

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func parseAll(t *testing.T, data []byte, o Options) ([]Entry, *Result) {
	t.Helper()
	var got []Entry
	res, err := Parse(bytes.NewReader(data), o, func(e Entry) error {
		got = append(got, e)
		return nil
	})
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return got, res
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func locs(es []Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Loc)
	}
	return out
}

func codes(r *Result) []string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, string(f.Code))
	}
	return out
}

// TestProtocolExamples reads the sitemaps.org examples as published.
func TestProtocolExamples(t *testing.T) {
	got, res := parseAll(t, readFile(t, "sitemaps.org-urlset.xml"), Options{URL: "http://www.example.com/sitemap.xml"})
	if res.Kind != URLSet || len(res.Findings) != 0 || res.Entries != 5 {
		t.Fatalf("urlset: kind %v, %d entries, findings %v", res.Kind, res.Entries, res.Findings)
	}
	want := []string{
		"http://www.example.com/",
		"http://www.example.com/catalog?item=12&desc=vacation_hawaii",
		"http://www.example.com/catalog?item=73&desc=vacation_new_zealand",
		"http://www.example.com/catalog?item=74&desc=vacation_newfoundland",
		"http://www.example.com/catalog?item=83&desc=vacation_usa",
	}
	if fmt.Sprint(locs(got)) != fmt.Sprint(want) {
		t.Errorf("locs %q, want %q", locs(got), want)
	}
	if e := got[0]; e.ChangeFreq != "monthly" || e.Priority != "0.8" || !e.LastMod.Equal(time.Date(2005, 1, 1, 0, 0, 0, 0, time.UTC)) || e.Line != 5 {
		t.Errorf("first entry %+v", e)
	}
	if e := got[3]; !e.LastMod.Equal(time.Date(2004, 12, 23, 18, 0, 15, 0, time.UTC)) || e.Priority != "0.3" {
		t.Errorf("fourth entry %+v", e)
	}

	got, res = parseAll(t, readFile(t, "sitemaps.org-index.xml"), Options{URL: "http://www.example.com/sitemap_index.xml"})
	if res.Kind != Index || len(res.Findings) != 0 || len(got) != 2 || !got[0].Sitemap {
		t.Fatalf("index: kind %v, entries %+v, findings %v", res.Kind, got, res.Findings)
	}
	if got[1].Loc != "http://www.example.com/sitemap2.xml.gz" || !got[0].LastMod.Equal(time.Date(2004, 10, 1, 18, 23, 17, 0, time.UTC)) {
		t.Errorf("index entries %+v", got)
	}

	got, _ = parseAll(t, readFile(t, "sitemaps.org-escaped.xml"), Options{})
	if len(got) != 1 || got[0].Loc != "http://www.example.com/%C3%BCmlat.php&q=name" {
		t.Errorf("escaped: %+v", got)
	}
}

func TestFeedsAndText(t *testing.T) {
	for _, tc := range []struct {
		file string
		kind Kind
		want []string
	}{
		{"google-rss.xml", RSS, []string{"https://www.example.com/posts/first", "https://www.example.com/posts/second"}},
		{"google-atom.xml", Atom, []string{"https://www.example.com/posts/first", "https://www.example.com/posts/second"}},
		{"text.txt", Text, []string{"https://www.example.com/", "https://www.example.com/a", "https://www.example.com/b"}},
	} {
		got, res := parseAll(t, readFile(t, tc.file), Options{URL: "https://www.example.com/feed"})
		if res.Kind != tc.kind || len(res.Findings) != 0 {
			t.Errorf("%s: kind %v, findings %v", tc.file, res.Kind, res.Findings)
		}
		if fmt.Sprint(locs(got)) != fmt.Sprint(tc.want) {
			t.Errorf("%s: %q, want %q", tc.file, locs(got), tc.want)
		}
		if tc.kind != Text && got[1].LastMod.IsZero() {
			t.Errorf("%s: no date on %+v", tc.file, got[1])
		}
	}
}

func TestGzip(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(readFile(t, "sitemaps.org-urlset.xml"))
	zw.Close()
	got, res := parseAll(t, buf.Bytes(), Options{})
	if !res.Gzip || len(got) != 5 {
		t.Fatalf("gzip: %v, %d entries", res.Gzip, len(got))
	}
	_, err := Parse(bytes.NewReader(buf.Bytes()[:40]), Options{URL: "https://x/s.xml.gz"}, func(Entry) error { return nil })
	var re *ReadError
	if !errors.As(err, &re) || re.URL != "https://x/s.xml.gz" {
		t.Errorf("truncated gzip: %v", err)
	}
}

// TestGzipInGzip: a file compressed twice is refused with a not-sitemap
// finding, never read as a text sitemap of binary lines.
func TestGzipInGzip(t *testing.T) {
	gz := func(b []byte) []byte {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(b)
		zw.Close()
		return buf.Bytes()
	}
	for _, data := range [][]byte{
		gz(gz(readFile(t, "sitemaps.org-urlset.xml"))),
		gz(gz([]byte("https://example.com/a\nhttps://example.com/b\n"))),
		gz(gz(gz([]byte("https://example.com/a\n")))),
	} {
		got, res := parseAll(t, data, Options{})
		if len(got) != 0 || res.Kind != Unknown || !res.Gzip || !res.Stopped || len(res.Findings) != 1 || res.Findings[0].Code != NotSitemap || !strings.Contains(res.Findings[0].Message, "gzip inside gzip") {
			t.Errorf("gzip inside gzip: %d entries, %+v", len(got), res)
		}
	}
}

func urlset(n int, host string) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i := range n {
		fmt.Fprintf(&b, "<url><loc>%s/p/%d</loc></url>\n", host, i)
	}
	b.WriteString("</urlset>\n")
	return b.Bytes()
}

func TestLimits(t *testing.T) {
	got, res := parseAll(t, urlset(MaxURLs+3, "https://a.example"), Options{})
	if len(got) != MaxURLs || !res.Stopped || fmt.Sprint(codes(res)) != "[too-many-urls]" {
		t.Errorf("URL limit: %d entries, stopped %v, %v", len(got), res.Stopped, codes(res))
	}
	if f := res.Findings[0]; f.Line != MaxURLs+3 || f.Loc != "https://a.example/p/50000" {
		t.Errorf("URL limit finding %+v", f)
	}
	data := urlset(100, "https://a.example")
	got, res = parseAll(t, data, Options{MaxBytes: int64(len(data) / 2)})
	if len(got) == 0 || len(got) >= 100 || !res.Stopped || fmt.Sprint(codes(res)) != "[too-large]" || res.Bytes != int64(len(data)/2) {
		t.Errorf("byte limit: %d entries, %d bytes, %v", len(got), res.Bytes, codes(res))
	}
	_, res = parseAll(t, data, Options{MaxBytes: int64(len(data))})
	if res.Stopped || len(res.Findings) != 0 {
		t.Errorf("exactly at the byte limit: %v", res.Findings)
	}
	// A text sitemap stops at its limits too.
	text := []byte(strings.Repeat("https://a.example/x\n", 10))
	got, res = parseAll(t, text, Options{MaxURLs: 4})
	if len(got) != 4 || fmt.Sprint(codes(res)) != "[too-many-urls]" {
		t.Errorf("text limit: %d, %v", len(got), codes(res))
	}
}

func TestLocationRules(t *testing.T) {
	data := []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://a.example/catalog/1</loc></url>
<url><loc>HTTPS://A.EXAMPLE/catalog/2</loc></url>
<url><loc>https://a.example/images/1</loc></url>
<url><loc>https://b.example/catalog/1</loc></url>
<url><loc>http://a.example/catalog/3</loc></url>
<url><loc>/catalog/4</loc></url>
<url><loc></loc></url>
<url><loc>https://a.example/catalog/5</loc><lastmod>yesterday</lastmod></url>
</urlset>`)
	got, res := parseAll(t, data, Options{URL: "https://a.example/catalog/sitemap.xml"})
	if fmt.Sprint(locs(got)) != "[https://a.example/catalog/1 HTTPS://A.EXAMPLE/catalog/2 https://a.example/catalog/5]" {
		t.Errorf("kept %q", locs(got))
	}
	if want := "[outside-path other-host other-host bad-loc bad-loc bad-lastmod]"; fmt.Sprint(codes(res)) != want {
		t.Errorf("findings %v, want %s", res.Findings, want)
	}
	if res.Findings[0].Line != 4 || res.Findings[5].Line != 9 {
		t.Errorf("lines %+v", res.Findings)
	}
	// Named in robots.txt: the whole host is in scope.
	got, res = parseAll(t, data, Options{URL: "https://a.example/catalog/sitemap.xml", Scope: "https://a.example/"})
	if len(got) != 4 || fmt.Sprint(codes(res)) != "[other-host other-host bad-loc bad-loc bad-lastmod]" {
		t.Errorf("robots.txt scope: %q %v", locs(got), codes(res))
	}
}

func TestMalformed(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{`<urlset><url><loc>https://a/1</loc></url><url><loc>https://a/2</loc>`, 1, "[syntax]"},
		{`<urlset><url><loc>https://a/1</loc></url><url></urlset>`, 1, "[syntax]"},
		{`<html><body>hello</body></html>`, 0, "[not-sitemap]"},
		{`<?xml version="1.0" encoding="ISO-8859-1"?><urlset/>`, 0, "[syntax]"},
		{``, 0, "[]"},
		{"\xef\xbb\xbf  <urlset><url><loc>https://a/1</loc></url></urlset>", 1, "[]"},
	} {
		got, res := parseAll(t, []byte(tc.in), Options{})
		if len(got) != tc.n || fmt.Sprint(codes(res)) != tc.want {
			t.Errorf("%q: %d entries, %v; want %d, %s", tc.in, len(got), res.Findings, tc.n, tc.want)
		}
	}
}

func TestCallbackError(t *testing.T) {
	stop := errors.New("stop")
	n := 0
	_, err := Parse(bytes.NewReader(urlset(10, "https://a")), Options{}, func(Entry) error {
		n++
		if n == 3 {
			return stop
		}
		return nil
	})
	if err != stop || n != 3 {
		t.Errorf("err %v after %d entries", err, n)
	}
}

type failReader struct{ n int }

func (r *failReader) Read(b []byte) (int, error) {
	if r.n > 0 {
		r.n--
		return copy(b, "<urlset><url><loc>https://a/1</loc></url>"), nil
	}
	return 0, io.ErrUnexpectedEOF
}

func TestReadError(t *testing.T) {
	_, err := Parse(&failReader{n: 1}, Options{URL: "https://a/s.xml"}, func(Entry) error { return nil })
	var re *ReadError
	if !errors.As(err, &re) || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("err %v", err)
	}
}

func TestParseW3C(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"1997", time.Date(1997, 1, 1, 0, 0, 0, 0, time.UTC), true},
		{"1997-07", time.Date(1997, 7, 1, 0, 0, 0, 0, time.UTC), true},
		{"1997-07-16", time.Date(1997, 7, 16, 0, 0, 0, 0, time.UTC), true},
		{"1997-07-16T19:20+01:00", time.Date(1997, 7, 16, 18, 20, 0, 0, time.UTC), true},
		{"1997-07-16T19:20:30+01:00", time.Date(1997, 7, 16, 18, 20, 30, 0, time.UTC), true},
		{"1997-07-16T19:20:30.45+01:00", time.Date(1997, 7, 16, 18, 20, 30, 450e6, time.UTC), true},
		{"1997-07-16T19:20:30Z", time.Date(1997, 7, 16, 19, 20, 30, 0, time.UTC), true},
		{"1997-07-16T19:20:30", time.Time{}, false}, // a time needs a zone
		{"16/07/1997", time.Time{}, false},
		{"1997-13-01", time.Time{}, false},
		{"", time.Time{}, false},
	} {
		got, ok := ParseW3C(tc.in)
		if ok != tc.ok || !got.Equal(tc.want) {
			t.Errorf("ParseW3C(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
