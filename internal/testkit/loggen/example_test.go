package loggen_test

import (
	"fmt"
	"io"

	"github.com/rep-toolkit/rep/internal/testkit/loggen"
)

func Example() {
	tr, err := loggen.Generate(io.Discard, loggen.Config{Seed: 1, Requests: 5000, Format: "combined"})
	if err != nil {
		fmt.Println(err)
		return
	}
	g := tr.Crawlers["GPTBot"]
	fmt.Println(tr.Requests, "requests,", tr.BadLines, "bad lines")
	fmt.Println("robots.txt changes at", tr.Robots[1].Since)
	fmt.Println("GPTBot requests:", g.Requests, "forged:", g.Forged, "disallowed:", g.Disallowed)
	// Output:
	// 5000 requests, 5 bad lines
	// robots.txt changes at 2026-03-03 00:00:00 +0000 UTC
	// GPTBot requests: 136 forged: 84 disallowed: 84
}
