package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// repBinary builds rep as a plain binary in the test's temporary directory
// (no race detector, whatever this test binary was built with) for tests
// that measure a rep process's memory: the race detector multiplies it
// several times over. The build cache makes all but the first build quick.
func repBinary(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rep")
	cmd := exec.Command("go", "build", "-o", path, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building rep: %v\n%s", err, out)
	}
	return path
}
