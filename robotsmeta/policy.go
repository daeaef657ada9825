package robotsmeta

import (
	"io"
	"net/http"
	"strings"
	"time"
)

// Field names one effective value of a Policy, for Policy.Why.
type Field uint8

// Fields, named as the keys of rep page -json.
const (
	FieldIndex Field = iota
	FieldFollow
	FieldArchive
	FieldSnippet
	FieldMaxSnippet
	FieldMaxImagePreview
	FieldMaxVideoPreview
	FieldTranslate
	FieldImageIndex
	FieldUnavailableAfter
	FieldIndexIfEmbedded
	FieldNoAI
	FieldNoImageAI
	FieldTDMReservation
	FieldAITrain
	numFields
)

var fieldNames = [numFields]string{"index", "follow", "archive", "snippet", "max_snippet",
	"max_image_preview", "max_video_preview", "translate", "imageindex", "unavailable_after",
	"indexifembedded", "noai", "noimageai", "tdm_reservation", "ai_train"}

// String returns the JSON key of the field.
func (f Field) String() string {
	if f < numFields {
		return fieldNames[f]
	}
	return "?"
}

// Fields lists every field in output order.
func Fields() []Field {
	out := make([]Field, numFields)
	for i := range out {
		out[i] = Field(i)
	}
	return out
}

// BingChat is what Bing's 2023 reading of noarchive and nocache allows for
// Bing Chat / Copilot answers.
type BingChat uint8

// Bing Chat uses.
const (
	ChatFull     BingChat = iota // no rule: content may be used in answers
	ChatLinkOnly                 // nocache (alone or with noarchive): URL, title and snippet only
	ChatExcluded                 // noarchive alone: not in answers or training
)

// Policy is the effective page-level policy for one crawler under one
// engine profile. Booleans are true when the use is allowed.
type Policy struct {
	Agent   string
	Profile Profile

	Index, Follow, Archive, Snippet, Translate, ImageIndex bool
	// IndexIfEmbedded is set when the rule applies and noindex applies.
	IndexIfEmbedded bool
	MaxSnippet      Limit
	MaxVideoPreview Limit
	MaxImagePreview ImagePreview
	// UnavailableAfter is the earliest valid unavailable_after date (zero
	// when none); Index is false once Now is at or after it.
	UnavailableAfter time.Time
	// Chat is Bing's chat/Copilot use (bing profile only).
	Chat BingChat

	NoAI, NoImageAI bool
	TDMReservation  TDM
	TDMPolicy       string
	AITrain         Pref // Content-Usage train-ai
	AISearch        Pref // Content-Usage search

	// Applied is every directive that reached this agent, including those
	// the profile reads as no-ops (all, noodp, ...).
	Applied DirectiveSet

	page *Page
	why  [numFields]int32 // rule index + 1; for TDM and AITrain, source index + 1
}

// Page returns the page the policy was computed from.
func (p *Policy) Page() *Page { return p.page }

// Reason is the provenance of one effective value.
type Reason struct {
	// Rule is the rule that decided the value; HasRule is false for
	// TDMRep and Content-Usage values, which are not robots rules.
	Rule    Rule
	HasRule bool
	Source  Source
}

// Why returns the rule and source that decided field f, or false when the
// value is the default.
func (p *Policy) Why(f Field) (Reason, bool) {
	if f >= numFields || p.page == nil || p.why[f] == 0 {
		return Reason{}, false
	}
	i := int(p.why[f]) - 1
	if f == FieldTDMReservation || f == FieldAITrain {
		return Reason{Source: p.page.Sources[i]}, true
	}
	r := p.page.Rules[i]
	return Reason{Rule: r, HasRule: true, Source: p.page.Sources[r.Source]}, true
}

// Followed reports whether the crawler may follow l: the page is not
// nofollow and the link has no nofollow, ugc or sponsored type. Google
// treats all three as hints since 2020-03-01; a crawler that wants the
// publisher's wish follows this answer.
func (p *Policy) Followed(l Link) bool { return p.Follow && l.Rel == 0 }

// Unfollowed returns the page's links the crawler should not follow.
func (p *Policy) Unfollowed() []Link {
	if p.page == nil {
		return nil
	}
	var out []Link
	for _, l := range p.page.Links {
		if !p.Followed(l) {
			out = append(out, l)
		}
	}
	return out
}

// agentToken reduces "Googlebot/2.1" to "Googlebot".
func agentToken(agent string) string {
	if i := strings.IndexAny(agent, "/ "); i >= 0 {
		agent = agent[:i]
	}
	return agent
}

// googleSpecial lists Google crawlers that Google documents as ignoring
// rules for all crawlers (the robots.txt "*" group); by the notes' reading
// of the robots meta spec ("might need" their own name) name="robots" does
// not reach them either.
func googleSpecial(agent string) bool {
	for _, s := range [...]string{"adsbot-google", "adsbot-google-mobile", "mediapartners-google", "apis-google"} {
		if strings.EqualFold(agent, s) {
			return true
		}
	}
	return false
}

