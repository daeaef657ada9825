package crawlers

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"time"

	"github.com/rep-toolkit/rep/engine"
)

// Purpose says what a crawler fetches for.
type Purpose string

// Purposes used by the registry. Crawlers from the crawler-user-agents data
// set get the purpose of their first tag (see [Crawler.Tags]).
const (
	PurposeSearch     Purpose = "search"      // search-engine indexing
	PurposeAITraining Purpose = "ai-training" // collecting model training data
	PurposeAISearch   Purpose = "ai-search"   // retrieval for AI answers and assistants
	PurposeUserFetch  Purpose = "user-fetch"  // a fetch triggered by a person, not a crawl
	PurposeAds        Purpose = "ads"         // ad quality and landing-page checks
	PurposeMonitoring Purpose = "monitoring"  // uptime and performance monitoring
	PurposeSEO        Purpose = "seo"         // SEO and marketing tools
	PurposePreview    Purpose = "preview"     // link previews in social networks and chats
	PurposeFeed       Purpose = "feed"        // feed readers
	PurposeArchive    Purpose = "archive"     // web archives
	PurposeResearch   Purpose = "research"    // academic crawlers
	PurposeScanner    Purpose = "scanner"     // security scanners
	PurposeLibrary    Purpose = "library"     // generic HTTP libraries and tools
	PurposeAutomation Purpose = "automation"  // browser automation
	PurposeAI         Purpose = "ai"          // an AI crawler of unstated use
	PurposeOther      Purpose = "other"
)

// Obeys is the documented answer to "does it follow this rule?".
type Obeys string

// Values of [Obeys].
const (
	Yes     Obeys = "yes"
	No      Obeys = "no"
	Partial Obeys = "partial" // e.g. AdsBot ignores the * group
	Unknown Obeys = "unknown"
)

// Method is how a crawler's identity can be proved.
type Method string

// Verification methods.
const (
	// MethodFCrDNS: forward-confirmed reverse DNS against Proof.RDNS.
	MethodFCrDNS Method = "fcrdns"
	// MethodRanges: membership in one of Proof.Lists.
	MethodRanges Method = "ranges"
	// MethodBoth: either forward-confirmed reverse DNS or a list proves it.
	MethodBoth Method = "both"
	// MethodRDNSOnly: only the reverse lookup is documented (Baidu); a
	// matching PTR is weaker evidence than a verified identity.
	MethodRDNSOnly Method = "rdns-only"
	// MethodASN: only an AS number is published; it covers the whole
	// operator, so the crawler is treated as unverifiable.
	MethodASN Method = "asn"
	// MethodNone: the operator publishes nothing to verify against.
	MethodNone Method = "none"
	// MethodTokenOnly: a robots.txt control token that never crawls; a
	// request carrying it is forged.
	MethodTokenOnly Method = "token-only"
)

// Source says where a crawler's entry comes from.
type Source string

// Sources of [Crawler] entries.
const (
	SourceRegistry Source = "registry"            // data/registry.json
	SourceDataSet  Source = "crawler-user-agents" // data/crawler-user-agents.json
)

// Proof says what proves that a request came from the crawler: the method
// its operator documents and what it checks against. The outcome of a
// check is an identity.Verification.
type Proof struct {
	Method Method   `json:"method"`
	RDNS   []string `json:"rdns,omitempty"`  // host name suffixes, matched at a dot boundary
	Lists  []string `json:"lists,omitempty"` // IDs of IP-range lists (see [Lists])
	ASN    []int    `json:"asn,omitempty"`   // autonomous systems (weak evidence)
	// SignatureAgents are the Signature-Agent origins (Web Bot Auth) the
	// operator documents for the crawler's signed requests, e.g.
	// "https://agent.bot.goog"; the keys are in the key directory at
	// /.well-known/http-message-signatures-directory there. A signature
	// verified with a key from one of them proves the crawler's identity.
	SignatureAgents []string `json:"signature_agents,omitempty"`
}

// Verification is the former name of Proof.
//
// Deprecated: use Proof.
type Verification = Proof

