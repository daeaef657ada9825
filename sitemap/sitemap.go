package sitemap

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/rep-toolkit/rep/internal/enum"
)

// The protocol's limits per sitemap file (sitemaps.org, "Sitemap file
// location" and "Sitemap index files").
const (
	// MaxURLs is the most entries one sitemap or sitemap index may list.
	MaxURLs = 50000
	// MaxBytes is the most bytes one sitemap may hold uncompressed.
	MaxBytes = 50 << 20 // 52,428,800 bytes
	// MaxLocBytes bounds a <loc> value: "less than 2,048 characters".
	MaxLocBytes = 2047
)

// Kind is the format of a sitemap file.
type Kind uint8

// Formats Parse reads.
const (
	Unknown Kind = iota // not a sitemap: no entry was read
	URLSet              // <urlset>: pages
	Index               // <sitemapindex>: other sitemaps
	Text                // plain text, one URL a line
	RSS                 // RSS 2.0 feed: <item><link>
	Atom                // Atom 1.0 feed: <entry><link href>
)

var kindNames = enum.New[Kind]("kind", "unknown", "urlset", "sitemapindex", "text", "rss", "atom")

// String returns the format's name: urlset, sitemapindex, text, rss, atom
// or unknown.
func (k Kind) String() string { return kindNames.String(k) }

// MarshalText encodes the kind as its String.
func (k Kind) MarshalText() ([]byte, error) { return kindNames.Marshal(k) }

// UnmarshalText decodes a kind written by MarshalText.
func (k *Kind) UnmarshalText(b []byte) error { return kindNames.Unmarshal(b, k) }

// Entry is one URL a sitemap lists: a page of a urlset, text sitemap or
// feed, or a sitemap of a sitemap index (Sitemap set).
type Entry struct {
	// Loc is the URL as written, entities decoded and spaces trimmed.
	Loc string
	// Sitemap is set for an entry of a sitemap index: Loc is a sitemap.
	Sitemap bool
	// LastMod is the parsed lastmod (pubDate for RSS, updated for Atom);
	// zero when absent or invalid (a Finding then says which).
	LastMod time.Time
	// LastModText is lastmod as written.
	LastModText string
	// ChangeFreq and Priority are as written; empty when absent.
	ChangeFreq, Priority string
	// Line is where the entry starts (1-based).
	Line int
}

// Code names a kind of Finding. Codes are stable: tools match them.
type Code string

// The codes Parse reports.
const (
	// TooManyURLs: the file lists more than MaxURLs entries; Parse stops
	// at the limit.
	TooManyURLs Code = "too-many-urls"
	// TooLarge: the file is over MaxBytes uncompressed; Parse stops at the
	// limit.
	TooLarge Code = "too-large"
	// OtherHost: an entry's URL is not on the sitemap's host (or scheme):
	// search engines drop it.
	OtherHost Code = "other-host"
	// OutsidePath: an entry's URL is on the sitemap's host but not under
	// its directory: search engines drop it.
	OutsidePath Code = "outside-path"
	// BadLoc: an entry's URL is empty, not absolute http(s), or 2,048
	// characters or longer.
	BadLoc Code = "bad-loc"
	// BadLastMod: a lastmod that is not a W3C datetime (an RFC 822 date for
	// RSS, RFC 3339 for Atom); the entry is kept without it.
	BadLastMod Code = "bad-lastmod"
	// Syntax: the XML is malformed; Parse stops there.
	Syntax Code = "syntax"
	// NotSitemap: the root element is none of urlset, sitemapindex, rss or
	// feed, or the file is gzip inside gzip (not read).
	NotSitemap Code = "not-sitemap"
)

// Finding is one problem of a sitemap file.
type Finding struct {
	Code Code `json:"code"`
	// Line is where it is (1-based); 0 for the whole file.
	Line int `json:"line,omitempty"`
	// Loc is the entry's URL, when the finding is about one.
	Loc     string `json:"loc,omitempty"`
	Message string `json:"message"`
}

