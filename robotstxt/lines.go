package robotstxt

import (
	"bytes"
	"encoding/binary"
	"iter"
)

// Key is the kind of a robots.txt line, as recognised from its key.
type Key uint8

const (
	KeyNone          Key = iota // blank or comment-only line
	KeyInvalid                  // text with no usable "key: value" shape; ignored
	KeyUserAgent                // user-agent (also Google's typos useragent, user agent)
	KeyAllow                    // allow
	KeyDisallow                 // disallow (also Google's typos)
	KeySitemap                  // sitemap (also site-map)
	KeyCrawlDelay               // crawl-delay
	KeyRequestRate              // request-rate
	KeyVisitTime                // visit-time
	KeyHost                     // host (Yandex, deprecated)
	KeyCleanParam               // clean-param (Yandex)
	KeyContentSignal            // content-signal (Cloudflare)
	KeyContentUsage             // content-usage (IETF aipref)
	KeyUnknown                  // any other key; kept as an Unknown record
)

var keyNames = [...]string{
	KeyNone: "", KeyInvalid: "", KeyUserAgent: "User-agent", KeyAllow: "Allow",
	KeyDisallow: "Disallow", KeySitemap: "Sitemap", KeyCrawlDelay: "Crawl-delay",
	KeyRequestRate: "Request-rate", KeyVisitTime: "Visit-time", KeyHost: "Host",
	KeyCleanParam: "Clean-param", KeyContentSignal: "Content-Signal",
	KeyContentUsage: "Content-Usage", KeyUnknown: "",
}

// String returns the canonical spelling of the key ("Disallow"), or "" for
// KeyNone, KeyInvalid and KeyUnknown.
func (k Key) String() string {
	if int(k) < len(keyNames) {
		return keyNames[k]
	}
	return ""
}

// Line is one line of a robots.txt file as the parser read it. It is what
// tools that report on the file (a linter, an editor) need; matching uses a
// compact form built from it.
type Line struct {
	Num    int // 1-based line number
	Offset int // byte offset of the line in the input
	// Text is the line as read: without its line end, cut at MaxLineBytes.
	Text    string
	Key     Key
	KeyText string // the key as written
	Value   string // the value as written, comment and surrounding blanks removed
	// KeyCol and ValueCol are 1-based byte columns of KeyText and Value
	// (ValueCol points after the separator when Value is empty).
	KeyCol, ValueCol int
	// Comment is the text after '#', without the '#'.
	Comment string
	// Typo is set when the key was accepted although it is not the exact
	// directive name: one of Google's accepted misspellings, or a longer word
	// that starts with the name ("disallowed"), which Google also accepts.
	Typo bool
	// NoColon is set when blanks stood in for the missing ':' (Google
	// accepts that when the line has exactly two words).
	NoColon bool
	// Cut is set when the line was longer than MaxLineBytes.
	Cut bool
	// NUL is set when the line held a NUL byte: Google's parser ignores the
	// rest of the line after it, and so does this one.
	NUL bool
	// End is the line terminator: "\n", "\r\n", "\r", or "" on the last line.
	End string
}

// Lines returns the lines of data as Parse reads them, with the same BOM,
// line-end, size-limit and cutting rules. The Offset and Text of each line
// index into data.
func Lines(data []byte, o Options) iter.Seq[Line] {
	return func(yield func(Line) bool) {
		s := string(data) // one copy so that every Line's strings share it
		scan(data, o.maxBytes(), func(r *rawLine) bool {
			return yield(r.line(s))
		})
	}
}

// rawLine is a line located in the input by offsets, so the parser's hot
// loop creates no strings.
type rawLine struct {
	num, off, end  int // content is data[off:end] (cut, NUL removed)
	full           int // end of the uncut line
	termLen        int
	key            Key
	keyOff, keyEnd int
	valOff, valEnd int
	hash           int // offset of '#', or -1
	typo, noColon  bool
	cut, nul       bool
}

