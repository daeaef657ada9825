package robotsmeta

import (
	"fmt"
	"strings"
	"testing"
)

// typicalPage builds a ~200 KB page shaped like a news article: a head with
// the usual metas, scripts and styles, a navigation of a few hundred links,
// paragraphs, a data-nosnippet block, user comments with rel=ugc and a
// large inline JSON blob. robots is the robots meta content ("" for none).
func typicalPage(robots string) string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>Example article</title>\n")
	b.WriteString(`<meta name="viewport" content="width=device-width, initial-scale=1">` + "\n")
	b.WriteString(`<meta name="description" content="An example article used to benchmark robots meta parsing.">` + "\n")
	if robots != "" {
		fmt.Fprintf(&b, "<meta name=\"robots\" content=%q>\n", robots)
	}
	b.WriteString(`<meta name="googlebot" content="max-image-preview:large, max-snippet:-1">` + "\n")
	for i := range 20 {
		fmt.Fprintf(&b, "<link rel=\"preload\" href=\"/static/chunk-%d.js\" as=\"script\">\n<meta property=\"og:tag%d\" content=\"value %d\">\n", i, i, i)
	}
	b.WriteString("<style>" + strings.Repeat(".c{color:#333;margin:0 auto;padding:4px}\n", 300) + "</style>\n")
	b.WriteString("<script>window.dataLayer=[];" + strings.Repeat("function f(a){return a<b&&c>d}\n", 200) + "</script>\n</head>\n<body>\n<nav><ul>")
	for i := range 300 {
		fmt.Fprintf(&b, "<li><a href=\"/section/%d/index.html\" class=\"nav-link\">Section %d</a></li>\n", i, i)
	}
	b.WriteString("</ul></nav>\n<main><article><h1>Headline</h1>\n")
	for i := range 600 {
		fmt.Fprintf(&b, "<p>Paragraph %d of body text with <b>bold</b>, <em>emphasis</em> and a <a href=\"https://example.org/ref/%d\">reference</a>. Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.</p>\n", i, i)
		if i == 100 {
			b.WriteString("<div data-nosnippet><p>Subscriber-only summary that must not appear in snippets.</p></div>\n")
		}
	}
	b.WriteString("</article><section class=\"comments\">")
	for i := range 100 {
		fmt.Fprintf(&b, "<div class=\"comment\"><p>Comment %d <a href=\"https://spam.example/%d\" rel=\"ugc nofollow\">my site</a></p></div>\n", i, i)
	}
	b.WriteString("</section></main>\n<script type=\"application/json\" id=\"state\">" + strings.Repeat(`{"k":"v","n":[1,2,3]},`, 1200) + "</script>\n</body></html>\n")
	return b.String()
}

func benchParse(b *testing.B, doc string, o Options) {
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseLines(nil, strings.NewReader(doc), o); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParse200KB reads everything: policy, links and regions.
func BenchmarkParse200KB(b *testing.B) {
	benchParse(b, typicalPage(""), Options{})
}

// BenchmarkParse200KBIndexingOnly asks only for index/follow on an
// indexable page: no early stop is possible (a body meta may still come),
// but links and regions are not collected.
func BenchmarkParse200KBIndexingOnly(b *testing.B) {
	benchParse(b, typicalPage(""), Options{Need: NeedIndexing, Agent: "googlebot"})
}

// BenchmarkParse200KBEarlyStop asks only for index/follow on a noindex,
// nofollow page: reading stops at the robots meta in <head>.
func BenchmarkParse200KBEarlyStop(b *testing.B) {
	benchParse(b, typicalPage("noindex, nofollow"), Options{Need: NeedIndexing, Agent: "googlebot"})
}

// BenchmarkPolicy is the query hot path: one crawler's policy from a
// parsed page.
func BenchmarkPolicy(b *testing.B) {
	p, err := ParseLines([]string{"X-Robots-Tag: googlebot: noarchive, otherbot: noindex"}, strings.NewReader(typicalPage("nosnippet")), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		pol := p.Policy("googlebot", Google, p.Rules[0].Time)
		if pol.Snippet {
			b.Fatal("nosnippet lost")
		}
	}
}

// BenchmarkHeader parses a busy X-Robots-Tag header.
func BenchmarkHeader(b *testing.B) {
	lines := []string{"X-Robots-Tag: googlebot: noindex, nofollow, max-snippet:20, unavailable_after: Friday, 25-Jun-10 15:00:00 PST, bingbot: noarchive"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseLines(lines, nil, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestTypicalPageShape(t *testing.T) {
	doc := typicalPage("noindex, nofollow")
	if n := len(doc); n < 180<<10 || n > 240<<10 {
		t.Fatalf("typical page is %d bytes, want ~200 KB", n)
	}
	full, err := ParseLines(nil, strings.NewReader(doc), Options{})
	if err != nil {
		t.Fatal(err)
	}
	early, err := ParseLines(nil, strings.NewReader(doc), Options{Need: NeedIndexing, Agent: "googlebot"})
	if err != nil {
		t.Fatal(err)
	}
	if early.Stop != StopSettled || early.BytesRead >= full.BytesRead/4 {
		t.Fatalf("early stop: %s after %d of %d bytes", early.Stop, early.BytesRead, full.BytesRead)
	}
	if len(full.Links) != 1000 || len(full.NoSnippet) != 1 {
		t.Fatalf("full parse: %d links, %d regions", len(full.Links), len(full.NoSnippet))
	}
}
