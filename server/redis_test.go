package server

import (
	"context"
	"net"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rep-toolkit/rep/internal/testkit"
	"github.com/rep-toolkit/rep/robotsfetch/redisstore"
)

// startRedis runs a private redis-server on a free loopback port for one
// test or benchmark. A missing redis-server is a failure: make test
// installs it.
func startRedis(tb testing.TB) *redis.Client {
	tb.Helper()
	path, err := exec.LookPath("redis-server")
	if err != nil {
		tb.Fatalf("redis-server not found (%v): install it with apt-get install redis-server, as make test does", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(path, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", tb.TempDir())
	if err := cmd.Start(); err != nil {
		tb.Fatalf("starting redis-server: %v", err)
	}
	tb.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + strconv.Itoa(port)})
	tb.Cleanup(func() { c.Close() })
	testkit.EventuallyNil(tb, time.Minute, func() error {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		return c.Ping(ctx).Err()
	}, "redis-server on port %d answering PING", port)
	return c
}

// TestRedisFleet: two servers sharing one Redis store fetch an origin's
// robots.txt once between them, as a fleet of crawlers should.
func TestRedisFleet(t *testing.T) {
	o := newOrigin(t, site)
	c := startRedis(t)
	a, _ := newGuardedServer(t, Config{RatePerSecond: -1, Store: redisstore.New(c)})
	b, _ := newGuardedServer(t, Config{RatePerSecond: -1, Store: redisstore.New(c)})
	for _, ts := range []string{a.URL, b.URL} {
		st, m := call(t, "GET", ts+"/api/allowed?agent=Googlebot&url="+o.URL+"/private/x", "")
		if st != 200 || m["allowed"] != false || m["line"].(float64) != 2 {
			t.Fatalf("%s: %d %v", ts, st, m)
		}
	}
	if n := o.hits.Load(); n != 1 {
		t.Errorf("origin fetched %d times by two servers sharing Redis, want 1", n)
	}
	// The second server's answer came from the store, and /api/fetch can
	// show the text from it.
	_, m := call(t, "POST", b.URL+"/api/fetch", `{"url":"`+o.URL+`/"}`)
	if f := m["outcome"].(map[string]any); f["source"] != "store" || f["cached"] != true {
		t.Errorf("second server's fetch = %v, want source store, cached", m)
	}
	if r, _ := m["robots"].(string); len(r) < 20 || r[:13] != "User-agent: *" {
		t.Errorf("robots text from Redis = %q", m["robots"])
	}
}
