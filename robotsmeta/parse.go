package robotsmeta

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/rep-toolkit/rep/robotsmeta/internal/htmlscan"
	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
)

// Parse reads a response: every X-Robots-Tag, Robots-Tag,
// tdm-reservation, tdm-policy and Content-Usage field in h, and the HTML body (nil for none). It
// returns the Page even with an error, which only a failing body reader
// causes; everything malformed in the input becomes a Diagnostic.
func Parse(h http.Header, body io.Reader, o Options) (*Page, error) {
	return ParseLines(HeaderLines(h), body, o)
}

// ReadsBody reports whether ParseLines reads the body of a response whose
// Content-Type is ct (the last one, "" for none): HTML, XHTML, none (the
// body is sniffed) or one that does not parse. Any other type is not HTML:
// its body is not read, only the headers apply (Page.Stop StopNotHTML).
func ReadsBody(ct string) bool {
	if ct == "" {
		return true
	}
	mt, _, err := mime.ParseMediaType(ct)
	return err != nil || mt == "text/html" || mt == "application/xhtml+xml"
}

// ParseLines is Parse with raw "Name: value" header field lines, in the
// order they were received; Source.Line numbers them from 1.
func ParseLines(lines []string, body io.Reader, o Options) (*Page, error) {
	o.defaults()
	p := &Page{tdmHeader: TDMUnset, tdmMeta: TDMUnset, tdmHeaderSrc: -1, tdmMetaSrc: -1, contentUsageSrc: -1}
	ct := p.readHeaders(lines, &o)
	// settle: the scan may stop once the indexing rules for o.Agent are
	// settled.
	settle := o.Need&(NeedPolicy|NeedLinks|NeedNoSnippet) == 0 && o.Agent != ""
	if settle && p.indexingSettled(o.Agent, o.Profile, o.Now) {
		// The headers alone decide: the body need not be fetched.
		p.Stop = StopSettled
		return p, nil
	}
	if body == nil {
		return p, nil
	}
	if !ReadsBody(ct) {
		mt, _, _ := mime.ParseMediaType(ct)
		p.Stop = StopNotHTML
		p.diag(Info, "not-html", 0, 0, -1, "Content-Type %s is not HTML: only the headers apply", mt)
		return p, nil
	}
	cr := &countingReader{r: body, max: o.MaxBytes}
	r, cs, err := decode(cr, ct)
	p.Charset = cs
	if err != nil {
		p.BytesRead = cr.n
		return p, fmt.Errorf("robotsmeta: reading body at byte %d: %w", cr.n, err)
	}
	z := html.NewTokenizer(r)
	z.SetMaxBuf(o.MaxToken)
	e := &scan{p: p, o: o, settle: settle}
	e.s = *htmlscan.New(z, e, htmlscan.Options{Links: o.Need&NeedLinks != 0, Snippets: o.Need&NeedNoSnippet != 0,
		MaxRegions: o.MaxRegions, MaxRegionText: o.MaxRegionText})
	err = e.s.Run()
	line, col := e.s.Pos()
	if errors.Is(err, html.ErrBufferExceeded) {
		p.Stop = StopToken
		p.diag(Warning, "limit-token", line, col, -1,
			"stopped reading: one token is larger than %d bytes", o.MaxToken)
		err = nil
	}
	p.BytesRead = cr.n
	if e.s.Stopped() {
		p.Stop = StopSettled
	} else if cr.hit && p.Stop == StopEOF {
		p.Stop = StopMaxBytes
		p.diag(Warning, "limit-bytes", line, col, -1,
			"stopped after %d bytes (Options.MaxBytes): rules after this point are not seen, as an engine with this limit would not see them", o.MaxBytes)
	}
	if e.dropped.links > 0 {
		p.diag(Info, "limit-links", 0, 0, -1, "%d links beyond the first %d not kept", e.dropped.links, o.MaxLinks)
	}
	if e.dropped.sources > 0 {
		p.diag(Info, "limit-sources", 0, 0, -1, "%d meta elements beyond the first %d not read", e.dropped.sources, o.MaxSources)
	}
	if n := e.s.Dropped(); n > 0 {
		p.diag(Info, "limit-regions", 0, 0, -1, "%d snippet regions beyond the first %d not kept", n, o.MaxRegions)
	}
	if err != nil {
		return p, fmt.Errorf("robotsmeta: reading body at byte %d: %w", cr.n, err)
	}
	return p, nil
}

