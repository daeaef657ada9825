// Package lease keeps short leases in process memory, for the robots.txt
// stores whose every contender lives in one process (robotsfetch's
// MemoryStore, and boltstore, whose file one process holds at a time).
package lease

import (
	"strconv"
	"sync"
	"time"
)

// Table is a set of leases, one per key. The zero value is ready to use
// and it is safe for concurrent use. Expiry runs on the wall clock:
// leases bound real waits, whatever clock the store's entries follow.
type Table struct {
	mu   sync.Mutex
	m    map[string]held
	next uint64
}

type held struct {
	token   string
	expires time.Time
}

// Acquire takes the lease on key for ttl and returns its token, or ok
// false while another holder's lease on key has not expired.
func (t *Table) Acquire(key string, ttl time.Duration) (token string, ok bool) {
	now := time.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = make(map[string]held)
	}
	if h, busy := t.m[key]; busy && now.Before(h.expires) {
		return "", false
	}
	if len(t.m) >= 1024 { // leases are released as a rule; drop the abandoned
		for k, h := range t.m {
			if !now.Before(h.expires) {
				delete(t.m, k)
			}
		}
	}
	t.next++
	token = strconv.FormatUint(t.next, 10)
	t.m[key] = held{token: token, expires: now.Add(ttl)}
	return token, true
}

// Release ends the lease on key if token still holds it; a lease that
// expired and was taken by another holder is left alone.
func (t *Table) Release(key, token string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if h, ok := t.m[key]; ok && h.token == token {
		delete(t.m, key)
	}
}
