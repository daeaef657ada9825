package rep

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestPacerForgets: past maxPaceOrigins per shard, the bookkeeping
// forgets the origins nobody holds whose slot has passed, and keeps one
// held by a request and one whose next slot is still ahead.
func TestPacerForgets(t *testing.T) {
	p := newPacer()
	ctx := context.Background()
	now := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	held, err := p.start(ctx, "https://held.example", 1, clock, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	p.wait(ctx, "https://ahead.example", now, time.Hour) // its next slot an hour away
	n := 3 * paceShards * maxPaceOrigins
	for i := range n {
		now = now.Add(time.Millisecond)
		if err := p.wait(ctx, fmt.Sprintf("https://o%d.example", i), now, 0); err != nil {
			t.Fatal(err)
		}
	}
	total := 0
	for i := range p.shards {
		s := &p.shards[i]
		if len(s.origins) > maxPaceOrigins+1 {
			t.Errorf("shard %d keeps %d origins, bound %d", i, len(s.origins), maxPaceOrigins)
		}
		total += len(s.origins)
	}
	if total >= n {
		t.Errorf("%d origins kept of %d", total, n)
	}
	if o := p.shard("https://held.example").origins["https://held.example"]; o != held || o.users != 1 {
		t.Errorf("the held origin was forgotten: %v", o)
	}
	if o := p.shard("https://ahead.example").origins["https://ahead.example"]; o == nil {
		t.Error("the origin with a slot ahead was forgotten")
	}
	held.release()
}
