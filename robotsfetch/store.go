package robotsfetch

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/rep-toolkit/rep/internal/lease"
)

// EntryVersion is the version of the Entry encoding written by this package.
// Decode refuses any other version, so a process reading a value written by
// an older or newer release fetches the file again instead of misreading it.
// Version 3 added UserAgent; version 2 entries, stored under the origin
// alone, say nothing of whom they were fetched for and are never read.
const EntryVersion = 3

// Entry is what a Store keeps for one origin and one fetching identity: the
// latest attempt and the last good copy. It is the fetched result, not the
// parsed rules, so that parser upgrades apply to stored files too.
type Entry struct {
	Version int    `json:"v"`
	Origin  string `json:"origin"`
	// UserAgent is the User-Agent header the file was fetched with. A
	// Fetcher uses only entries fetched with its own (see StoreKey).
	UserAgent string `json:"user_agent,omitempty"`
	// Last is the latest attempt and how it was read.
	Last Outcome `json:"last"`
	// Good is the last definitive answer (a 2xx body, or a 4xx or too many
	// redirects meaning "no restrictions"); it is kept while the origin is
	// unreachable, for the 30-day rule. Nil when there has been none.
	Good *Copy `json:"good,omitempty"`
}

// Copy is one definitive answer from an origin.
type Copy struct {
	Case         Case      `json:"case"` // Success, Unavailable, TooManyRedirects or BadRedirect
	Status       int       `json:"status"`
	URL          string    `json:"url"` // where the body came from, after redirects
	Body         []byte    `json:"body,omitempty"`
	Truncated    bool      `json:"truncated,omitempty"`
	FetchedAt    time.Time `json:"fetched_at"`
	ETag         string    `json:"etag,omitempty"`
	LastModified string    `json:"last_modified,omitempty"`
}

// ErrVersion is wrapped by Decode for an entry of another version.
var ErrVersion = errors.New("robotsfetch: stored entry has an unknown version")

// Encode serialises e for a Store, stamping the current EntryVersion.
func Encode(e *Entry) ([]byte, error) {
	c := *e
	c.Version = EntryVersion
	return json.Marshal(&c)
}

