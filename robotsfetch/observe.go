package robotsfetch

import (
	"context"
	"log/slog"
	"sync/atomic"
)

// Stats counts what a Fetcher has done since New. Every counter only grows;
// a metrics endpoint reads them with Fetcher.Stats as often as it likes.
type Stats struct {
	// Requests counts fetch attempts made over the network (one per
	// attempt, whatever the redirects); Fetches splits them by the Case
	// they ended in (a 304 renewing a copy counts as Success). Fetches
	// holds every Case but CaseNone, zeros included.
	Requests int64
	Fetches  map[Case]int64
	// CacheHits counts Get calls answered from memory; CacheMisses those
	// that were not (answered from the Store or the network, or by a fetch
	// already under way).
	CacheHits, CacheMisses int64
	// StoreHits counts entries read from the Store instead of fetched.
	StoreHits int64
	// StoreErrors counts failed Store calls (get, put, lease).
	StoreErrors int64
	// LeaseWaits counts cold origins another Fetcher held the lease for,
	// so that this one waited for its entry; LeaseFallbacks counts the
	// waits that ended with this Fetcher fetching after all (the lease
	// ended with no entry written, or Options.LeaseWait passed).
	LeaseWaits, LeaseFallbacks int64
}

// counters are the Fetcher's Stats, updated with atomics: the memory hit
// path takes no lock to count.
type counters struct {
	requests, cacheHits, cacheMisses, storeHits, storeErrors atomic.Int64
	leaseWaits, leaseFallbacks                               atomic.Int64
	fetches                                                  [len(caseNames)]atomic.Int64
}

// Stats returns the Fetcher's counters. Each is read atomically; the set
// is not one snapshot, which counters read for a metrics endpoint need not
// be.
func (f *Fetcher) Stats() Stats {
	c := &f.stats
	s := Stats{
		Requests:  c.requests.Load(),
		Fetches:   make(map[Case]int64, len(caseNames)-1),
		CacheHits: c.cacheHits.Load(), CacheMisses: c.cacheMisses.Load(),
		StoreHits: c.storeHits.Load(), StoreErrors: c.storeErrors.Load(),
		LeaseWaits: c.leaseWaits.Load(), LeaseFallbacks: c.leaseFallbacks.Load(),
	}
	for i := 1; i < len(c.fetches); i++ {
		s.Fetches[Case(i)] = c.fetches[i].Load()
	}
	return s
}

// observe counts, logs and reports one answer that did not come from
// memory: a fetch from the network or an entry read from the Store.
func (f *Fetcher) observe(o *Outcome) {
	network := o.Source != FromStore
	if network && int(o.Case) < len(f.stats.fetches) {
		f.stats.fetches[o.Case].Add(1)
	}
	if l := f.o.Logger; l != nil {
		level, msg := slog.LevelInfo, "robots.txt fetched"
		if !network {
			level, msg = slog.LevelDebug, "robots.txt from the store"
		}
		if l.Enabled(context.Background(), level) {
			attrs := []slog.Attr{
				slog.String("origin", o.Origin),
				slog.String("case", o.Case.String()),
				slog.Int("status", o.Status),
				slog.String("source", o.Source.String()),
				slog.Bool("cached", o.Cached),
			}
			if network {
				attrs = append(attrs, slog.Duration("duration", o.Duration), slog.Int("bytes", o.Bytes))
			}
			if o.Error != "" {
				attrs = append(attrs, slog.String("error", o.Error))
			}
			if o.StoreError != "" {
				attrs = append(attrs, slog.String("store_error", o.StoreError))
			}
			l.LogAttrs(context.Background(), level, msg, attrs...)
		}
	}
	if f.o.OnFetch != nil {
		f.o.OnFetch(*o)
	}
}

// storeFailed counts and logs a failed Store call; err nil is no failure.
func (f *Fetcher) storeFailed(origin, op string, err error) {
	if err == nil {
		return
	}
	f.stats.storeErrors.Add(1)
	if l := f.o.Logger; l != nil {
		l.LogAttrs(context.Background(), slog.LevelWarn, "robots.txt store failed",
			slog.String("origin", origin), slog.String("op", op), slog.String("error", err.Error()))
	}
}
