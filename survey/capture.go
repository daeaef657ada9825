package survey

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/rep-toolkit/rep/internal/enum"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
)

// MaxBody is the most of a capture's body that is kept: a little over the
// 500 KiB crawlers read (robotstxt.DefaultMaxBytes), so that the parser
// still sees that the file went on.
const MaxBody = robotstxt.DefaultMaxBytes + 1

// MaxRedirects is how many redirects between captures are followed (RFC
// 9309 §2.3.1.2, Google: 5).
const MaxRedirects = robotsfetch.DefaultMaxRedirects

// Capture is one recorded fetch of one host's robots.txt.
type Capture struct {
	// Host is host[:port], lower case; the scheme is not part of it (a
	// data set keys sites by host).
	Host string
	// URL is the robots.txt URL fetched, when recorded.
	URL string
	// Time is when it was fetched; zero when unknown.
	Time time.Time
	// Status is the HTTP status recorded; 0 when the fetch failed
	// without a response.
	Status int
	// Location is a 3xx response's Location header, when recorded.
	Location string
	// Body is the response body, at most MaxBody bytes.
	Body []byte
	// Truncated is set when the recorder cut the body (WARC-Truncated).
	Truncated bool
}

// Class is what a capture means for every URL of its host before any rule
// is matched.
type Class uint8

// Classes.
const (
	ClassRules       Class = iota // 2xx: the rules of the file apply
	ClassAllowAll                 // 4xx (not 429), unfollowable redirect: no restriction
	ClassDisallowAll              // 429, 5xx, no response: everything disallowed
	ClassMissing                  // no capture, or a redirect to one not captured
)

var classNames = enum.New[Class]("class", "rules", "allow-all", "disallow-all", "missing")

// String returns "rules", "allow-all", "disallow-all" or "missing".
func (c Class) String() string { return classNames.String(c) }

// ParseClass reads a Class's String; an unknown name is an error listing
// the valid ones.
func ParseClass(s string) (Class, error) { return classNames.Parse(s) }

// HostOf returns the host key (host[:port], lower case, IDNA ASCII, the
// default port dropped) of an absolute http(s) URL or of a bare host name.
func HostOf(s string) (string, error) {
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	o, err := robotsfetch.Origin(s)
	if err != nil {
		return "", err
	}
	h := o[strings.Index(o, "://")+3:]
	if h == "" {
		return "", fmt.Errorf("%q has no host", s)
	}
	return h, nil
}

// Record is one host's robots.txt as a crawler would have read it from a
// capture: the capture, the redirects followed between captures, the final
// status and body, and its fetch case and class.
type Record struct {
	Capture
	// Redirects are the robots.txt URLs followed, in order.
	Redirects []string
	// Final is the status of the last capture of the chain.
	Final int
	// Body of the last capture (Capture.Body is the first's).
	FinalBody []byte
	// Case is the row of robotsfetch's status table that applies.
	Case  robotsfetch.Case
	Class Class
}

// Outcome is the record as a robotsfetch outcome, for Agent.DecideFetched.
func (r *Record) Outcome() robotsfetch.Outcome {
	o := robotsfetch.Outcome{
		Origin: "https://" + r.Host, URL: r.URL, Redirects: r.Redirects, Status: r.Final,
		Case: r.Case, Verdict: robotsfetch.CaseClass(r.Case), FetchedAt: r.Time, Bytes: len(r.FinalBody),
	}
	if r.Class == ClassMissing {
		// Nothing was read: the record says nothing, which the caller
		// decides how to treat; as a fetch it is unreachable.
		o.Case, o.Verdict = robotsfetch.CaseNone, robotsfetch.DisallowAll
	}
	return o
}

// entry is a capture kept by a Store: its fields but the body, which is in
// the spool file.
type entry struct {
	host, url, loc string
	time           int64 // unix nanoseconds; 0 unknown
	status         int32
	off            int64
	n              int32
	truncated      bool
}

// Store keeps captures in input order with their bodies spooled to a
// temporary file, so that millions of captures cost their metadata in
// memory (an entry and a URL index slot: a few hundred bytes each) and
// redirects between captures can be followed whatever their order. A
// Store is not safe for concurrent Add; once Done, Record and Lookup are
// safe for concurrent use.
type Store struct {
	spool *os.File
	off   int64
	ents  []entry
	byURL map[string][]int32 // robots.txt URL without scheme → entries
	done  bool
}

// NewStore returns a store spooling bodies into a temporary file in dir
// ("" for the system's). Close removes it.
func NewStore(dir string) (*Store, error) {
	f, err := os.CreateTemp(dir, "rep-captures-*")
	if err != nil {
		return nil, err
	}
	return &Store{spool: f, byURL: map[string][]int32{}}, nil
}

// Close removes the spool file.
func (s *Store) Close() error {
	name := s.spool.Name()
	err := s.spool.Close()
	if rerr := os.Remove(name); err == nil {
		err = rerr
	}
	return err
}

// Len returns the number of captures added.
func (s *Store) Len() int { return len(s.ents) }

// ErrDone is returned by Add after Done.
var ErrDone = errors.New("survey: store is read-only once Done")

