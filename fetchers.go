package rep

import (
	"sync"

	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/robotsfetch"
)

// Fetchers hands out the robots.txt fetcher of one door: one fetcher, so
// one fetch and one cache entry per origin (per User-Agent header, as
// robotsfetch keys them), whatever the engines asked about. Each engine's
// reading of a file (engine.ParseOptions: Google's grouping, RFC 9309's,
// Crawl-delay ending a group for bing and yandex) is parsed from the
// stored body on first use and remembered (robotsfetch.Robots.FileFor),
// which Agent.DecideFetched and Agent.SiteDelay do. It is the one place a
// fetcher is made for an agent. It is safe for concurrent use.
type Fetchers struct {
	o    robotsfetch.Options
	once sync.Once
	f    *robotsfetch.Fetcher
	err  error
}

// NewFetchers returns the fetchers made from o. o's Profile and
// CrawlDelayEndsGroup say how Robots.File is parsed (the zero value:
// Google's way); other engines' parses come from Robots.FileFor.
func NewFetchers(o robotsfetch.Options) *Fetchers {
	return &Fetchers{o: o}
}

// For returns the fetcher answering for a, the same for every agent.
func (fs *Fetchers) For(a *Agent) (*robotsfetch.Fetcher, error) {
	return fs.fetcher()
}

// ForEngine returns the fetcher answering for engine e, the same for
// every engine.
func (fs *Fetchers) ForEngine(e engine.Engine) (*robotsfetch.Fetcher, error) {
	return fs.fetcher()
}

func (fs *Fetchers) fetcher() (*robotsfetch.Fetcher, error) {
	fs.once.Do(func() { fs.f, fs.err = robotsfetch.New(fs.o) })
	return fs.f, fs.err
}
