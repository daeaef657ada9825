package robotsfetch

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/rep-toolkit/rep/robotstxt"
)

// Outage chooses what an origin unreachable for Options.OutageLimit means.
type Outage uint8

const (
	// OutageUseCopy is Google's rule: the last good copy, or no
	// restrictions when there is none.
	OutageUseCopy Outage = iota
	// OutageAllowAll treats the file as unavailable: no restrictions (RFC
	// 9309 §2.3.1.4's first MAY).
	OutageAllowAll
	// OutageDisallow keeps disallowing everything, however long the outage
	// (the RFC's MUST without its MAY).
	OutageDisallow
)

// Defaults for the zero Options.
const (
	DefaultMaxAge         = 24 * time.Hour      // RFC 9309 §2.4, Google
	DefaultMinAge         = time.Minute         // floor on reuse, against max-age=0
	DefaultRetryInterval  = 10 * time.Minute    // retry of an unreachable origin
	DefaultOutageLimit    = 30 * 24 * time.Hour // RFC 9309 §2.3.1.4's example, Google
	DefaultMaxRedirects   = 5                   // RFC 9309 §2.3.1.2, Google
	DefaultMaxOrigins     = 10000
	DefaultMaxCacheBytes  = 32 << 20 // parsed files kept in memory: about 20 files at the 500 KiB limit, thousands of typical ones
	DefaultConnectTimeout = 10 * time.Second
	DefaultHeaderTimeout  = 10 * time.Second
	DefaultBodyTimeout    = 20 * time.Second
	DefaultTimeout        = 60 * time.Second
	DefaultStoreTimeout   = 2 * time.Second
	DefaultLeaseTTL       = 15 * time.Second // a fetch usually takes well under a second
	DefaultLeaseWait      = 20 * time.Second // past DefaultLeaseTTL, so that an expired lease is taken over first
)

// Options configure a Fetcher. Zero durations and counts mean the defaults
// above.
type Options struct {
	// UserAgent is the crawler's full User-Agent header, sent with every
	// request (servers answer some crawlers differently). Required.
	UserAgent string
	// Profile is how Robots.File is parsed (robotstxt.Google by default).
	Profile robotstxt.Profile
	// CrawlDelayEndsGroup parses Robots.File with Crawl-delay as a group
	// member (robotstxt.Options.CrawlDelayEndsGroup), as the engines that
	// read it do. engine.Engine.ParseOptions gives Profile and this field.
	// A Fetcher serves every engine with one fetch per origin:
	// Robots.FileFor parses the same body as another engine does.
	CrawlDelayEndsGroup bool
	// MaxBytes is the body limit after decoding; 0 means
	// robotstxt.DefaultMaxBytes (500 KiB, RFC 9309 §2.5's minimum).
	MaxBytes int
	// MaxRedirects is how many redirects are followed; one more makes the
	// file unavailable.
	MaxRedirects int
	// MaxOrigins and MaxCacheBytes bound the origins kept parsed in memory,
	// by count and by their estimated footprint (body, parsed file and
	// outcome); the least recently used go first. A negative MaxCacheBytes
	// lifts the byte bound.
	MaxOrigins    int
	MaxCacheBytes int64
	// MaxAge caps how long any result is reused; MinAge is how long every
	// result is reused at least (negative: not at all); RetryInterval is how
	// long an unreachable result stands when the server sends no
	// Retry-After.
	MaxAge, MinAge, RetryInterval time.Duration
	// OutageLimit is how long an origin must stay unreachable before
	// AfterOutage applies.
	OutageLimit time.Duration
	AfterOutage Outage
	// StaleIfUnreachable lets the last good copy answer while the origin is
	// unreachable, as RFC 9309 §2.4 permits ("unless the robots.txt file is
	// unreachable"), instead of disallowing everything. Off by default:
	// Google disallows until the 30-day rule applies.
	StaleIfUnreachable bool
	// ConnectTimeout bounds DNS, connect and the TLS handshake;
	// HeaderTimeout the wait for each response's headers; BodyTimeout the
	// reading of the body; Timeout the whole attempt, redirects included.
	ConnectTimeout, HeaderTimeout, BodyTimeout, Timeout time.Duration
	// Guard refuses loopback, private, link-local and other special
	// addresses at connect time, DNS rebinding and redirects included (every
	// entry of IANA's special-purpose registries). Set it when
	// fetching on behalf of someone else; it cannot be combined with Client.
	Guard bool
	// Client replaces the default HTTP client (its CheckRedirect is
	// replaced, to count redirects). ConnectTimeout and HeaderTimeout then
	// do not apply; Timeout and BodyTimeout still do.
	Client *http.Client
	// Store holds fetched entries behind the in-memory layer; nil means
	// memory only.
	Store Store
	// StoreTimeout bounds each Store call.
	StoreTimeout time.Duration
	// LeaseTTL is how long a lease taken in a Store that is a Leaser lasts
	// (negative: take none, every Fetcher fetches what it cannot find);
	// LeaseWait bounds how long a Fetcher polls the Store for an entry
	// another Fetcher holds the lease for, before fetching it itself. Both
	// run on the wall clock, not Now. A fetch slower than LeaseTTL may be
	// made again by a waiter that takes the expired lease over.
	LeaseTTL, LeaseWait time.Duration
	// Logger, when set, logs every fetch from the network (Info: origin,
	// case, status, duration, bytes, error), every answer from the Store and
	// every wait for another Fetcher's lease (Debug), and every Store
	// failure (Warn). Answers from memory are not logged.
	Logger *slog.Logger
	// OnFetch, when set, is called once for every fetch from the network
	// and every answer read from the Store (Outcome.Source tells which),
	// before the callers waiting for it get their answer; answers from
	// memory do not call it. It is called from the Fetcher's goroutines,
	// concurrently for different origins: it must be safe for concurrent
	// use, return quickly (the callers for that origin wait for it), and
	// not modify the Outcome's slices.
	OnFetch func(Outcome)
	// Now is the clock; nil means time.Now. Tests inject one.
	Now func() time.Time
}

// ParseOptions are the options a Fetcher with these Options parses bodies
// with: Profile, MaxBytes and CrawlDelayEndsGroup.
func (o Options) ParseOptions() robotstxt.Options {
	return robotstxt.Options{Profile: o.Profile, MaxBytes: o.MaxBytes, CrawlDelayEndsGroup: o.CrawlDelayEndsGroup}
}
