package rep

import (
	"sync"

	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
)

// Fetchers hands out the robots.txt fetchers of one door: one per way of
// parsing a file (engine.ParseOptions: Google's grouping, RFC 9309's,
// Crawl-delay ending a group for bing and yandex), all made from the same
// options and so sharing their Store. It is the one place a fetcher is
// made for an agent, so every door reads a file as the agent's engine
// groups it. It is safe for concurrent use.
type Fetchers struct {
	o  robotsfetch.Options
	mu sync.Mutex
	m  map[robotstxt.Options]*robotsfetch.Fetcher
}

// NewFetchers returns the fetchers made from o; o's Profile and
// CrawlDelayEndsGroup are set per fetcher.
func NewFetchers(o robotsfetch.Options) *Fetchers {
	return &Fetchers{o: o, m: map[robotstxt.Options]*robotsfetch.Fetcher{}}
}

// For returns the fetcher that reads files as a's engine does (Google's
// way for a nil a).
func (fs *Fetchers) For(a *Agent) (*robotsfetch.Fetcher, error) {
	e := engine.Google
	if a != nil {
		e = a.Engine
	}
	return fs.ForEngine(e)
}

// ForEngine returns the fetcher that reads files as engine e does.
func (fs *Fetchers) ForEngine(e engine.Engine) (*robotsfetch.Fetcher, error) {
	po := e.Or(engine.Google).ParseOptions()
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if f := fs.m[po]; f != nil {
		return f, nil
	}
	o := fs.o
	o.Profile, o.CrawlDelayEndsGroup = po.Profile, po.CrawlDelayEndsGroup
	f, err := robotsfetch.New(o)
	if err != nil {
		return nil, err
	}
	fs.m[po] = f
	return f, nil
}
