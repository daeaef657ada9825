package crawlers

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"regexp/syntax"
	"sort"
	"strings"
	"sync"
	"time"
)

//go:embed data/crawler-user-agents.json
var dataSetJSON []byte

//go:embed data/crawler-user-agents.source.json
var dataSetSourceJSON []byte

var dataSetSource = sync.OnceValues(func() (string, time.Time) {
	var src struct {
		Version   string `json:"version"`
		Published string `json:"published"`
	}
	if err := json.Unmarshal(dataSetSourceJSON, &src); err != nil {
		panic("crawlers: embedded crawler-user-agents.source.json: " + err.Error())
	}
	t, err := time.Parse(time.DateOnly, src.Published)
	if err != nil || src.Version == "" {
		panic(fmt.Sprintf("crawlers: embedded crawler-user-agents.source.json: version %q, published %q: want a version and a YYYY-MM-DD date", src.Version, src.Published))
	}
	return src.Version, t
})

// DataSetVersion returns the version of the embedded crawler-user-agents
// data set (github.com/monperrus/crawler-user-agents, from its npm
// package) and the day that version was published, as recorded in
// data/crawler-user-agents.source.json when the data set was vendored.
func DataSetVersion() (version string, published time.Time) { return dataSetSource() }

// dataSetEntry is one record of crawler-user-agents.json.
type dataSetEntry struct {
	Pattern      string   `json:"pattern"`
	URL          string   `json:"url"`
	Instances    []string `json:"instances"`
	Description  string   `json:"description"`
	Tags         []string `json:"tags"`
	AdditionDate string   `json:"addition_date"`
	DependsOn    []string `json:"depends_on"`
}

// agents is the data set, indexed for matching many patterns at once
// without one alternation regexp: each pattern's required literals
// (lower-cased) are bucketed by their first two bytes, a User-Agent is
// scanned once to collect the patterns whose literal occurs in it, and only
// those patterns' regexps run, in file order.
type agents struct {
	crawlers []*Crawler
	res      []func() (*regexp.Regexp, error) // compiled on first use
	buckets  map[uint16][]literal
	present  [1 << 16 / 64]uint64 // bit set of bucket keys
	always   []int                // patterns without a usable literal
}

type literal struct {
	text string // lower-case
	idx  int
}

var dataSet = sync.OnceValue(func() *agents {
	a, err := loadDataSet(dataSetJSON)
	if err != nil {
		panic("crawlers: embedded crawler-user-agents.json: " + err.Error())
	}
	return a
})

func loadDataSet(data []byte) (*agents, error) {
	var entries []dataSetEntry
	if err := json.Unmarshal(data, &entries); err != nil {
		return nil, err
	}
	a := &agents{buckets: make(map[uint16][]literal)}
	for i, e := range entries {
		lits, ok := requiredLiterals(e.Pattern)
		a.crawlers = append(a.crawlers, &Crawler{
			Name:       dataSetName(e.Pattern, lits, e.Instances),
			Purpose:    tagPurpose(e.Tags),
			RobotsTxt:  Unknown,
			CrawlDelay: Unknown,
			Docs:       e.URL,
			Verify:     Proof{Method: MethodNone},
			Note:       e.Description,
			Source:     SourceDataSet,
			Pattern:    e.Pattern,
			Tags:       e.Tags,
		})
		pattern := e.Pattern
		a.res = append(a.res, sync.OnceValues(func() (*regexp.Regexp, error) { return regexp.Compile(pattern) }))
		for _, l := range lits {
			if len(l) < 2 {
				ok = false
			}
		}
		if !ok {
			a.always = append(a.always, i)
			continue
		}
		for _, l := range lits {
			l = asciiLower(l)
			k := uint16(l[0])<<8 | uint16(l[1])
			a.buckets[k] = append(a.buckets[k], literal{l, i})
			a.present[k/64] |= 1 << (k % 64)
		}
	}
	return a, nil
}

