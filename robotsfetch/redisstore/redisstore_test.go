package redisstore

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/internal/testkit"
	"github.com/rep-toolkit/rep/robotsfetch"
)

// redisServer is a real redis-server on a free loopback port, owned by one
// test. A missing redis-server fails the test: make test installs it.
type redisServer struct {
	cmd    *exec.Cmd
	addr   string
	out    bytes.Buffer
	once   sync.Once
	client *redis.Client
}

func startRedis(t testing.TB) *redisServer {
	t.Helper()
	path, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatalf("redis-server is needed by the Redis store tests and was not found (apt-get install redis-server; make test installs it): %v", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	s := &redisServer{addr: "127.0.0.1:" + strconv.Itoa(port)}
	s.cmd = exec.Command(path, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "",
		"--appendonly", "no", "--dir", t.TempDir(), "--loglevel", "warning")
	s.cmd.Stdout, s.cmd.Stderr = &s.out, &s.out
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("starting redis-server: %v", err)
	}
	t.Cleanup(s.stop)
	s.client = redis.NewClient(&redis.Options{Addr: s.addr, MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
	t.Cleanup(func() { s.client.Close() })
	if !testkit.Until(time.Minute, func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		err = s.client.Ping(ctx).Err()
		return err == nil
	}) {
		t.Fatalf("redis-server on %s did not answer: %v\n%s", s.addr, err, s.out.String())
	}
	return s
}

func (s *redisServer) stop() {
	s.once.Do(func() {
		s.cmd.Process.Kill()
		s.cmd.Wait()
	})
}

func TestRoundTrip(t *testing.T) {
	r := startRedis(t)
	ctx := context.Background()
	st := New(r.client).WithPrefix("test:")
	e := &robotsfetch.Entry{Origin: "https://a.example", Last: robotsfetch.Outcome{Case: robotsfetch.Success, Verdict: robotsfetch.UseRules},
		Good: &robotsfetch.Copy{Case: robotsfetch.Success, Status: 200, Body: []byte("User-agent: *\nDisallow: /\n")}}
	if err := st.Put(ctx, "https://a.example", e, time.Hour); err != nil {
		t.Fatal(err)
	}
	got, err := st.Get(ctx, "https://a.example")
	if err != nil || got == nil || string(got.Good.Body) != string(e.Good.Body) || got.Version != robotsfetch.EntryVersion {
		t.Fatalf("%+v %v", got, err)
	}
	if ttl := r.client.TTL(ctx, "test:https://a.example").Val(); ttl <= 0 || ttl > time.Hour {
		t.Errorf("TTL %v", ttl)
	}
	if got, err := st.Get(ctx, "https://absent.example"); got != nil || err != nil {
		t.Errorf("absent: %+v %v", got, err)
	}
	// A value written by a newer release is absent, never misread.
	r.client.Set(ctx, "test:https://v4.example", `{"v":4,"last":{"case":"success"}}`, time.Hour)
	if got, err := st.Get(ctx, "https://v4.example"); got != nil || err != nil {
		t.Errorf("v4: %+v %v", got, err)
	}
	// A damaged value is an error: the Fetcher then fetches for itself.
	r.client.Set(ctx, "test:https://bad.example", "{not json", time.Hour)
	if _, err := st.Get(ctx, "https://bad.example"); err == nil {
		t.Error("damaged value read without an error")
	}
	if n := r.client.Exists(ctx, DefaultPrefix+"https://a.example").Val(); n != 0 {
		t.Error("WithPrefix ignored")
	}
}

type site struct {
	*httptest.Server
	hits atomic.Int64
	code atomic.Int64
}

func newSite(t testing.TB, body string) *site {
	s := &site{}
	s.code.Store(200)
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			s.hits.Add(1)
		}
		w.WriteHeader(int(s.code.Load()))
		fmt.Fprint(w, body)
	}))
	t.Cleanup(s.Close)
	return s
}

