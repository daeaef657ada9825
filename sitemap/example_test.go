package sitemap_test

import (
	"fmt"
	"strings"

	"github.com/rep-toolkit/rep/sitemap"
)

// Stream the entries of a sitemap; what is wrong with it comes back as
// findings: here an entry outside the sitemap's directory, which is left
// out.
func ExampleParse() {
	const doc = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/catalog/a</loc><lastmod>2026-11-01</lastmod></url>
  <url><loc>https://example.com/elsewhere</loc></url>
</urlset>`
	res, err := sitemap.Parse(strings.NewReader(doc), sitemap.Options{URL: "https://example.com/catalog/sitemap.xml"},
		func(e sitemap.Entry) error {
			fmt.Println(e.Loc, e.LastMod.Format("2006-01-02"))
			return nil
		})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range res.Findings {
		fmt.Println(f.Code)
	}
	// Output:
	// https://example.com/catalog/a 2026-11-01
	// outside-path
}
