package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/internal/testkit"
	"github.com/rep-toolkit/rep/internal/testkit/rediscluster"
	"github.com/rep-toolkit/rep/internal/testkit/storetest"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/server"
)

// quietLog discards go-redis's log lines (a killed node is dialled again
// and again until the cluster client learns of the failover).
type quietLog struct{}

func (quietLog) Printf(context.Context, string, ...any) {}

func init() { redis.SetLogger(quietLog{}) }

func clusterClient(t testing.TB, c *rediscluster.Cluster) redis.UniversalClient {
	t.Helper()
	rc, err := NewClient(c.URL() + "?dial_timeout=200ms")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := rc.(*redis.ClusterClient); !ok {
		t.Fatalf("NewClient(%q) = %T, want a cluster client", c.URL(), rc)
	}
	t.Cleanup(func() { rc.Close() })
	return rc
}

func TestNewClientURLs(t *testing.T) {
	for _, u := range []string{"redis://127.0.0.1:6379/2", "rediss://u:p@h:1"} {
		c, err := NewClient(u)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		if _, ok := c.(*redis.Client); !ok {
			t.Errorf("%s: %T", u, c)
		}
		c.Close()
	}
	c, err := NewClient("redis-cluster://u:p@h1:1,h2:2, h3:3/?read_timeout=2s")
	if err != nil {
		t.Fatal(err)
	}
	cc, ok := c.(*redis.ClusterClient)
	if !ok {
		t.Fatalf("%T", c)
	}
	o := cc.Options()
	if strings.Join(o.Addrs, " ") != "h1:1 h2:2 h3:3" || o.Username != "u" || o.Password != "p" || o.ReadTimeout != 2*time.Second || o.TLSConfig != nil {
		t.Errorf("cluster options %v %q %q %v %v", o.Addrs, o.Username, o.Password, o.ReadTimeout, o.TLSConfig)
	}
	c.Close()
	c, err = NewClient("rediss-cluster://h1:1")
	if err != nil || c.(*redis.ClusterClient).Options().TLSConfig == nil {
		t.Errorf("rediss-cluster: %v", err)
	}
	c.Close()
	for _, bad := range []string{"h1:1", "memcache://h:1", "redis-cluster://", "redis-cluster://h:1/3", "redis-cluster://h:1?dial_timeout=x", "redis://h:1/x"} {
		if c, err := NewClient(bad); !errors.Is(err, ErrURL) {
			t.Errorf("%q: %v, want ErrURL", bad, err)
			if c != nil {
				c.Close()
			}
		}
	}
}

// TestRedisClusterStore: the Store on a three-master cluster: entries and
// leases land on every master, and a cold fleet fetches each origin once.
func TestRedisClusterStore(t *testing.T) {
	c := rediscluster.Start(t, 3, 0)
	rc := clusterClient(t, c)
	ctx := context.Background()
	st := New(rc).WithPrefix("test:")
	e := &robotsfetch.Entry{Origin: "https://a.example", Last: robotsfetch.Outcome{Case: robotsfetch.Success, Verdict: robotsfetch.UseRules},
		Good: &robotsfetch.Copy{Case: robotsfetch.Success, Status: 200, Body: []byte("User-agent: *\nDisallow: /\n")}}
	masters := map[string]bool{}
	for i := range 30 {
		k := fmt.Sprintf("https://h%d.example", i)
		if err := st.Put(ctx, k, e, time.Hour); err != nil {
			t.Fatal(err)
		}
		if got, err := st.Get(ctx, k); err != nil || got == nil || string(got.Good.Body) != string(e.Good.Body) {
			t.Fatalf("%s: %+v %v", k, got, err)
		}
		tok, ok, err := st.AcquireLease(ctx, k, time.Minute)
		if err != nil || !ok {
			t.Fatalf("lease %s: %v %v", k, ok, err)
		}
		if _, ok, _ := st.AcquireLease(ctx, k, time.Minute); ok {
			t.Fatalf("lease %s granted twice", k)
		}
		if err := st.ReleaseLease(ctx, k, tok); err != nil {
			t.Fatal(err)
		}
		if _, ok, _ := st.AcquireLease(ctx, k, time.Minute); !ok {
			t.Fatalf("released lease %s not granted", k)
		}
		m, err := rc.(*redis.ClusterClient).MasterForKey(ctx, "test:"+k)
		if err != nil {
			t.Fatal(err)
		}
		masters[m.Options().Addr] = true
	}
	if len(masters) != 3 {
		t.Errorf("30 keys on %d masters, want 3", len(masters))
	}
	if n := storetest.ColdFleet(t, New(rc).WithPrefix("fleet:"), 2, 20, 0); n != 20 {
		t.Errorf("2 Fetchers × 20 origins on a cluster: %d requests, want 20", n)
	}
}