// String renders the finding on one line: its code, where, and the message.
func (f Finding) String() string {
	s := string(f.Code)
	if f.Line > 0 {
		s += fmt.Sprintf(" (line %d)", f.Line)
	}
	return s + ": " + f.Message
}

// Options configure Parse. The zero value applies the protocol's limits
// and no location rule.
type Options struct {
	// URL is where the sitemap was fetched from. When set, each entry must
	// lie under Scope (see there).
	URL string
	// Scope is the URL prefix every entry must start with; empty means the
	// directory of URL (sitemaps.org: a sitemap at /catalog/sitemap.xml may
	// list /catalog/ URLs only). A sitemap named in robots.txt may list any
	// URL of that robots.txt's host: give its origin plus "/".
	Scope string
	// MaxURLs and MaxBytes override the protocol's limits (0: MaxURLs,
	// MaxBytes).
	MaxURLs  int
	MaxBytes int64
	// MaxFindings caps the findings kept (0: 1000); the rest are counted
	// in Result.Dropped.
	MaxFindings int
}

// Result is what Parse read.
type Result struct {
	Kind Kind `json:"kind"`
	// Gzip is set when the file was gzip-compressed.
	Gzip bool `json:"gzip,omitempty"`
	// Entries counts the entries passed to the callback: those read, less
	// those dropped for a bad or out-of-scope URL.
	Entries int `json:"entries"`
	// Bytes counts the bytes read, uncompressed.
	Bytes    int64     `json:"bytes"`
	Findings []Finding `json:"findings,omitempty"`
	// Dropped counts findings past Options.MaxFindings.
	Dropped int `json:"dropped,omitempty"`
	// Stopped is set when reading stopped early: a limit, a syntax error.
	Stopped bool `json:"stopped,omitempty"`
}

// ReadError is a failure to read the sitemap's bytes (not a problem of
// its content, which is a Finding): the underlying reader's error, or a
// corrupt gzip stream.
type ReadError struct {
	URL string // Options.URL; may be empty
	Err error
}

// Error names the sitemap and why it could not be read.
func (e *ReadError) Error() string {
	if e.URL == "" {
		return "sitemap: reading: " + e.Err.Error()
	}
	return "sitemap " + e.URL + ": reading: " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *ReadError) Unwrap() error { return e.Err }

// Parse reads one sitemap file from r, gzip-compressed or not, and calls
// fn with each entry in file order. Parse returns fn's error as is when fn
// returns one (reading stops there), a *ReadError when r fails, and
// otherwise nil: what is wrong with the content is in Result.Findings.
// The Result is never nil.
func Parse(r io.Reader, o Options, fn func(Entry) error) (*Result, error) {
	p := &parser{o: o, res: &Result{}, fn: fn}
	if p.o.MaxURLs <= 0 {
		p.o.MaxURLs = MaxURLs
	}
	if p.o.MaxBytes <= 0 {
		p.o.MaxBytes = MaxBytes
	}
	if p.o.MaxFindings <= 0 {
		p.o.MaxFindings = 1000
	}
	if o.URL != "" {
		p.scope = o.Scope
		if p.scope == "" {
			p.scope = dirOf(o.URL)
		}
	}
	br := bufio.NewReaderSize(r, 32<<10)
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return p.res, &ReadError{URL: o.URL, Err: err}
		}
		defer zr.Close()
		zr.Multistream(true)
		p.res.Gzip = true
		br = bufio.NewReaderSize(zr, 32<<10)
		if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
			// Decompressed once, it is gzip again: not read as a text
			// sitemap of binary lines, nor decompressed without end.
			p.res.Stopped = true
			p.add(Finding{Code: NotSitemap, Message: "gzip inside gzip: the file is compressed twice, and one decompression gives gzip again, not a sitemap; it was not read (compress it once, or serve a .gz file without Content-Encoding: gzip)"})
			return p.res, nil
		}
	}
	p.cr = &countReader{r: br, max: p.o.MaxBytes}
	in := bufio.NewReaderSize(p.cr, 32<<10)
	// Skip a BOM and leading space to tell XML from text.
	if b, _ := in.Peek(3); bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) {
		in.Discard(3)
	}
	for {
		b, err := in.Peek(1)
		if err != nil {
			break
		}
		if b[0] != ' ' && b[0] != '\t' && b[0] != '\r' && b[0] != '\n' {
			break
		}
		in.Discard(1)
	}
	var err error
	if b, _ := in.Peek(1); len(b) == 1 && b[0] == '<' {
		err = p.xml(in)
	} else {
		err = p.text(in)
	}
	p.res.Bytes = p.cr.n
	if p.cr.over {
		p.res.Stopped = true
		p.add(Finding{Code: TooLarge, Message: fmt.Sprintf("over %d bytes uncompressed: the protocol's limit is 50 MB (52,428,800 bytes); entries past it were not read", p.o.MaxBytes)})
		return p.res, nil
	}
	if err == errEnough {
		return p.res, nil
	}
	if err != nil {
		var rd *ReadError
		if errors.As(err, &rd) {
			rd.URL = o.URL
		}
		return p.res, err
	}
	return p.res, nil
}

