// Package loggen writes realistic synthetic access logs, deterministic from a
// seed, together with the exact counts an auditor must report for them.
//
// The traffic mixes browsers with real crawler User-Agents (Googlebot,
// Googlebot-Image, bingbot, GPTBot, ClaudeBot, YandexBot, CCBot, Bytespider)
// from addresses inside the operators' published ranges (the snapshots
// embedded in package identity) and forged copies from documentation
// addresses, a robots.txt that changes halfway through (RFC 9309 §2.4: a
// crawler may use its cached copy for up to 24 hours, so requests in that
// window are judged against both versions), requests planted on disallowed
// paths, bursts that break bingbot's Crawl-delay, and malformed lines.
//
// The expected counts (Truth) come from the generator's own table of which
// path category each robots.txt version disallows for which group, not from
// a robots.txt parser, so tests that compare an audit with them check the
// parser too. Every supported log format can be written (Formats).
package loggen

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"net/netip"
	"sort"
	"time"

	"github.com/rep-toolkit/rep/crawlers/identity"
)

// Config says what to generate. The zero value of each field has a default.
type Config struct {
	Seed uint64
	// Requests is the number of request lines to write (default 10,000);
	// ignored when Bytes is set.
	Requests int64
	// Bytes, when positive, writes requests until the output reaches this
	// size (for benchmarks).
	Bytes int64
	// Start is the time of the first request (default 2026-03-01T00:00:00Z)
	// and Days the span of the log (default 4).
	Start time.Time
	Days  int
	// Format is one of Formats (default "combined").
	Format string
	// Host is the site (default www.example.com).
	Host string
	// BadEvery plants a malformed line after every BadEvery requests
	// (default 997; negative: none).
	BadEvery int64
}

// Formats are the log formats Generate writes. "nginx" is NginxFormat and
// "apache" is Apache's vhost_combined.
var Formats = []string{"combined", "common", "w3c", "cloudfront", "alb", "caddy", "json", "nginx", "apache"}

// NginxFormat is the log_format the "nginx" output uses; read it back with
// -format 'nginx:' + NginxFormat.
const NginxFormat = `$host $remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" "$http_x_forwarded_for" $request_time`

// RobotsVersion is one robots.txt and the time it went live.
type RobotsVersion struct {
	Since time.Time `json:"since"`
	Body  string    `json:"body"`
}

// Expect is what an audit must report for one crawler.
type Expect struct {
	Requests int64 `json:"requests"`
	// Genuine requests come from the operator's published ranges; Forged
	// ones claim the crawler from elsewhere.
	Genuine int64 `json:"genuine"`
	Forged  int64 `json:"forged"`
	// Disallowed counts requests to URLs that every robots.txt the crawler
	// could have been using (the one in force and, for 24 hours after a
	// change, the one before) disallows.
	Disallowed int64 `json:"disallowed_requests"`
	// Grace counts requests the robots.txt in force disallows but the
	// previous one, still within its 24 hours, allowed.
	Grace         int64            `json:"grace_requests"`
	RobotsFetches int64            `json:"robots_fetches"`
	Bytes         int64            `json:"bytes"`
	Status        map[int]int64    `json:"status"`
	Days          map[string]int64 `json:"days"`
	// TooFast counts gaps between consecutive requests shorter than the
	// Crawl-delay of the group in force, for crawlers that honour it.
	TooFast int64 `json:"crawl_delay_violations"`
}

// Truth is the ground truth for a generated log.
type Truth struct {
	Format string `json:"format"`
	// Lines counts every line written, including headers and bad lines.
	Lines    int64              `json:"lines"`
	Requests int64              `json:"requests"`
	BadLines int64              `json:"bad_lines"`
	Humans   int64              `json:"humans"`
	Robots   []RobotsVersion    `json:"robots"`
	Crawlers map[string]*Expect `json:"crawlers"`
	Start    time.Time          `json:"start"`
	End      time.Time          `json:"end"`
}

// Path categories and the robots.txt groups that judge them.
type category uint8

