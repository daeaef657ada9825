package rep_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/robotsfetch"
)

// originsRobots is origin i's robots.txt: rules of its own (the paths name
// i), so every origin's file is a distinct parse with distinct answers.
func originsRobots(i int) string {
	return fmt.Sprintf("User-agent: *\nDisallow: /private%d/\nAllow: /private%d/ok\nDisallow: /*.pdf$\n\n"+
		"User-agent: otherbot\nDisallow: /\n\nSitemap: https://site%d.example.com/sitemap.xml\n", i, i, i)
}

// originsQueries is the work of one pass of BenchmarkCheckOrigins: the
// same number of distinct URLs for every n, spread over n origins in a
// fixed pseudo-random order of the origins (for n = 2 that is strict
// alternation), each with the verdict its origin's rules give.
func originsQueries(n int) (urls []string, want []bool) {
	const queries = 1000
	order := rand.New(rand.NewPCG(35, uint64(n))).Perm(n)
	for k := range queries {
		o := order[k%n]
		site := "https://site" + strconv.Itoa(o) + ".example.com"
		var path string
		allowed := false
		switch k % 5 {
		case 0:
			path = fmt.Sprintf("/private%d/page?id=%d", o, k)
		case 1:
			path, allowed = fmt.Sprintf("/private%d/ok/page?id=%d", o, k), true
		case 2:
			path = fmt.Sprintf("/docs/%d.pdf", k)
		case 3:
			path, allowed = fmt.Sprintf("/docs/%d.pdf?download=1", k), true
		case 4:
			// Another origin's private path: allowed here, so a
			// verdict from the wrong file shows.
			path, allowed = fmt.Sprintf("/private%d/page?id=%d", o+1, k), true
		}
		urls = append(urls, site+path)
		want = append(want, allowed)
	}
	return urls, want
}

// BenchmarkCheckOrigins is a crawler's warm Check when its requests
// alternate between origins, as a crawler's do: origins=1 is the base the
// others are read against, in the same run. Every origin serves a
// robots.txt of its own from memory (no network), parsed into a file of
// its own; each is in the cache before the timer starts. Every case asks
// about the same number of distinct URLs, so what differs is the number of
// origins; every verdict is checked.
func BenchmarkCheckOrigins(b *testing.B) {
	rt := handlerTransport{http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := strings.TrimSuffix(r.Host, ".example.com")
		i, err := strconv.Atoi(strings.TrimPrefix(host, "site"))
		if err != nil || r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, originsRobots(i))
	})}
	for _, n := range []int{1, 2, 1000} {
		b.Run(fmt.Sprintf("origins=%d", n), func(b *testing.B) {
			c, err := rep.New("ExampleBot/1.0", rep.WithFetchOptions(robotsfetch.Options{Client: &http.Client{Transport: rt}}))
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			urls, want := originsQueries(n)
			for i, u := range urls {
				if d, err := c.Check(ctx, u); err != nil || d.Allowed != want[i] || d.FromFetch() {
					b.Fatalf("warming %s: %v %v, want allowed=%v", u, d, err, want[i])
				}
			}
			b.ReportAllocs()
			cpu := startCPU()
			i := 0
			for b.Loop() {
				if d, _ := c.Check(ctx, urls[i]); d.Allowed != want[i] {
					b.Fatalf("%s: allowed=%v", urls[i], d.Allowed)
				}
				if i++; i == len(urls) {
					i = 0
				}
			}
			cpu.report(b)
		})
	}
}

// cpuClock reads the process's CPU time, so a benchmark can report it
// beside the wall time: on a machine shared with other work the wall time
// per operation grows with the load, the CPU time much less, and a ratio
// of two runs taken at different loads is read more safely in CPU time.
type cpuClock time.Duration

func cpuNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func startCPU() cpuClock { return cpuClock(cpuNow()) }

// report adds cpu-ns/op, the process's CPU time over the loop per
// operation (it includes the runtime's own threads: the benchmarks that
// use it allocate nothing, so there is little of that).
func (c cpuClock) report(b *testing.B) {
	if b.N > 0 {
		b.ReportMetric(float64(cpuNow()-time.Duration(c))/float64(b.N), "cpu-ns/op")
	}
}
