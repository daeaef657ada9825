package audit

import (
	"bytes"
	"context"
	"fmt"
	"net/netip"
	"runtime"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/rep-toolkit/rep/accesslog"
	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/crawlers/botauth"
	"github.com/rep-toolkit/rep/crawlers/identity"
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/internal/enum"
	"github.com/rep-toolkit/rep/robotstxt"
	"github.com/rep-toolkit/rep/verdict"
)

// Options configure an audit.
type Options struct {
	// Robots is the robots.txt history; nil skips the robots.txt checks.
	Robots *History
	// Site, when set, is the host the history belongs to: requests logged
	// for other hosts are counted as OtherHost and not analysed, and
	// requests whose format logs no host are taken to be for Site.
	Site string
	// Verifier checks crawler identities; nil leaves every request
	// unchecked. VerifyMode labels it in the report ("lists", "dns+lists").
	Verifier   *identity.Verifier
	VerifyMode string
	// Signatures, with Verifier, checks the Web Bot Auth signatures that
	// JSON logs carry (accesslog.Record.Signature, SignatureInput,
	// SignatureAgent), and identity.WithSignature combines each with the
	// network verdict of its address. Its Now is replaced by each
	// request's time, so created and expires are judged as of the log
	// line. Its Keys are asked only about the Signature-Agents the registry
	// lists for the crawler a request claims, the only ones whose keys can
	// prove that crawler's identity: a *botauth.Fetcher (which then fetches
	// only those directories) or SavedDirectories. nil: signatures are not
	// checked.
	Signatures *botauth.Verifier
	// Grace is the robots.txt cache allowance (default DefaultGrace).
	Grace time.Duration
	// TopK is how many paths to track and report per crawler (default 1000).
	TopK int
	// MaxIPs bounds the distinct (crawler, day, address) entries whose
	// verification is deferred to Finish or whose inline verdict is cached
	// (default 1<<20); past it, requests are verified as they come.
	MaxIPs int
	// Workers is the number of concurrent verifications in Finish
	// (default 32: DNS lookups wait, they do not compute).
	Workers int
}

func (o *Options) defaults() {
	if o.Grace == 0 {
		o.Grace = DefaultGrace
	}
	if o.TopK <= 0 {
		o.TopK = 1000
	}
	if o.MaxIPs <= 0 {
		o.MaxIPs = 1 << 20
	}
	if o.Workers <= 0 {
		o.Workers = 32
	}
	if o.VerifyMode == "" {
		o.VerifyMode = "off"
		if o.Verifier != nil {
			o.VerifyMode = "lists"
		}
	}
}

// RobotsDecision is robots.txt's answer for one logged request.
type RobotsDecision uint8

// RobotsVerdict is the former name of RobotsDecision.
//
// Deprecated: use RobotsDecision.
type RobotsVerdict = RobotsDecision

// Robots decisions.
const (
	RobotsUnknown    RobotsDecision = iota // no robots.txt in force, or not a crawler
	RobotsAllowed                          // allowed by the version in force
	RobotsDisallowed                       // disallowed by every version it could have cached
	RobotsGrace                            // disallowed only by a version younger than the grace period
)

var robotsNames = enum.New[RobotsDecision]("robots decision", "", "allow", "disallow", "grace")

// String returns "", "allow", "disallow" or "grace", as enrich rows spell it.
func (v RobotsDecision) String() string { return robotsNames.String(v) }

// Row is what Add found out about one request.
type Row struct {
	Crawler *crawlers.Crawler // nil: not a known crawler
	Robots  RobotsDecision
	Rule    robotstxt.Rule // the deciding rule of the version in force
	Version int            // index of the robots.txt version in force, -1 none
	// Gap is the time since the crawler's previous request to this host
	// (-1: none); Delay the Crawl-delay in force (0: none or not honoured).
	Gap, Delay time.Duration
	// Identity is set only by an Auditor with Inline verification, and
	// Method with it: the evidence behind the verdict (identity.Method).
	Identity identity.Verification
	Method   identity.Method
	// Signature is the verdict of the request's Web Bot Auth signature
	// when Options.Signatures checked one, "" otherwise; SignatureReason
	// is why it is not verified.
	Signature       botauth.Verification
	SignatureReason botauth.Reason
}

