package robotsmeta

import (
	"strings"

	"github.com/rep-toolkit/rep/engine"
)

// Directive is one robots rule name, such as noindex or max-snippet.
type Directive uint8

// The directives the package understands. Rules outside this list are
// reported as unknown and otherwise ignored, as every engine does.
const (
	Invalid              Directive = iota // not a directive
	All                                   // no restriction (Yandex: index, follow)
	Index                                 // explicit default (Yandex: cancels noindex)
	Follow                                // explicit default (Yandex: cancels nofollow)
	NoIndex                               // do not show the page in results
	NoFollow                              // do not follow the links on the page
	None                                  // noindex, nofollow
	NoArchive                             // no cached copy (Bing: no chat answers)
	Archive                               // Yandex: cancels noarchive
	NoCache                               // Bing synonym of noarchive (chat: link only)
	NoSnippet                             // no text snippet or video preview
	MaxSnippet                            // max-snippet: N characters
	MaxImagePreview                       // max-image-preview: none|standard|large
	MaxVideoPreview                       // max-video-preview: N seconds
	NoTranslate                           // no translated result
	NoImageIndex                          // do not index the page's images
	UnavailableAfter                      // unavailable_after: date
	IndexIfEmbedded                       // index when embedded despite noindex
	NoSitelinksSearchBox                  // historical Google rule, no effect
	NoODP                                 // retired (DMOZ closed 2017)
	NoYDir                                // retired (Yahoo Directory)
	NoPreview                             // obsolete Bing hover preview
	NoYaca                                // Yandex: no auto-generated description
	NoAI                                  // DeviantArt 2022: not for AI datasets
	NoImageAI                             // DeviantArt 2022: images not for AI datasets
	numDirectives
)

var directiveNames = [numDirectives]string{
	Invalid:              "invalid",
	All:                  "all",
	Index:                "index",
	Follow:               "follow",
	NoIndex:              "noindex",
	NoFollow:             "nofollow",
	None:                 "none",
	NoArchive:            "noarchive",
	Archive:              "archive",
	NoCache:              "nocache",
	NoSnippet:            "nosnippet",
	MaxSnippet:           "max-snippet",
	MaxImagePreview:      "max-image-preview",
	MaxVideoPreview:      "max-video-preview",
	NoTranslate:          "notranslate",
	NoImageIndex:         "noimageindex",
	UnavailableAfter:     "unavailable_after",
	IndexIfEmbedded:      "indexifembedded",
	NoSitelinksSearchBox: "nositelinkssearchbox",
	NoODP:                "noodp",
	NoYDir:               "noydir",
	NoPreview:            "nopreview",
	NoYaca:               "noyaca",
	NoAI:                 "noai",
	NoImageAI:            "noimageai",
}

// String returns the directive's canonical lower-case name.
func (d Directive) String() string {
	if d < numDirectives {
		return directiveNames[d]
	}
	return "invalid"
}

// Valued reports whether the directive takes a value after a colon.
func (d Directive) Valued() bool {
	return d == MaxSnippet || d == MaxImagePreview || d == MaxVideoPreview || d == UnavailableAfter
}

// LookupDirective returns the directive named s, ignoring ASCII case, or
// Invalid. It does not allocate.
func LookupDirective(s string) Directive {
	for d := All; d < numDirectives; d++ {
		if strings.EqualFold(s, directiveNames[d]) {
			return d
		}
	}
	return Invalid
}

// DirectiveSet is a set of directives.
type DirectiveSet uint32

// Has reports whether d is in the set.
func (s DirectiveSet) Has(d Directive) bool { return s&(1<<d) != 0 }

func (s *DirectiveSet) add(d Directive) { *s |= 1 << d }

// Directives returns the members in declaration order.
func (s DirectiveSet) Directives() []Directive {
	var out []Directive
	for d := All; d < numDirectives; d++ {
		if s.Has(d) {
			out = append(out, d)
		}
	}
	return out
}

// ImagePreview is the value of max-image-preview. The zero value means no
// rule set a limit.
type ImagePreview uint8

// Image preview sizes, from most to least restrictive after the unset zero.
const (
	PreviewUnset ImagePreview = iota
	PreviewNone
	PreviewStandard
	PreviewLarge
)

// String returns "none", "standard", "large" or "" when unset.
func (p ImagePreview) String() string {
	switch p {
	case PreviewNone:
		return "none"
	case PreviewStandard:
		return "standard"
	case PreviewLarge:
		return "large"
	}
	return ""
}

func lookupPreview(s string) ImagePreview {
	for p := PreviewNone; p <= PreviewLarge; p++ {
		if strings.EqualFold(s, p.String()) {
			return p
		}
	}
	return PreviewUnset
}

// Limit is an effective numeric limit (max-snippet characters or
// max-video-preview seconds). Set is false when no rule gave one; N is -1
// when a rule asked for no limit.
type Limit struct {
	N   int
	Set bool
}

// Profile selects whose documented semantics combine the rules. It is the
// project's one engine type (package engine): Bing's and Yandex's rules for
// bing and yandex, Google's for google, rfc9309 (the RFC says nothing about
// pages) and Auto.
type Profile = engine.Engine

// The profiles with rules of their own.
const (
	Google = engine.Google // union of negatives, most restrictive wins
	Bing   = engine.Bing   // Google's rules plus bingbot/msnbot, nocache, space-separated lists
	Yandex = engine.Yandex // allow directives beat prohibiting ones
	// RFC9309 combines as Google does (RFC 9309 says nothing about pages)
	// and is the one profile that reads Robots-Tag (ReadsRobotsTag).
	RFC9309 = engine.RFC9309
)

// rulesOf is the profile whose combining rules p uses: Bing's, Yandex's,
// or Google's for every other engine.
func rulesOf(p Profile) Profile {
	if p == Bing || p == Yandex {
		return p
	}
	return Google
}

// ParseProfile returns the engine named s (google, bing, yandex or
// rfc9309, any case; empty means google).
func ParseProfile(s string) (Profile, bool) {
	e, err := engine.Parse(s)
	if err != nil {
		return Google, false
	}
	return e.Or(Google), true
}
