// Package redisstore is a robotsfetch.Store in Redis
// (github.com/redis/go-redis/v9), so that a fleet of crawlers shares one
// robots.txt cache: one fetch per origin for the whole fleet, and one
// outage clock (RFC 9309 §2.3.1.4's 30 days) per origin.
//
// Each origin is one string key holding robotsfetch.Encode's output, with
// the TTL the Fetcher asks for, so Redis expires what nobody asks for.
// When Redis is down, every call fails fast (bounded by the Fetcher's
// StoreTimeout); the Fetcher then answers from its in-memory layer or
// fetches the origin itself, and an origin it cannot read is disallowed.
package redisstore

import (
	"context"
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

// New returns a Store using c, with keys DefaultPrefix+origin. The caller
// owns c (and closes it).
func New(c redis.UniversalClient) *Store { return &Store{c: c, prefix: DefaultPrefix} }

// WithPrefix returns a copy of s whose keys start with prefix, to keep
// several caches (profiles, test runs) in one database.
func (s *Store) WithPrefix(prefix string) *Store { return &Store{c: s.c, prefix: prefix} }

// Get implements robotsfetch.Store. A value of another entry version reads
// as absent.
func (s *Store) Get(ctx context.Context, origin string) (*robotsfetch.Entry, error) {
	b, err := s.c.Get(ctx, s.prefix+origin).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("redisstore: GET %s: %w", origin, err)
	}
	e, err := robotsfetch.Decode(b)
	if errors.Is(err, robotsfetch.ErrVersion) {
		return nil, nil
	}
	return e, err
}

// Put implements robotsfetch.Store.
func (s *Store) Put(ctx context.Context, origin string, e *robotsfetch.Entry, ttl time.Duration) error {
	b, err := robotsfetch.Encode(e)
	if err != nil {
		return err
	}
	if err := s.c.Set(ctx, s.prefix+origin, b, max(ttl, time.Second)).Err(); err != nil {
		return fmt.Errorf("redisstore: SET %s: %w", origin, err)
	}
	return nil
}
