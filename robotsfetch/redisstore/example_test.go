package redisstore_test

import (
	"context"
	"fmt"
	"log"

	"github.com/redis/go-redis/v9"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotsfetch/redisstore"
)

// Every crawler process of a fleet opens the same Redis: an origin is
// fetched once for the whole fleet, by the process that takes its lease,
// and the others read the entry it stores. This example needs a Redis
// server on localhost:6379, so it is compiled but not run (it has no
// Output comment); the package's tests do the same against a
// redis-server they start, with 8 processes.
func Example() {
	client := redis.NewClient(&redis.Options{Addr: "localhost:6379"})
	defer client.Close()
	f, err := robotsfetch.New(robotsfetch.Options{
		UserAgent: "ExampleBot/1.0 (+https://example.com/bot)",
		Store:     redisstore.New(client),
	})
	if err != nil {
		log.Fatal(err)
	}
	r, err := f.Get(context.Background(), "https://example.com/some/page")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Outcome.Case, "from", r.Outcome.Source)
	if s := f.Stats(); s.StoreErrors > 0 {
		fmt.Println("Redis failed; the crawler fetched for itself:", r.Outcome.StoreError)
	}
}