// Auditor aggregates one stream of records. It is not safe for concurrent
// use: run one per file and Merge their Reports.
type Auditor struct {
	opt    Options
	inline bool
	rep    Report
	states map[*crawlers.Crawler]*cstate
	order  []*cstate
	first  int64
	last   int64
	nIPs   int // (crawler, day, address) entries held for verification
	site   []byte

	verifyMu sync.Mutex // guards rep.VerifyErrors, rep.VerifyError and the DNS breaker
	// dnsFails counts DNS failures in a row; at MaxDNSFailures the audit
	// stops asking the resolver and verifies the rest against the IP lists
	// alone (lists), so a dead resolver costs a bounded wait, not a
	// timeout per address.
	dnsFails int
	lists    *identity.Verifier
}

// cstate is the running aggregate of one crawler.
type cstate struct {
	c            *crawlers.Crawler
	rep          *verdict.Agent // the crawler as every door of rep resolves it
	out          Crawler
	status       [1000]int64
	robotsStatus map[int]int64
	days         map[int64]int64
	agents       []*robotstxt.Matcher
	delays       []int64 // ns per version; -1 not yet computed
	viol         map[[2]int]*Violation
	top          *topK
	hosts        map[string]*Edge
	// ips holds, per day and client address, the requests whose
	// verification waits for Finish; seen caches inline verdicts. Both are
	// per day because the IP lists are dated: a request is judged against
	// the list of its own day.
	ips         map[int64]map[string]*ipStat
	seen        map[int64]map[string]netVerification
	firstReq    int64
	firstRobots int64
	delay       DelayStats
	delaySeen   bool
	spoofers    *topK
	k           int
}

type ipStat struct {
	requests, disallowed int64
	first                int64
	// signed counts the requests among them that carried a signature, by
	// its outcome; nil for most addresses.
	signed []*signedCount
}

// netVerification is the network part of an identity Verification (reverse
// DNS and IP lists) of one address, as cached for inline verification.
type netVerification struct {
	v identity.Verification
	m identity.Method
}

// New returns an Auditor. With inline set, every crawler request is
// verified as it is added (for enrich, which needs a verdict per line);
// otherwise verification waits for Finish and runs concurrently, once per
// distinct address.
func New(opt Options, inline bool) *Auditor {
	opt.defaults()
	a := &Auditor{opt: opt, inline: inline, states: map[*crawlers.Crawler]*cstate{}}
	a.site = []byte(strings.ToLower(opt.Site))
	a.rep.Schema = SchemaVersion
	a.rep.Grace = Duration(opt.Grace)
	a.rep.Verify = opt.VerifyMode
	for i := 0; i < opt.Robots.Len(); i++ {
		v := opt.Robots.Version(i)
		a.rep.Robots = append(a.rep.Robots, RobotsInfo{Since: v.Since, Source: v.Source, Rules: v.Digest()})
	}
	return a
}

func (a *Auditor) state(c *crawlers.Crawler) *cstate {
	if s, ok := a.states[c]; ok {
		return s
	}
	s := &cstate{
		c:   c,
		rep: verdict.AgentFor(c, engine.Auto),
		out: Crawler{
			Name: c.Name, Operator: c.Operator, Purpose: string(c.Purpose),
			ObeysRobots: string(c.RobotsTxt), ObeysCrawlDelay: string(c.CrawlDelay),
		},
		robotsStatus: map[int]int64{},
		days:         map[int64]int64{},
		viol:         map[[2]int]*Violation{},
		top:          newTopK(a.opt.TopK),
		hosts:        map[string]*Edge{},
		ips:          map[int64]map[string]*ipStat{},
		seen:         map[int64]map[string]netVerification{},
		firstReq:     -1,
		firstRobots:  -1,
		k:            a.opt.TopK,
	}
	n := a.opt.Robots.Len()
	s.agents = make([]*robotstxt.Matcher, n)
	s.delays = make([]int64, n)
	for i := range s.delays {
		s.delays[i] = -1
	}
	a.states[c] = s
	a.order = append(a.order, s)
	return s
}

// agent returns the group of version i the crawler obeys, resolved once
// by the one path every door of rep takes (verdict.Agent: the registry's
// fallback chains, the crawlers that ignore the * group), in the file as
// the crawler's engine groups it; nil when the version's fetch decided
// without a file.
func (s *cstate) agent(h *History, i int) *robotstxt.Matcher {
	if s.agents[i] == nil && h.versions[i].File != nil {
		s.agents[i] = s.rep.Group(h.file(i, s.rep.ParseOptions()))
	}
	return s.agents[i]
}

// check decides path for the crawler under version i: the version's fetch
// verdict, else its rules.
func (s *cstate) check(h *History, i int, path string) robotstxt.Decision {
	return s.rep.DecideIn(h.robots[i], s.agent(h, i), path).Decision
}

