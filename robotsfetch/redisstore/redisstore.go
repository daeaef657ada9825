// Package redisstore is a robotsfetch.Store in Redis
// (github.com/redis/go-redis/v9), so that a fleet of crawlers shares one
// robots.txt cache: one fetch per origin for the whole fleet, and one
// outage clock (RFC 9309 §2.3.1.4's 30 days) per origin.
//
// Each entry is one string key, the prefix and robotsfetch.StoreKey (the
// origin and a hash of the User-Agent), holding robotsfetch.Encode's
// output with the TTL the Fetcher asks for, so Redis expires what nobody
// asks for. The Store is a robotsfetch.Leaser: a cold origin asked for by
// the whole fleet at once is fetched by the one process that sets the
// lease key (the prefix, "lease:", the entry's key) with SET NX PX; the
// others poll for the entry. When Redis is down, every call fails fast (bounded by the Fetcher's
// StoreTimeout); the Fetcher then answers from its in-memory layer or
// fetches the origin itself, and an origin it cannot read is disallowed.
//
// The Store works the same on one Redis and on a Redis Cluster (a
// *redis.ClusterClient; NewClient makes either from a URL): every command
// and the lease release script touch exactly one key, so no operation
// spans two hash slots and the keys need no hash tags. When a master of
// the cluster fails, the calls for its slots fail (as above) until a
// replica takes over; the cluster client then finds the new master.
package redisstore

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/rep-toolkit/rep/robotsfetch"
)

// DefaultPrefix starts every key.
const DefaultPrefix = "rep:robots:"

// Store is a robotsfetch.Store in Redis. It is safe for concurrent use.
type Store struct {
	c      redis.UniversalClient
	prefix string
}

// New returns a Store using c, with keys DefaultPrefix+key. The caller
// owns c (and closes it).
func New(c redis.UniversalClient) *Store { return &Store{c: c, prefix: DefaultPrefix} }

// WithPrefix returns a copy of s whose keys start with prefix, to keep
// several caches (profiles, test runs) in one database.
func (s *Store) WithPrefix(prefix string) *Store { return &Store{c: s.c, prefix: prefix} }

// Get implements robotsfetch.Store. A value of another entry version reads
// as absent.
func (s *Store) Get(ctx context.Context, key string) (*robotsfetch.Entry, error) {
	b, err := s.c.Get(ctx, s.prefix+key).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("redisstore: GET %s: %w", key, err)
	}
	e, err := robotsfetch.Decode(b)
	if errors.Is(err, robotsfetch.ErrVersion) {
		return nil, nil
	}
	return e, err
}

// Put implements robotsfetch.Store. Every value is written with its TTL
// (at most the fetcher's outage limit plus its max age), so keys never
// outlive their use; the memory a fleet's Redis gives the cache is bounded
// on the server (maxmemory with the volatile-ttl or volatile-lru policy,
// docs/fetch.md).
func (s *Store) Put(ctx context.Context, key string, e *robotsfetch.Entry, ttl time.Duration) error {
	b, err := robotsfetch.Encode(e)
	if err != nil {
		return err
	}
	if err := s.c.Set(ctx, s.prefix+key, b, max(ttl, time.Second)).Err(); err != nil {
		return fmt.Errorf("redisstore: SET %s: %w", key, err)
	}
	return nil
}

// AcquireLease implements robotsfetch.Leaser: SET lease-key token NX PX
// ttl, with a random token.
func (s *Store) AcquireLease(ctx context.Context, key string, ttl time.Duration) (string, bool, error) {
	token := rand.Text()
	ok, err := s.c.SetNX(ctx, s.prefix+"lease:"+key, token, max(ttl, time.Millisecond)).Result()
	if err != nil {
		return "", false, fmt.Errorf("redisstore: SET NX lease %s: %w", key, err)
	}
	if !ok {
		return "", false, nil // held by another
	}
	return token, true, nil
}

// release deletes a lease only while it holds the caller's token, in one
// step on the server.
var release = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

// ReleaseLease implements robotsfetch.Leaser. A lease that expired and
// was taken by another process is left alone.
func (s *Store) ReleaseLease(ctx context.Context, key, token string) error {
	if err := release.Run(ctx, s.c, []string{s.prefix + "lease:" + key}, token).Err(); err != nil && !errors.Is(err, redis.Nil) {
		return fmt.Errorf("redisstore: releasing lease %s: %w", key, err)
	}
	return nil
}
