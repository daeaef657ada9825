package robotsfetch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"
)

// EntryVersion is the version of the Entry encoding written by this package.
// Decode refuses any other version, so a process reading a value written by
// an older or newer release fetches the file again instead of misreading it.
const EntryVersion = 2

// Entry is what a Store keeps for one origin: the latest attempt and the
// last good copy. It is the fetched result, not the parsed rules, so that
// parser upgrades apply to stored files too.
type Entry struct {
	Version int    `json:"v"`
	Origin  string `json:"origin"`
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

// Store keeps fetched entries behind the Fetcher's in-memory layer: an
// embedded database to survive restarts, or a shared server for a fleet of
// crawlers. Implementations must be safe for concurrent use. Get returns
// (nil, nil) for an origin it does not hold, or holds in another version.
// The Fetcher never keeps an entry past its Last.ExpiresAt plus the
// retention needed for the outage rule, and passes that as ttl so stores
// with expiry can drop it.
type Store interface {
	Get(ctx context.Context, origin string) (*Entry, error)
	Put(ctx context.Context, origin string, e *Entry, ttl time.Duration) error
}

// MemoryStore is a Store in process memory, for sharing one cache between
// several Fetchers (with different profiles, say) and for tests. Entries
// are dropped when their ttl passes. The zero value is ready to use.
type MemoryStore struct {
	// Now is the clock used for ttl; nil means time.Now.
	Now  func() time.Time
	mu   sync.Mutex
	m    map[string]memoryItem
	puts int
}

type memoryItem struct {
	data    []byte
	expires time.Time
}

// Get implements Store.
func (s *MemoryStore) Get(_ context.Context, origin string) (*Entry, error) {
	s.mu.Lock()
	it, ok := s.m[origin]
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
func (s *MemoryStore) Put(_ context.Context, origin string, e *Entry, ttl time.Duration) error {
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
				delete(s.m, k)
			}
		}
	}
	s.m[origin] = memoryItem{data: b, expires: now.Add(ttl)}
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
