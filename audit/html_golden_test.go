package audit

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// manyReport has more crawlers than the charts draw (six series, fifteen
// bars), over twenty days, with names at the lengths where labels are cut
// (18 and 20 bytes), every status class, and crawlers tied on disallowed
// requests.
func manyReport() *Report {
	names := []string{"Googlebot", "Crawler-Eighteen-1", "Crawler-Nineteen-01", "bingbot", "Crawler-Twenty-Chars", "Crawler-Twenty-One-Ch",
		"GPTBot", "YandexBot", "Applebot", "DuckDuckBot", "Slurp", "Baiduspider", "PetalBot", "SeznamBot", "AhrefsBot", "SemrushBot"}
	r := &Report{Schema: SchemaVersion, Sources: []string{"many.log"}, Lines: 10000, Requests: 9000, Other: 100,
		First: day1, Last: day1.AddDate(0, 0, 19), Robots: []RobotsInfo{{Source: "robots.txt"}, {Since: day1.AddDate(0, 0, 10), Source: "new.txt"}},
		Grace: Duration(24 * time.Hour), Verify: "lists"}
	for i, name := range names {
		c := &Crawler{Name: name, Requests: int64(1000 - 50*i), Days: map[string]int64{}, Status: map[string]int64{}}
		for d := range 20 {
			if (d+i)%3 != 0 {
				c.Days[day1.AddDate(0, 0, d).Format(time.DateOnly)] = int64(10*(i+1) + d)
			}
		}
		switch i {
		case 0: // every class
			c.Status = map[string]int64{"101": 1, "200": 600, "304": 200, "404": 150, "500": 49}
		case 1: // one request
			c.Status = map[string]int64{"200": 1}
		case 2: // none logged
			c.Status = map[string]int64{"-": 5}
		default:
			c.Status = map[string]int64{"200": int64(100 * i), "503": 1}
		}
		switch i {
		case 0:
			c.DisallowedRequests, c.SpoofedDisallowed, c.GraceRequests = 800, 100, 50
		case 1, 2: // tied
			c.DisallowedRequests = 20
		case 3: // grace only
			c.GraceRequests = 30
		case 4: // the smallest bar
			c.DisallowedRequests, c.SpoofedDisallowed = 1, 1
		case 5: // one grace request
			c.GraceRequests = 1
		}
		r.Crawlers = append(r.Crawlers, c)
	}
	return r
}

// TestHTMLGolden holds the HTML report of constructed Reports, charts and
// table included, to the pages in testdata/html (go test ./audit -run
// TestHTMLGolden -update rewrites them; review the diff). The time the page
// was generated is left out.
func TestHTMLGolden(t *testing.T) {
	six := manyReport()
	six.Crawlers = six.Crawlers[5:11] // six crawlers, none over robots.txt
	for _, c := range six.Crawlers {
		c.DisallowedRequests, c.SpoofedDisallowed, c.GraceRequests = 0, 0, 0
	}
	six.Verify = "off"
	generated := regexp.MustCompile(`generated \d{4}-\d\d-\d\d \d\d:\d\d UTC`)
	for _, tt := range []struct {
		name string
		r    *Report
	}{
		{"everything", fullReport()},
		{"one", oneReport()},
		{"many", manyReport()},
		{"six", six},
		{"nothing", &Report{Lines: 5, BadLines: 5, Verify: "lists"}},
		{"no-crawlers", &Report{Lines: 3, Requests: 3, Other: 3, First: day1, Last: day1, Robots: []RobotsInfo{{Source: "robots.txt"}}, Verify: "lists"}},
	} {
		var b bytes.Buffer
		if err := WriteHTML(&b, tt.r); err != nil {
			t.Fatal(err)
		}
		got := generated.ReplaceAll(b.Bytes(), []byte("generated TIME"))
		path := filepath.Join("testdata", "html", tt.name+".html")
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the page differs from %s (run with -update and review the diff):\n%s", tt.name, path, diff(string(want), string(got)))
		}
	}
}
