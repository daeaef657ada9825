package robotsfetch

import (
	"testing"
	"unsafe"
)

// TestItemLines: a warm lookup reads the item's reference bit, expiry and
// origin, the answer's Verdict, File and Body, and these lie in three
// cache lines of the item (its size class keeps it 64-byte aligned), so a
// crawler cycling through many origins misses in as few lines as it can.
// A field added to Outcome or Robots may move them: then move item's.
func TestItemLines(t *testing.T) {
	var it item
	// The 448-byte size class (417-448 bytes) is a multiple of 64; the
	// 416-byte one below it is not.
	if n := unsafe.Sizeof(it); n <= 416 || n > 448 {
		t.Fatalf("item is %d bytes: not in the 448-byte size class, whose objects are 64-byte aligned", n)
	}
	r := unsafe.Offsetof(it.robots)
	spans := [][2]uintptr{
		{unsafe.Offsetof(it.ref), unsafe.Offsetof(it.ref) + unsafe.Sizeof(it.ref)},
		{unsafe.Offsetof(it.expires), unsafe.Offsetof(it.expires) + unsafe.Sizeof(it.expires)},
		{unsafe.Offsetof(it.name), unsafe.Offsetof(it.name) + unsafe.Sizeof(it.name)},
		{r + unsafe.Offsetof(it.robots.Outcome.Verdict), r + unsafe.Offsetof(it.robots.Outcome.Verdict) + unsafe.Sizeof(it.robots.Outcome.Verdict)},
		{r + unsafe.Offsetof(it.robots.File), r + unsafe.Offsetof(it.robots.File) + 8},
		{r + unsafe.Offsetof(it.robots.Body), r + unsafe.Offsetof(it.robots.Body) + 8},
	}
	lines := map[uintptr]bool{}
	for _, s := range spans {
		for l := s[0] / 64; l <= (s[1]-1)/64; l++ {
			lines[l] = true
		}
	}
	if len(lines) > 3 {
		t.Errorf("a warm lookup reads %d lines of the item, want 3 (spans %v)", len(lines), spans)
	}
}
