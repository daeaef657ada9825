// Package aipref answers one question per URL and crawler: may this content
// be used for AI training, as input to AI answers, for search? It reads the
// carriers of usage preferences rep parses elsewhere and combines them into
// one answer in the aipref vocabulary, each category with the statements
// that decided it.
//
// Vocabulary (draft-ietf-aipref-vocab-08): three usage categories, labelled
// train-ai (AI Training), ai-use (AI Use: input to a generative model, not
// provided by the user) and search (Search). Each is allowed, disallowed or
// unknown. Several statements combine per category: any disallow wins, else
// any allow, else unknown — the most restrictive statement wins. Search
// overrides the other categories for a use that is Search: such a use
// follows the Search preference alone; the verdict reports each category
// and leaves classifying a use to its caller.
//
// Carriers and how each maps onto the vocabulary:
//
//   - robots.txt Content-Usage (draft-ietf-aipref-attach): the agent's
//     line for the URL's path by longest match (robotstxt.Matcher.ContentUsage),
//     only when the agent may crawl the URL; labels as in the vocabulary.
//   - robots.txt Content-Signal (Cloudflare, draft-romm-aipref-contentsignals):
//     in the agent's groups, or outside any group (site-wide); ai-train maps
//     to train-ai, ai-input to ai-use, search to search; yes/no.
//   - the Content-Usage response header: an RFC 9651 Dictionary, y/n tokens.
//   - TDMRep (W3C TDMRep CG report): tdm-reservation 1 from the HTML meta,
//     the header or /.well-known/tdmrep.json reserves text and data mining,
//     which covers both train-ai and ai-use; 0 states no preference.
//   - noai (robots meta or X-Robots-Tag): train-ai and ai-use disallowed.
//     noimageai disallows them for the page's images only: it is reported
//     with scope "images" and does not change the page's verdict.
//
// These mappings of the non-aipref carriers are rep's reading; the aipref
// drafts define none.
package aipref

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rep-toolkit/rep/internal/enum"
	"github.com/rep-toolkit/rep/robotstxt"
)

// Category is a usage category of the aipref vocabulary, named by its label.
type Category string

// The categories of draft-ietf-aipref-vocab-08, in its order.
const (
	TrainAI Category = "train-ai"
	AIUse   Category = "ai-use"
	Search  Category = "search"
)

// Categories lists every category in the vocabulary's order.
func Categories() []Category { return []Category{TrainAI, AIUse, Search} }

// Pref is a preference for one category.
type Pref int8

// Preferences. The zero value is Unknown.
const (
	Unknown Pref = iota
	Allowed
	Disallowed
)

var prefNames = enum.New[Pref]("preference", "unknown", "allowed", "disallowed")

// String returns "unknown", "allowed" or "disallowed".
func (p Pref) String() string { return prefNames.String(p) }

// MarshalText encodes the preference as its String.
func (p Pref) MarshalText() ([]byte, error) { return prefNames.Marshal(p) }

// UnmarshalText decodes a preference written by MarshalText; a text that
// is not one is a *PrefError.
func (p *Pref) UnmarshalText(b []byte) error { return prefNames.Unmarshal(b, p) }

// PrefError reports a preference name that is not one of Pref's (Text),
// with the names that are (Names).
type PrefError = enum.Error

// Carrier names where a statement was read.
type Carrier string

// Carriers.
const (
	RobotsContentUsage  Carrier = "robots.txt Content-Usage"
	RobotsContentSignal Carrier = "robots.txt Content-Signal"
	HeaderContentUsage  Carrier = "Content-Usage header"
	TDMRepHeader        Carrier = "tdm-reservation header"
	TDMRepMeta          Carrier = "tdm-reservation meta"
	TDMRepFile          Carrier = "tdmrep.json"
	RobotsNoAI          Carrier = "noai"
	RobotsNoImageAI     Carrier = "noimageai"
)