// countingReader counts bytes and ends the stream at max (max < 0: never).
// hit says the body went on past max: at max it reads one byte more to
// know, so a body of exactly max bytes is not reported as cut.
type countingReader struct {
	r           io.Reader
	n           int64
	max         int64
	hit, probed bool
}

func (c *countingReader) Read(b []byte) (int, error) {
	if c.max >= 0 {
		if c.n >= c.max {
			if !c.probed {
				c.probed = true
				var one [1]byte
				_, err := io.ReadFull(c.r, one[:])
				c.hit = !errors.Is(err, io.EOF) // a byte came, or the read failed
			}
			return 0, io.EOF
		}
		if rest := c.max - c.n; int64(len(b)) > rest {
			b = b[:rest]
		}
	}
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
}

// decode picks the encoding as a browser does (BOM, then the Content-Type
// charset, then a <meta charset> prescan of the first 1024 bytes:
// x/net/html/charset) and returns a UTF-8 reader without a BOM. An
// undeclared page whose first 1024 bytes are ASCII is read as UTF-8 rather
// than windows-1252: rule names are ASCII either way, and UTF-8 keeps
// later non-ASCII hrefs and text intact on the modern web.
func decode(r io.Reader, contentType string) (io.Reader, string, error) {
	preview := make([]byte, 1024)
	n, err := io.ReadFull(r, preview)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, "", err
	}
	preview = preview[:n]
	enc, name, certain := charset.DetermineEncoding(preview, contentType)
	if !certain && name == "windows-1252" && isASCII(preview) {
		name = "utf-8"
	}
	var rr io.Reader = io.MultiReader(bytes.NewReader(preview), r)
	if name != "utf-8" {
		rr = enc.NewDecoder().Reader(rr)
	}
	return &bomSkipper{r: rr}, name, nil
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// bomSkipper drops one leading U+FEFF, which would otherwise be text that
// opens <body> before the first meta.
type bomSkipper struct {
	r    io.Reader
	done bool
	buf  []byte
}

func (b *bomSkipper) Read(p []byte) (int, error) {
	if b.done {
		if len(b.buf) > 0 {
			n := copy(p, b.buf)
			b.buf = b.buf[n:]
			return n, nil
		}
		return b.r.Read(p)
	}
	var head [3]byte
	n, err := io.ReadFull(b.r, head[:])
	b.done = true
	if n == 3 && head == [3]byte{0xEF, 0xBB, 0xBF} {
		n = 0
	}
	b.buf = append(b.buf[:0], head[:n]...)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return 0, err
	}
	if len(b.buf) == 0 && err != nil {
		return 0, io.EOF
	}
	return b.Read(p)
}

// knownCrawlers are meta names that address a crawler; problems in their
// content are linted like those of name="robots".
var knownCrawlers = map[string]bool{
	"googlebot": true, "googlebot-news": true, "googlebot-image": true, "googlebot-video": true,
	"adsbot-google": true, "adsbot-google-mobile": true, "mediapartners-google": true,
	"bingbot": true, "msnbot": true, "yandex": true, "yandexbot": true, "baiduspider": true,
	"applebot": true, "seznambot": true, "duckduckbot": true, "slurp": true, "naverbot": true,
	"yeti": true, "gptbot": true, "ccbot": true, "claudebot": true, "perplexitybot": true,
}

