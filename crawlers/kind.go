package crawlers

// Kind is what a crawler is for the advice given about it: which findings
// of rep lint and rep crawl apply to it, and how they are worded. It is
// derived from the registry's data ([Crawler.Purpose], token-only
// verification), so that every door decides alike: see [KindOf] and
// [Kind.Concerns].
type Kind string

// The kinds.
const (
	// KindSearch: a search engine's indexer (Googlebot, bingbot).
	KindSearch Kind = "search"
	// KindAITraining: collects pages to train models (GPTBot, CCBot).
	KindAITraining Kind = "ai-training"
	// KindAISearch: retrieves pages for AI answers and assistants, and
	// keeps an index for them (OAI-SearchBot, PerplexityBot).
	KindAISearch Kind = "ai-search"
	// KindUserFetch: fetches one URL because a person asked (ChatGPT-User,
	// Google-Read-Aloud); most ignore robots.txt.
	KindUserFetch Kind = "user-fetch"
	// KindAds: checks ad landing pages (AdsBot-Google, Mediapartners-Google).
	KindAds Kind = "ads"
	// KindPreview: fetches a page to show a link preview
	// (facebookexternalhit).
	KindPreview Kind = "preview"
	// KindControlToken: a robots.txt name that never fetches
	// (Google-Extended, Applebot-Extended, Googlebot-News): a group naming
	// it decides how content other crawlers fetch may be used.
	KindControlToken Kind = "control-token"
	// KindOther: a registry or data-set crawler of another purpose
	// (monitoring, SEO tools, archives, GoogleOther).
	KindOther Kind = "other"
	// KindUnknown: a name the registry does not know. Every finding
	// applies to it, as to a search crawler.
	KindUnknown Kind = "unknown"
)

// KindOf returns the crawler's kind; KindUnknown for nil.
func KindOf(c *Crawler) Kind {
	if c == nil {
		return KindUnknown
	}
	if c.TokenOnly() {
		return KindControlToken
	}
	switch c.Purpose {
	case PurposeSearch:
		return KindSearch
	case PurposeAITraining:
		return KindAITraining
	case PurposeAISearch:
		return KindAISearch
	case PurposeUserFetch:
		return KindUserFetch
	case PurposeAds:
		return KindAds
	case PurposePreview:
		return KindPreview
	}
	return KindOther
}

// Concern is what a piece of advice about a site is about.
type Concern uint8

// The concerns.
const (
	// ConcernFetching: robots.txt keeps the crawler out of URLs.
	ConcernFetching Concern = iota
	// ConcernIndexing: what ends up in the crawler's index, so noindex,
	// sitemaps and URLs indexed from links without their content.
	ConcernIndexing
	// ConcernRendering: the page's stylesheets, scripts and images, which
	// a crawler that renders pages needs to read them right.
	ConcernRendering
	// ConcernPageDirectives: robots meta elements and X-Robots-Tag headers
	// (noindex, nofollow, unavailable_after), which indexers read.
	ConcernPageDirectives
	// ConcernUsage: what fetched content may be used for (AI training).
	ConcernUsage
)

// Concerns reports whether advice about c matters for crawlers of kind k:
// a finding about noindex means nothing to an AI training crawler, and
// nothing but usage means anything for a control token, which never
// fetches. Search crawlers and unknown names are concerned by all but
// usage; AI search crawlers by fetching, indexing and page directives;
// ads crawlers by fetching and rendering (they check landing pages);
// training crawlers by fetching and usage; other kinds by fetching only.
func (k Kind) Concerns(c Concern) bool {
	switch k {
	case KindSearch, KindUnknown:
		return c != ConcernUsage
	case KindAISearch:
		return c == ConcernFetching || c == ConcernIndexing || c == ConcernPageDirectives
	case KindAds:
		return c == ConcernFetching || c == ConcernRendering
	case KindAITraining:
		return c == ConcernFetching || c == ConcernUsage
	case KindControlToken:
		return c == ConcernUsage
	}
	return c == ConcernFetching
}

// Noun names the kind in a sentence: "search crawler", "AI training
// crawler", "control token".
func (k Kind) Noun() string {
	switch k {
	case KindSearch:
		return "search crawler"
	case KindAITraining:
		return "AI training crawler"
	case KindAISearch:
		return "AI search crawler"
	case KindUserFetch:
		return "user-triggered fetcher"
	case KindAds:
		return "ads crawler"
	case KindPreview:
		return "link-preview fetcher"
	case KindControlToken:
		return "control token"
	}
	return "crawler"
}

// Refused says in words what a robots.txt refusal means for a crawler of
// kind k, e.g. "may not fetch it, so it may not use it for AI training".
func (k Kind) Refused() string {
	switch k {
	case KindSearch, KindUnknown:
		return "may not fetch it: it can still be indexed from links, without its content"
	case KindAITraining:
		return "may not fetch it, so it may not use it for AI training"
	case KindAISearch:
		return "may not fetch it for AI answers; it can still be cited from links, without its content"
	case KindControlToken:
		return "may not use it: the crawlers that fetch it are not refused by this"
	case KindAds:
		return "may not fetch it: ads landing on it cannot be checked"
	}
	return "may not fetch it"
}

// Allowed says in words what a robots.txt permission means for a crawler
// of kind k that does not index: "may fetch it and use it for AI
// training". Indexers are judged by the page as well (see package crawl).
func (k Kind) Allowed() string {
	switch k {
	case KindAITraining:
		return "may fetch it and use it for AI training"
	case KindControlToken:
		return "may use it, when a crawler that reads this token fetches it"
	case KindAds:
		return "may fetch it to check ads landing on it"
	case KindUserFetch:
		return "may fetch it when a person asks"
	case KindPreview:
		return "may fetch it to show a link preview"
	}
	return "may fetch it"
}
