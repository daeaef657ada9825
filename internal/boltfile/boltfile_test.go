package boltfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"
)

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ok.db")
	db, err := Open(path, []byte("a"), []byte("b"))
	if err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *bolt.Tx) error {
		if tx.Bucket([]byte("a")) == nil || tx.Bucket([]byte("b")) == nil {
			t.Error("buckets not created")
		}
		return nil
	})
	// Held by another opener (bbolt's flock is per open file): ErrHeld
	// after the one-second wait, not a hang.
	if _, err := Open(path); !errors.Is(err, ErrHeld) {
		t.Errorf("held file: %v, want ErrHeld", err)
	}
	db.Close()

	// Not a bolt file: damaged, never a panic.
	bad := filepath.Join(dir, "bad.db")
	if err := os.WriteFile(bad, make([]byte, 8192), 0o600); err != nil {
		t.Fatal(err)
	}
	var d *DamagedError
	if _, err := Open(bad); !errors.As(err, &d) || d.Path != bad {
		t.Errorf("zeroed file: %v, want a *DamagedError", err)
	}
}

func TestSafe(t *testing.T) {
	var f *FaultError
	if err := Safe(func() error { panic("assertion failed") }); !errors.As(err, &f) {
		t.Errorf("panic: %v, want a *FaultError", err)
	}
	want := errors.New("x")
	if err := Safe(func() error { return want }); err != want {
		t.Errorf("error: %v, want it returned as is", err)
	}
}
