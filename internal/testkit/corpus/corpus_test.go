package corpus

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDir finds the corpus with its three parts.
func TestDir(t *testing.T) {
	for _, name := range []string{"robots", "urls.tsv", "google_answers.tsv"} {
		if _, err := os.Stat(Path(t, name)); err != nil {
			t.Error(err)
		}
	}
}

// TestEnv prefers $REP_CORPUS to the default place.
func TestEnv(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "robots"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(Env, dir)
	if got := Dir(t); got != dir {
		t.Errorf("Dir = %s, want $%s = %s", got, Env, dir)
	}
}