// errEnough stops reading at the URL limit.
var errEnough = errors.New("sitemap: entry limit reached")

type parser struct {
	o     Options
	res   *Result
	fn    func(Entry) error
	cr    *countReader
	scope string
	read  int // entries read, passed on or not
}

func (p *parser) add(f Finding) {
	if len(p.res.Findings) >= p.o.MaxFindings {
		p.res.Dropped++
		return
	}
	p.res.Findings = append(p.res.Findings, f)
}

// emit checks e and passes it on; errEnough past the limit.
func (p *parser) emit(e Entry) error {
	if p.read >= p.o.MaxURLs {
		p.res.Stopped = true
		p.add(Finding{Code: TooManyURLs, Line: e.Line, Loc: e.Loc, Message: fmt.Sprintf("more than %d entries: the protocol's limit is 50,000 per file; split it under a sitemap index. Entries from here on were not read", p.o.MaxURLs)})
		return errEnough
	}
	p.read++
	if !p.checkLoc(e) {
		return nil
	}
	p.res.Entries++
	return p.fn(e)
}

// checkLoc reports a bad or out-of-scope URL; false drops the entry.
func (p *parser) checkLoc(e Entry) bool {
	if e.Loc == "" {
		p.add(Finding{Code: BadLoc, Line: e.Line, Message: "an entry without a URL"})
		return false
	}
	if len(e.Loc) > MaxLocBytes {
		p.add(Finding{Code: BadLoc, Line: e.Line, Loc: e.Loc[:64] + "...", Message: fmt.Sprintf("a URL of %d characters: the protocol allows fewer than 2,048", len(e.Loc))})
		return false
	}
	u, err := url.Parse(e.Loc)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		p.add(Finding{Code: BadLoc, Line: e.Line, Loc: e.Loc, Message: "not an absolute http or https URL"})
		return false
	}
	if p.scope == "" {
		return true
	}
	if hasPrefixFold(e.Loc, p.scope) {
		return true
	}
	if hasPrefixFold(e.Loc, originOf(p.scope)+"/") {
		p.add(Finding{Code: OutsidePath, Line: e.Line, Loc: e.Loc, Message: "not under " + p.scope + ", where the sitemap lies: search engines ignore it (move the sitemap up, or name it in robots.txt)"})
	} else {
		p.add(Finding{Code: OtherHost, Line: e.Line, Loc: e.Loc, Message: "not on " + originOf(p.scope) + ", the sitemap's host and scheme: search engines ignore it"})
	}
	return false
}

