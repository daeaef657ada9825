package sitemap

import (
	"fmt"
	"testing"

	"github.com/rep-toolkit/rep/robotstxt"
)

func TestDiscover(t *testing.T) {
	f := robotstxt.Parse([]byte("User-agent: *\nDisallow: /x\nSitemap: https://a.example/s1.xml\nSitemap: https://cdn.example/s2.xml.gz\nSitemap: https://a.example/s1.xml\n"))
	got := Discover(f, "https://a.example")
	if fmt.Sprint(got) != "[{https://a.example/s1.xml robots.txt 3 https://a.example/} {https://cdn.example/s2.xml.gz robots.txt 4 https://a.example/}]" {
		t.Errorf("from robots.txt: %v", got)
	}
	for _, f := range []*robotstxt.File{nil, robotstxt.Parse([]byte("User-agent: *\nDisallow:\n"))} {
		got = Discover(f, "https://a.example/")
		if len(got) != 1 || got[0].URL != "https://a.example/sitemap.xml" || got[0].Source != FromDefault || got[0].Scope != "" {
			t.Errorf("default: %v", got)
		}
	}
}
