package robotsfetch

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestStoreKey: the key is the origin, "#", and the first 16 hex digits
// of the SHA-256 of the whole User-Agent header (sha256sum gives them).
func TestStoreKey(t *testing.T) {
	for _, tt := range []struct{ origin, ua, want string }{
		{"https://example.com", "hello", "https://example.com#2cf24dba5fb0a30e"},
		{"http://a.example:8080", "ExampleBot/1.0", "http://a.example:8080#01fa353236e608d8"},
	} {
		if got := StoreKey(tt.origin, tt.ua); got != tt.want {
			t.Errorf("StoreKey(%q, %q) = %q, want %q", tt.origin, tt.ua, got, tt.want)
		}
	}
}

// TestMemoryStoreDefaultBound: a MemoryStore's zero MaxBytes means
// 32 MiB (33,554,432 bytes) of encoded entries: never more, and filled
// to at least 90% of it before entries go.
func TestMemoryStoreDefaultBound(t *testing.T) {
	s := &MemoryStore{}
	var most int64
	for i := range 70 {
		e := &Entry{Origin: "https://example.com", Good: &Copy{Case: Success, Status: 200, Body: make([]byte, 512000)}}
		if err := s.Put(context.Background(), fmt.Sprintf("k%02d", i), e, 1<<40); err != nil {
			t.Fatal(err)
		}
		if b := s.Bytes(); b > 33554432 {
			t.Fatalf("after %d puts: %d bytes", i+1, b)
		}
		most = max(most, s.Bytes())
	}
	if most < 33554432*9/10 {
		t.Errorf("at most %d bytes held: the bound was not reached", most)
	}
}

// TestMemoryStoreExpiry: an entry is held until its ttl has passed: at
// the instant it expires it is gone.
func TestMemoryStoreExpiry(t *testing.T) {
	for _, tt := range []struct {
		after time.Duration
		held  bool
	}{{time.Minute - time.Nanosecond, true}, {time.Minute, false}, {time.Minute + time.Nanosecond, false}} {
		clk := newClock()
		s := &MemoryStore{Now: clk.Now}
		if err := s.Put(context.Background(), "k", &Entry{Origin: "https://example.com"}, time.Minute); err != nil {
			t.Fatal(err)
		}
		clk.Advance(tt.after)
		if e, err := s.Get(context.Background(), "k"); (e != nil) != tt.held || err != nil {
			t.Errorf("after %v: %v, %v; want held %v", tt.after, e, err, tt.held)
		}
	}
}

// TestMemoryStoreSweep: expired entries are counted by Len until a sweep,
// which runs on every 1,024th Put once 1,024 entries are held.
func TestMemoryStoreSweep(t *testing.T) {
	clk := newClock()
	s := &MemoryStore{Now: clk.Now}
	put := func(key string) {
		if err := s.Put(context.Background(), key, &Entry{Origin: "https://example.com"}, time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 1024 { // puts 1 to 1,024: 1,024 entries
		put(fmt.Sprintf("k%04d", i))
	}
	for range 1022 { // puts 1,025 to 2,046: the same entries
		put("k0000")
	}
	clk.Advance(time.Hour) // all expired
	put("k0000")           // put 2,047: no sweep
	if n := s.Len(); n != 1024 {
		t.Fatalf("after put 2,047: %d entries, want 1,024 (no sweep yet)", n)
	}
	put("k0001") // put 2,048 with 1,024 held: the sweep
	if n := s.Len(); n != 2 {
		t.Errorf("after put 2,048: %d entries, want 2 (the expired swept)", n)
	}
}

// TestMemoryStoreBound: MaxBytes bounds the encoded entries: entries
// adding up to exactly the bound are all held, one byte over and the
// store shrinks to 90% of the bound, the entries that expire soonest
// going first; a negative MaxBytes is no bound.
func TestMemoryStoreBound(t *testing.T) {
	entry := &Entry{Origin: "https://example.com", Good: &Copy{Case: Success, Body: make([]byte, 1000)}}
	b, err := Encode(entry)
	if err != nil {
		t.Fatal(err)
	}
	size := int64(len(b))
	for _, tt := range []struct {
		name string
		max  int64
		puts int
		held int
	}{
		{"exactly at the bound", 2 * size, 2, 2},
		{"one byte under", 2*size - 1, 2, 1},
		{"one byte over", 2*size + 1, 2, 2},
		{"shrunk to 90%", 10 * size, 11, 9},
		{"a bound of 1 byte", 1, 3, 1},
		{"no bound", -1, 50, 50},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := &MemoryStore{MaxBytes: tt.max}
			for i := range tt.puts {
				// Later puts expire later: the earliest go first.
				if err := s.Put(context.Background(), fmt.Sprintf("k%02d", i), entry, time.Duration(i+1)*time.Hour); err != nil {
					t.Fatal(err)
				}
			}
			if n := s.Len(); n != tt.held || s.Bytes() != int64(n)*size {
				t.Errorf("%d entries of %d bytes put under %d: %d held in %d bytes, want %d", tt.puts, size, tt.max, n, s.Bytes(), tt.held)
			}
			last := fmt.Sprintf("k%02d", tt.puts-1)
			if e, _ := s.Get(context.Background(), last); e == nil {
				t.Errorf("the entry put last (%s) was dropped", last)
			}
		})
	}
}