// crawlDelay returns the Crawl-delay (ns) version i sets for the crawler,
// 0 if none or if the crawler is not documented to honour it.
func (s *cstate) crawlDelay(h *History, i int) int64 {
	if s.delays[i] < 0 {
		s.delays[i] = 0
		if s.c.CrawlDelay == crawlers.Yes {
			if g := s.agent(h, i); g == nil {
				// no file in force: no Crawl-delay
			} else if d, _, ok := g.CrawlDelay(); ok {
				s.delays[i] = int64(d)
			}
		}
	}
	return s.delays[i]
}

// str views b as a string without copying; the callee must not keep it.
func str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

var robotsPath = []byte("/robots.txt")

// Add counts one request. It allocates only for what it sees the first
// time: a crawler, a host, a path in the top-k, a client address.
func (a *Auditor) Add(ctx context.Context, rec *accesslog.Record) Row {
	row := Row{Version: -1, Gap: -1}
	a.rep.Requests++
	t := rec.Time
	if a.rep.Requests == 1 || t < a.first {
		a.first = t
	}
	if t > a.last {
		a.last = t
	}
	host := rec.Host
	if len(a.site) > 0 {
		if len(host) > 0 && !bytes.EqualFold(host, a.site) {
			a.rep.OtherHost++
			return row
		}
		host = a.site
	}
	if !rec.HasUserAgent {
		a.rep.NoUserAgent++
		return row
	}
	c, ok := crawlers.MatchBytes(rec.UserAgent)
	if !ok {
		a.rep.Other++
		return row
	}
	row.Crawler = c
	s := a.state(c)
	o := &s.out
	o.Requests++
	if rec.Bytes > 0 {
		o.Bytes += rec.Bytes
	}
	if rec.Status >= 0 && rec.Status < len(s.status) {
		s.status[rec.Status]++
	}
	day := t / int64(24*time.Hour)
	s.days[day]++
	if s.firstReq < 0 || t < s.firstReq {
		s.firstReq = t
	}
	pq := rec.PathQuery()
	path := rec.Path()
	if bytes.Equal(path, robotsPath) {
		o.RobotsFetches++
		s.robotsStatus[rec.Status]++
		if s.firstRobots < 0 || t < s.firstRobots {
			s.firstRobots = t
		}
	}
	if len(path) > 0 {
		s.top.add(path, 1)
	}

	h := a.opt.Robots
	vi := -1
	if h != nil {
		vi = h.at(t)
	}
	row.Version = vi
	disallowed := false
	if vi >= 0 && len(pq) > 0 {
		d := s.check(h, vi, str(pq))
		row.Rule = d.Rule
		switch {
		case d.Allowed:
			row.Robots = RobotsAllowed
		case a.inGrace(s, h, vi, t, pq):
			row.Robots = RobotsGrace
			o.GraceRequests++
		default:
			row.Robots = RobotsDisallowed
			disallowed = true
			o.DisallowedRequests++
			key := [2]int{vi, d.Rule.Line}
			v := s.viol[key]
			if v == nil {
				ver := h.versions[vi]
				v = &Violation{Robots: ver.Source, Since: ver.Since, Rule: d.Rule.String(), Line: d.Rule.Line, Example: string(pq), First: time.Unix(0, t).UTC()}
				s.viol[key] = v
			}
			v.Count++
		}
		if delay := s.crawlDelay(h, vi); delay > 0 || s.c.CrawlDelay == crawlers.Yes {
			row.Delay = time.Duration(delay)
			row.Gap = time.Duration(a.gap(s, host, t, delay))
		}
	}
	a.identity(ctx, s, rec, t, disallowed, &row)
	return row
}

// inGrace reports whether a version the crawler could still have cached at
// t (one in force during the grace period before t) allows the URL.
func (a *Auditor) inGrace(s *cstate, h *History, vi int, t int64, pq []byte) bool {
	from := t - int64(a.opt.Grace)
	for j := vi - 1; j >= 0 && h.since[j+1] > from; j-- {
		if s.check(h, j, str(pq)).Allowed {
			return true
		}
	}
	return false
}

// gap records a request at t to host and returns the gap since the
// previous one (-1 for the first), counting it against delay.
func (a *Auditor) gap(s *cstate, host []byte, t, delay int64) int64 {
	e := s.hosts[string(host)]
	if e == nil {
		if len(s.hosts) >= 10000 {
			return -1
		}
		s.hosts[string(host)] = &Edge{Host: string(host), First: t, Last: t, FirstDelay: delay}
		return -1
	}
	g := t - e.Last
	if g < 0 { // lines slightly out of order
		g = -g
	} else {
		e.Last = t
	}
	if t < e.First {
		e.First = t
	}
	s.checkGap(g, delay)
	return g
}