// Evidence is one statement about one category: which carrier said it,
// where (a robots.txt or header line, a meta element, a tdmrep.json
// entry), and the value as written.
type Evidence struct {
	Carrier  Carrier  `json:"carrier"`
	Category Category `json:"category"`
	Pref     Pref     `json:"pref"`
	// Line is the robots.txt line, the header line or the meta element's
	// line; for tdmrep.json, the 1-based index of the entry. 0 when unknown.
	Line int `json:"line,omitempty"`
	// Where says where the statement is in words, e.g.
	// `X-Robots-Tag header (line 2)` or `<meta name="robots"> at 3:5`.
	Where string `json:"where,omitempty"`
	// Value is the line, header value or entry as written.
	Value string `json:"value"`
	// Scope is "images" for noimageai, which leaves the page's own verdict
	// alone; "" for statements about the URL.
	Scope string `json:"scope,omitempty"`
	// Outweighed is set by Combine on a statement about the URL whose
	// preference lost to a more restrictive one about the same category
	// (it allows, another disallows). A statement with a preference, no
	// Scope and Outweighed false decided its category (Usage.Deciding).
	Outweighed bool `json:"outweighed,omitempty"`
}

// Usage is the combined preference per category for one URL and crawler,
// with its evidence.
type Usage struct {
	TrainAI Pref `json:"train_ai"`
	AIUse   Pref `json:"ai_use"`
	Search  Pref `json:"search"`
	// Evidence is every statement read, deciding or not, in carrier order.
	Evidence []Evidence `json:"evidence"`
}

// Verdict is the former name of Usage, kept so that code written against
// it compiles.
//
// Deprecated: use Usage.
type Verdict = Usage

// Get returns the preference for category c (Unknown for a label outside
// the vocabulary).
func (v Usage) Get(c Category) Pref {
	switch c {
	case TrainAI:
		return v.TrainAI
	case AIUse:
		return v.AIUse
	case Search:
		return v.Search
	}
	return Unknown
}

func (v *Usage) ptr(c Category) *Pref {
	switch c {
	case TrainAI:
		return &v.TrainAI
	case AIUse:
		return &v.AIUse
	case Search:
		return &v.Search
	}
	return nil
}

// Deciding returns the evidence that decided category c: the disallowing
// statements when it is disallowed, the allowing ones when allowed, none
// when unknown.
func (v Usage) Deciding(c Category) []Evidence {
	var out []Evidence
	for _, e := range v.Evidence {
		if e.Category == c && e.Decides() {
			out = append(out, e)
		}
	}
	return out
}

// Decides reports whether e, one statement of a Usage, decided its
// category: it states a preference about the URL (no Scope) and no more
// restrictive statement outweighed it.
func (e Evidence) Decides() bool {
	return e.Scope == "" && e.Pref != Unknown && !e.Outweighed
}

// Combine combines statements per category as draft-ietf-aipref-vocab-08
// section 5.1 says: a category is disallowed when any statement disallows
// it, else allowed when any allows it, else unknown. Statements with a
// Scope do not count. The statements that lost are marked Outweighed
// (statements from an earlier verdict are judged anew).
func Combine(evidence ...[]Evidence) Usage {
	var v Usage
	v.Evidence = []Evidence{}
	for _, es := range evidence {
		for _, e := range es {
			e.Outweighed = false
			v.Evidence = append(v.Evidence, e)
			p := v.ptr(e.Category)
			if p == nil || e.Scope != "" || e.Pref == Unknown {
				continue
			}
			if e.Pref == Disallowed || *p == Unknown {
				*p = e.Pref
			}
		}
	}
	for i := range v.Evidence {
		e := &v.Evidence[i]
		if v.ptr(e.Category) != nil && e.Scope == "" && e.Pref != Unknown && e.Pref != v.Get(e.Category) {
			e.Outweighed = true
		}
	}
	return v
}

// String sums the verdict up, e.g. "train-ai=disallowed ai-use=unknown search=allowed".
func (v Usage) String() string {
	var b strings.Builder
	for i, c := range Categories() {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(string(c) + "=" + v.Get(c).String())
	}
	return b.String()
}

