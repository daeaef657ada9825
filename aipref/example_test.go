package aipref_test

import (
	"fmt"

	"github.com/rep-toolkit/rep/aipref"
	"github.com/rep-toolkit/rep/robotstxt"
)

// One usage-preference verdict for a URL and a crawler from its robots.txt
// and the site's tdmrep.json: the most restrictive statement on each
// category decides, and every statement stays in the evidence.
func Example() {
	f := robotstxt.Parse([]byte("Content-Signal: search=yes, ai-train=yes\n\nUser-agent: *\nAllow: /\nContent-Usage: /docs/ train-ai=n\n"))
	g := f.Matcher("ExampleBot")
	url := "https://example.com/docs/a.html"
	allowed := g.Allowed(url)
	tdm, err := aipref.ParseTDMRep([]byte(`[{"location": "/docs/*", "tdm-reservation": 1}]`))
	if err != nil {
		fmt.Println(err)
		return
	}
	v := aipref.Combine(aipref.Robots(f, g, url, allowed), aipref.TDMRep(tdm, url))
	fmt.Println(v)
	for _, e := range v.Evidence {
		if e.Category == aipref.TrainAI {
			fmt.Printf("%s (%s) outweighed=%v\n", e.Carrier, e.Value, e.Outweighed)
		}
	}
	// Output:
	// train-ai=disallowed ai-use=disallowed search=allowed
	// robots.txt Content-Usage (Content-Usage: /docs/ train-ai=n) outweighed=false
	// robots.txt Content-Signal (Content-Signal: search=yes, ai-train=yes) outweighed=true
	// tdmrep.json (tdm-reservation: 1) outweighed=false
}
