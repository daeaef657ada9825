package gate

import (
	"context"
	"encoding/json"
	"errors"
	"net/netip"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/crawlers/identity"
	"github.com/rep-toolkit/rep/robotsfetch"
)

// TestStore: verdicts go to Options.Store with CacheTTL and are read back
// by another gate sharing it, until they expire.
func TestStore(t *testing.T) {
	st := &robotsfetch.MemoryStore{}
	now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	a := newFixture(t, testPolicy, Options{Store: st, Now: clock, CacheTTL: time.Hour})
	// A Googlebot from loopback is spoofed; the verdict is stored.
	if r := a.get(t, "/x", googlebotUA); r.StatusCode != 403 {
		t.Fatalf("spoofed Googlebot: %d", r.StatusCode)
	}
	lo := netip.MustParseAddr("127.0.0.1")
	e, err := st.Get(context.Background(), StoreKey(lo, "Googlebot"))
	if err != nil || e == nil || e.Good == nil {
		t.Fatalf("no stored verdict: %v %+v", err, e)
	}
	var rec VerificationRecord
	if err := json.Unmarshal(e.Good.Body, &rec); err != nil || rec.Verdict != identity.Spoofed || rec.IP != lo || !rec.Checked.Equal(now) {
		t.Fatalf("stored %s: %v", e.Good.Body, err)
	}

	// Another gate reads what the store says instead of verifying: here a
	// record saying loopback is the real Googlebot.
	rec.Verdict, rec.Reason = identity.Verified, ""
	body, _ := json.Marshal(rec)
	e.Good.Body = body
	if err := st.Put(context.Background(), StoreKey(lo, "Googlebot"), e, time.Hour); err != nil {
		t.Fatal(err)
	}
	b := newFixture(t, testPolicy, Options{Store: st, Now: clock, CacheTTL: time.Hour})
	if r := b.get(t, "/x", googlebotUA); r.StatusCode != 200 {
		t.Errorf("verdict from the store: %d, want 200", r.StatusCode)
	}
	// Past CacheTTL the stored verdict is not used.
	c := newFixture(t, testPolicy, Options{Store: st, Now: func() time.Time { return now.Add(2 * time.Hour) }, CacheTTL: time.Hour})
	if r := c.get(t, "/x", googlebotUA); r.StatusCode != 403 {
		t.Errorf("expired verdict: %d, want 403", r.StatusCode)
	}
}

// TestStoreDown: a failing Store is logged and the gate verifies anyway.
func TestStoreDown(t *testing.T) {
	f := newFixture(t, testPolicy, Options{Store: downStore{}})
	if r := f.get(t, "/x", googlebotUA); r.StatusCode != 403 {
		t.Errorf("spoofed Googlebot with the store down: %d", r.StatusCode)
	}
	var gets, puts int
	for _, rec := range f.records(t) {
		if rec["msg"] == "rep gate: store error" {
			switch rec["op"] {
			case "get":
				gets++
			case "put":
				puts++
			}
		}
	}
	if gets != 1 || puts != 1 {
		t.Errorf("store errors logged: %d gets, %d puts\n%s", gets, puts, f.log)
	}
}

var errDown = errors.New("store down")

type downStore struct{}

func (downStore) Get(context.Context, string) (*robotsfetch.Entry, error) { return nil, errDown }
func (downStore) Put(context.Context, string, *robotsfetch.Entry, time.Duration) error {
	return errDown
}
