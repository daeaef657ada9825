package robotstxt

import (
	"strconv"
	"strings"
	"time"
)

// Extension is a line of one of the extension directives rep understands.
// Extensions never change whether a URL is allowed; they are exposed so a
// crawler can honour them (Crawl-delay for Bing, Clean-param for Yandex, AI
// usage signals, ...).
type Extension struct {
	Key   Key
	Name  string // the key as written
	Value string // the value as written
	Line  int
	// Group is the group the line belongs to (index into File.Groups), or
	// -1 outside any group (Host and, for some writers, Content-Signal).
	Group int
	// Err says why the value is invalid; invalid extensions are kept but
	// have zero typed fields.
	Err string

	// Delay is the Crawl-delay.
	Delay time.Duration
	// Requests per Per is the Request-rate ("1/10s" → 1 per 10s).
	Requests int
	Per      time.Duration
	// Window is the Visit-time, or the Request-rate's optional time window:
	// minutes after midnight UTC.
	Window *Window
	// Params and Path are Clean-param's parameter names and optional path
	// prefix; Path is also Content-Usage's optional path.
	Params []string
	Path   string
	// Pairs are Content-Signal's and Content-Usage's key=value preferences
	// ("ai-train" → "no"), in the order written.
	Pairs []Pair
}

// Window is a daily time window in UTC.
type Window struct {
	From, To int // minutes after midnight
}

// Pair is one key=value preference.
type Pair struct{ Key, Value string }

func (p *parser) extension(r *rawLine, name, val string) {
	base := Extension{Key: r.key, Name: name, Value: val, Line: r.num, Group: p.cur}
	e := base
	switch r.key {
	case KeyCrawlDelay:
		d, err := parseSeconds(val)
		if err != "" {
			e.Err = err
		}
		e.Delay = d
	case KeyRequestRate:
		e.Err = parseRequestRate(&e, val)
	case KeyVisitTime:
		w, err := parseWindow(val)
		e.Window, e.Err = w, err
	case KeyHost:
		if val == "" || strings.ContainsAny(val, " \t/") && !strings.Contains(val, "://") {
			e.Err = "Host takes a host name, e.g. 'Host: www.example.com'"
		}
	case KeyCleanParam:
		f := strings.Fields(val)
		switch {
		case len(f) == 0 || len(f) > 2:
			e.Err = "Clean-param takes 'p1&p2 [/path]'"
		default:
			for _, q := range strings.Split(f[0], "&") {
				if q == "" {
					e.Err = "empty parameter name in Clean-param"
					break
				}
				e.Params = append(e.Params, q)
			}
			if len(f) == 2 {
				e.Path = f[1]
				if !strings.HasPrefix(e.Path, "/") && !strings.HasPrefix(e.Path, "*") {
					e.Err = "Clean-param's path must start with '/' or '*'"
				}
			}
		}
	case KeyContentSignal:
		e.Pairs, e.Err = parsePairs(val, "yes", "no")
	case KeyContentUsage:
		v := val
		if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "*") {
			sp := strings.IndexAny(v, " \t")
			if sp < 0 {
				e.Err = "Content-Usage has a path but no preferences"
				break
			}
			e.Path, v = v[:sp], strings.TrimSpace(v[sp:])
		}
		e.Pairs, e.Err = parsePairs(v, "y", "n")
	}
	if e.Err != "" {
		// An invalid value keeps no typed field, not even those read
		// before the error was found.
		base.Err = e.Err
		e = base
		p.diag(r, r.valOff-r.off+1, Warning, "invalid-value", "invalid "+r.key.String()+" value '"+clip([]byte(val))+"': "+e.Err, "")
	}
	if r.key == KeyCrawlDelay && p.f.cdEnds && p.cur >= 0 {
		p.sepSeen = true // Options.CrawlDelayEndsGroup
	}
	if p.cur < 0 && r.key != KeyHost {
		p.diag(r, r.keyOff-r.off+1, Info, "extension-outside-group", r.key.String()+" before any user-agent line applies to no group", "")
	}
	p.f.exts = append(p.f.exts, e)
}

func parseSeconds(v string) (time.Duration, string) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 || f != f || f > 1e9 {
		return 0, "not a non-negative number of seconds"
	}
	return time.Duration(f * float64(time.Second)), ""
}