// Robots returns the robots.txt statements for rawurl and the agent's
// group g of f: its Content-Usage line for the path (none when allowed is
// false: preferences in robots.txt apply only where crawling is allowed)
// and its Content-Signal lines, with those outside any group.
func Robots(f *robotstxt.File, g *robotstxt.Matcher, rawurl string, allowed bool) []Evidence {
	if f == nil || g == nil {
		return nil
	}
	var out []Evidence
	if allowed {
		if e, ok := g.ContentUsage(rawurl); ok {
			for _, p := range e.Pairs {
				if c, ok := aiprefLabel(p.Key); ok {
					out = append(out, Evidence{Carrier: RobotsContentUsage, Category: c, Pref: yn(p.Value, "y", "n"),
						Line: e.Line, Where: robotsLine(e.Line), Value: e.Name + ": " + e.Value})
				}
			}
		}
	}
	signals := g.Extensions(robotstxt.KeyContentSignal)
	for _, e := range f.Extensions() {
		if e.Key == robotstxt.KeyContentSignal && e.Group < 0 && e.Err == "" {
			signals = append(signals, e)
		}
	}
	for _, e := range signals {
		for _, p := range e.Pairs {
			if c, ok := signalLabel(p.Key); ok {
				out = append(out, Evidence{Carrier: RobotsContentSignal, Category: c, Pref: yn(p.Value, "yes", "no"),
					Line: e.Line, Where: robotsLine(e.Line), Value: e.Name + ": " + e.Value})
			}
		}
	}
	return out
}

// Reservation maps a TDMRep reservation from carrier: 1 (reserved)
// disallows train-ai and ai-use; 0 states no preference and is kept as
// evidence of what was said. Line, where and value locate the statement.
func Reservation(carrier Carrier, reserved bool, line int, where, value string) []Evidence {
	p := Unknown
	if reserved {
		p = Disallowed
	}
	return []Evidence{
		{Carrier: carrier, Category: TrainAI, Pref: p, Line: line, Where: where, Value: value},
		{Carrier: carrier, Category: AIUse, Pref: p, Line: line, Where: where, Value: value},
	}
}

// TDMRepRule is one entry of /.well-known/tdmrep.json.
type TDMRepRule struct {
	// Location is a path pattern, matched as robots.txt patterns are.
	Location string `json:"location"`
	// Reservation is tdm-reservation: 1 reserved, 0 not.
	Reservation int `json:"tdm-reservation"`
	// Policy is the optional tdm-policy URL.
	Policy string `json:"tdm-policy,omitempty"`
}

// TDMRepError reports a tdmrep.json that is not a JSON array of rules, or
// an entry with an invalid tdm-reservation.
type TDMRepError struct {
	Entry int // 1-based; 0 for the document as a whole
	Err   error
	Msg   string
}

func (e *TDMRepError) Error() string {
	s := "tdmrep.json"
	if e.Entry > 0 {
		s += fmt.Sprintf(" entry %d", e.Entry)
	}
	if e.Err != nil {
		return s + ": " + e.Err.Error()
	}
	return s + ": " + e.Msg
}

// Unwrap returns the JSON error, if any.
func (e *TDMRepError) Unwrap() error { return e.Err }

// ParseTDMRep reads a /.well-known/tdmrep.json document.
func ParseTDMRep(data []byte) ([]TDMRepRule, error) {
	var rules []TDMRepRule
	if err := json.Unmarshal(data, &rules); err != nil {
		return nil, &TDMRepError{Err: err}
	}
	for i, r := range rules {
		if r.Reservation != 0 && r.Reservation != 1 {
			return nil, &TDMRepError{Entry: i + 1, Msg: fmt.Sprintf("tdm-reservation %d: only 0 or 1 are valid", r.Reservation)}
		}
	}
	return rules, nil
}

// TDMRep returns the statement of the first rule whose location matches
// rawurl's path (robotstxt.MatchPattern), or none.
func TDMRep(rules []TDMRepRule, rawurl string) []Evidence {
	path := robotstxt.PathOf(rawurl)
	for i, r := range rules {
		if robotstxt.MatchPattern(r.Location, path) {
			where := fmt.Sprintf("/.well-known/tdmrep.json entry %d (location %s)", i+1, r.Location)
			return Reservation(TDMRepFile, r.Reservation == 1, i+1, where, fmt.Sprintf("tdm-reservation: %d", r.Reservation))
		}
	}
	return nil
}

func robotsLine(n int) string { return fmt.Sprintf("robots.txt line %d", n) }

func aiprefLabel(k string) (Category, bool) {
	switch Category(k) {
	case TrainAI, AIUse, Search:
		return Category(k), true
	}
	return "", false
}

func signalLabel(k string) (Category, bool) {
	switch k {
	case "ai-train":
		return TrainAI, true
	case "ai-input":
		return AIUse, true
	case "search":
		return Search, true
	}
	return "", false
}

func yn(v, yes, no string) Pref {
	switch v {
	case yes:
		return Allowed
	case no:
		return Disallowed
	}
	return Unknown
}
