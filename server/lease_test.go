package server

import (
	"testing"

	"github.com/rep-toolkit/rep/robotsfetch"
)

// TestStoreKeepsLeases: the server counts its Store's errors by wrapping
// it, and the wrapper still leases cold origins when the Store does
// (MemoryStore, bolt, Redis), so servers sharing a store fetch a cold
// origin once; a Store without leases stays without.
func TestStoreKeepsLeases(t *testing.T) {
	s, err := New(Config{Store: &robotsfetch.MemoryStore{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.cfg.Store.(robotsfetch.Leaser); !ok {
		t.Errorf("the wrapped MemoryStore (%T) lost its leases", s.cfg.Store)
	}
	s, err = New(Config{Store: plainStore{&robotsfetch.MemoryStore{}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.cfg.Store.(robotsfetch.Leaser); ok {
		t.Error("a Store without leases gained them")
	}
}

// plainStore hides every method of a Store but Get and Put.
type plainStore struct{ robotsfetch.Store }