// Decode reads a value written by Encode. A value of another version gives
// an error wrapping ErrVersion; the caller should treat it as absent.
func Decode(b []byte) (*Entry, error) {
	var probe struct {
		Version int `json:"v"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return nil, fmt.Errorf("robotsfetch: decoding stored entry: %v", err)
	}
	if probe.Version != EntryVersion {
		return nil, fmt.Errorf("%w: %d (this build reads %d)", ErrVersion, probe.Version, EntryVersion)
	}
	e := new(Entry)
	if err := json.Unmarshal(b, e); err != nil {
		return nil, fmt.Errorf("robotsfetch: decoding stored entry: %v", err)
	}
	return e, nil
}

// StoreKey returns the key under which a Fetcher sending userAgent keeps
// origin's entry in a Store: the origin, "#", and the first 16 hex digits
// of the SHA-256 of the User-Agent header, e.g.
// "https://example.com#f3454672269966bc" for the User-Agent "rep/1.0".
//
// A server may answer robots.txt differently by User-Agent (cloaking,
// or rules served to some crawlers only), and it decides on the whole
// header: matching a name anywhere in it is common, and many crawlers'
// headers start with "Mozilla/5.0", so the product token would not tell
// them apart. Crawlers with different headers therefore never share an
// entry, while Fetchers sending the same header (one crawler's fleet, or
// one crawler's Fetchers with different parser profiles) share every
// entry: the entry is the fetched file, not the parsed rules.
func StoreKey(origin, userAgent string) string {
	sum := sha256.Sum256([]byte(userAgent))
	return origin + "#" + hex.EncodeToString(sum[:8])
}

// Store keeps fetched entries behind the Fetcher's in-memory layer: an
// embedded database to survive restarts, or a shared server for a fleet of
// crawlers. Implementations must be safe for concurrent use.
//
// The Fetcher names each entry by StoreKey(origin, userAgent); a Store
// treats the key as an opaque string. Get returns (nil, nil) for a key it
// does not hold, or holds in another version. The Fetcher never keeps an
// entry past its Last.ExpiresAt plus the retention needed for the outage
// rule, and passes that as ttl so stores with expiry can drop it. A Store
// shared by several Fetchers may also implement Leaser, so that a cold
// origin is fetched once for all of them.
type Store interface {
	Get(ctx context.Context, key string) (*Entry, error)
	Put(ctx context.Context, key string, e *Entry, ttl time.Duration) error
}

// Leaser is implemented by a Store that can hold short leases, so that
// Fetchers sharing it fetch a cold origin once: the first to find a key
// absent takes the lease and fetches; the others poll the Store for the
// entry until Options.LeaseWait, and take over when the lease is released
// or expires with no entry written. A Store without it keeps working: each
// Fetcher then fetches what it cannot find.
//
// AcquireLease takes the lease on key for ttl and returns a token, or ok
// false while another holder's lease has not expired. ReleaseLease ends
// the lease if token still holds it, and does nothing otherwise (the lease
// expired and another holder took it). Both must be safe for concurrent
// use, across every process sharing the Store.
type Leaser interface {
	AcquireLease(ctx context.Context, key string, ttl time.Duration) (token string, ok bool, err error)
	ReleaseLease(ctx context.Context, key, token string) error
}

// MemoryStore is a Store in process memory, for sharing one cache between
// several Fetchers (with different profiles, say, or crawlers with
// different User-Agents) and for tests. Entries are dropped when their ttl
// passes. It is a Leaser: Fetchers sharing it fetch a cold origin once. The
// zero value is ready to use.
type MemoryStore struct {
	// Now is the clock used for ttl; nil means time.Now. Leases expire on
	// the wall clock.
	Now func() time.Time
	// MaxBytes bounds the encoded entries held (0: DefaultStoreBytes;
	// negative: no bound). Past it, expired entries go first, then those
	// that expire soonest.
	MaxBytes int64
	mu       sync.Mutex
	m        map[string]memoryItem
	bytes    int64
	puts     int
	leases   lease.Table
}

// DefaultStoreBytes is a MemoryStore's default byte bound: about 60 files
// at the 500 KiB limit, tens of thousands of typical ones.
const DefaultStoreBytes = 32 << 20

type memoryItem struct {
	data    []byte
	expires time.Time
}

// Get implements Store.
func (s *MemoryStore) Get(_ context.Context, key string) (*Entry, error) {
	s.mu.Lock()
	it, ok := s.m[key]
	s.mu.Unlock()
	if !ok || !s.now().Before(it.expires) {
		return nil, nil
	}
	e, err := Decode(it.data)
	if errors.Is(err, ErrVersion) {
		return nil, nil
	}
	return e, err
}

// Put implements Store. The entry is encoded, as a shared store would, so
// that a caller modifying e afterwards does not change what is stored.
func (s *MemoryStore) Put(_ context.Context, key string, e *Entry, ttl time.Duration) error {
	b, err := Encode(e)
	if err != nil {
		return err
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = make(map[string]memoryItem)
	}
	s.puts++
	if len(s.m) >= 1024 && s.puts%1024 == 0 { // amortised sweep of expired entries
		for k, it := range s.m {
			if !now.Before(it.expires) {
				s.drop(k, it)
			}
		}
	}
	if old, ok := s.m[key]; ok {
		s.drop(key, old)
	}
	s.m[key] = memoryItem{data: b, expires: now.Add(ttl)}
	s.bytes += int64(len(b))
	if max := s.maxBytes(); max > 0 && s.bytes > max {
		s.shrink(key, max*9/10, now)
	}
	return nil
}

func (s *MemoryStore) maxBytes() int64 {
	if s.MaxBytes == 0 {
		return DefaultStoreBytes
	}
	return s.MaxBytes
}

func (s *MemoryStore) drop(k string, it memoryItem) {
	delete(s.m, k)
	s.bytes -= int64(len(it.data))
}

// shrink drops entries other than keep until the store holds at most
// target bytes: the expired ones, then those that expire soonest (the
// least useful to keep). It runs under s.mu, and shrinks to 90% of the
// bound so that its O(n log n) pass is amortised over many Puts.
func (s *MemoryStore) shrink(keep string, target int64, now time.Time) {
	type cand struct {
		k  string
		it memoryItem
	}
	var cs []cand
	for k, it := range s.m {
		if k == keep {
			continue
		}
		if !now.Before(it.expires) {
			s.drop(k, it)
			continue
		}
		cs = append(cs, cand{k, it})
	}
	slices.SortFunc(cs, func(a, b cand) int { return a.it.expires.Compare(b.it.expires) })
	for _, c := range cs {
		if s.bytes <= target {
			return
		}
		s.drop(c.k, c.it)
	}
}

// Bytes returns the encoded size of the entries held.
func (s *MemoryStore) Bytes() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bytes
}

// AcquireLease implements Leaser.
func (s *MemoryStore) AcquireLease(_ context.Context, key string, ttl time.Duration) (string, bool, error) {
	token, ok := s.leases.Acquire(key, ttl)
	return token, ok, nil
}

// ReleaseLease implements Leaser.
func (s *MemoryStore) ReleaseLease(_ context.Context, key, token string) error {
	s.leases.Release(key, token)
	return nil
}

// Len returns the number of entries held, expired ones included.
func (s *MemoryStore) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.m)
}

func (s *MemoryStore) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// storeGet reads key from the Store. It returns the entry when it is fresh
// and fetched with this Fetcher's User-Agent (its Source set to
// FromStore); else the entry the next fetch replaces: prev, or the stored
// one when it is newer (its good copy and outage start count).
func (f *Fetcher) storeGet(origin, key string, prev *Entry) (fresh, newPrev *Entry, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), f.o.StoreTimeout)
	e, err := f.o.Store.Get(ctx, key)
	cancel()
	switch {
	case err != nil:
		f.storeFailed(origin, "get", err)
		return nil, prev, err
	case e == nil || e.UserAgent != f.o.UserAgent:
		return nil, prev, nil // absent, or another crawler's (a key collision)
	case f.o.Now().Before(e.Last.ExpiresAt):
		e.Last.Source = FromStore
		f.stats.storeHits.Add(1)
		return e, prev, nil
	case prev == nil || e.Last.FetchedAt.After(prev.Last.FetchedAt):
		return nil, e, nil
	}
	return nil, prev, nil
}

// Poll intervals while another Fetcher holds the lease: doubling from
// leasePollMin up to leasePollMax, so a fetch over a fast network is
// picked up within milliseconds and a slow one costs few Store reads.
const (
	leasePollMin = 5 * time.Millisecond
	leasePollMax = 250 * time.Millisecond
)

// lease takes the lease on key, or waits for the Fetcher holding it. It
// returns the lease's token when this Fetcher is to fetch under it; a
// fresh entry when the holder wrote one; neither when the wait ended
// without (LeaseWait passed, or the Store failed: err) and the origin is
// to be fetched regardless.
func (f *Fetcher) lease(origin, key string, prev *Entry) (token string, fresh, newPrev *Entry, err error) {
	acquire := func() (string, bool, error) {
		ctx, cancel := context.WithTimeout(context.Background(), f.o.StoreTimeout)
		defer cancel()
		token, ok, err := f.leaser.AcquireLease(ctx, key, f.o.LeaseTTL)
		f.storeFailed(origin, "acquire lease", err)
		return token, ok, err
	}
	// recheck reads the Store again once the lease is taken: the previous
	// holder may have written the entry and released the lease between
	// this Fetcher's read and its lease.
	recheck := func(token string) (string, *Entry, *Entry, error) {
		fresh, prev, err := f.storeGet(origin, key, prev)
		if fresh != nil {
			ctx, cancel := context.WithTimeout(context.Background(), f.o.StoreTimeout)
			f.storeFailed(origin, "release lease", f.leaser.ReleaseLease(ctx, key, token))
			cancel()
			return "", fresh, prev, nil
		}
		return token, nil, prev, err
	}
	token, ok, err := acquire()
	switch {
	case err != nil:
		return "", nil, prev, err
	case ok:
		return recheck(token)
	}
	f.stats.leaseWaits.Add(1)
	start := time.Now()
	if l := f.o.Logger; l != nil {
		l.LogAttrs(context.Background(), slog.LevelDebug, "robots.txt: waiting for another fetcher's lease",
			slog.String("origin", origin))
	}
	for poll := leasePollMin; ; poll = min(2*poll, leasePollMax) {
		left := f.o.LeaseWait - time.Since(start)
		if left <= 0 {
			f.stats.leaseFallbacks.Add(1)
			return "", nil, prev, nil
		}
		time.Sleep(min(poll, left))
		if fresh, prev, err = f.storeGet(origin, key, prev); fresh != nil || err != nil {
			return "", fresh, prev, err
		}
		// No entry yet: the holder is still fetching, or its lease ended
		// without one (it died, or the answer said no-store).
		switch token, ok, err = acquire(); {
		case err != nil:
			return "", nil, prev, err
		case ok:
			token, fresh, prev, err = recheck(token)
			if fresh == nil {
				f.stats.leaseFallbacks.Add(1)
			}
			return token, fresh, prev, err
		}
	}
}
