package accesslog

import (
	"bytes"
	"os"
	"testing"
)

func benchParse(b *testing.B, format, file string, opt Options) {
	data, err := os.ReadFile("testdata/" + file)
	if err != nil {
		b.Fatal(err)
	}
	var lines [][]byte
	for l := range bytes.SplitSeq(data, []byte("\n")) {
		if len(l) > 0 && l[0] != '#' {
			lines = append(lines, l)
		}
	}
	p, err := MustFormat(format).NewParser(opt)
	if err != nil {
		b.Fatal(err)
	}
	var r Record
	if format == "cloudfront" || format == "w3c" {
		for l := range bytes.SplitSeq(data, []byte("\n")) {
			if bytes.HasPrefix(l, []byte("#Fields")) {
				p.Parse(l, &r)
				break
			}
		}
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		p.Parse(lines[n%len(lines)], &r)
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "lines/s")
}

func BenchmarkParseCombined(b *testing.B) { benchParse(b, "combined", "combined.log", Options{}) }
func BenchmarkParseW3C(b *testing.B)      { benchParse(b, "w3c", "w3c.log", Options{}) }
func BenchmarkParseCloudFront(b *testing.B) {
	benchParse(b, "cloudfront", "cloudfront.log", Options{})
}
func BenchmarkParseALB(b *testing.B)   { benchParse(b, "alb", "alb.log", Options{}) }
func BenchmarkParseCaddy(b *testing.B) { benchParse(b, "caddy", "caddy.log", Options{}) }
func BenchmarkParseJSON(b *testing.B)  { benchParse(b, "json", "json.log", Options{}) }
func BenchmarkParseNginx(b *testing.B) {
	benchParse(b, goldenCases[8].format, "nginx.log", Options{ClientIP: "X-Forwarded-For"})
}

// BenchmarkReader measures the whole read path — line splitting plus the
// combined parser — over an in-memory log.
func BenchmarkReader(b *testing.B) {
	line := []byte(`66.249.66.1 - - [01/Mar/2026:00:00:01 +0000] "GET /products/item-12345?color=red HTTP/1.1" 200 5123 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"` + "\n")
	data := bytes.Repeat(line, 20000)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	n := 0
	for b.Loop() {
		r, err := NewReader(bytes.NewReader(data), "bench", MustFormat("combined"), Options{})
		if err != nil {
			b.Fatal(err)
		}
		for {
			if _, err := r.Next(); err != nil {
				break
			}
			n++
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "lines/s")
}