// match returns the first data-set crawler (in file order) whose pattern
// matches ua.
func (a *agents) match(ua string) *Crawler {
	lower := asciiLower(ua)
	cand := append([]int(nil), a.always...)
	for i := 0; i+1 < len(lower); i++ {
		k := uint16(lower[i])<<8 | uint16(lower[i+1])
		if a.present[k/64]&(1<<(k%64)) == 0 {
			continue
		}
		for _, l := range a.buckets[k] {
			if strings.HasPrefix(lower[i:], l.text) {
				cand = append(cand, l.idx)
			}
		}
	}
	sort.Ints(cand)
	for j, idx := range cand {
		if j > 0 && cand[j-1] == idx {
			continue
		}
		re, err := a.res[idx]()
		if err == nil && re.MatchString(ua) {
			return a.crawlers[idx]
		}
	}
	return nil
}

// requiredLiterals returns strings of which every match of pattern contains
// at least one; ok is false when no such set is found (e.g. "^.*$").
func requiredLiterals(pattern string) (lits []string, ok bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, false
	}
	return required(re.Simplify())
}

func required(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return []string{string(re.Rune)}, true
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		var best []string
		bestLen := 0
		for _, sub := range re.Sub {
			l, ok := required(sub)
			if !ok {
				continue
			}
			if m := minLen(l); m > bestLen {
				best, bestLen = l, m
			}
		}
		return best, best != nil
	case syntax.OpAlternate:
		var all []string
		for _, sub := range re.Sub {
			l, ok := required(sub)
			if !ok {
				return nil, false
			}
			all = append(all, l...)
		}
		return all, true
	}
	return nil, false
}

func minLen(l []string) int {
	m := -1
	for _, s := range l {
		if m < 0 || len(s) < m {
			m = len(s)
		}
	}
	return m
}

// dataSetName names a data-set crawler, since the data set has no names:
// the product token around the pattern's first required literal in a sample
// User-Agent ("rushBot" in "SemrushBot/7~bl" → "SemrushBot"; the shortest
// over all samples, so "SemrushBot" beats "SemrushBot-SA"), else the
// literal itself, else the pattern.
func dataSetName(pattern string, lits, instances []string) string {
	if len(lits) == 0 {
		return pattern
	}
	lit := asciiLower(lits[0])
	name := ""
	for _, ua := range instances {
		if i := strings.Index(asciiLower(ua), lit); i >= 0 {
			start, end := i, i+len(lit)
			for start > 0 && isNameByte(ua[start-1]) {
				start--
			}
			for end < len(ua) && isNameByte(ua[end]) {
				end++
			}
			if n := strings.Trim(ua[start:end], "-_"); n != "" && (name == "" || len(n) < len(name)) {
				name = n
			}
		}
	}
	if name != "" {
		return name
	}
	if n := strings.TrimFunc(lits[0], func(r rune) bool { return r < 128 && !isAlnum(byte(r)) }); n != "" {
		return n
	}
	return pattern
}

func isNameByte(b byte) bool { return isAlnum(b) || b == '-' || b == '_' }

// tagPurpose maps the data set's first tag to a [Purpose].
func tagPurpose(tags []string) Purpose {
	if len(tags) == 0 {
		return PurposeOther
	}
	switch tags[0] {
	case "search-engine":
		return PurposeSearch
	case "ai-crawler":
		return PurposeAI
	case "seo":
		return PurposeSEO
	case "monitoring":
		return PurposeMonitoring
	case "advertising":
		return PurposeAds
	case "social-preview":
		return PurposePreview
	case "feed-reader":
		return PurposeFeed
	case "archiver":
		return PurposeArchive
	case "academic":
		return PurposeResearch
	case "scanner":
		return PurposeScanner
	case "http-library":
		return PurposeLibrary
	case "browser-automation":
		return PurposeAutomation
	}
	return PurposeOther
}