// Crawler is one known crawler. Values are shared: do not modify them.
type Crawler struct {
	// Name is the crawler's canonical name, e.g. "Googlebot", "bingbot".
	Name string `json:"name"`
	// Tokens are the product tokens that identify it in a User-Agent
	// header and in robots.txt user-agent lines.
	Tokens []string `json:"tokens"`
	// Operator is the organisation running it; empty for data-set entries.
	Operator string `json:"operator,omitempty"`
	// Engine is whose rules the crawler follows (bingbot: bing, YandexBot:
	// yandex); Auto, the zero value, means google's, the rules most
	// crawlers document.
	Engine     engine.Engine `json:"engine,omitempty"`
	Purpose    Purpose       `json:"purpose"`
	RobotsTxt  Obeys         `json:"robots_txt"`
	CrawlDelay Obeys         `json:"crawl_delay"`
	Docs       string        `json:"docs,omitempty"` // the operator's documentation
	Verify     Proof         `json:"verify"`
	Note       string        `json:"note,omitempty"`
	// RobotsFallback are the product tokens whose robots.txt group the
	// crawler obeys when no group names it, in order (Google documents
	// Googlebot-Image's tokens as "Googlebot-Image, Googlebot"; Bing says
	// bingbot obeys a group for msnbot when none names bingbot). Each token
	// is another registry crawler's or one of [Groups]; the chain is written
	// out in full: when it names a crawler that has a chain of its own, that
	// chain follows it. The load rejects anything else.
	RobotsFallback []string `json:"robots_fallback,omitempty"`
	// IgnoresStar is set for crawlers documented to ignore the "*" group:
	// only a group naming them applies (Google's AdsBot, APIs-Google).
	// Such a crawler reads robots.txt, so its RobotsTxt is never No.
	IgnoresStar bool `json:"ignores_star,omitempty"`
	// Retired is set for crawlers their operator has documented as
	// replaced or shut down (msnbot by bingbot in 2010; Yahoo's Slurp).
	// They stay in the registry because robots.txt files still name them
	// and old logs, or impostors, still carry their User-Agents.
	Retired bool `json:"retired,omitempty"`
	// Controls says, for a control token (see [Crawler.TokenOnly]), what
	// a group naming it decides: the use of content other crawlers fetch,
	// never fetching itself (Google-Extended: Gemini training).
	Controls string `json:"controls,omitempty"`
	// FetchedBy names, for a control token, the registry crawlers whose
	// fetches it governs (Google-Extended: Googlebot).
	FetchedBy []string `json:"fetched_by,omitempty"`

	// Source is SourceRegistry or SourceDataSet.
	Source Source `json:"-"`
	// Pattern is the data set's regular expression (data-set entries only).
	Pattern string `json:"-"`
	// Tags are the data set's tags, e.g. "seo", "ai-crawler".
	Tags []string `json:"-"`
}

// RobotsAgents is the fallback chain to resolve the crawler's robots.txt
// group with (robotstxt.File.Matcher, or MatcherExplicit when IgnoresStar):
// its own tokens, then RobotsFallback.
func (c *Crawler) RobotsAgents() []string {
	names := make([]string, 0, len(c.Tokens)+len(c.RobotsFallback)+1)
	names = append(names, c.Tokens...)
	if len(names) == 0 {
		names = append(names, c.Name)
	}
	return append(names, c.RobotsFallback...)
}

// TokenOnly reports whether the crawler is a robots.txt control token that
// never appears in a genuine request.
func (c *Crawler) TokenOnly() bool { return c.Verify.Method == MethodTokenOnly }

// Group is a robots.txt user-agent token that an operator documents as
// naming several of its crawlers at once, and that no crawler sends as its
// own: "User-agent: Yandex" applies to every Yandex robot that no group
// names. Crawlers list it in their RobotsFallback.
type Group struct {
	Token    string `json:"token"`
	Operator string `json:"operator"`
	Docs     string `json:"docs"`
	Note     string `json:"note,omitempty"`
}

// List is an operator's published IP-range file.
type List struct {
	ID       string   `json:"id"`
	Operator string   `json:"operator"`
	URL      string   `json:"url"`
	Replaces []string `json:"replaces,omitempty"` // retired URLs that must not be used
	// Weak lists prove the request came from the operator's cloud, not
	// from the operator (Google's user-triggered-fetchers.json).
	Weak bool   `json:"weak,omitempty"`
	Note string `json:"note,omitempty"`
}

//go:embed data/registry.json
var registryJSON []byte

type registryFile struct {
	Comment  string     `json:"comment"`
	Updated  string     `json:"updated"`
	Lists    []*List    `json:"lists"`
	Groups   []*Group   `json:"groups"`
	Crawlers []*Crawler `json:"crawlers"`
}

var reg = mustLoad(registryJSON)

type registry struct {
	updated  time.Time
	crawlers []*Crawler
	lists    []*List
	groups   []*Group
	byName   map[string]*Crawler // lower-case name and tokens
	groupBy  map[string]*Group   // lower-case group token
	listByID map[string]*List
}

func mustLoad(data []byte) *registry {
	r, err := load(data)
	if err != nil {
		panic("crawlers: embedded registry: " + err.Error())
	}
	return r
}