// Add appends a capture. Its host is normalised (HostOf).
func (s *Store) Add(c Capture) error {
	if s.done {
		return ErrDone
	}
	h, err := HostOf(c.Host)
	if err != nil {
		return fmt.Errorf("capture of %q: %w", c.Host, err)
	}
	if len(c.Body) > MaxBody {
		c.Body = c.Body[:MaxBody]
	}
	if _, err := s.spool.WriteAt(c.Body, s.off); err != nil {
		return err
	}
	e := entry{host: h, url: c.URL, loc: c.Location, status: int32(c.Status), off: s.off, n: int32(len(c.Body)), truncated: c.Truncated}
	if !c.Time.IsZero() {
		e.time = c.Time.UnixNano()
	}
	s.off += int64(len(c.Body))
	i := int32(len(s.ents))
	s.ents = append(s.ents, e)
	k := urlKey(c.URL, h)
	s.byURL[k] = append(s.byURL[k], i)
	return nil
}

// Done ends the adding: it sorts each URL's captures by time for redirect
// resolution.
func (s *Store) Done() {
	if s.done {
		return
	}
	s.done = true
	for _, l := range s.byURL {
		sort.SliceStable(l, func(a, b int) bool { return s.ents[l[a]].time < s.ents[l[b]].time })
	}
}

// urlKey is the robots.txt URL normalised (scheme and host lower case,
// default port dropped): what a redirect target is looked up by.
func urlKey(raw, host string) string {
	if raw == "" {
		return "http://" + host + "/robots.txt"
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "http://" + host + "/robots.txt"
	}
	h, err := HostOf(u.Host)
	if err != nil {
		h = strings.ToLower(u.Host)
	}
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	if u.RawQuery != "" {
		p += "?" + u.RawQuery
	}
	return strings.ToLower(u.Scheme) + "://" + h + p
}

// body reads entry i's body from the spool.
func (s *Store) body(i int) ([]byte, error) {
	e := &s.ents[i]
	b := make([]byte, e.n)
	if _, err := s.spool.ReadAt(b, e.off); err != nil {
		return nil, err
	}
	return b, nil
}

// Record returns capture i (in input order) resolved: its redirects
// followed between captures, its case and class.
func (s *Store) Record(i int) (*Record, error) {
	s.Done()
	e := &s.ents[i]
	body, err := s.body(i)
	if err != nil {
		return nil, err
	}
	r := &Record{Capture: Capture{Host: e.host, URL: e.url, Status: int(e.status), Location: e.loc, Body: body, Truncated: e.truncated}}
	if e.time != 0 {
		r.Time = time.Unix(0, e.time).UTC()
	}
	if r.URL == "" {
		r.URL = "http://" + e.host + "/robots.txt"
	}
	cur, curBody := i, body
	for {
		c := &s.ents[cur]
		st := int(c.status)
		r.Final = st
		if st < 300 || st > 399 || st == 304 {
			r.Case = robotsfetch.StatusCase(st)
			break
		}
		if c.loc == "" || st == 300 {
			r.Case = robotsfetch.BadRedirect
			break
		}
		if len(r.Redirects) == MaxRedirects {
			r.Case = robotsfetch.TooManyRedirects
			break
		}
		target := resolveRef(c.url, c.host, c.loc)
		r.Redirects = append(r.Redirects, target)
		next := s.nearest(urlKey(target, c.host), c.time)
		if next < 0 {
			r.Class = ClassMissing
			r.FinalBody = nil
			return r, nil
		}
		cur = next
		if curBody, err = s.body(cur); err != nil {
			return nil, err
		}
	}
	if r.Case == robotsfetch.Success {
		r.FinalBody = curBody
	}
	switch robotsfetch.CaseClass(r.Case) {
	case robotsfetch.UseRules:
		r.Class = ClassRules
	case robotsfetch.AllowAll:
		r.Class = ClassAllowAll
	default:
		r.Class = ClassDisallowAll
	}
	return r, nil
}

// nearest returns the capture of key closest in time to t, or -1.
func (s *Store) nearest(key string, t int64) int {
	l := s.byURL[key]
	best, bestD := -1, int64(-1)
	for _, i := range l {
		d := s.ents[i].time - t
		if d < 0 {
			d = -d
		}
		if best < 0 || d < bestD {
			best, bestD = int(i), d
		}
	}
	return best
}

// resolveRef resolves a Location against the URL it answered.
func resolveRef(base, host, loc string) string {
	if base == "" {
		base = "http://" + host + "/robots.txt"
	}
	b, err := url.Parse(base)
	if err != nil {
		return loc
	}
	u, err := b.Parse(strings.TrimSpace(loc))
	if err != nil {
		return loc
	}
	return u.String()
}

// Hosts returns, for each host, the indexes of its captures sorted by time
// (unknown times first, then input order).
func (s *Store) Hosts() map[string][]int32 {
	s.Done()
	m := map[string][]int32{}
	for i := range s.ents {
		h := s.ents[i].host
		m[h] = append(m[h], int32(i))
	}
	for _, l := range m {
		sort.SliceStable(l, func(a, b int) bool { return s.ents[l[a]].time < s.ents[l[b]].time })
	}
	return m
}

// Time returns capture i's fetch time (zero when unknown).
func (s *Store) Time(i int) time.Time {
	if t := s.ents[i].time; t != 0 {
		return time.Unix(0, t).UTC()
	}
	return time.Time{}
}

// Host returns capture i's host key.
func (s *Store) Host(i int) string { return s.ents[i].host }