// text reads a plain-text sitemap: one URL a line, nothing else.
func (p *parser) text(r *bufio.Reader) error {
	p.res.Kind = Text
	line := 0
	var long bool
	for {
		b, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if !long {
				line++
				p.add(Finding{Code: BadLoc, Line: line, Message: "a line of 32 KiB or more: not a URL"})
			}
			long = true
			continue
		}
		if long {
			long = false
			if err == nil {
				continue
			}
		} else if len(b) > 0 {
			line++
			if s := strings.TrimSpace(string(b)); s != "" {
				if e := p.emit(Entry{Loc: s, Line: line}); e != nil {
					return e
				}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return p.readErr(err)
		}
	}
}

func (p *parser) readErr(err error) error {
	if p.cr.over {
		return nil
	}
	return &ReadError{Err: err}
}

// xml reads an XML sitemap, index or feed, one token at a time.
func (p *parser) xml(r io.Reader) error {
	d := xml.NewDecoder(r)
	d.Strict = true
	var (
		depth   int
		cur     *Entry // the entry being read
		field   string // the child element of cur being read
		text    strings.Builder
		entryAt int // depth of cur's element
	)
	entryElem := ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			if p.res.Kind == Unknown {
				p.add(Finding{Code: NotSitemap, Message: "no root element"})
			}
			return nil
		}
		if err != nil {
			if p.cr.over {
				return nil
			}
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				p.res.Stopped = true
				p.add(Finding{Code: Syntax, Line: se.Line, Message: "malformed XML: " + se.Msg + "; entries after it were not read"})
				return nil
			}
			if p.cr.err != nil {
				return &ReadError{Err: p.cr.err}
			}
			// The decoder's other errors are about the content (an
			// undeclared encoding...).
			line, _ := d.InputPos()
			p.res.Stopped = true
			p.add(Finding{Code: Syntax, Line: line, Message: err.Error()})
			return nil
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			name := t.Name.Local
			if depth == 1 {
				switch name {
				case "urlset":
					p.res.Kind, entryElem = URLSet, "url"
				case "sitemapindex":
					p.res.Kind, entryElem = Index, "sitemap"
				case "rss":
					p.res.Kind, entryElem = RSS, "item"
				case "feed":
					p.res.Kind, entryElem = Atom, "entry"
				default:
					line, _ := d.InputPos()
					p.add(Finding{Code: NotSitemap, Line: line, Message: fmt.Sprintf("root element <%s> is none of urlset, sitemapindex, rss or feed", name)})
					return nil
				}
				continue
			}
			if cur == nil {
				if name == entryElem && (p.res.Kind != RSS || depth == 3) && (p.res.Kind == RSS || depth == 2) {
					line, _ := d.InputPos()
					cur, entryAt = &Entry{Line: line, Sitemap: p.res.Kind == Index}, depth
				}
				continue
			}
			if depth == entryAt+1 {
				field = name
				text.Reset()
				if p.res.Kind == Atom && name == "link" && cur.Loc == "" {
					var href, rel string
					for _, a := range t.Attr {
						switch a.Name.Local {
						case "href":
							href = a.Value
						case "rel":
							rel = a.Value
						}
					}
					if rel == "" || rel == "alternate" {
						cur.Loc = strings.TrimSpace(href)
					}
				}
			}
		case xml.CharData:
			if cur != nil && field != "" && depth == entryAt+1 && text.Len() < 4*MaxLocBytes {
				text.Write(t)
			}
		case xml.EndElement:
			if cur != nil && depth == entryAt+1 && field != "" {
				v := strings.TrimSpace(text.String())
				p.setField(cur, field, v)
				field = ""
			}
			if cur != nil && depth == entryAt {
				e := *cur
				cur = nil
				if err := p.emit(e); err != nil {
					return err
				}
			}
			depth--
		}
	}
}

