package boltstore

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/robotsfetch"
)

// TestMaxBytes: a Store holds no more than MaxBytes of values; past it the
// values that expire soonest go first, the one just put stays, and the
// count survives a reopen.
func TestMaxBytes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	const bound = 1 << 20
	s.MaxBytes = bound
	now := time.Now()
	put := func(key string, n int, ttl time.Duration) {
		e := &robotsfetch.Entry{Origin: key, Good: &robotsfetch.Copy{Case: robotsfetch.Success, Status: 200, Body: make([]byte, n), FetchedAt: now}}
		if err := s.Put(context.Background(), key, e, ttl); err != nil {
			t.Fatal(err)
		}
	}
	put("long", 100<<10, 48*time.Hour)
	for i := range 50 {
		key := fmt.Sprintf("k%d", i)
		put(key, 100<<10, time.Duration(i+1)*time.Minute)
		if b := s.Bytes(); b > bound {
			t.Fatalf("after %d puts: %d bytes, bound %d", i+1, b, bound)
		}
		if e, _ := s.Get(context.Background(), key); e == nil {
			t.Fatalf("%s, just put, was dropped", key)
		}
	}
	if e, _ := s.Get(context.Background(), "long"); e == nil {
		t.Error("the value that expires last went before those that expire sooner")
	}
	if e, _ := s.Get(context.Background(), "k0"); e != nil {
		t.Error("the value that expires first is still held")
	}
	held := s.Bytes()
	s.Close()
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Bytes() != held {
		t.Errorf("reopened: %d bytes counted, %d before", s.Bytes(), held)
	}
}