const (
	catPublic   category = iota
	catRobots            // /robots.txt, always allowed
	catPrivate           // disallowed in both versions
	catDrafts            // disallowed from version 2 on
	catOld               // disallowed in version 1 only
	catNoGoogle          // disallowed for the Googlebot group only
	catSecrets           // what scanners look for: /.env, /wp-login.php
)

// robotsV1 and robotsV2 are the two robots.txt versions. The tables in
// disallowed must agree with them line for line.
const robotsV1 = `# example.com robots.txt, version 1
User-agent: *
Disallow: /private/
Disallow: /old-section/

User-agent: Googlebot
Disallow: /private/
Disallow: /old-section/
Disallow: /nogoogle/

User-agent: bingbot
Disallow: /private/
Disallow: /old-section/
Crawl-delay: 5

User-agent: GPTBot
Disallow: /

Sitemap: https://www.example.com/sitemap.xml
`

const robotsV2 = `# example.com robots.txt, version 2: drafts closed, old section opened,
# ClaudeBot shut out
User-agent: *
Disallow: /private/
Disallow: /drafts/

User-agent: Googlebot
Disallow: /private/
Disallow: /drafts/
Disallow: /nogoogle/

User-agent: bingbot
Disallow: /private/
Disallow: /drafts/
Crawl-delay: 5

User-agent: GPTBot
User-agent: ClaudeBot
Disallow: /

Sitemap: https://www.example.com/sitemap.xml
`

// group names the robots.txt group a crawler obeys in a version.
func group(crawler string, version int) string {
	switch crawler {
	case "Googlebot", "Googlebot-Image": // Googlebot-Image falls back to Googlebot
		return "google"
	case "bingbot":
		return "bing"
	case "GPTBot":
		return "gpt"
	case "ClaudeBot":
		if version == 2 {
			return "gpt"
		}
	}
	return "*"
}

// disallowed is the oracle: does this version's group disallow the category?
func disallowed(g string, version int, c category) bool {
	switch c {
	case catRobots:
		return false
	case catPrivate:
		return true
	case catDrafts:
		return version == 2 || g == "gpt"
	case catOld:
		return version == 1 || g == "gpt"
	case catNoGoogle:
		return g == "google" || g == "gpt"
	}
	return g == "gpt"
}

// crawlDelay is the Crawl-delay of a group, in seconds.
func crawlDelay(g string) int64 {
	if g == "bing" {
		return 5
	}
	return 0
}

// actor is one source of traffic.
type actor struct {
	name    string   // registry name; "" for humans
	uas     []string // User-Agents it sends
	list    string   // identity list ID of its genuine addresses; "" none
	genuine []netip.Prefix
	forged  bool    // every request forged
	forge   float64 // share of requests forged
	weight  float64 // share of all traffic
	// honoursDelay: the registry says it follows Crawl-delay, so gaps count.
	honoursDelay bool
	// cats are the path categories it requests, with weights.
	cats []catWeight
	// burst: every n-th request is followed by this many quick ones.
	burstEvery, burstLen int

	next    float64 // next request time, Unix seconds; logs show whole seconds
	n       int64
	pending int
}

type catWeight struct {
	c category
	w float64
}

var humanUAs = []string{
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36",
	"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Safari/605.1.15",
	"Mozilla/5.0 (X11; Linux x86_64; rv:145.0) Gecko/20100101 Firefox/145.0",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1",
	"-",
}

