// Package boltstore is a robotsfetch.Store in a bbolt file
// (go.etcd.io/bbolt): fetched robots.txt files survive a crawler's restart,
// so a restarted crawler neither refetches every origin nor forgets an
// origin's outage (the 30-day rule of RFC 9309 §2.3.1.4 counts from the
// first failure, however many restarts later).
//
// A bbolt file is locked by one process at a time; a fleet sharing one
// cache uses robotsfetch/redisstore instead. Within the process, the
// Store is a robotsfetch.Leaser: Fetchers sharing it fetch a cold origin
// once. Its leases are held in memory, which suffices since no other
// process can open the file.
package boltstore

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/rep-toolkit/rep/internal/boltfile"
	"github.com/rep-toolkit/rep/internal/lease"
	"github.com/rep-toolkit/rep/robotsfetch"
	bolt "go.etcd.io/bbolt"
)

var bucket = []byte("robots.txt")

// format is the layout of a stored value: this byte, the expiry as 8
// bytes of big-endian Unix seconds, then robotsfetch.Encode's output (which
// carries its own version).
const format = 1

// Store is a robotsfetch.Store in one bbolt file. It is safe for
// concurrent use.
type Store struct {
	db *bolt.DB
	// Now is the clock used for expiry; nil means time.Now.
	Now func() time.Time
	// MaxBytes bounds the stored values (0: DefaultMaxBytes; negative: no
	// bound): past it, Put drops the expired values, then those that
	// expire soonest, down to 90% of it. The file keeps its size for
	// reuse (bbolt does not shrink it); the bound keeps it from growing.
	MaxBytes int64
	bytes    int64 // the stored values' size, counted at Open and kept up to date

	mu        sync.Mutex
	lastSweep time.Time
	leases    lease.Table
}

// CorruptError is the error Open returns for a file that is not a sound
// bbolt database (truncated, overwritten, pages zeroed): the store cannot
// be trusted, and the file must be moved aside or deleted (rep serve
// -store-reset does so) before a fresh one is made in its place.
type CorruptError struct {
	Path string
	Err  error // what the check found
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("boltstore: %s is damaged (%v): move it aside or delete it and a new cache will be made (rep serve: -store-reset)", e.Path, e.Err)
}

// Unwrap returns what the check found.
func (e *CorruptError) Unwrap() error { return e.Err }

// Open opens (creating if needed) the store at path. It waits at most a
// second for another process's lock on the file. It reads every page of an
// existing file first: a damaged one is a *CorruptError, never a panic or
// a fault later.
func Open(path string) (*Store, error) {
	db, err := boltfile.Open(path, bucket)
	var damaged *boltfile.DamagedError
	switch {
	case errors.Is(err, boltfile.ErrHeld):
		return nil, fmt.Errorf("boltstore: opening %s: another process holds it (a bolt file serves one process at a time; use a Redis store to share a cache): %w", path, err)
	case errors.As(err, &damaged):
		return nil, &CorruptError{Path: path, Err: damaged.Err}
	case err != nil:
		return nil, fmt.Errorf("boltstore: opening %s: %w", path, err)
	}
	st := &Store{db: db}
	err = boltfile.Safe(func() error {
		return db.View(func(tx *bolt.Tx) error {
			return tx.Bucket(bucket).ForEach(func(_, v []byte) error {
				st.bytes += int64(len(v))
				return nil
			})
		})
	})
	if err != nil {
		boltfile.Safe(db.Close)
		return nil, &CorruptError{Path: path, Err: err}
	}
	return st, nil
}

// DefaultMaxBytes is a Store's default bound on its values: 256 MiB, some
// 500 files at the 500 KiB limit, hundreds of thousands of typical ones.
const DefaultMaxBytes = 256 << 20

// Close closes the file.
func (s *Store) Close() error { return s.db.Close() }

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Get implements robotsfetch.Store. An expired value, a value of an
// unknown format or version, is absent.
func (s *Store) Get(_ context.Context, key string) (*robotsfetch.Entry, error) {
	var data []byte
	err := boltfile.Safe(func() error {
		return s.db.View(func(tx *bolt.Tx) error {
			if v := tx.Bucket(bucket).Get([]byte(key)); v != nil {
				data = append([]byte(nil), v...) // v is valid only inside the transaction
			}
			return nil
		})
	})
	if err != nil || data == nil {
		return nil, err
	}
	if len(data) < 9 || data[0] != format {
		return nil, nil
	}
	if exp := int64(binary.BigEndian.Uint64(data[1:9])); s.now().Unix() >= exp {
		return nil, nil
	}
	e, err := robotsfetch.Decode(data[9:])
	if errors.Is(err, robotsfetch.ErrVersion) {
		return nil, nil
	}
	return e, err
}

