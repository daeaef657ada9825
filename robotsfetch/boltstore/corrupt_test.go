package boltstore

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/robotsfetch"
)

// TestCorruptFiles damages a store file in several ways: each is refused
// at Open with a *CorruptError naming the file, never a panic or a signal.
func TestCorruptFiles(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	s, err := Open(good)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for i := range 200 {
		e := &robotsfetch.Entry{Origin: "https://example.com", UserAgent: "ExampleBot/1.0",
			Last: robotsfetch.Outcome{Origin: "https://example.com", Status: 200, Case: robotsfetch.Success, FetchedAt: now, ExpiresAt: now.Add(time.Hour)},
			Good: &robotsfetch.Copy{Case: robotsfetch.Success, Status: 200, Body: make([]byte, 2000), FetchedAt: now}}
		if err := s.Put(context.Background(), robotsfetch.StoreKey("https://example"+string(rune('a'+i%26))+".com", string(rune(i))), e, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 6*4096 {
		t.Fatalf("the file is %d bytes: too small to damage page by page", len(data))
	}
	page := 4096
	damage := map[string]func([]byte) []byte{
		"truncated to 10 KB":   func(b []byte) []byte { return b[:10<<10] },
		"truncated to 3 pages": func(b []byte) []byte { return b[:3*page] },
		"meta pages zeroed":    func(b []byte) []byte { clear(b[:2*page]); return b },
		"bucket page zeroed": func(b []byte) []byte {
			clear(b[2*page : 4*page]) // freelist and the root bucket's pages
			return b
		},
		"random bytes": func(b []byte) []byte {
			r := rand.New(rand.NewPCG(1, 2))
			for i := range b {
				b[i] = byte(r.Uint32())
			}
			return b
		},
		"data pages scrambled": func(b []byte) []byte {
			r := rand.New(rand.NewPCG(3, 4))
			for i := 2 * page; i < len(b); i++ {
				if r.IntN(8) == 0 {
					b[i] = byte(r.Uint32())
				}
			}
			return b
		},
	}
	for name, spoil := range damage {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name+".db")
			if err := os.WriteFile(path, spoil(append([]byte(nil), data...)), 0o600); err != nil {
				t.Fatal(err)
			}
			s, err := Open(path)
			var ce *CorruptError
			if errors.As(err, &ce) {
				if ce.Path != path {
					t.Errorf("CorruptError names %q, want %q", ce.Path, path)
				}
				return
			}
			if err != nil {
				t.Fatalf("Open = %v, want a *CorruptError", err)
			}
			// A damage the check cannot see must still never crash a read or
			// a write: each answers or fails with an error.
			defer s.Close()
			for i := range 50 {
				s.Get(context.Background(), robotsfetch.StoreKey("https://example"+string(rune('a'+i%26))+".com", string(rune(i))))
			}
			t.Errorf("Open accepted a damaged file")
		})
	}
}
