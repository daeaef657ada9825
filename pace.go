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
// next request (Wait) and the requests in flight (Transport's PerHost),
// one entry per origin, found with one lookup.
type pacer struct {
	seed   maphash.Seed
	shards [paceShards]paceShard
}

type paceShard struct {
	mu      sync.Mutex
	origins map[string]*originPace
	_       [48]byte // keep shards on separate cache lines
}

// originPace is one origin's pacing.
type originPace struct {
	next  time.Time     // the earliest start of the next request
	sem   chan struct{} // the places among PerHost; nil until one is taken
	users int           // holders of a place and waiters for one
	shard *paceShard
}

// maxPaceOrigins bounds the origins one shard keeps before it forgets
// those nobody holds or waits for and whose next slot has passed.
const maxPaceOrigins = 4 * robotsfetch.DefaultMaxOrigins / paceShards

func newPacer() *pacer {
	p := &pacer{seed: maphash.MakeSeed()}
	for i := range p.shards {
		p.shards[i].origins = make(map[string]*originPace)
	}
	return p
}

func (p *pacer) shard(origin string) *paceShard {
	return &p.shards[maphash.String(p.seed, origin)%paceShards]
}

// entry returns origin's pacing, made if need be; s.mu is held.
func (s *paceShard) entry(origin string, now time.Time) *originPace {
	o := s.origins[origin]
	if o == nil {
		if len(s.origins) >= maxPaceOrigins {
			for k, o := range s.origins {
				if o.users == 0 && o.next.Before(now) {
					delete(s.origins, k)
				}
			}
		}
		o = &originPace{shard: s}
		s.origins[origin] = o
	}
	return o
}

// reserve books the origin's next slot, d after the one before and not
// before now: it returns when the slot starts and ends; s.mu is held.
func (o *originPace) reserve(now time.Time, d time.Duration) (at, end time.Time) {
	at = o.next
	if at.Before(now) {
		at = now
	}
	end = at.Add(d)
	o.next = end
	return at, end
}

// sleep waits from now until at, the start of a slot reserve booked (to
// end). When ctx ends first, the slot is given back if no later request
// has booked one behind it: the next request may then start at this
// one's time. Requests already waiting behind it keep their times (they
// may have sent by the time this one gives up), which errs on the polite
// side.
func (o *originPace) sleep(ctx context.Context, now, at, end time.Time) error {
	wait := at.Sub(now)
	if wait <= 0 {
		return nil
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
	}
	o.shard.mu.Lock()
	if o.next.Equal(end) {
		o.next = at
	}
	o.shard.mu.Unlock()
	return context.Cause(ctx)
}

// wait blocks until origin's next slot, d after the one before, starts;
// when ctx ends first it gives the slot back and returns ctx's cause.
func (p *pacer) wait(ctx context.Context, origin string, now time.Time, d time.Duration) error {
	s := p.shard(origin)
	s.mu.Lock()
	o := s.entry(origin, now)
	at, end := o.reserve(now, d)
	s.mu.Unlock()
	return o.sleep(ctx, now, at, end)
}

// start takes one of n places at origin, then its next slot, d after the
// one before (as wait does): a request's pacing, under one lock and one
// lookup when a place is free. It returns the place, to be given back with
// release. A caller that gives up takes no place and books no slot. now
// is read once a place is held.
func (p *pacer) start(ctx context.Context, origin string, n int, now func() time.Time, d time.Duration) (*originPace, error) {
	s := p.shard(origin)
	t := now()
	s.mu.Lock()
	o := s.entry(origin, t)
	if o.sem == nil {
		o.sem = make(chan struct{}, n)
	}
	o.users++
	select {
	case o.sem <- struct{}{}:
	default:
		s.mu.Unlock()
		select {
		case o.sem <- struct{}{}:
		case <-ctx.Done():
			o.leave()
			return nil, context.Cause(ctx)
		}
		t = now()
		s.mu.Lock()
	}
	at, end := o.reserve(t, d)
	s.mu.Unlock()
	if err := o.sleep(ctx, t, at, end); err != nil {
		o.release()
		return nil, err
	}
	return o, nil
}

// release gives back the place o's holder took.
func (o *originPace) release() {
	<-o.sem
	o.leave()
}

func (o *originPace) leave() {
	o.shard.mu.Lock()
	o.users--
	o.shard.mu.Unlock()
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