// setField stores the child element name of an entry.
func (p *parser) setField(e *Entry, name, v string) {
	switch p.res.Kind {
	case URLSet, Index:
		switch name {
		case "loc":
			e.Loc = v
		case "lastmod":
			e.LastModText = v
			t, ok := ParseW3C(v)
			if !ok {
				p.add(Finding{Code: BadLastMod, Line: e.Line, Loc: e.Loc, Message: fmt.Sprintf("lastmod %q is not a W3C datetime (2005-01-01 or 2004-12-23T18:00:15+00:00): search engines ignore it", v)})
			}
			e.LastMod = t
		case "changefreq":
			e.ChangeFreq = v
		case "priority":
			e.Priority = v
		}
	case RSS:
		switch name {
		case "link":
			e.Loc = v
		case "pubDate":
			e.LastModText = v
			t, ok := parseRFC822(v)
			if !ok {
				p.add(Finding{Code: BadLastMod, Line: e.Line, Loc: e.Loc, Message: fmt.Sprintf("pubDate %q is not an RFC 822 date: its date is ignored", v)})
			}
			e.LastMod = t
		}
	case Atom:
		if name == "updated" {
			e.LastModText = v
			t, err := time.Parse(time.RFC3339, v)
			if err != nil {
				p.add(Finding{Code: BadLastMod, Line: e.Line, Loc: e.Loc, Message: fmt.Sprintf("updated %q is not an RFC 3339 date: its date is ignored", v)})
			}
			e.LastMod = t
		}
	}
}

// ParseW3C parses a W3C datetime (https://www.w3.org/TR/NOTE-datetime):
// YYYY, YYYY-MM, YYYY-MM-DD, or a date with a time of hh:mm, hh:mm:ss or
// hh:mm:ss.s (any number of decimals) and a zone, Z or ±hh:mm. A date
// without a time is midnight UTC.
func ParseW3C(s string) (time.Time, bool) {
	for _, layout := range [...]string{"2006-01-02T15:04:05Z07:00", "2006-01-02T15:04Z07:00", "2006-01-02", "2006-01", "2006"} {
		if len(s) < len(layout)-6 {
			continue
		}
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func parseRFC822(s string) (time.Time, bool) {
	for _, layout := range [...]string{time.RFC1123Z, time.RFC1123, time.RFC822Z, time.RFC822, "Mon, 2 Jan 2006 15:04:05 -0700", "Mon, 2 Jan 2006 15:04:05 MST"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// countReader counts bytes and ends the stream past max.
type countReader struct {
	r    io.Reader
	n    int64
	max  int64
	over bool
	err  error // the underlying reader's error, io.EOF aside
}

func (c *countReader) Read(b []byte) (int, error) {
	if c.over {
		return 0, io.EOF
	}
	if room := c.max + 1 - c.n; int64(len(b)) > room {
		b = b[:room]
	}
	n, err := c.r.Read(b)
	c.n += int64(n)
	if c.n > c.max {
		c.over = true
		c.n = c.max
		return n - 1, io.EOF
	}
	if err != nil && err != io.EOF {
		c.err = err
	}
	return n, err
}

// dirOf returns a URL's directory: everything up to its last '/' of the
// path, the query dropped.
func dirOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	p := u.EscapedPath()
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		p = p[:i+1]
	} else {
		p = "/"
	}
	return u.Scheme + "://" + u.Host + p
}

// originOf returns scheme://host of a URL prefix.
func originOf(prefix string) string {
	if i := strings.Index(prefix, "://"); i >= 0 {
		if j := strings.IndexByte(prefix[i+3:], '/'); j >= 0 {
			return prefix[:i+3+j]
		}
	}
	return prefix
}

// hasPrefixFold reports whether s starts with prefix, the scheme and host
// compared without case (they are case-insensitive), the path exactly.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	o := len(originOf(prefix))
	return strings.EqualFold(s[:o], prefix[:o]) && s[o:len(prefix)] == prefix[o:]
}