func (r *rawLine) line(s string) Line {
	l := Line{
		Num: r.num, Offset: r.off, Text: s[r.off:r.end], Key: r.key,
		Typo: r.typo, NoColon: r.noColon, Cut: r.cut, NUL: r.nul,
	}
	if r.key != KeyNone && r.key != KeyInvalid {
		l.KeyText = s[r.keyOff:r.keyEnd]
		l.Value = s[r.valOff:r.valEnd]
		l.KeyCol = r.keyOff - r.off + 1
		l.ValueCol = r.valOff - r.off + 1
	}
	if r.hash >= 0 {
		l.Comment = s[r.hash+1 : r.end]
	}
	switch r.termLen {
	case 1:
		l.End = s[r.full : r.full+1]
	case 2:
		l.End = "\r\n"
	}
	return l
}

var bom = [3]byte{0xEF, 0xBB, 0xBF}

// scanResult tells what scan did with the input as a whole.
type scanResult struct {
	bomLen    int  // bytes of (possibly partial) BOM skipped at the start
	limited   bool // input was longer than the limit
	parsedLen int  // bytes read, up to the last line end within the limit
	lines     int  // lines read, counting the empty one after a final line end
}

// scan splits data into lines as Google's parser does and classifies each
// one. It stops early when yield returns false.
func scan(data []byte, limit int, yield func(*rawLine) bool) scanResult {
	s := newScanner(data, limit)
	var r rawLine
	for s.next(&r) && yield(&r) {
	}
	return s.res
}

// scanner reads lines one at a time: scan's loop, which the parser drives
// itself so that it can take the most common lines without a rawLine.
type scanner struct {
	data  []byte // the input, cut at the limit
	hasCR bool
	// nx remembers where the next '#' and NUL in the input are: finding
	// them once per occurrence instead of once per line keeps the per-line
	// work to the line end and the separator.
	nx   nextFinder
	i    int  // start of the next line
	done bool // the last line (the one without a line end) was read
	res  scanResult
}

func newScanner(data []byte, limit int) scanner {
	var res scanResult
	// A UTF-8 byte order mark, even a partial one, is skipped at the start
	// only (robots.cc skips the longest BOM prefix).
	for res.bomLen < len(bom) && res.bomLen < len(data) && data[res.bomLen] == bom[res.bomLen] {
		res.bomLen++
	}
	if len(data) > limit {
		res.limited = true
		// Stop at a line boundary: keep through the last CR or LF before
		// the limit (RFC 9309 §2.5; a rule is never cut in half).
		cut := lastLineEnd(data[:limit])
		if cut < res.bomLen {
			cut = res.bomLen
		}
		data = data[:cut]
	}
	res.parsedLen = len(data)
	return scanner{
		data: data,
		// Most files have no CR at all: then one scan per line finds its end.
		hasCR: bytes.IndexByte(data, '\r') >= 0,
		nx:    nextFinder{hash: -1, nul: -1},
		i:     res.bomLen,
		res:   res,
	}
}

// next reads the next line into r, and reports false when there is none.
func (s *scanner) next(r *rawLine) bool {
	if s.done {
		return false
	}
	data, i := s.data, s.i
	rest := data[i:]
	nl := bytes.IndexByte(rest, '\n')
	cr := -1
	if s.hasCR {
		if nl >= 0 {
			cr = bytes.IndexByte(rest[:nl], '\r')
		} else {
			cr = bytes.IndexByte(rest, '\r')
		}
	}
	j := len(data)
	switch {
	case cr >= 0:
		j = i + cr
	case nl >= 0:
		j = i + nl
	}
	term := lineEnd(data, j)
	// Only the fields classify may leave unset are reset: the offsets of
	// the key and value are read only when it sets them.
	r.num, r.off, r.full, r.termLen, r.hash = s.advance(j, term), i, j, term, -1
	r.typo, r.noColon, r.cut, r.nul = false, false, false, false
	classify(data, r, &s.nx)
	return true
}

// lineEnd returns the length of the line end at data[j]: 1 for LF or a
// CR alone, 2 for CRLF, 0 at the end of data, and -1 for any other byte.
func lineEnd(data []byte, j int) int {
	if j >= len(data) {
		return 0
	}
	switch data[j] {
	case '\n':
		return 1
	case '\r':
		if j+1 < len(data) && data[j+1] == '\n' {
			return 2
		}
		return 1
	}
	return -1
}

