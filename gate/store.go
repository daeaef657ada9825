package gate

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/netip"
	"time"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/crawlers/identity"
	"github.com/rep-toolkit/rep/robotsfetch"
)

// VerificationRecord is what Options.Store keeps of one verification: the
// body of the entry under StoreKey, as JSON.
type VerificationRecord struct {
	IP      netip.Addr            `json:"ip"`
	Crawler string                `json:"crawler"`
	Verdict identity.Verification `json:"verdict"`
	Method  identity.Method       `json:"method,omitempty"`
	Reason  string                `json:"reason,omitempty"`
	// Checked is when the verification was made; the verdict is reused
	// until Checked plus Options.CacheTTL.
	Checked time.Time `json:"checked"`
}

// VerdictRecord is the former name of VerificationRecord.
//
// Deprecated: use VerificationRecord.
type VerdictRecord = VerificationRecord

// StoreKey is the key of the verdict on ip's claim to be crawler in
// Options.Store: "rep-gate/verify/" + crawler + "/" + ip. It cannot
// collide with the robots.txt cache's keys, which are URLs.
func StoreKey(ip netip.Addr, crawler string) string {
	return "rep-gate/verify/" + crawler + "/" + ip.String()
}

// storeTimeout bounds one Store call, so a slow Store delays a request
// little more than a DNS lookup would.
const storeTimeout = robotsfetch.DefaultStoreTimeout

// fromStore reads a verdict from the Store; ok is false when there is no
// Store, no entry, an unreadable or foreign one, or an expired one.
func (g *Gate) fromStore(ctx context.Context, ip netip.Addr, c *crawlers.Crawler, now time.Time) (identity.Result, time.Time, bool) {
	if g.o.Store == nil {
		return identity.Result{}, time.Time{}, false
	}
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	key := StoreKey(ip, c.Name)
	e, err := g.o.Store.Get(ctx, key)
	if err != nil {
		g.storeError(ctx, "get", key, err)
		return identity.Result{}, time.Time{}, false
	}
	if e == nil || e.Good == nil {
		return identity.Result{}, time.Time{}, false
	}
	var rec VerificationRecord
	if err := json.Unmarshal(e.Good.Body, &rec); err != nil || rec.IP != ip || rec.Crawler != c.Name || rec.Verdict == "" {
		return identity.Result{}, time.Time{}, false
	}
	expires := rec.Checked.Add(g.o.CacheTTL)
	if !now.Before(expires) {
		return identity.Result{}, time.Time{}, false
	}
	return identity.Result{IP: ip, Crawler: c, Verdict: rec.Verdict, Method: rec.Method, Reason: rec.Reason}, expires, true
}

// toStore writes a verdict to the Store, if any.
func (g *Gate) toStore(ctx context.Context, ip netip.Addr, c *crawlers.Crawler, res identity.Result, now time.Time) {
	if g.o.Store == nil {
		return
	}
	body, err := json.Marshal(VerificationRecord{IP: ip, Crawler: c.Name, Verdict: res.Verdict, Method: res.Method, Reason: res.Reason, Checked: now})
	if err != nil {
		return
	}
	key := StoreKey(ip, c.Name)
	e := &robotsfetch.Entry{Origin: key, Good: &robotsfetch.Copy{Case: robotsfetch.Success, Status: 200, Body: body, FetchedAt: now}}
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	if err := g.o.Store.Put(ctx, key, e, g.o.CacheTTL); err != nil {
		g.storeError(ctx, "put", key, err)
	}
}

func (g *Gate) storeError(ctx context.Context, op, key string, err error) {
	g.o.Logger.LogAttrs(ctx, slog.LevelWarn, "rep gate: store error",
		slog.String("op", op), slog.String("key", key), slog.String("error", err.Error()))
}
