// Package boltfile opens the bbolt files rep keeps (the robots.txt cache
// of robotsfetch/boltstore, rep watch's history) so that neither another
// process's lock nor a damaged file can hang or crash the process: the
// lock is waited for a second at most, every page of an existing file is
// read before it is used, and bbolt's panics and memory faults on a file
// become errors (Safe).
package boltfile

import (
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// ErrHeld is matched (errors.Is) by Open's error when another process
// holds the file's lock: a bolt file serves one process at a time.
var ErrHeld = errors.New("another process holds the file")

// DamagedError is Open's error for a file bbolt cannot read: a bad page,
// a bad checksum, another format, or a fault while reading it.
type DamagedError struct {
	Path string
	Err  error // what bbolt or the check found
}

func (e *DamagedError) Error() string {
	return fmt.Sprintf("%s is damaged (%v)", e.Path, e.Err)
}

// Unwrap returns what bbolt or the check found.
func (e *DamagedError) Unwrap() error { return e.Err }

// FaultError is a panic or memory fault of bbolt turned into an error by
// Safe.
type FaultError struct{ V any }

func (e *FaultError) Error() string { return fmt.Sprintf("bbolt failed on the file: %v", e.V) }

// Safe runs f, turning a panic or a memory fault (debug.SetPanicOnFault)
// into a *FaultError, so that a damaged file never takes the process down.
func Safe(f func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if v := recover(); v != nil {
			err = &FaultError{v}
		}
	}()
	return f()
}

// Open opens (creating if needed) the bolt file at path, waiting at most a
// second for another process's lock (an error matching ErrHeld), reads
// every page of it (a *DamagedError when one is bad) and creates the
// top-level buckets named.
func Open(path string, buckets ...[]byte) (*bolt.DB, error) {
	var db *bolt.DB
	err := Safe(func() error {
		var err error
		db, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
		return err
	})
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, fmt.Errorf("%s: %w", path, ErrHeld)
	}
	if err != nil {
		var f *FaultError
		if errors.As(err, &f) || errors.Is(err, berrors.ErrInvalid) || errors.Is(err, berrors.ErrChecksum) ||
			errors.Is(err, berrors.ErrVersionMismatch) || errors.Is(err, berrors.ErrInvalidMapping) {
			return nil, &DamagedError{Path: path, Err: err}
		}
		return nil, err
	}
	err = Safe(func() error {
		if err := db.View(func(tx *bolt.Tx) error {
			for err := range tx.Check() {
				return err
			}
			return nil
		}); err != nil {
			return err
		}
		return db.Update(func(tx *bolt.Tx) error {
			for _, b := range buckets {
				if _, err := tx.CreateBucketIfNotExists(b); err != nil {
					return err
				}
			}
			return nil
		})
	})
	if err != nil {
		Safe(db.Close)
		return nil, &DamagedError{Path: path, Err: err}
	}
	return db, nil
}