// advance moves the scanner past a line that ends at j with a line end of
// term bytes, and returns the line's number.
func (s *scanner) advance(j, term int) int {
	s.res.lines++
	s.i = j + term
	s.done = term == 0
	return s.res.lines
}

func lastLineEnd(b []byte) int {
	for k := len(b) - 1; k >= 0; k-- {
		if b[k] == '\n' || b[k] == '\r' {
			return k + 1
		}
	}
	return 0
}

func isSpace(c byte) bool {
	// absl::ascii_isspace: space, \t, \n, \v, \f, \r.
	return c == ' ' || (c >= '\t' && c <= '\r')
}

// classify fills in the key and value of r, as GetKeyAndValueFrom in
// robots.cc does.
// nextFinder remembers where the next '#' and NUL are (len(data) when there
// are no more; -1 before the first search).
type nextFinder struct{ hash, nul int }

func (n *nextFinder) find(data []byte, from int, c byte, at *int) int {
	if *at < from {
		if k := bytes.IndexByte(data[from:], c); k >= 0 {
			*at = from + k
		} else {
			*at = len(data)
		}
	}
	return *at
}

func classify(data []byte, r *rawLine, nx *nextFinder) {
	end := r.full
	if end-r.off > MaxLineBytes {
		end = r.off + MaxLineBytes
		r.cut = true
	}
	// The common case, no NUL or '#' ahead, is decided by one compare each
	// without a call.
	if nx.nul < r.off {
		nx.find(data, r.off, 0, &nx.nul)
	}
	if k := nx.nul; k < end {
		// Google keeps each line in a C string: a NUL ends it.
		end = k
		r.nul = true
	}
	r.end = end
	lo, hi := r.off, end
	if nx.hash < lo {
		nx.find(data, lo, '#', &nx.hash)
	}
	if k := nx.hash; k < hi {
		r.hash = k
		hi = k
	}
	for lo < hi && isSpace(data[lo]) {
		lo++
	}
	for hi > lo && isSpace(data[hi-1]) {
		hi--
	}
	if lo == hi {
		r.key = KeyNone
		return
	}
	line := data[lo:hi]
	// The keys of most lines, spelled exactly and followed at once by ':',
	// are told by their first word and the colon's place: the general
	// path below (first ':', trimmed key, keyOf) gives the same answer for
	// them, with a search and a call more.
	if k, n := quickKey(line); k != KeyNone {
		vo := lo + n + 1
		for vo < hi && isSpace(data[vo]) {
			vo++
		}
		r.keyOff, r.keyEnd, r.valOff, r.valEnd = lo, lo+n, vo, hi
		r.key = k
		return
	}
	sep := bytes.IndexByte(line, ':')
	if sep < 0 {
		// Google accepts blanks for a missing colon when the line has
		// exactly two words ("Disallow /x").
		w := bytes.IndexAny(line, " \t")
		if w >= 0 {
			v := w
			for v < len(line) && (line[v] == ' ' || line[v] == '\t') {
				v++
			}
			if !bytes.ContainsAny(line[v:], " \t") {
				sep = w
				r.noColon = true
			}
		}
	}
	if sep < 0 {
		r.key = KeyInvalid
		return
	}
	ke := lo + sep
	for ke > lo && isSpace(data[ke-1]) {
		ke--
	}
	if ke == lo {
		r.key = KeyInvalid
		r.noColon = false
		return
	}
	vo := lo + sep + 1
	for vo < hi && isSpace(data[vo]) {
		vo++
	}
	r.keyOff, r.keyEnd, r.valOff, r.valEnd = lo, ke, vo, hi
	r.key, r.typo = keyOf(data[lo:ke])
}