func actors() []*actor {
	polite := []catWeight{{catPublic, 0.9}, {catRobots, 0.04}, {catDrafts, 0.03}, {catOld, 0.03}}
	return []*actor{
		{uas: humanUAs, weight: 0.62, cats: []catWeight{{catPublic, 0.85}, {catPrivate, 0.05}, {catDrafts, 0.04}, {catOld, 0.04}, {catNoGoogle, 0.02}}},
		{name: "Googlebot", list: "google-common", weight: 0.12, forge: 0.08, cats: append([]catWeight{{catNoGoogle, 0.01}, {catPrivate, 0.005}}, polite...), uas: []string{
			"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
			"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.7444.59 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
		}},
		{name: "Googlebot-Image", list: "google-common", weight: 0.02, cats: append([]catWeight{{catNoGoogle, 0.02}}, polite...), uas: []string{"Googlebot-Image/1.0"}},
		{name: "bingbot", list: "bing", weight: 0.06, forge: 0.03, honoursDelay: true, burstEvery: 40, burstLen: 3, cats: append([]catWeight{{catPrivate, 0.01}}, polite...), uas: []string{
			"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
			"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36",
		}},
		{name: "GPTBot", list: "openai-gptbot", weight: 0.01, cats: []catWeight{{catRobots, 1}}, uas: []string{
			"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot",
		}},
		{name: "GPTBot", forged: true, weight: 0.02, cats: []catWeight{{catPublic, 0.6}, {catSecrets, 0.2}, {catPrivate, 0.2}}, uas: []string{
			"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot",
		}},
		{name: "ClaudeBot", list: "anthropic", weight: 0.03, honoursDelay: true, cats: polite, uas: []string{
			"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
		}},
		{name: "YandexBot", weight: 0.02, cats: polite, uas: []string{"Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"}},
		{name: "CCBot", list: "commoncrawl", weight: 0.01, honoursDelay: true, cats: polite, uas: []string{"CCBot/2.0 (https://commoncrawl.org/faq/)"}},
		{name: "Bytespider", weight: 0.02, cats: []catWeight{{catPublic, 0.8}, {catPrivate, 0.1}, {catDrafts, 0.1}}, uas: []string{
			"Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)",
		}},
		{name: "Google-Extended", forged: true, weight: 0.005, cats: []catWeight{{catPublic, 0.5}, {catSecrets, 0.5}}, uas: []string{"Mozilla/5.0 (compatible; Google-Extended/1.0)"}},
	}
}

func (c *Config) defaults() {
	if c.Requests <= 0 {
		c.Requests = 10000
	}
	if c.Start.IsZero() {
		c.Start = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	}
	if c.Days <= 0 {
		c.Days = 4
	}
	if c.Format == "" {
		c.Format = "combined"
	}
	if c.Host == "" {
		c.Host = "www.example.com"
	}
	if c.BadEvery == 0 {
		c.BadEvery = 997
	}
}

// ChangeTime returns when the second robots.txt goes live: the middle of
// the log.
func (c Config) ChangeTime() time.Time {
	c.defaults()
	return c.Start.Add(time.Duration(c.Days) * 24 * time.Hour / 2)
}

// event is one request to write.
type event struct {
	t       int64 // Unix seconds
	ip      netip.Addr
	method  string
	target  string
	status  int
	bytes   int64
	referer string
	ua      string
	xff     string
}

