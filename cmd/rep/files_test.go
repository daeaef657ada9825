package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestReadInputBounded: a file over the limit is refused before it is
// read: the memory a refusal costs is far below the file's size (it was
// read whole, 171 MB for a 65 MiB file, before the size check).
func TestReadInputBounded(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.txt")
	fh, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := fh.Truncate(maxInput + 1<<20); err != nil { // sparse: no disk
		t.Fatal(err)
	}
	fh.Close()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, _, err = readInput(p, nil)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "is over 64 MiB") {
		t.Errorf("err = %v, want 'is over 64 MiB'", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("refusing the file allocated %d bytes", got)
	}
}