func isBingAgent(agent string) bool {
	return strings.EqualFold(agent, "bingbot") || strings.EqualFold(agent, "msnbot")
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// Applies reports whether rule r of this page reaches agent (a product
// token) under profile prof: its scope names the agent or all crawlers, and
// the profile reads that directive from that kind of source.
func (pg *Page) Applies(r *Rule, agent string, prof Profile) bool {
	return pg.applies(r, agentToken(agent), prof)
}

// applies decides whether rule r reaches agent under profile prof.
func (pg *Page) applies(r *Rule, agent string, prof Profile) bool {
	if pg.Sources[r.Source].IsRobotsTag() {
		// draft-illyes-repext-03 section 3.1.1: "*" reaches every
		// accessor, a product token the crawler it names,
		// case-insensitively (RFC 9309 section 2.2.1); read only by the
		// profiles that read Robots-Tag.
		return ReadsRobotsTag(prof) && (r.Scope == "" || strings.EqualFold(r.Scope, agent))
	}
	prof = rulesOf(prof)
	if r.Lenient && prof != Bing {
		return false
	}
	scope := r.Scope
	switch prof {
	case Google:
		switch scope {
		case "", "robot":
			return !googleSpecial(agent)
		case "google":
			return (r.Directive == NoTranslate || r.Directive == NoSitelinksSearchBox) &&
				strings.Contains(strings.ToLower(agent), "google")
		}
	case Bing:
		if scope == "bingbot" || scope == "msnbot" {
			return isBingAgent(agent)
		}
		if scope == "robot" || scope == "google" {
			return false
		}
	case Yandex:
		if pg.Sources[r.Source].Kind == FromHeader {
			// Yandex reads only these in X-Robots-Tag.
			switch r.Directive {
			case NoIndex, NoFollow, None, NoArchive:
			default:
				return false
			}
		}
		if scope == "yandex" {
			return hasPrefixFold(agent, "yandex")
		}
		if scope == "robot" || scope == "google" {
			return false
		}
	}
	return scope == "" || strings.EqualFold(scope, agent)
}

// Policy combines the rules that reach agent (a product token such as
// "googlebot"; a "/version" suffix is ignored) under profile prof, at
// instant now. It does not allocate.
func (pg *Page) Policy(agent string, prof Profile, now time.Time) Policy {
	agent = agentToken(agent)
	pol := Policy{Agent: agent, Profile: prof, page: pg, TDMReservation: TDMUnset}
	var first [numDirectives]int32 // first applicable rule per directive, +1
	var set DirectiveSet
	minSnip, minVid, minImg, ua := int32(0), int32(0), int32(0), int32(0)
	for i := range pg.Rules {
		r := &pg.Rules[i]
		if !pg.applies(r, agent, prof) {
			continue
		}
		set.add(r.Directive)
		idx := int32(i + 1)
		if first[r.Directive] == 0 {
			first[r.Directive] = idx
		}
		switch r.Directive {
		case MaxSnippet:
			minSnip = minLimit(pg, minSnip, idx)
		case MaxVideoPreview:
			minVid = minLimit(pg, minVid, idx)
		case MaxImagePreview:
			if minImg == 0 || r.Preview < pg.Rules[minImg-1].Preview {
				minImg = idx
			}
		case UnavailableAfter:
			if ua == 0 || r.Time.Before(pg.Rules[ua-1].Time) {
				ua = idx
			}
		}
	}
	pol.Applied = set
	neg := func(f Field, ds ...Directive) bool {
		for _, d := range ds {
			if first[d] != 0 {
				pol.why[f] = first[d]
				return false
			}
		}
		return true
	}
	pol.Index = neg(FieldIndex, NoIndex, None)
	pol.Follow = neg(FieldFollow, NoFollow, None)
	pol.Archive = neg(FieldArchive, NoArchive, NoCache)
	pol.Translate, pol.ImageIndex, pol.Snippet = true, true, true
	switch rulesOf(prof) {
	case Google, Bing:
		pol.Snippet = neg(FieldSnippet, NoSnippet)
		if pol.Snippet && minSnip != 0 && pg.Rules[minSnip-1].N == 0 {
			pol.Snippet, pol.why[FieldSnippet] = false, minSnip
		}
		if !pol.Snippet {
			// nosnippet and max-snippet:0 also stop video previews (Google:
			// "Do not show a text snippet or video preview").
			pol.MaxSnippet, pol.MaxVideoPreview = Limit{0, true}, Limit{0, true}
			pol.why[FieldMaxSnippet], pol.why[FieldMaxVideoPreview] = pol.why[FieldSnippet], pol.why[FieldSnippet]
		} else {
			if minSnip != 0 {
				pol.MaxSnippet, pol.why[FieldMaxSnippet] = Limit{pg.Rules[minSnip-1].N, true}, minSnip
			}
			if minVid != 0 {
				pol.MaxVideoPreview, pol.why[FieldMaxVideoPreview] = Limit{pg.Rules[minVid-1].N, true}, minVid
			}
		}
		if minImg != 0 {
			pol.MaxImagePreview, pol.why[FieldMaxImagePreview] = pg.Rules[minImg-1].Preview, minImg
		}
	}
	switch rulesOf(prof) {
	case Google:
		pol.Translate = neg(FieldTranslate, NoTranslate)
		pol.ImageIndex = neg(FieldImageIndex, NoImageIndex)
		if ua != 0 {
			pol.UnavailableAfter, pol.why[FieldUnavailableAfter] = pg.Rules[ua-1].Time, ua
			if pol.Index && !now.Before(pol.UnavailableAfter) {
				pol.Index, pol.why[FieldIndex] = false, ua
			}
		}
		if first[IndexIfEmbedded] != 0 && (first[NoIndex] != 0 || first[None] != 0) {
			pol.IndexIfEmbedded, pol.why[FieldIndexIfEmbedded] = true, first[IndexIfEmbedded]
		}
	case Bing:
		switch {
		case first[NoCache] != 0:
			pol.Chat = ChatLinkOnly // both: "treated as NOCACHE" (Bing, 2023)
		case first[NoArchive] != 0:
			pol.Chat = ChatExcluded
		}
	case Yandex:
		// "Allow directives have priority over prohibiting directives."
		allow := func(f Field, v *bool, ds ...Directive) {
			for _, d := range ds {
				if first[d] != 0 && !*v {
					*v, pol.why[f] = true, first[d]
				}
			}
		}
		allow(FieldIndex, &pol.Index, Index, All)
		allow(FieldFollow, &pol.Follow, Follow, All)
		allow(FieldArchive, &pol.Archive, Archive)
	}
	pol.NoAI = !neg(FieldNoAI, NoAI)
	pol.NoImageAI = !neg(FieldNoImageAI, NoImageAI)
	// TDMRep: HTML metadata supersedes the header; there is no
	// most-restrictive rule.
	switch {
	case pg.tdmMeta != TDMUnset:
		pol.TDMReservation, pol.why[FieldTDMReservation] = pg.tdmMeta, int32(pg.tdmMetaSrc+1)
	case pg.tdmHeader != TDMUnset:
		pol.TDMReservation, pol.why[FieldTDMReservation] = pg.tdmHeader, int32(pg.tdmHeaderSrc+1)
	}
	pol.TDMPolicy = pg.TDMPolicy
	if pg.ContentUsage != nil {
		pol.AITrain = prefOf(pg.ContentUsage["train-ai"])
		pol.AISearch = prefOf(pg.ContentUsage["search"])
		if pol.AITrain != PrefUnknown {
			pol.why[FieldAITrain] = int32(pg.contentUsageSrc + 1)
		}
	}
	return pol
}

// minLimit keeps the smallest non-negative limit; -1 (no limit) stands only
// when no other value exists.
func minLimit(pg *Page, cur, idx int32) int32 {
	if cur == 0 {
		return idx
	}
	c, n := pg.Rules[cur-1].N, pg.Rules[idx-1].N
	if c == -1 || (n >= 0 && n < c) {
		return idx
	}
	return cur
}

func prefOf(v string) Pref {
	switch v {
	case "y":
		return PrefYes
	case "n":
		return PrefNo
	}
	return PrefUnknown
}

// indexingSettled reports whether Index and Follow can no longer change
// for agent, whatever the rest of the document says. Google and Bing only
// ever add restrictions (the union of negative rules), so noindex plus
// nofollow is final; under Yandex allow directives win, so index plus
// follow (or all) is final. Anything else may still change.
func (pg *Page) indexingSettled(agent string, prof Profile, now time.Time) bool {
	pol := pg.Policy(agent, prof, now)
	if rulesOf(prof) == Yandex {
		a := pol.Applied
		return (a.Has(Index) || a.Has(All)) && (a.Has(Follow) || a.Has(All))
	}
	return !pol.Index && !pol.Follow
}

// Evaluate reads one response and returns the policy for agent under
// profile at instant now; the policy's Page holds the links, snippet
// regions, sources and diagnostics. It is the one call a crawler needs:
//
//	pol, err := robotsmeta.Evaluate(resp.Header, resp.Body, "googlebot", robotsmeta.Google, time.Now(), robotsmeta.Options{})
//
// With o.Need = NeedIndexing it stops reading as soon as Index and Follow
// are final, possibly before reading any of the body. A non-nil error
// comes only from the body reader; the policy then reflects what was read.
func Evaluate(h http.Header, body io.Reader, agent string, prof Profile, now time.Time, o Options) (Policy, error) {
	return EvaluateLines(HeaderLines(h), body, agent, prof, now, o)
}

// EvaluateLines is Evaluate with raw "Name: value" header lines.
func EvaluateLines(lines []string, body io.Reader, agent string, prof Profile, now time.Time, o Options) (Policy, error) {
	o.Agent, o.Profile = agent, prof
	if o.Now.IsZero() {
		o.Now = now
	}
	pg, err := ParseLines(lines, body, o)
	return pg.Policy(agent, prof, now), err
}
