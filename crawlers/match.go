package crawlers

import (
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Match returns the crawler a User-Agent header names, preferring the
// registry over the crawler-user-agents data set; ok is false when the
// User-Agent names no known crawler. The result is cached per distinct
// User-Agent, so repeated calls cost one map lookup and do not allocate.
// Match is safe for concurrent use.
func Match(userAgent string) (c *Crawler, ok bool) {
	if m := uaCache.read.Load(); m != nil {
		if c, hit := (*m)[userAgent]; hit {
			return c, c != nil
		}
	}
	return uaCache.miss(userAgent)
}

// MatchBytes is [Match] for a User-Agent held in a byte slice, such as a
// field of a log line; it does not allocate when the User-Agent is cached.
func MatchBytes(userAgent []byte) (c *Crawler, ok bool) {
	if m := uaCache.read.Load(); m != nil {
		if c, hit := (*m)[string(userAgent)]; hit {
			return c, c != nil
		}
	}
	return uaCache.miss(string(userAgent))
}

// Classify is [Match] without the cache: it scans the registry's tokens and
// the data set every time. Use it for one-off questions; use Match for logs.
func Classify(userAgent string) (*Crawler, bool) {
	if c := matchToken(userAgent); c != nil {
		return c, true
	}
	if c := dataSet().match(userAgent); c != nil {
		return c, true
	}
	return nil, false
}

// cacheLimit bounds the User-Agent cache. Access logs hold thousands of
// distinct User-Agents; a log with more (random garbage) just refills it.
const cacheLimit = 1 << 16

var uaCache = &cache{limit: cacheLimit}

// cache is a read-mostly map from User-Agent to crawler (nil for "not a
// crawler"). Readers load an immutable map through an atomic pointer, so
// the hot path takes no lock and does not allocate. New entries go to a
// dirty map under a mutex and are promoted into a fresh read map once they
// have been asked for often enough to pay for the copy (amortised O(1)).
type cache struct {
	read   atomic.Pointer[map[string]*Crawler]
	mu     sync.Mutex
	dirty  map[string]*Crawler
	misses int
	limit  int
}

func (k *cache) miss(ua string) (*Crawler, bool) {
	k.mu.Lock()
	c, found := k.dirty[ua]
	if found {
		k.noteMiss()
		k.mu.Unlock()
		return c, c != nil
	}
	k.mu.Unlock()

	c, _ = Classify(ua)

	k.mu.Lock()
	defer k.mu.Unlock()
	var readLen int
	if m := k.read.Load(); m != nil {
		readLen = len(*m)
	}
	if readLen+len(k.dirty) >= k.limit {
		k.read.Store(nil)
		k.dirty = nil
		k.misses = 0
	}
	if k.dirty == nil {
		k.dirty = make(map[string]*Crawler)
	}
	// Clone: the caller's string may point into a large log buffer.
	k.dirty[strings.Clone(ua)] = c
	k.noteMiss()
	return c, c != nil
}

// noteMiss counts a lookup the read map could not answer and promotes the
// dirty map when misses reach both its size and an eighth of the read map.
func (k *cache) noteMiss() {
	k.misses++
	var old map[string]*Crawler
	if m := k.read.Load(); m != nil {
		old = *m
	}
	if k.misses < len(k.dirty) || k.misses < len(old)/8 {
		return
	}
	m := make(map[string]*Crawler, len(old)+len(k.dirty))
	for ua, c := range old {
		m[ua] = c
	}
	for ua, c := range k.dirty {
		m[ua] = c
	}
	k.read.Store(&m)
	k.dirty = nil
	k.misses = 0
}

// tokenEntry is one registry product token, lower-cased.
type tokenEntry struct {
	token string
	c     *Crawler
}

// tokens holds every registry token, longest first, so the first match is
// the most specific one.
var tokens = func() []tokenEntry {
	var t []tokenEntry
	for _, c := range reg.crawlers {
		for _, tok := range c.Tokens {
			t = append(t, tokenEntry{asciiLower(tok), c})
		}
	}
	sort.SliceStable(t, func(i, j int) bool { return len(t[i].token) > len(t[j].token) })
	return t
}()

// matchToken returns the registry crawler whose longest token occurs in ua
// as a whole product token: not preceded or followed by a letter or digit.
func matchToken(ua string) *Crawler {
	lower := asciiLower(ua)
	for _, t := range tokens {
		if containsToken(lower, t.token) {
			return t.c
		}
	}
	return nil
}

func containsToken(s, tok string) bool {
	for off := 0; ; {
		i := strings.Index(s[off:], tok)
		if i < 0 {
			return false
		}
		i += off
		end := i + len(tok)
		if (i == 0 || !isAlnum(s[i-1])) && (end == len(s) || !isAlnum(s[end])) {
			return true
		}
		off = i + 1
	}
}

func isAlnum(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// asciiLower lower-cases ASCII letters only, so byte offsets never move.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
