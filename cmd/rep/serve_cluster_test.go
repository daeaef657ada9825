package main

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/internal/testkit/rediscluster"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotsfetch/redisstore"
	"github.com/rep-toolkit/rep/server"
)

// TestRedisClusterServeStore: -store redis-cluster://... reaches a real
// cluster of three masters and caches entries in it.
func TestRedisClusterServeStore(t *testing.T) {
	c := rediscluster.Start(t, 3, 0)
	var cfg server.Config
	closeStore, err := serveStore(&cfg, c.URL(), false, io.Discard)
	if err != nil {
		t.Fatalf("-store %s: %v", c.URL(), err)
	}
	defer closeStore()
	st, ok := cfg.Store.(*redisstore.Store)
	if !ok {
		t.Fatalf("store %T, want a redisstore.Store", cfg.Store)
	}
	ctx := context.Background()
	e := &robotsfetch.Entry{Origin: "https://a.example", Last: robotsfetch.Outcome{Case: robotsfetch.Success, Verdict: robotsfetch.UseRules},
		Good: &robotsfetch.Copy{Case: robotsfetch.Success, Status: 200, Body: []byte("User-agent: *\nDisallow: /\n")}}
	for _, k := range []string{"https://a.example", "https://b.example", "https://c.example", "https://d.example"} {
		if err := st.Put(ctx, k, e, time.Minute); err != nil {
			t.Fatal(err)
		}
		if got, err := st.Get(ctx, k); err != nil || got == nil || string(got.Good.Body) != string(e.Good.Body) {
			t.Fatalf("%s: %+v %v", k, got, err)
		}
	}
}