func crawler(t testing.TB, st robotsfetch.Store) *rep.Crawler {
	c, err := rep.New("ExampleBot/1.0", rep.WithStore(st), rep.WithFetchOptions(robotsfetch.Options{StoreTimeout: time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func allowed(t *testing.T, c *rep.Crawler, u string) rep.Decision {
	t.Helper()
	d, err := c.Check(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestFleetAndOutage: two crawlers share one Redis; then Redis stops.
// The crawlers keep answering from their local layer, fetch for themselves
// what they must, and never allow an origin they could not read.
func TestFleetAndOutage(t *testing.T) {
	r := startRedis(t)
	st := New(r.client)
	rules := "User-agent: *\nDisallow: /private\n"
	one, two, down := newSite(t, rules), newSite(t, rules), newSite(t, "")
	down.code.Store(503)
	a, b := crawler(t, st), crawler(t, st)

	if d := allowed(t, a, one.URL+"/private/x"); d.Allowed || d.Fetch.Source != robotsfetch.FromNetwork {
		t.Fatalf("a, one: %v", d)
	}
	allowed(t, a, two.URL+"/")
	if d := allowed(t, b, one.URL+"/private/x"); d.Allowed || d.Fetch.Source != robotsfetch.FromStore || one.hits.Load() != 1 {
		t.Fatalf("b, one: %v; %d requests", d, one.hits.Load())
	}
	if d := allowed(t, b, down.URL+"/"); d.Allowed || d.Fetch.Case != robotsfetch.Unreachable {
		t.Fatalf("b, down: %v", d)
	}

	r.stop()

	// Local layer: a still knows one and two, b knows one.
	if d := allowed(t, a, one.URL+"/private/x"); d.Allowed || d.Fetch.StoreError != "" {
		t.Errorf("a, one, Redis stopped: %v", d)
	}
	if d := allowed(t, a, two.URL+"/public"); !d.Allowed {
		t.Errorf("a, two, Redis stopped: %v", d)
	}
	// b never read two: Redis fails, b fetches two itself.
	d := allowed(t, b, two.URL+"/private/y")
	if d.Allowed || d.Fetch.Source != robotsfetch.FromNetwork || !d.Fetch.Has(robotsfetch.WarnStoreFailed) || d.Fetch.StoreError == "" {
		t.Errorf("b, two, Redis stopped: %v (store error %q)", d, d.Fetch.StoreError)
	}
	if d := allowed(t, b, two.URL+"/public"); !d.Allowed {
		t.Errorf("b, two /public: %v", d)
	}
	// An origin nobody could read: disallowed, through every layer.
	for _, c := range []*rep.Crawler{a, b} {
		if d := allowed(t, c, down.URL+"/"); d.Allowed {
			t.Errorf("down origin allowed with Redis stopped: %v", d)
		}
	}
	gone := newSite(t, "")
	gone.Close()
	if d := allowed(t, a, gone.URL+"/"); d.Allowed || !d.Fetch.Has(robotsfetch.WarnStoreFailed) {
		t.Errorf("closed origin with Redis stopped: %v", d)
	}
}

// BenchmarkAllowedCachedRedis: Allowed with the Redis store configured and
// the origin in the local layer (the crawler's steady state).
func BenchmarkAllowedCachedRedis(b *testing.B) {
	r := startRedis(b)
	s := newSite(b, "User-agent: *\nDisallow: /private\n")
	c := crawler(b, New(r.client))
	ctx := context.Background()
	u := s.URL + "/private/page?id=42"
	c.Check(ctx, u)
	b.ReportAllocs()
	for b.Loop() {
		if d, _ := c.Check(ctx, u); d.Allowed {
			b.Fatal("allowed")
		}
	}
}

// BenchmarkAllowedFromRedis: every call misses the local layer (one
// origin held, two asked alternately) and reads the entry from Redis: a
// round trip, decoding and parsing, as a crawler of a fleet pays for an
// origin another crawler fetched.
func BenchmarkAllowedFromRedis(b *testing.B) {
	r := startRedis(b)
	s1, s2 := newSite(b, "User-agent: *\nDisallow: /private\n"), newSite(b, "User-agent: *\nDisallow: /private\n")
	c, err := rep.New("ExampleBot/1.0", rep.WithStore(New(r.client)), rep.WithFetchOptions(robotsfetch.Options{MaxOrigins: 1}))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	urls := []string{s1.URL + "/private/x", s2.URL + "/private/x"}
	for _, u := range urls {
		c.Check(ctx, u)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		d, _ := c.Check(ctx, urls[i%2])
		if d.Allowed || d.Fetch.Source != robotsfetch.FromStore {
			b.Fatalf("%v", d)
		}
		i++
	}
}
