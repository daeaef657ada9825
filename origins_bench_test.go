package rep_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/robotsfetch"
)

// BenchmarkCheckOrigins is a crawler's warm Check when its requests
// alternate between origins, as a crawler's do: origins=1 is the base the
// others are read against, in the same run. Every origin serves the same
// robots.txt from memory (no network), parsed into a file of its own;
// each is in the cache before the timer starts.
func BenchmarkCheckOrigins(b *testing.B) {
	const robots = "User-agent: *\nDisallow: /private\nAllow: /private/ok\n\nUser-agent: otherbot\nDisallow: /\n"
	rt := handlerTransport{http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, robots)
	})}
	for _, n := range []int{1, 2, 1000} {
		b.Run(fmt.Sprintf("origins=%d", n), func(b *testing.B) {
			c, err := rep.New("ExampleBot/1.0", rep.WithFetchOptions(robotsfetch.Options{Client: &http.Client{Transport: rt}}))
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			urls := make([]string, n)
			for i := range urls {
				urls[i] = fmt.Sprintf("https://site%d.example.com/private/page?id=%d", i, i)
				if d, err := c.Check(ctx, urls[i]); err != nil || d.Allowed {
					b.Fatalf("warming %s: %v %v", urls[i], d, err)
				}
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if d, _ := c.Check(ctx, urls[i]); d.Allowed {
					b.Fatal("allowed")
				}
				if i++; i == n {
					i = 0
				}
			}
		})
	}
}
