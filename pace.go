package rep

import (
	"context"
	"hash/maphash"
	"net/http"
	"sync"
	"time"

	"github.com/rep-toolkit/rep/internal/netguard"
	"github.com/rep-toolkit/rep/robotsfetch"
)

// paceShards is how many independently locked parts the pacing
// bookkeeping is split into: a crawler's goroutines working on different
// origins rarely meet on one lock, and the forgetting of past origins
// scans one shard, not every origin.
const paceShards = 64

// pacer is a Crawler's per-origin bookkeeping: the earliest time of the
// next request (Wait) and the requests in flight (Transport's PerHost).
type pacer struct {
	seed   maphash.Seed
	shards [paceShards]paceShard
}

type paceShard struct {
	mu    sync.Mutex
	next  map[string]time.Time // origin -> earliest next request
	slots map[string]*hostSlot
	_     [40]byte // keep shards on separate cache lines
}

// maxPaceOrigins bounds the origins one shard keeps a next time for
// before it forgets those whose time has passed.
const maxPaceOrigins = 4 * robotsfetch.DefaultMaxOrigins / paceShards

func newPacer() *pacer {
	p := &pacer{seed: maphash.MakeSeed()}
	for i := range p.shards {
		p.shards[i].next = make(map[string]time.Time)
		p.shards[i].slots = make(map[string]*hostSlot)
	}
	return p
}

func (p *pacer) shard(origin string) *paceShard {
	return &p.shards[maphash.String(p.seed, origin)%paceShards]
}

// wait blocks until origin's next slot, d after the one before, starts;
// when ctx ends first it gives the slot back and returns ctx's cause.
func (p *pacer) wait(ctx context.Context, origin string, now time.Time, d time.Duration) error {
	_, err := p.shard(origin).wait(ctx, origin, now, d)
	return err
}

// wait is pacer.wait for an origin of shard s; it also returns when the
// slot starts (now, or the end of the wait).
func (s *paceShard) wait(ctx context.Context, origin string, now time.Time, d time.Duration) (time.Time, error) {
	s.mu.Lock()
	at := s.next[origin]
	if at.Before(now) {
		at = now
	}
	end := at.Add(d)
	s.next[origin] = end
	if len(s.next) > maxPaceOrigins {
		for o, t := range s.next { // forget origins whose slot has passed
			if t.Before(now) {
				delete(s.next, o)
			}
		}
	}
	s.mu.Unlock()
	wait := at.Sub(now)
	if wait <= 0 {
		return at, nil
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
		return at, nil
	case <-ctx.Done():
	}
	// The slot is given back when no later request has reserved one
	// behind it: the next request may then start at this one's time.
	// Requests already waiting behind it keep their times (they may have
	// sent by the time this one gives up), which errs on the polite side.
	s.mu.Lock()
	if t, ok := s.next[origin]; ok && t.Equal(end) {
		s.next[origin] = at
	}
	s.mu.Unlock()
	return at, context.Cause(ctx)
}

// hostSlot bounds the requests in flight to one origin.
type hostSlot struct {
	sem   chan struct{}
	shard *paceShard // the one holding it
	users int        // holders and waiters
}

// acquire waits for one of n places at origin (of shard sh), to be given
// back with release. A caller that gives up waiting takes no place. The
// slots of origins nobody uses are forgotten when a shard holds many.
func (sh *paceShard) acquire(ctx context.Context, origin string, n int) (*hostSlot, error) {
	sh.mu.Lock()
	s := sh.slots[origin]
	if s == nil {
		if len(sh.slots) > maxPaceOrigins {
			for o, s := range sh.slots {
				if s.users == 0 {
					delete(sh.slots, o)
				}
			}
		}
		s = &hostSlot{sem: make(chan struct{}, n), shard: sh}
		sh.slots[origin] = s
	}
	s.users++
	sh.mu.Unlock()
	select {
	case s.sem <- struct{}{}:
		return s, nil
	case <-ctx.Done():
		s.leave()
		return nil, context.Cause(ctx)
	}
}

// release gives back the place s holds.
func (s *hostSlot) release() {
	<-s.sem
	s.leave()
}

func (s *hostSlot) leave() {
	s.shard.mu.Lock()
	s.users--
	s.shard.mu.Unlock()
}

// pacedClient is the robots.txt client of a Crawler's own fetcher: o's
// Client, or the one robotsfetch would build (internal/netguard's, guarded
// when o.Guard is set), whose requests for /robots.txt first wait for the
// origin's next slot, min after the one before, as every request of the
// Crawler does.
func pacedClient(o robotsfetch.Options, p *pacer, now func() time.Time, min time.Duration) *http.Client {
	var c http.Client
	if o.Client != nil {
		c = *o.Client
	} else {
		no := netguard.Options{
			AllowPrivate:        !o.Guard,
			UserAgent:           o.UserAgent,
			ConnectTimeout:      o.ConnectTimeout,
			TLSTimeout:          o.ConnectTimeout,
			HeaderTimeout:       o.HeaderTimeout,
			Timeout:             -1, // robotsfetch's Options.Timeout bounds each attempt
			MaxIdleConnsPerHost: 2,
			DisableCompression:  true, // robotsfetch decodes, so its size limit applies after decoding
		}
		if !o.Guard {
			no.Proxy = http.ProxyFromEnvironment
		}
		c = *netguard.NewClient(no)
	}
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c.Transport = &pacedTransport{base: base, pace: p, now: now, min: min}
	return &c
}

// pacedTransport waits for the origin's slot before each robots.txt
// request.
type pacedTransport struct {
	base http.RoundTripper
	pace *pacer
	now  func() time.Time
	min  time.Duration
}

func (t *pacedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL != nil && req.URL.Path == "/robots.txt" {
		origin, err := robotsfetch.Origin(req.URL.String())
		if err == nil {
			err = t.pace.wait(req.Context(), origin, t.now(), t.min)
		}
		if err != nil {
			closeBody(req)
			return nil, err
		}
	}
	return t.base.RoundTrip(req)
}
