//go:build race

package robotstxt

// raceEnabled: under the race detector sync.Pool drops a share of what is
// put back, so a pooled scratch may be allocated anew on any call and
// allocation counts are not pinned.
const raceEnabled = true