// parseRequestRate reads "n/t[s|m|h] [hhmm-hhmm]".
func parseRequestRate(e *Extension, v string) string {
	f := strings.Fields(v)
	if len(f) == 0 || len(f) > 2 {
		return "Request-rate takes 'requests/seconds', e.g. '1/10s'"
	}
	n, t, ok := strings.Cut(f[0], "/")
	if !ok {
		return "Request-rate takes 'requests/seconds', e.g. '1/10s'"
	}
	req, err := strconv.Atoi(n)
	if err != nil || req <= 0 {
		return "the number of requests must be a positive integer"
	}
	unit := time.Second
	if t != "" {
		switch t[len(t)-1] {
		case 's', 'S':
			t = t[:len(t)-1]
		case 'm', 'M':
			unit, t = time.Minute, t[:len(t)-1]
		case 'h', 'H':
			unit, t = time.Hour, t[:len(t)-1]
		}
	}
	per, err := strconv.Atoi(t)
	if err != nil || per <= 0 {
		return "the period must be a positive integer with an optional s, m or h"
	}
	e.Requests, e.Per = req, time.Duration(per)*unit
	if len(f) == 2 {
		w, msg := parseWindow(f[1])
		if msg != "" {
			return msg
		}
		e.Window = w
	}
	return ""
}

// parseWindow reads "hhmm-hhmm" or "hh:mm-hh:mm".
func parseWindow(v string) (*Window, string) {
	a, b, ok := strings.Cut(strings.TrimSpace(v), "-")
	if !ok {
		return nil, "a time window is 'hhmm-hhmm' (UTC)"
	}
	from, ok1 := parseHHMM(a)
	to, ok2 := parseHHMM(b)
	if !ok1 || !ok2 {
		return nil, "a time window is 'hhmm-hhmm' (UTC)"
	}
	return &Window{From: from, To: to}, ""
}

func parseHHMM(s string) (int, bool) {
	s = strings.TrimSpace(strings.Replace(s, ":", "", 1))
	if len(s) != 4 {
		return 0, false
	}
	h, err1 := strconv.Atoi(s[:2])
	m, err2 := strconv.Atoi(s[2:])
	if err1 != nil || err2 != nil || h > 24 || m > 59 || (h == 24 && m != 0) {
		return 0, false
	}
	return h*60 + m, true
}

// parsePairs reads "k=v, k2=v2" where each value is yes or no.
func parsePairs(v, yes, no string) ([]Pair, string) {
	var out []Pair
	for _, item := range strings.Split(v, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		k, val, ok := strings.Cut(item, "=")
		k, val = strings.TrimSpace(k), strings.TrimSpace(val)
		if !ok || k == "" {
			return out, "preferences are 'key=" + yes + "' or 'key=" + no + "', separated by commas"
		}
		if !strings.EqualFold(val, yes) && !strings.EqualFold(val, no) {
			return out, "value of '" + k + "' must be " + yes + " or " + no
		}
		out = append(out, Pair{Key: strings.ToLower(k), Value: strings.ToLower(val)})
	}
	if len(out) == 0 {
		return nil, "no preferences"
	}
	return out, ""
}

// Extensions returns every extension line, in file order.
func (f *File) Extensions() []Extension { return f.exts }

// Host returns the first valid Host line (Yandex's preferred mirror,
// deprecated since 2018).
func (f *File) Host() (Extension, bool) {
	for _, e := range f.exts {
		if e.Key == KeyHost && e.Err == "" {
			return e, true
		}
	}
	return Extension{}, false
}

// Extension returns the first valid extension of kind k in the agent's
// groups. It does not fall back to the "*" group: for Bing's rule (a bingbot
// group without Crawl-delay inherits the "*" group's), ask File.Star too.
func (m *Matcher) Extension(k Key) (Extension, bool) {
	if m.e == nil {
		return Extension{}, false
	}
	for _, e := range m.f.exts {
		if e.Key != k || e.Err != "" || e.Group < 0 {
			continue
		}
		for _, g := range m.f.entGroups(m.e) {
			if g == e.Group {
				return e, true
			}
		}
	}
	return Extension{}, false
}

// Extensions returns every valid extension of kind k in the agent's groups,
// in file order (Clean-param may appear many times).
func (m *Matcher) Extensions(k Key) []Extension {
	if m.e == nil {
		return nil
	}
	var out []Extension
	for _, e := range m.f.exts {
		if e.Key != k || e.Err != "" || e.Group < 0 {
			continue
		}
		for _, g := range m.f.entGroups(m.e) {
			if g == e.Group {
				out = append(out, e)
				break
			}
		}
	}
	return out
}

// CrawlDelay returns the agent's Crawl-delay and its line. Google ignores
// Crawl-delay; Bing and Yandex (until 2018) honour it.
func (m *Matcher) CrawlDelay() (d time.Duration, line int, ok bool) {
	e, ok := m.Extension(KeyCrawlDelay)
	return e.Delay, e.Line, ok
}
