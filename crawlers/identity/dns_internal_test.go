package identity

import (
	"fmt"
	"testing"
	"time"
)

// TestDNSCacheEvict: a full cache first drops its answered, expired
// entries, keeping the fresh ones and the lookups still under way; only
// when that frees nothing below the bound of 131,072 (1<<17) entries is
// it emptied.
func TestDNSCacheEvict(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	answered := func(expires time.Time) *dnsEntry {
		e := &dnsEntry{done: make(chan struct{}), expires: expires}
		close(e.done)
		return e
	}
	c := &dnsCache{m: map[string]*dnsEntry{
		"expired":  answered(now.Add(-time.Second)),
		"at-now":   answered(now),
		"fresh":    answered(now.Add(time.Second)),
		"underway": {done: make(chan struct{})},
	}}
	c.evict(now)
	for k, keep := range map[string]bool{"expired": false, "at-now": false, "fresh": true, "underway": true} {
		if _, ok := c.m[k]; ok != keep {
			t.Errorf("after evict: %q kept = %v, want %v", k, ok, keep)
		}
	}

	for _, tc := range []struct {
		fresh int
		want  int
	}{
		{131071, 131071}, // below the bound: kept
		{131072, 0},      // at the bound with nothing expired: emptied
	} {
		c := &dnsCache{m: make(map[string]*dnsEntry, tc.fresh)}
		e := answered(now.Add(time.Hour))
		for i := range tc.fresh {
			c.m[fmt.Sprint(i)] = e
		}
		c.evict(now)
		if len(c.m) != tc.want {
			t.Errorf("%d fresh entries: %d after evict, want %d", tc.fresh, len(c.m), tc.want)
		}
	}
}