// Put implements robotsfetch.Store. About once an hour it also deletes the
// expired values.
func (s *Store) Put(_ context.Context, key string, e *robotsfetch.Entry, ttl time.Duration) error {
	b, err := robotsfetch.Encode(e)
	if err != nil {
		return err
	}
	now := s.now()
	v := make([]byte, 9, 9+len(b))
	v[0] = format
	binary.BigEndian.PutUint64(v[1:9], uint64(now.Add(ttl).Unix()))
	v = append(v, b...)
	s.mu.Lock()
	sweep := now.Sub(s.lastSweep) >= time.Hour
	if sweep {
		s.lastSweep = now
	}
	s.mu.Unlock()
	return boltfile.Safe(func() error {
		return s.db.Update(func(tx *bolt.Tx) error {
			bk := tx.Bucket(bucket)
			var delta int64
			if sweep {
				freed, err := sweepExpired(bk, now)
				if err != nil {
					return err
				}
				delta -= freed
			}
			if old := bk.Get([]byte(key)); old != nil {
				delta -= int64(len(old))
			}
			if err := bk.Put([]byte(key), v); err != nil {
				return err
			}
			delta += int64(len(v))
			s.mu.Lock()
			s.bytes += delta
			over := s.maxBytes() > 0 && s.bytes > s.maxBytes()
			s.mu.Unlock()
			if over {
				freed, err := shrink(bk, []byte(key), s.maxBytes()*9/10, s.bytesNow(), now)
				if err != nil {
					return err
				}
				s.mu.Lock()
				s.bytes -= freed
				s.mu.Unlock()
			}
			return nil
		})
	})
}

func (s *Store) maxBytes() int64 {
	if s.MaxBytes == 0 {
		return DefaultMaxBytes
	}
	return s.MaxBytes
}

func (s *Store) bytesNow() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bytes
}

// Bytes returns the size of the stored values.
func (s *Store) Bytes() int64 { return s.bytesNow() }

// shrink deletes values other than keep's until at most target bytes are
// held: the expired ones, then those that expire soonest. It returns the
// bytes freed.
func shrink(bk *bolt.Bucket, keep []byte, target, held int64, now time.Time) (int64, error) {
	type cand struct {
		k   []byte
		exp int64
		n   int64
	}
	var cs []cand
	err := bk.ForEach(func(k, v []byte) error {
		if string(k) == string(keep) {
			return nil
		}
		exp := int64(0)
		if len(v) >= 9 && v[0] == format {
			exp = int64(binary.BigEndian.Uint64(v[1:9]))
		}
		cs = append(cs, cand{append([]byte(nil), k...), exp, int64(len(v))})
		return nil
	})
	if err != nil {
		return 0, err
	}
	slices.SortFunc(cs, func(a, b cand) int { return cmp.Compare(a.exp, b.exp) })
	var freed int64
	for _, c := range cs {
		if held-freed <= target && c.exp > now.Unix() {
			break
		}
		if err := bk.Delete(c.k); err != nil {
			return freed, err
		}
		freed += c.n
	}
	return freed, nil
}

// AcquireLease implements robotsfetch.Leaser, in memory.
func (s *Store) AcquireLease(_ context.Context, key string, ttl time.Duration) (string, bool, error) {
	token, ok := s.leases.Acquire(key, ttl)
	return token, ok, nil
}

// ReleaseLease implements robotsfetch.Leaser.
func (s *Store) ReleaseLease(_ context.Context, key, token string) error {
	s.leases.Release(key, token)
	return nil
}

func sweepExpired(bk *bolt.Bucket, now time.Time) (freed int64, err error) {
	var dead [][]byte
	err = bk.ForEach(func(k, v []byte) error {
		if len(v) < 9 || v[0] != format || now.Unix() >= int64(binary.BigEndian.Uint64(v[1:9])) {
			dead = append(dead, append([]byte(nil), k...))
			freed += int64(len(v))
		}
		return nil
	})
	for _, k := range dead {
		if err == nil {
			err = bk.Delete(k)
		}
	}
	return freed, err
}

// Len returns how many values the file holds, expired ones included.
func (s *Store) Len() (int, error) {
	n := 0
	err := boltfile.Safe(func() error {
		return s.db.View(func(tx *bolt.Tx) error {
			n = tx.Bucket(bucket).Stats().KeyN
			return nil
		})
	})
	return n, err
}
