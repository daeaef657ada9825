package rep_test

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/internal/testkit/storetest"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotsfetch/boltstore"
)

// TestCloakingSharedStore: crawlers with different User-Agents sharing a
// store each get the file the server sends them (see storetest.Cloaking;
// the Redis store runs the same check in its own tests).
func TestCloakingSharedStore(t *testing.T) {
	t.Run("memory", func(t *testing.T) { storetest.Cloaking(t, &robotsfetch.MemoryStore{}) })
	t.Run("bolt", func(t *testing.T) {
		st, err := boltstore.Open(filepath.Join(t.TempDir(), "robots.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		storetest.Cloaking(t, st)
	})
}

// TestLoggerAndFetchHook: WithLogger and WithFetchHook reach the fetcher;
// answers from memory call neither.
func TestLoggerAndFetchHook(t *testing.T) {
	s, _ := serve(t, robots, 200)
	var log bytes.Buffer
	var calls atomic.Int64
	var last atomic.Pointer[robotsfetch.Outcome]
	c, err := rep.New("ExampleBot/1.0",
		rep.WithLogger(slog.New(slog.NewTextHandler(&log, nil))),
		rep.WithFetchHook(func(o robotsfetch.Outcome) { calls.Add(1); last.Store(&o) }))
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := c.Check(context.Background(), s.URL+"/private/x"); err != nil {
			t.Fatal(err)
		}
	}
	if n := calls.Load(); n != 1 || last.Load().Case != robotsfetch.Success || last.Load().Origin != s.URL {
		t.Errorf("%d hook calls, last %v", n, last.Load())
	}
	if got := log.String(); strings.Count(got, "\n") != 1 || !strings.Contains(got, "msg=\"robots.txt fetched\"") || !strings.Contains(got, "case=success") {
		t.Errorf("log:\n%s", got)
	}
	if st := c.Fetcher().Stats(); st.Requests != 1 || st.CacheHits != 2 || st.CacheMisses != 1 {
		t.Errorf("stats %+v", st)
	}
}