// meta reads a <meta> element and reports whether the scan may stop: the
// page's indexing rules for Options.Agent are settled.
func (e *scan) meta(at htmlscan.Attrs) (stop bool) {
	p := e.p
	inBody := e.s.InBody()
	line, col := e.s.Pos()
	if he := strings.TrimSpace(at.HTTPEquiv); strings.EqualFold(he, "x-robots-tag") || strings.EqualFold(he, "robots") {
		p.diag(Warning, "http-equiv", line, col, -1,
			"<meta http-equiv=%q> is not read by any engine (none documents it): send a real X-Robots-Tag header or use <meta name=\"robots\">", he)
	}
	if !at.HasName && strings.EqualFold(strings.TrimSpace(at.Property), "robots") {
		p.diag(Warning, "property-robots", line, col, -1,
			"<meta property=\"robots\"> is not read by any engine: use name=\"robots\"")
	}
	if !at.HasName {
		return false
	}
	lname := strings.ToLower(strings.TrimSpace(at.Name))
	switch lname {
	case "tdm-reservation":
		src := p.addSource(Source{Kind: FromMeta, Name: at.Name, Value: at.Content, Line: line, Column: col, InBody: inBody})
		if t, ok := parseTDM(at.Content); ok {
			p.tdmMeta, p.tdmMetaSrc = t, src
		} else {
			p.diag(Warning, "tdm-invalid", line, col, src, "tdm-reservation %q: only 0 or 1 are valid; treated as unset (TDMRep)", at.Content)
		}
		return false
	case "tdm-policy":
		src := p.addSource(Source{Kind: FromMeta, Name: at.Name, Value: at.Content, Line: line, Column: col, InBody: inBody})
		p.TDMPolicy = strings.TrimSpace(at.Content)
		if p.tdmMetaSrc < 0 {
			p.tdmMetaSrc = src
		}
		return false
	case "description", "keywords", "viewport", "author", "generator", "theme-color",
		"referrer", "format-detection", "application-name", "color-scheme":
		return false
	}
	robotsish := lname == "robots" || lname == "robot" || lname == "google" || knownCrawlers[lname] ||
		(e.o.Agent != "" && strings.EqualFold(lname, agentToken(e.o.Agent)))
	if len(p.Sources) >= e.o.MaxSources {
		e.dropped.sources++
		return false
	}
	src := p.addSource(Source{Kind: FromMeta, Name: at.Name, Value: at.Content, Line: line, Column: col, InBody: inBody})
	scope := lname
	if lname == "robots" {
		scope = ""
	}
	first := len(p.Rules)
	n := p.parseRuleList(at.Content, listCtx{scope: scope, src: src, line: line, col: col, lint: robotsish, now: e.o.Now, agent: e.o.Agent, prof: e.o.Profile})
	if n == 0 && !robotsish {
		p.Sources = p.Sources[:src]
		return false
	}
	if robotsish {
		e.lintMeta(at, lname, src, inBody, p.Rules[first:])
	}
	return e.settle && p.indexingSettled(e.o.Agent, e.o.Profile, e.o.Now)
}

func (e *scan) lintMeta(at htmlscan.Attrs, lname string, src int, inBody bool, rules []Rule) {
	p := e.p
	line, col := e.s.Pos()
	if !at.HasContent {
		p.diag(Warning, "missing-content", line, col, src, "<meta name=%q> has no content attribute", at.Name)
	}
	switch lname {
	case "robot":
		p.diag(Warning, "meta-name-robot", line, col, src,
			"name=\"robot\" is not documented; Google has been observed to honour it (applied in the google profile only): write name=\"robots\"")
	case "google":
		for _, r := range rules {
			if r.Directive != NoTranslate && r.Directive != NoSitelinksSearchBox {
				p.diag(Warning, "meta-name-google", line, col, src,
					"name=\"google\" is not a crawler name: Google reads it only for notranslate and nositelinkssearchbox, so %s is ignored; use name=\"robots\" or name=\"googlebot\"", r.Directive)
				break
			}
		}
	}
	if inBody {
		if by, byLine, byCol := e.s.ImpliedBody(); by != "" {
			p.diag(Warning, "meta-in-body", line, col, src,
				"this robots meta is in <body>: %s at %d:%d ended <head> early; Google reads body metas, crawlers that stop at </head> (Nutch, StormCrawler) miss it",
				by, byLine, byCol)
		} else {
			p.diag(Info, "meta-in-body", line, col, src,
				"this robots meta is in <body>: Google reads it, crawlers that stop at </head> (Nutch, StormCrawler) miss it; move it into <head>")
		}
	}
}