// repServer is a rep server (server.New) on a loopback port with a
// cluster store of its own client, as one process of a fleet.
func repServer(t *testing.T, c *rediscluster.Cluster) string {
	t.Helper()
	srv, err := server.New(server.Config{Store: New(clusterClient(t, c)), AllowPrivate: true, RatePerSecond: -1})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { srv.Serve(ctx, ln); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return "http://" + ln.Addr().String()
}

// answer is the part of /api/allowed's answer the tests read.
type answer struct {
	Allowed bool `json:"allowed"`
	Fetch   struct {
		Source     string `json:"source"`
		Case       string `json:"case"`
		StoreError string `json:"store_error"`
	} `json:"fetch"`
}

var httpClient = &http.Client{Timeout: 60 * time.Second}

func ask(srv, u string) (answer, error) {
	var a answer
	resp, err := httpClient.Get(srv + "/api/allowed?agent=ExampleBot&url=" + u)
	if err != nil {
		return a, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return a, fmt.Errorf("%s: status %d", u, resp.StatusCode)
	}
	return a, json.NewDecoder(resp.Body).Decode(&a)
}

// TestRedisClusterFleet runs two rep servers against a cluster of three
// masters with a replica each. An origin fetched through one is answered
// from the store by the other. Then a master is killed while both keep
// answering: no answer allows an origin whose robots.txt was not read
// (503, unreachable), a disallowed path stays disallowed; after the
// failover the store answers again.
func TestRedisClusterFleet(t *testing.T) {
	c := rediscluster.Start(t, 3, 1)
	a, b := repServer(t, c), repServer(t, c)
	const rules = "User-agent: *\nDisallow: /private\n"
	var good []*storetest.Origin
	for range 12 {
		good = append(good, storetest.NewOrigin(t, 0, func(string) string { return rules }))
	}
	for _, o := range good {
		for i, srv := range []string{a, b} {
			d, err := ask(srv, o.URL+"/private/x")
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"network", "store"}[i]
			if d.Allowed || d.Fetch.Source != want {
				t.Fatalf("server %d, %s: %+v, want disallowed from %s", i, o.URL, d, want)
			}
		}
		if o.Hits() != 1 {
			t.Fatalf("%s fetched %d times by two servers sharing the cluster, want 1", o.URL, o.Hits())
		}
	}

	// Origins nobody can read: a 503, and a port that closes every
	// connection it takes. The port stays held for the whole test: a
	// closed port could be handed to an origin made later (it was: the
	// "unreadable" origin then answered with that origin's rules).
	down := newSite(t, "")
	down.code.Store(503)
	unread := []string{down.URL, hangUpOrigin(t)}
	// Origins first asked for during the outage, each once.
	var fresh []*storetest.Origin
	for range 60 {
		fresh = append(fresh, storetest.NewOrigin(t, 0, func(string) string { return rules }))
	}

	var victim *rediscluster.Node
	for _, n := range c.Nodes[:3] {
		if rediscluster.Role(n) == "master" {
			victim = n
			break
		}
	}
	if victim == nil {
		t.Fatal("no master among the first three nodes")
	}

	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var answers, storeErrors, next atomic.Int64
	var killed atomic.Bool
	var bad sync.Map
	check := func(srv, u string, mayAllow bool) {
		d, err := ask(srv, u)
		if err != nil {
			bad.Store(u, err.Error())
			return
		}
		answers.Add(1)
		if d.Fetch.StoreError != "" {
			storeErrors.Add(1)
		}
		if d.Allowed && !mayAllow {
			bad.Store(u, fmt.Sprintf("allowed: %+v", d))
		}
	}
	for w, srv := range []string{a, b} {
		wg.Go(func() {
			for i := 0; ctx.Err() == nil; i++ {
				o := good[(i+w)%len(good)]
				check(srv, o.URL+"/private/x", false)
				check(srv, o.URL+"/public", true)
				check(srv, unread[i%2]+"/", false)
				if killed.Load() {
					if j := next.Add(1) - 1; j < int64(len(fresh)) {
						check(srv, fresh[j].URL+"/private/y", false)
					}
				}
			}
		})
	}
	testkit.Eventually(t, time.Minute, func() bool { return answers.Load() >= 30 }, "30 answers before the kill (%d)", answers.Load())
	c.Kill(victim)
	killed.Store(true)
	t.Logf("killed master %s", victim.Addr())
	var alive []*rediscluster.Node
	for _, n := range c.Nodes {
		if n != victim {
			alive = append(alive, n)
		}
	}
	c.WaitFailover(t, alive, 3)
	after := answers.Load()
	testkit.Eventually(t, time.Minute, func() bool { return answers.Load() >= after+30 }, "30 answers after the failover")
	stop()
	wg.Wait()
	bad.Range(func(k, v any) bool {
		t.Errorf("%s: %s", k, v)
		return true
	})
	t.Logf("%d answers, %d of them with a store error; %d origins first asked for after the kill", answers.Load(), storeErrors.Load(), min(next.Load(), int64(len(fresh))))
	if storeErrors.Load() == 0 {
		t.Error("no answer met the killed master")
	}

	// After the failover: the store answers again, one fetch between the
	// two servers. The clients find the new master on their own.
	var last string
	tries := 0
	if !testkit.Until(time.Minute, func() bool {
		tries++
		o := storetest.NewOrigin(t, 0, func(string) string { return rules })
		da, erra := ask(a, o.URL+"/private/x")
		db, errb := ask(b, o.URL+"/private/x")
		last = fmt.Sprintf("%+v %v / %+v %v, %d fetches", da, erra, db, errb, o.Hits())
		return erra == nil && errb == nil && !da.Allowed && !db.Allowed && da.Fetch.StoreError == "" && db.Fetch.Source == "store" && db.Fetch.StoreError == "" && o.Hits() == 1
	}) {
		t.Fatalf("after the failover: %s", last)
	}
	t.Logf("store answers again after %d tries", tries)
	for _, u := range unread {
		for _, srv := range []string{a, b} {
			if d, err := ask(srv, u+"/"); err != nil || d.Allowed {
				t.Errorf("%s after the failover: %+v %v", u, d, err)
			}
		}
	}

	// The killed node, restarted in its directory, rejoins as a replica.
	c.Restart(t, victim)
	c.WaitPing(t, victim)
	testkit.Eventually(t, time.Minute, func() bool { return rediscluster.Role(victim) == "slave" }, "restarted node rejoins as a replica")
	c.WaitOK(t, c.Nodes...)
}

// BenchmarkAllowedFromRedisCluster is BenchmarkAllowedFromRedis on a
// cluster of three masters: every call misses the local layer and reads
// the entry from the master that holds its slot.
func BenchmarkAllowedFromRedisCluster(b *testing.B) {
	c := rediscluster.Start(b, 3, 0)
	s1, s2 := newSite(b, "User-agent: *\nDisallow: /private\n"), newSite(b, "User-agent: *\nDisallow: /private\n")
	cr, err := rep.New("ExampleBot/1.0", rep.WithStore(New(clusterClient(b, c))), rep.WithFetchOptions(robotsfetch.Options{MaxOrigins: 1}))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	urls := []string{s1.URL + "/private/x", s2.URL + "/private/x"}
	for _, u := range urls {
		cr.Check(ctx, u)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		d, _ := cr.Check(ctx, urls[i%2])
		if d.Allowed || d.Fetch.Source != robotsfetch.FromStore {
			b.Fatalf("%v", d)
		}
		i++
	}
}

// hangUpOrigin returns the URL of a loopback origin that accepts every
// connection and closes it at once, unread: a fetch from it fails.
func hangUpOrigin(t testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	return "http://" + ln.Addr().String()
}
