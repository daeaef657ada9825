package robotsfetch

import (
	"net/http"
	"sync"
	"time"

	"github.com/rep-toolkit/rep/internal/testkit"
)

// clock is an injected clock for tests: time moves only when told.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// memClient is a client whose requests h answers in memory, for tests
// that run in a synctest bubble (whose clock stands still while a
// goroutine waits on a socket).
func memClient(h http.HandlerFunc) *http.Client {
	return &http.Client{Transport: testkit.Transport{Handler: h}}
}
