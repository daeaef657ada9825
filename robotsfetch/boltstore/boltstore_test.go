package boltstore

import (
	"context"
	"encoding/binary"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/internal/testkit/storetest"
	"github.com/rep-toolkit/rep/robotsfetch"
	bolt "go.etcd.io/bbolt"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func open(t *testing.T, path string, clk *clock) *Store {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Now = clk.Now
	return s
}

func fetcher(t *testing.T, s robotsfetch.Store, clk *clock) *robotsfetch.Fetcher {
	t.Helper()
	f, err := robotsfetch.New(robotsfetch.Options{UserAgent: "ExampleBot/1.0", Store: s, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestRestart: a restarted crawler reads robots.txt from the file instead
// of refetching it, and remembers an outage's start.
func TestRestart(t *testing.T) {
	clk := &clock{t: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}
	var hits atomic.Int64
	var down atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if down.Load() {
			w.WriteHeader(503)
			return
		}
		fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
	}))
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "robots.db")
	ctx := context.Background()

	s := open(t, path, clk)
	r, err := fetcher(t, s, clk).Get(ctx, srv.URL)
	if err != nil || r.Outcome.Case != robotsfetch.Success {
		t.Fatal(r, err)
	}
	s.Close()

	s = open(t, path, clk)
	r, _ = fetcher(t, s, clk).Get(ctx, srv.URL)
	if hits.Load() != 1 || r.Outcome.Source != robotsfetch.FromStore || r.Check("/private", "x").Allowed {
		t.Fatalf("after restart: %d hits, %s from %s", hits.Load(), r.Outcome.String(), r.Outcome.Source)
	}
	if n, _ := s.Len(); n != 1 {
		t.Errorf("%d values", n)
	}

	// The origin goes down; the crawler restarts every day for 31 days.
	down.Store(true)
	clk.Advance(25 * time.Hour)
	start := clk.Now()
	for day := 0; day <= 30; day++ {
		s.Close()
		s = open(t, path, clk)
		r, _ = fetcher(t, s, clk).Get(ctx, srv.URL)
		if !r.Outcome.DownSince.Equal(start) {
			t.Fatalf("day %d: down since %v, want %v", day, r.Outcome.DownSince, start)
		}
		want := robotsfetch.Unreachable
		if day == 30 {
			want = robotsfetch.OutageCopy
		}
		if r.Outcome.Case != want {
			t.Fatalf("day %d: %s, want %s", day, r.Outcome.Case, want)
		}
		clk.Advance(24 * time.Hour)
	}
	if r.Check("/private", "x").Allowed || !r.Check("/public", "x").Allowed {
		t.Error("the last good copy does not apply after 30 days")
	}
	s.Close()
}

func TestExpiryAndVersions(t *testing.T) {
	clk := &clock{t: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}
	path := filepath.Join(t.TempDir(), "robots.db")
	s := open(t, path, clk)
	defer s.Close()
	ctx := context.Background()
	e := &robotsfetch.Entry{Origin: "https://a.example", Last: robotsfetch.Outcome{Case: robotsfetch.Unavailable, Verdict: robotsfetch.AllowAll}}
	if err := s.Put(ctx, "https://a.example", e, time.Hour); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(ctx, "https://a.example"); err != nil || got == nil || got.Last.Case != robotsfetch.Unavailable {
		t.Fatalf("get: %+v %v", got, err)
	}
	if got, err := s.Get(ctx, "https://b.example"); got != nil || err != nil {
		t.Fatalf("absent origin: %+v %v", got, err)
	}
	clk.Advance(time.Hour)
	if got, _ := s.Get(ctx, "https://a.example"); got != nil {
		t.Fatal("expired value returned")
	}
	// Values written by another version: an entry version 4, and a value
	// in an unknown layout. Both read as absent, never misread.
	raw := func(origin string, v []byte) {
		s.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucket).Put([]byte(origin), v) })
	}
	v4 := make([]byte, 9)
	v4[0] = format
	binary.BigEndian.PutUint64(v4[1:], uint64(clk.Now().Add(time.Hour).Unix()))
	raw("https://v4.example", append(v4, `{"v":4,"last":{"case":"success"}}`...))
	raw("https://layout.example", []byte{9, 1, 2, 3})
	for _, o := range []string{"https://v4.example", "https://layout.example"} {
		if got, err := s.Get(ctx, o); got != nil || err != nil {
			t.Errorf("%s: %+v %v", o, got, err)
		}
	}
	// A sweep on the next Put (an hour after the first) drops the expired value.
	if err := s.Put(ctx, "https://c.example", e, time.Hour); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Len(); n != 2 { // c and v4 (unexpired); a and the bad layout swept
		t.Errorf("%d values after the sweep", n)
	}
}

func TestLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s2, err := Open(path); err == nil {
		s2.Close()
		t.Error("opened a file another Store holds")
	} else if !strings.Contains(err.Error(), "another process holds it") {
		// bbolt says only "timeout"; the user must learn why.
		t.Errorf("Open of a held file: %v, want it to say another process holds it", err)
	}
	if _, err := Open(filepath.Join(t.TempDir(), "no", "such", "dir", "x.db")); err == nil {
		t.Error("opened a file in a missing directory")
	}
}

// TestColdFleet: two cold Fetchers sharing one bolt Store ask for 20
// origins at once: the Store's leases make it 20 requests.
func TestColdFleet(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "robots.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n := storetest.ColdFleet(t, s, 2, 20, 0); n != 20 {
		t.Errorf("2 Fetchers × 20 origins: %d requests, want 20", n)
	}
}
