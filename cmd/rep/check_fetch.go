package main

import (
	"fmt"
	"strings"
	"sync"

	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
)

// Without -robots, rep check fetches each URL's robots.txt through
// robotsfetch (memory store): one fetch per origin per run, whatever the
// number of URLs.

// checkFetchers holds one Fetcher per run and profile: runs in one process
// (tests) do not share a cache.
var checkFetchers = struct {
	sync.Mutex
	m map[checkFetchKey]*robotsfetch.Fetcher
}{m: map[checkFetchKey]*robotsfetch.Fetcher{}}

type checkFetchKey struct {
	e *env
	p robotstxt.Profile
}

func checkFetcher(e *env, agents []string, p robotstxt.Profile) (*robotsfetch.Fetcher, error) {
	checkFetchers.Lock()
	defer checkFetchers.Unlock()
	k := checkFetchKey{e, p}
	if f := checkFetchers.m[k]; f != nil {
		return f, nil
	}
	f, err := robotsfetch.New(robotsfetch.Options{UserAgent: fetchUserAgent("rep-check", agents), Profile: p})
	if err != nil {
		return nil, err
	}
	checkFetchers.m[k] = f
	return f, nil
}

func checkFetchRobots(e *env, rawurl string, agents []string, p robotstxt.Profile) (*robotsfetch.Robots, error) {
	if strings.HasPrefix(rawurl, "/") {
		return nil, fmt.Errorf("URL %q is a path: without -robots FILE each URL's robots.txt is fetched, so give absolute URLs (https://host/path)", rawurl)
	}
	f, err := checkFetcher(e, agents, p)
	if err != nil {
		return nil, err
	}
	return f.Get(e.ctx, rawurl)
}

// checkFetchURL decides rawurl against its site's robots.txt (fetched once
// per origin and run) and says how that file was fetched: why, when the
// verdict comes from the fetch rather than a rule (absent, unreachable,
// ...), else ""; for -v a line of text and the outcome for -json.
func checkFetchURL(e *env, rawurl string, agents []string, p robotstxt.Profile) (d robotstxt.Decision, why, info string, obj any, err error) {
	r, err := checkFetchRobots(e, rawurl, agents, p)
	if err != nil {
		return d, "", "", nil, err
	}
	d = r.Check(rawurl, agents...)
	o := &r.Outcome
	if o.Verdict != robotsfetch.UseRules {
		why = "robots.txt: " + o.Case.Explain()
		if o.Status != 0 {
			why = fmt.Sprintf("robots.txt %d: %s", o.Status, o.Case.Explain())
		}
	}
	info = fmt.Sprintf("robots.txt: %s", o.String())
	for _, w := range o.Warnings {
		info += ", warning: " + w.String()
	}
	return d, why, info, o, nil
}
