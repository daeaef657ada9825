package engine_test

import (
	"fmt"

	"github.com/rep-toolkit/rep/engine"
)

// Parse a -profile flag or an API's profile field: the four engines, any
// case; an empty value follows the crawler.
func ExampleParse() {
	for _, s := range []string{"Bing", "rfc9309", "", "altavista"} {
		e, err := engine.Parse(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(e, e.ReadsCrawlDelay(), e.Parser())
	}
	// Output:
	// bing true google
	// rfc9309 false rfc9309
	// auto false google
	// unknown engine "altavista": use google, bing, yandex or rfc9309
}
