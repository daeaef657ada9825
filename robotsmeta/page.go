package robotsmeta

import (
	"fmt"
	"strconv"
	"time"

	"github.com/rep-toolkit/rep/robotstxt"
)

// SourceKind tells header fields from meta elements.
type SourceKind uint8

// Source kinds.
const (
	FromHeader SourceKind = iota // an HTTP response header field line
	FromMeta                     // a <meta> element in the parsed document
)

// String returns "header" or "meta".
func (k SourceKind) String() string {
	if k == FromMeta {
		return "meta"
	}
	return "header"
}

// MarshalText encodes the kind as its String.
func (k SourceKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Source is one place the page said something: a header field line, one
// member of a Robots-Tag field (Value is the member as written, e.g.
// "ExampleBot;noindex") or a meta element. Every Rule points back to its
// Source.
type Source struct {
	Kind SourceKind `json:"kind"`
	// Name is the header field name or the meta name attribute, as written.
	Name string `json:"name"`
	// Value is the header field value or the meta content attribute.
	Value string `json:"value"`
	// Line is the 1-based header line number among the lines given to
	// Parse, or the meta element's line in the (decoded) document.
	Line int `json:"line"`
	// Column is the meta element's 1-based byte column, or a Robots-Tag
	// member's in its field line's value; 0 for other headers.
	Column int `json:"column,omitempty"`
	// InBody is true for a meta element the HTML parser put in <body>.
	InBody bool `json:"in_body,omitempty"`
}

// String describes the source for a site owner, e.g.
// `<meta name="robots"> at 3:5`, `X-Robots-Tag header (line 2)` or
// `Robots-Tag header (line 1, member "ExampleBot;noindex")`.
func (s Source) String() string {
	if s.IsRobotsTag() && s.Column > 0 {
		return fmt.Sprintf("%s header (line %d, member %q)", s.Name, s.Line, s.Value)
	}
	if s.Kind == FromHeader {
		return fmt.Sprintf("%s header (line %d)", s.Name, s.Line)
	}
	where := ""
	if s.InBody {
		where = " in <body>"
	}
	return fmt.Sprintf("<meta name=%q>%s at %d:%d", s.Name, where, s.Line, s.Column)
}

// Rule is one robots directive read from a source, before any combining.
type Rule struct {
	Directive Directive
	// Scope is the lower-case crawler token the rule is addressed to; ""
	// means all crawlers (meta name="robots", or a header rule with no
	// "bot:" prefix). Meta name="robot" gives scope "robot" and meta
	// name="google" gives "google"; profiles decide what those reach.
	Scope string
	// N is the value of max-snippet or max-video-preview.
	N int
	// Preview is the value of max-image-preview.
	Preview ImagePreview
	// Time is the value of unavailable_after, in UTC.
	Time time.Time
	// Lenient marks a rule recovered from a list separated by spaces
	// ("noindex nofollow"): only the Bing profile applies those.
	Lenient bool
	// Source indexes Page.Sources.
	Source int
}

// String renders the rule as it would be written, e.g. "max-snippet:20"
// or "googlebot: noindex".
func (r Rule) String() string {
	s := r.Directive.String()
	switch r.Directive {
	case MaxSnippet, MaxVideoPreview:
		s += ":" + strconv.Itoa(r.N)
	case MaxImagePreview:
		s += ":" + r.Preview.String()
	case UnavailableAfter:
		s += ": " + r.Time.Format(time.RFC3339Nano)
	}
	if r.Scope != "" {
		s = r.Scope + ": " + s
	}
	return s
}

// Rel is the set of link types on an <a> or <area> that ask a crawler not
// to follow or credit the link.
type Rel uint8

// Link types (WHATWG: rel is a set of space-separated, ASCII
// case-insensitive tokens).
const (
	RelNoFollow  Rel = 1 << iota // rel=nofollow (2005)
	RelUGC                       // rel=ugc (Google, 2019-09-10)
	RelSponsored                 // rel=sponsored (Google, 2019-09-10)
)

// Link is one hyperlink: an <a> or <area> with an href.
type Link struct {
	Href string // as written (character references decoded), not resolved
	Rel  Rel
	// RelText is the rel attribute as written.
	RelText      string
	Line, Column int
}

// Region is an element whose text the page excludes from snippets.
type Region struct {
	// Tag is the element name: span, div or section for data-nosnippet,
	// any element for robots-nocontent.
	Tag string
	// Text is the region's textContent with whitespace runs collapsed to
	// one space and trimmed.
	Text         string
	Line, Column int
	// Truncated is set when Text was cut at Options.MaxRegionText.
	Truncated bool
}

// Severity ranks a diagnostic: the one severity of rep, robotstxt's,
// which lint, policy and crawl use too.
type Severity = robotstxt.Severity

// Severities, least first.
const (
	Info    = robotstxt.Info
	Warning = robotstxt.Warning
	Error   = robotstxt.Error
)

// Diagnostic is one lint finding. Line and Column locate it: the header
// line number (Column is the byte offset in the value, 1-based) or the
// position in the document.
type Diagnostic struct {
	Severity Severity `json:"severity"`
	Code     string   `json:"code"`
	Message  string   `json:"message"`
	Line     int      `json:"line,omitempty"`
	Column   int      `json:"column,omitempty"`
	// Source indexes Page.Sources, or is -1.
	Source int `json:"-"`
}

// String renders the diagnostic as "line:col: severity: message (code)".
func (d Diagnostic) String() string {
	if d.Line == 0 {
		return fmt.Sprintf("%s: %s (%s)", d.Severity, d.Message, d.Code)
	}
	return fmt.Sprintf("%d:%d: %s: %s (%s)", d.Line, d.Column, d.Severity, d.Message, d.Code)
}

// TDM is a TDMRep tdm-reservation value.
type TDM int8

// TDMRep values (W3C TDMRep Final CG Report 2024-05-10).
const (
	TDMUnset    TDM = -1 // no valid value was given
	TDMAllowed  TDM = 0  // rights not reserved
	TDMReserved TDM = 1  // text and data mining rights reserved
)

// Pref is an IETF aipref usage preference.
type Pref int8

// Preferences (draft-ietf-aipref-vocab).
const (
	PrefUnknown Pref = iota
	PrefYes          // y
	PrefNo           // n
)

// String returns the preference as written: "y", "n" or "".
func (p Pref) String() string {
	switch p {
	case PrefYes:
		return "y"
	case PrefNo:
		return "n"
	}
	return ""
}

// Stop says why reading of the body ended.
type Stop uint8

// Reasons reading stopped.
const (
	StopEOF      Stop = iota // the whole body was read
	StopSettled              // the answer asked for could no longer change
	StopMaxBytes             // Options.MaxBytes was reached
	StopNotHTML              // the Content-Type is not HTML: body not read
	StopToken                // one token exceeded Options.MaxToken
)

// String names why reading stopped, as the JSON output spells it.
func (s Stop) String() string {
	return [...]string{"eof", "settled", "max-bytes", "not-html", "max-token"}[s]
}

// Page is everything a response said about robots: the sources, the rules
// read from them, links, snippet-excluded regions and diagnostics. A Page
// is immutable once Parse returns and safe for concurrent use; query it
// with Policy for each crawler.
type Page struct {
	Sources     []Source
	Rules       []Rule
	Links       []Link
	NoSnippet   []Region // data-nosnippet on span, div, section (outermost)
	NoContent   []Region // Yahoo class="robots-nocontent" (outermost)
	Diagnostics []Diagnostic
	// Base is the first <base href>, as written, for resolving Links.
	Base string
	// Charset is the encoding the body was decoded from.
	Charset string
	// BytesRead counts body bytes consumed before decoding.
	BytesRead int64
	Stop      Stop

	tdmHeader, tdmMeta TDM // last valid value per layer
	tdmHeaderSrc       int
	tdmMetaSrc         int
	TDMPolicy          string // tdm-policy URL, HTML over header
	// ContentUsage is the parsed IETF aipref Content-Usage field: label ->
	// token value; nil when absent or unparseable.
	ContentUsage    map[string]string
	contentUsageSrc int
}

// Need says what the caller will ask of a Page, so Parse can skip work and
// stop reading once the answer cannot change.
type Need uint8

// Needs; combine with |.
const (
	// NeedPolicy asks for every field of the Policy.
	NeedPolicy Need = 1 << iota
	// NeedIndexing asks only for Index and Follow: whether to keep the
	// page and whether to queue its links.
	NeedIndexing
	// NeedLinks asks for Page.Links.
	NeedLinks
	// NeedNoSnippet asks for Page.NoSnippet and Page.NoContent.
	NeedNoSnippet
	// NeedAll is the default.
	NeedAll = NeedPolicy | NeedIndexing | NeedLinks | NeedNoSnippet
)

// Options tune Parse. The zero value reads everything, up to the limits
// below.
type Options struct {
	// Need is what the caller will ask; 0 means NeedAll.
	Need Need
	// Agent and Profile enable an early stop: with Need = NeedIndexing,
	// Parse stops reading once Index and Follow are final for this agent.
	Agent   string
	Profile Profile
	// Now dates lint such as "unavailable_after is already past"; zero
	// means time.Now().
	Now time.Time
	// MaxBytes caps the body bytes read; 0 means 15 MiB, the per-file limit
	// Google documents for Googlebot (what is not fetched is never seen).
	// Negative means no cap.
	MaxBytes int64
	// MaxToken caps one HTML token (a text run, a tag); 0 means 4 MiB.
	MaxToken int
	// MaxLinks, MaxSources and MaxRegions cap what is kept (0: 100000,
	// 1000, 10000); the rest is counted in a diagnostic.
	MaxLinks, MaxSources, MaxRegions int
	// MaxRegionText caps each region's text in bytes (0: 64 KiB).
	MaxRegionText int
}

func (o *Options) defaults() {
	if o.Need == 0 {
		o.Need = NeedAll
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	if o.MaxBytes == 0 {
		o.MaxBytes = 15 << 20
	}
	if o.MaxToken <= 0 {
		o.MaxToken = 4 << 20
	}
	if o.MaxLinks <= 0 {
		o.MaxLinks = 100000
	}
	if o.MaxSources <= 0 {
		o.MaxSources = 1000
	}
	if o.MaxRegions <= 0 {
		o.MaxRegions = 10000
	}
	if o.MaxRegionText <= 0 {
		o.MaxRegionText = 64 << 10
	}
}

func (p *Page) diag(sev Severity, code string, line, col, src int, format string, args ...any) {
	if len(p.Diagnostics) >= 10000 {
		return
	}
	p.Diagnostics = append(p.Diagnostics, Diagnostic{Severity: sev, Code: code,
		Message: fmt.Sprintf(format, args...), Line: line, Column: col, Source: src})
}