// Generate writes a log to w and returns its truth.
func Generate(w io.Writer, cfg Config) (*Truth, error) {
	cfg.defaults()
	fw, err := newWriter(cfg.Format, cfg.Host)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x9e3779b97f4a7c15))
	ranges := identity.Embedded()
	start := cfg.Start.Unix()
	span := int64(cfg.Days) * 86400
	change := cfg.ChangeTime().Unix()
	total := cfg.Requests
	if cfg.Bytes > 0 {
		total = cfg.Bytes / 190 // about the mean line length; writing stops at Bytes
	}
	as := actors()
	for _, a := range as {
		if a.list != "" {
			l, _ := ranges.At(a.list, cfg.Start)
			if l == nil {
				return nil, fmt.Errorf("loggen: no embedded list %q", a.list)
			}
			for _, p := range l.Prefixes() {
				if p.Addr().Is4() {
					a.genuine = append(a.genuine, p)
				}
			}
		}
		a.next = float64(start + int64(rng.IntN(60)))
	}
	tr := &Truth{
		Format:   cfg.Format,
		Crawlers: map[string]*Expect{},
		Robots: []RobotsVersion{
			{Since: cfg.Start.Add(-30 * 24 * time.Hour), Body: robotsV1},
			{Since: time.Unix(change, 0).UTC(), Body: robotsV2},
		},
		Start: cfg.Start,
	}
	cw := &countWriter{w: w}
	bw := bufio.NewWriterSize(cw, 1<<20)
	buf := make([]byte, 0, 4096)
	buf = fw.header(buf, 1)
	bw.Write(buf)
	tr.Lines += int64(countLines(buf))
	lastGap := map[string]int64{}
	var last int64
	for i := int64(0); ; i++ {
		if cfg.Bytes > 0 {
			if cw.n+int64(bw.Buffered()) >= cfg.Bytes {
				break
			}
		} else if i >= total {
			break
		}
		// The actor with the earliest next request goes next.
		a := as[0]
		for _, b := range as[1:] {
			if b.next < a.next {
				a = b
			}
		}
		t := int64(a.next)
		a.n++
		if a.pending > 0 {
			a.pending--
			a.next++
		} else {
			if a.burstEvery > 0 && a.n%int64(a.burstEvery) == 0 {
				a.pending = a.burstLen
			}
			mean := float64(span) / (float64(total) * a.weight)
			gap := rng.ExpFloat64() * mean
			if a.honoursDelay && gap < 6 {
				gap = 6 // a polite crawler; only bursts break the delay
			}
			a.next += gap
		}
		last = t
		version := 1
		if t >= change {
			version = 2
		}
		ev := event{t: t, method: "GET", status: 200, referer: "-", ua: a.uas[rng.IntN(len(a.uas))]}
		cat := pick(rng, a.cats)
		forged := a.forged || (a.forge > 0 && rng.Float64() < a.forge)
		if a.n == 1 && a.name != "" && !forged {
			cat = catRobots // a well-behaved crawler reads the rules first
		}
		ev.target = path(rng, cat)
		switch {
		case a.name == "":
			ev.ip = netip.AddrFrom4([4]byte{byte(81 + rng.IntN(100)), byte(rng.IntN(256)), byte(rng.IntN(256)), byte(1 + rng.IntN(254))})
		case forged:
			ev.ip = netip.AddrFrom4([4]byte{203, 0, 113, byte(1 + rng.IntN(254))})
			if rng.IntN(2) == 0 {
				ev.ip = netip.AddrFrom4([4]byte{198, 51, 100, byte(1 + rng.IntN(254))})
			}
		case len(a.genuine) > 0:
			ev.ip = randomIn(rng, a.genuine[rng.IntN(len(a.genuine))])
		default: // operators without lists (Yandex, ByteDance)
			ev.ip = netip.AddrFrom4([4]byte{5, 255, 253, byte(1 + rng.IntN(254))})
		}
		switch cat {
		case catRobots:
			ev.bytes = int64(len(robotsV1))
			if version == 2 {
				ev.bytes = int64(len(robotsV2))
			}
			if rng.IntN(10) == 0 {
				ev.status, ev.bytes = 304, 0
			}
		case catSecrets, catPrivate:
			ev.status = []int{403, 404, 200}[rng.IntN(3)]
			ev.bytes = int64(rng.IntN(2000))
		default:
			ev.bytes = int64(500 + rng.IntN(40000))
			switch r := rng.IntN(100); {
			case r < 4:
				ev.status = 404
			case r < 9:
				ev.status, ev.bytes = 304, 0
			case r < 10:
				ev.status = 301
			case r < 11:
				ev.status = 503
			}
			if a.name == "" && rng.IntN(3) == 0 {
				ev.referer = "https://www.example.com/"
			}
		}
		if cfg.Format == "nginx" && rng.IntN(4) == 0 {
			ev.xff = "192.0.2." + fmt.Sprint(1+rng.IntN(254))
		}
		buf = fw.event(buf[:0], &ev)
		if _, err := bw.Write(buf); err != nil {
			return nil, err
		}
		tr.Lines++
		tr.Requests++
		if a.name == "" {
			tr.Humans++
		} else {
			e := tr.Crawlers[a.name]
			if e == nil {
				e = &Expect{Status: map[int]int64{}, Days: map[string]int64{}}
				tr.Crawlers[a.name] = e
			}
			e.Requests++
			if forged || a.forged {
				e.Forged++
			} else {
				e.Genuine++
			}
			e.Bytes += ev.bytes
			e.Status[ev.status]++
			e.Days[time.Unix(t, 0).UTC().Format("2006-01-02")]++
			if cat == catRobots {
				e.RobotsFetches++
			}
			g := group(a.name, version)
			if disallowed(g, version, cat) {
				// Within 24 hours of the change the crawler may still
				// be using version 1.
				if version == 2 && t < change+86400 && !disallowed(group(a.name, 1), 1, cat) {
					e.Grace++
				} else {
					e.Disallowed++
				}
			}
			if d := crawlDelay(g); d > 0 {
				if prev, ok := lastGap[a.name]; ok && t-prev < d {
					e.TooFast++
				}
			}
			lastGap[a.name] = t
		}
		if cfg.BadEvery > 0 && tr.Requests%cfg.BadEvery == 0 {
			bad := badLines[(tr.Requests/cfg.BadEvery)%int64(len(badLines))]
			bw.WriteString(bad)
			bw.WriteByte('\n')
			tr.Lines++
			tr.BadLines++
		}
		if version == 2 && !fw.rewritten {
			if h := fw.header(buf[:0], 2); len(h) > 0 {
				bw.Write(h)
				tr.Lines += int64(countLines(h))
			}
			fw.rewritten = true
		}
	}
	tr.End = time.Unix(last, 0).UTC()
	return tr, bw.Flush()
}