func load(data []byte) (*registry, error) {
	var f registryFile
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	updated, err := time.Parse(time.DateOnly, f.Updated)
	if err != nil {
		return nil, fmt.Errorf(`"updated" must be the day the registry was last revised (YYYY-MM-DD): %w`, err)
	}
	r := &registry{
		updated:  updated,
		crawlers: f.Crawlers,
		lists:    f.Lists,
		groups:   f.Groups,
		byName:   make(map[string]*Crawler),
		groupBy:  make(map[string]*Group),
		listByID: make(map[string]*List),
	}
	for _, l := range f.Lists {
		if _, dup := r.listByID[l.ID]; dup {
			return nil, fmt.Errorf("list %q defined twice", l.ID)
		}
		r.listByID[l.ID] = l
	}
	for _, c := range f.Crawlers {
		c.Source = SourceRegistry
		for _, k := range append([]string{c.Name}, c.Tokens...) {
			k = strings.ToLower(k)
			if o, dup := r.byName[k]; dup && o != c {
				return nil, fmt.Errorf("crawler %q: name or token %q already used by %q", c.Name, k, o.Name)
			}
			r.byName[k] = c
		}
		for _, id := range c.Verify.Lists {
			if r.listByID[id] == nil {
				return nil, fmt.Errorf("crawler %q: unknown list %q", c.Name, id)
			}
		}
	}
	for _, g := range f.Groups {
		k := strings.ToLower(g.Token)
		if k == "" || k == "*" {
			return nil, fmt.Errorf("group %q: a group token names crawlers, not every crawler", g.Token)
		}
		if c := r.byName[k]; c != nil {
			return nil, fmt.Errorf("group %q: token already used by crawler %q", g.Token, c.Name)
		}
		if _, dup := r.groupBy[k]; dup {
			return nil, fmt.Errorf("group %q defined twice", g.Token)
		}
		r.groupBy[k] = g
	}
	for _, c := range f.Crawlers {
		if err := r.check(c); err != nil {
			return nil, fmt.Errorf("crawler %q: %w", c.Name, err)
		}
	}
	return r, nil
}

// check rejects an entry whose robots.txt behaviour contradicts itself or
// the rest of the registry.
func (r *registry) check(c *Crawler) error {
	if c.IgnoresStar && c.RobotsTxt == No {
		return fmt.Errorf("ignores_star says it reads robots.txt groups, robots_txt %q says it ignores robots.txt", c.RobotsTxt)
	}
	if c.TokenOnly() && c.RobotsTxt == No {
		return fmt.Errorf("a token-only entry exists to be obeyed in robots.txt, robots_txt %q says it is not", c.RobotsTxt)
	}
	if c.TokenOnly() != (c.Controls != "") || c.TokenOnly() != (len(c.FetchedBy) > 0) {
		return fmt.Errorf("controls and fetched_by are given for token-only entries, and only for them")
	}
	for _, n := range c.FetchedBy {
		if o := r.byName[strings.ToLower(n)]; o == nil || o.TokenOnly() {
			return fmt.Errorf("fetched_by %q names no crawler that fetches", n)
		}
	}
	seen := map[string]bool{}
	for _, t := range c.Tokens {
		seen[strings.ToLower(t)] = true
	}
	for _, fb := range c.RobotsFallback {
		k := strings.ToLower(fb)
		if seen[k] {
			return fmt.Errorf("robots_fallback %q repeats one of its own tokens or an earlier fallback", fb)
		}
		seen[k] = true
	}
	if path := r.cycle(c, nil); path != nil {
		return fmt.Errorf("robots_fallback cycle: %s", strings.Join(path, " → "))
	}
	for i, fb := range c.RobotsFallback {
		k := strings.ToLower(fb)
		if g := r.groupBy[k]; g != nil {
			if g.Operator != c.Operator {
				return fmt.Errorf("robots_fallback %q is a group of %s's crawlers", fb, g.Operator)
			}
			continue
		}
		o := r.byName[k]
		if o == nil {
			return fmt.Errorf("robots_fallback %q names no crawler or group", fb)
		}
		// The chain is written out in full: o's own chain follows o.
		rest := c.RobotsFallback[i+1:]
		for _, want := range o.RobotsFallback {
			j := slices.IndexFunc(rest, func(s string) bool { return strings.EqualFold(s, want) })
			if j < 0 {
				return fmt.Errorf("robots_fallback names %q but not, after it, %q from %s's own chain", fb, want, o.Name)
			}
			rest = rest[j+1:]
		}
	}
	return nil
}

// cycle returns a path of fallbacks from c back to a crawler already on
// path, or nil.
func (r *registry) cycle(c *Crawler, path []*Crawler) []string {
	if i := slices.Index(path, c); i >= 0 {
		var names []string
		for _, p := range path[i:] {
			names = append(names, p.Name)
		}
		return append(names, c.Name)
	}
	path = append(path, c)
	for _, fb := range c.RobotsFallback {
		if o := r.byName[strings.ToLower(fb)]; o != nil {
			if p := r.cycle(o, path); p != nil {
				return p
			}
		}
	}
	return nil
}

// RegistryDate returns the day the embedded registry (data/registry.json)
// was last revised, from its "updated" field: what its crawlers, tokens,
// verification methods and list URLs are known to be current as of.
func RegistryDate() time.Time { return reg.updated }

// All returns the registry's crawlers in file order.
func All() []*Crawler { return reg.crawlers }

// ByName returns the registry crawler with the given name or product token,
// compared case-insensitively.
func ByName(name string) (*Crawler, bool) {
	c, ok := reg.byName[strings.ToLower(name)]
	return c, ok
}

// Groups returns the robots.txt group tokens that name several crawlers of
// one operator (see [Crawler.RobotsFallback]).
func Groups() []*Group { return reg.groups }

// Lists returns the IP-range lists the registry refers to.
func Lists() []*List { return reg.lists }

// ListByID returns the list with the given ID.
func ListByID(id string) (*List, bool) {
	l, ok := reg.listByID[id]
	return l, ok
}