func (s *cstate) checkGap(g, delay int64) {
	if delay <= 0 {
		return
	}
	d := &s.delay
	sec := time.Duration(g).Seconds()
	if !s.delaySeen || sec < d.Shortest {
		d.Shortest = sec
	}
	s.delaySeen = true
	if ds := time.Duration(delay).Seconds(); ds > d.Delay {
		d.Delay = ds
	}
	d.CheckedGaps++
	if g < delay {
		d.TooFast++
	}
}

func (a *Auditor) identity(ctx context.Context, s *cstate, rec *accesslog.Record, t int64, disallowed bool, row *Row) {
	if a.opt.Verifier == nil {
		s.out.Unchecked++
		return
	}
	var sig *botauth.Result
	if a.opt.Signatures != nil && signed(rec) {
		r := a.signature(ctx, s.c, rec, t)
		sig = &r
		row.Signature, row.SignatureReason = r.Verdict, reasonOf(r)
		s.countSignature(r, rec, t)
	}
	day := t / int64(24*time.Hour)
	if !a.inline {
		byIP := s.ips[day]
		st := byIP[string(rec.IP)]
		if st == nil && a.nIPs < a.opt.MaxIPs {
			if byIP == nil {
				byIP = map[string]*ipStat{}
				s.ips[day] = byIP
			}
			st = &ipStat{first: t}
			byIP[string(rec.IP)] = st
			a.nIPs++
		}
		if st != nil {
			st.requests++
			if disallowed {
				st.disallowed++
			}
			if sig != nil {
				st.addSigned(*sig, disallowed)
			}
			return
		}
	}
	byIP := s.seen[day]
	v, ok := byIP[string(rec.IP)]
	if !ok {
		r := a.verify(ctx, s.c, string(rec.IP), t)
		v = netVerification{r.Verdict, r.Method}
		if a.nIPs < a.opt.MaxIPs {
			if byIP == nil {
				byIP = map[string]netVerification{}
				s.seen[day] = byIP
			}
			byIP[string(rec.IP)] = v
			a.nIPs++
		}
	}
	if sig != nil {
		v = withSignature(s.c, v, *sig)
	}
	row.Identity, row.Method = v.v, v.m
	s.count(v.v, v.m, rec.IP, 1, b2i(disallowed))
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// verify returns the network verdict (reverse DNS and IP lists) for a
// request from ip at t claiming crawler c.
func (a *Auditor) verify(ctx context.Context, c *crawlers.Crawler, ip string, t int64) identity.Result {
	addr, err := netip.ParseAddr(ip)
	if err != nil {
		return identity.Result{Crawler: c, Verdict: identity.Unverifiable, Reason: "the logged client address is not an IP address"}
	}
	a.verifyMu.Lock()
	v := a.opt.Verifier
	if a.lists != nil {
		v = a.lists
	}
	a.verifyMu.Unlock()
	r := v.VerifyCrawler(ctx, addr, c, time.Unix(0, t))
	a.verifyMu.Lock()
	defer a.verifyMu.Unlock()
	switch {
	case r.Err != nil:
		a.rep.VerifyErrors++
		if a.rep.VerifyError == "" {
			a.rep.VerifyError = r.Err.Error()
		}
		if a.dnsFails++; a.dnsFails == MaxDNSFailures && a.lists == nil {
			a.lists = &identity.Verifier{Ranges: a.opt.Verifier.Ranges}
			a.rep.VerifyError += fmt.Sprintf("; DNS verification stopped after %d failures in a row: the other addresses were checked against the IP lists only", MaxDNSFailures)
		}
	case r.DNSChecked:
		a.dnsFails = 0
	}
	return r
}

// MaxDNSFailures is how many DNS verifications may fail in a row before an
// audit stops asking the resolver (see Report.VerifyError).
const MaxDNSFailures = 50

// count adds n requests from ip with verdict v by method m (d of them
// disallowed).
func (s *cstate) count(v identity.Verification, m identity.Method, ip []byte, n, d int64) {
	if n == 0 {
		return
	}
	o := &s.out
	switch v {
	case identity.Verified:
		o.Verified += n
		if o.VerifiedBy == nil {
			o.VerifiedBy = map[string]int64{}
		}
		o.VerifiedBy[string(m)] += n
	case identity.Spoofed:
		o.Spoofed += n
		o.SpoofedDisallowed += d
		if s.spoofers == nil {
			s.spoofers = newTopK(s.k)
		}
		s.spoofers.add(ip, n)
	case identity.RDNSOnly:
		o.RDNSOnly += n
	default:
		o.Unverifiable += n
	}
}

// Finish runs the deferred verifications, concurrently, and adds the
// reader's line counts. Call it once, after the last Add.
func (a *Auditor) Finish(ctx context.Context, st accesslog.Stats, source string) {
	a.rep.Sources = append(a.rep.Sources, source)
	a.rep.Lines += st.Lines
	a.rep.BadLines += st.Bad
	for _, b := range st.Samples {
		if len(a.rep.BadSamples) < accesslog.MaxSamples {
			a.rep.BadSamples = append(a.rep.BadSamples, b)
		}
	}
	if a.opt.Verifier == nil || a.inline {
		return
	}
	type job struct {
		s  *cstate
		ip string
		st *ipStat
	}
	jobs := make(chan job)
	type result struct {
		job
		r identity.Result
	}
	results := make(chan result)
	var wg sync.WaitGroup
	workers := min(a.opt.Workers, max(1, a.nIPs))
	if a.opt.VerifyMode == "lists" {
		workers = min(workers, runtime.GOMAXPROCS(0))
	}
	for range workers {
		wg.Go(func() {
			for j := range jobs {
				results <- result{j, a.verify(ctx, j.s.c, j.ip, j.st.first)}
			}
		})
	}
	go func() {
		for _, s := range a.order {
			for _, byIP := range s.ips {
				for ip, st := range byIP {
					jobs <- job{s, ip, st}
				}
			}
		}
		close(jobs)
		wg.Wait()
		close(results)
	}()
	for r := range results {
		n, d := r.st.requests, r.st.disallowed
		for _, sc := range r.st.signed {
			c := identity.WithSignature(r.r, sc.sig)
			r.s.count(c.Verdict, c.Method, []byte(r.ip), sc.n, sc.d)
			n, d = n-sc.n, d-sc.d
		}
		r.s.count(r.r.Verdict, r.r.Method, []byte(r.ip), n, d)
	}
	for _, s := range a.order {
		s.ips = nil
	}
	a.nIPs = 0
}

// Report returns the aggregate so far. Call Finish first.
func (a *Auditor) Report() *Report {
	r := a.rep
	r.Sources = append([]string(nil), a.rep.Sources...)
	if a.rep.Requests > 0 {
		r.First = time.Unix(0, a.first).UTC()
		r.Last = time.Unix(0, a.last).UTC()
	}
	r.Crawlers = make([]*Crawler, 0, len(a.order))
	for _, s := range a.order {
		c := s.out
		c.Status = map[string]int64{}
		for code, n := range s.status {
			if n > 0 {
				c.Status[strconv3(code)] = n
			}
		}
		c.Days = map[string]int64{}
		for d, n := range s.days {
			c.Days[time.Unix(d*86400, 0).UTC().Format(time.DateOnly)] = n
		}
		if len(s.robotsStatus) > 0 {
			c.RobotsStatus = map[string]int64{}
			for code, n := range s.robotsStatus {
				c.RobotsStatus[strconv3(code)] = n
			}
		}
		if s.firstReq >= 0 {
			c.FirstRequest = time.Unix(0, s.firstReq).UTC()
		}
		if s.firstRobots >= 0 {
			c.FirstRobotsFetch = time.Unix(0, s.firstRobots).UTC()
		}
		for _, v := range s.viol {
			c.Violations = append(c.Violations, *v)
		}
		sortViolations(c.Violations)
		if s.delaySeen || s.c.CrawlDelay == crawlers.Yes && hasDelay(s) {
			d := s.delay
			c.CrawlDelay = &d
		}
		c.TopPaths = s.top.list()
		if s.spoofers != nil {
			for _, p := range s.spoofers.list() {
				c.SpoofedFrom = append(c.SpoofedFrom, IPCount{IP: p.Path, Count: p.Count, Error: p.Error, Estimated: p.Estimated})
			}
		}
		for _, e := range s.hosts {
			c.Edges = append(c.Edges, *e)
		}
		sortEdges(c.Edges)
		r.Crawlers = append(r.Crawlers, &c)
	}
	sortCrawlers(r.Crawlers)
	return &r
}

func hasDelay(s *cstate) bool {
	for _, d := range s.delays {
		if d > 0 {
			return true
		}
	}
	return false
}

func strconv3(code int) string {
	if code == 0 {
		return "-"
	}
	return string([]byte{byte('0' + code/100), byte('0' + code/10%10), byte('0' + code%10)})
}