// quickKey recognises "disallow:", "allow:" and "user-agent:" (any case)
// at the start of line, returning the key and its length, or KeyNone. OR
// 0x20 folds ASCII letters to lower case; the only other bytes it maps to
// these letters or '-' are CR, which never occurs inside a line.
func quickKey(line []byte) (Key, int) {
	switch {
	case len(line) >= 9 && line[8] == ':' && binary.LittleEndian.Uint64(line)|0x2020202020202020 == wDisallow:
		return KeyDisallow, 8
	case len(line) >= 6 && line[5] == ':' && binary.LittleEndian.Uint32(line)|0x20202020 == wAllo && line[4]|0x20 == 'w':
		return KeyAllow, 5
	case len(line) >= 11 && line[10] == ':' && binary.LittleEndian.Uint64(line)|0x2020202020202020 == wUserAge &&
		line[8]|0x20 == 'n' && line[9]|0x20 == 't':
		return KeyUserAgent, 10
	}
	return KeyNone, 0
}

// keyOf recognises a key the way robots.cc does: case-insensitively and by
// prefix for the four keys Google supports, with its accepted typos; the
// extensions only by their exact names (and a few common variants).
func keyOf(k []byte) (Key, bool) {
	if len(k) == 0 {
		return KeyUnknown, false
	}
	// The three keys that make most lines, spelled exactly, are recognised
	// with one or two 8-byte compares (OR 0x20 folds ASCII letters to lower
	// case and leaves '-' alone).
	if len(k) >= 8 {
		w := binary.LittleEndian.Uint64(k) | 0x2020202020202020
		switch {
		case w == wDisallow && len(k) == 8:
			return KeyDisallow, false
		case w == wUserAge && len(k) == 10 && k[8]|0x20 == 'n' && k[9]|0x20 == 't':
			return KeyUserAgent, false
		}
	} else if len(k) == 5 && binary.LittleEndian.Uint32(k)|0x20202020 == wAllo && k[4]|0x20 == 'w' {
		return KeyAllow, false
	}
	switch k[0] | 0x20 {
	case 'u':
		switch {
		case hasPrefixFold(k, "user-agent"):
			return KeyUserAgent, len(k) != len("user-agent")
		case hasPrefixFold(k, "useragent"), hasPrefixFold(k, "user agent"):
			return KeyUserAgent, true
		}
	case 'a':
		if hasPrefixFold(k, "allow") {
			return KeyAllow, len(k) != len("allow")
		}
	case 'd':
		if hasPrefixFold(k, "disallow") {
			return KeyDisallow, len(k) != len("disallow")
		}
		for _, t := range disallowTypos {
			if hasPrefixFold(k, t) {
				return KeyDisallow, true
			}
		}
	case 's':
		if hasPrefixFold(k, "sitemap") {
			return KeySitemap, len(k) != len("sitemap")
		}
		if hasPrefixFold(k, "site-map") {
			return KeySitemap, true
		}
	case 'c':
		switch {
		case equalFold(k, "crawl-delay"):
			return KeyCrawlDelay, false
		case equalFold(k, "crawldelay"), equalFold(k, "crawl delay"), equalFold(k, "crawl_delay"):
			return KeyCrawlDelay, true
		case equalFold(k, "clean-param"):
			return KeyCleanParam, false
		case equalFold(k, "content-signal"):
			return KeyContentSignal, false
		case equalFold(k, "content-usage"):
			return KeyContentUsage, false
		}
	case 'r':
		if equalFold(k, "request-rate") {
			return KeyRequestRate, false
		}
	case 'v':
		if equalFold(k, "visit-time") {
			return KeyVisitTime, false
		}
	case 'h':
		if equalFold(k, "host") {
			return KeyHost, false
		}
	}
	return KeyUnknown, false
}

var (
	wDisallow = binary.LittleEndian.Uint64([]byte("disallow"))
	wUserAge  = binary.LittleEndian.Uint64([]byte("user-age"))
	wAllo     = binary.LittleEndian.Uint32([]byte("allo"))
)

var disallowTypos = [...]string{"dissallow", "dissalow", "disalow", "diasllow", "disallaw"}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasPrefixFold reports whether b starts with the lower-case ASCII prefix p,
// ignoring ASCII case.
func hasPrefixFold(b []byte, p string) bool {
	if len(b) < len(p) {
		return false
	}
	for i := 0; i < len(p); i++ {
		if lower(b[i]) != p[i] {
			return false
		}
	}
	return true
}

func equalFold(b []byte, p string) bool {
	return len(b) == len(p) && hasPrefixFold(b, p)
}