// badLines are malformed lines of the kinds real logs hold: binary junk,
// a truncated write, a stray message from another program.
var badLines = []string{
	"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 garbage",
	`203.0.113.9 - - [01/Mar/2026:00:0`,
	`nginx: [warn] conflicting server name "example.com" on 0.0.0.0:80, ignored`,
}

func countLines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func pick(rng *rand.Rand, cs []catWeight) category {
	sum := 0.0
	for _, c := range cs {
		sum += c.w
	}
	x := rng.Float64() * sum
	for _, c := range cs {
		if x < c.w {
			return c.c
		}
		x -= c.w
	}
	return cs[len(cs)-1].c
}

var words = []string{"shoes", "hats", "red", "blue", "winter", "sale", "guide", "review", "about", "contact", "news", "faq"}

func path(rng *rand.Rand, c category) string {
	w := words[rng.IntN(len(words))]
	switch c {
	case catRobots:
		return "/robots.txt"
	case catPrivate:
		return fmt.Sprintf("/private/%s/%d", w, rng.IntN(50))
	case catDrafts:
		return fmt.Sprintf("/drafts/%s-%d.html", w, rng.IntN(30))
	case catOld:
		return fmt.Sprintf("/old-section/%s", w)
	case catNoGoogle:
		return fmt.Sprintf("/nogoogle/%s.jpg", w)
	case catSecrets:
		return []string{"/.env", "/wp-login.php", "/.git/config", "/config.php.bak"}[rng.IntN(4)]
	}
	switch rng.IntN(5) {
	case 0:
		return "/"
	case 1:
		return fmt.Sprintf("/products/%s/item-%d", w, rng.IntN(200))
	case 2:
		return fmt.Sprintf("/blog/%d/%s", 2020+rng.IntN(7), w)
	case 3:
		return fmt.Sprintf("/search?q=%s&page=%d", w, 1+rng.IntN(5))
	}
	return fmt.Sprintf("/%s", w)
}

func randomIn(rng *rand.Rand, p netip.Prefix) netip.Addr {
	a := p.Masked().Addr().As4()
	hostBits := 32 - p.Bits()
	if hostBits > 16 {
		hostBits = 16
	}
	v := uint32(a[0])<<24 | uint32(a[1])<<16 | uint32(a[2])<<8 | uint32(a[3])
	if hostBits > 0 {
		v |= uint32(rng.IntN(1 << hostBits))
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)})
}

// SortedCrawlers returns the names in t.Crawlers, sorted.
func (t *Truth) SortedCrawlers() []string {
	names := make([]string, 0, len(t.Crawlers))
	for n := range t.Crawlers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
