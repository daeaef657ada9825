package rep_test

import (
	"path/filepath"
	"testing"

	"github.com/rep-toolkit/rep/internal/testkit/storetest"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotsfetch/boltstore"
)

// TestCloakingSharedStore: crawlers with different User-Agents sharing a
// store each get the file the server sends them (see storetest.Cloaking;
// the Redis store runs the same check in its own tests).
func TestCloakingSharedStore(t *testing.T) {
	t.Run("memory", func(t *testing.T) { storetest.Cloaking(t, &robotsfetch.MemoryStore{}) })
	t.Run("bolt", func(t *testing.T) {
		st, err := boltstore.Open(filepath.Join(t.TempDir(), "robots.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		storetest.Cloaking(t, st)
	})
}
