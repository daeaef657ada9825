package audit

import (
	"sort"
	"strconv"
	"time"

	"github.com/rep-toolkit/rep/accesslog"
)

// SchemaVersion is the version of the Report JSON; Merge refuses others.
// Version 2 added Crawler.VerifiedBy and Crawler.Signatures: a version 1
// report has no VerifiedBy, so merged with a version 2 one its verified
// requests would be missing from the split.
const SchemaVersion = 2

// Report is the result of an audit, and the mergeable partial aggregate
// "rep audit merge" reads: every field is a count, a map of counts, a
// bounded list or a first/last pair, so Reports of consecutive parts of a
// log Merge into the Report of the whole.
type Report struct {
	Schema int `json:"schema"`
	// Sources are the logs read, in the order given.
	Sources []string `json:"sources"`
	// Lines counts every line read; BadLines those that did not parse.
	Lines      int64               `json:"lines"`
	BadLines   int64               `json:"bad_lines"`
	BadSamples []accesslog.BadLine `json:"bad_samples,omitempty"`
	// Requests counts parsed requests; Other those from no known crawler;
	// OtherHost those skipped because they were for another site.
	Requests  int64 `json:"requests"`
	Other     int64 `json:"other_requests"`
	OtherHost int64 `json:"other_host_requests,omitempty"`
	// NoUserAgent counts requests from formats that do not log the
	// User-Agent (Common Log Format): no crawler can be named for them.
	NoUserAgent int64 `json:"no_user_agent_requests,omitempty"`
	// First and Last are the times of the earliest and latest request.
	First time.Time `json:"first,omitzero"`
	Last  time.Time `json:"last,omitzero"`
	// Robots lists the robots.txt versions requests were judged against.
	Robots []RobotsInfo `json:"robots,omitempty"`
	// MixedRobots is set on a Report merged (with MergeOptions.MixedRobots)
	// from parts judged against different robots.txt histories or grace
	// periods: Robots then lists every version of every part, and the
	// disallowed counts add verdicts of different rules.
	MixedRobots bool `json:"mixed_robots,omitempty"`
	// Grace is the cache allowance after a robots.txt change.
	Grace  Duration `json:"grace"`
	Verify string   `json:"verify"` // "off", "lists" or "dns+lists"
	// VerifyErrors counts the addresses whose verification got no DNS
	// answer (a timeout, a resolver that cannot be reached): their
	// requests count as unverifiable. VerifyError is the first failure,
	// naming the resolver asked.
	VerifyErrors int64      `json:"verify_errors,omitempty"`
	VerifyError  string     `json:"verify_error,omitempty"`
	Crawlers     []*Crawler `json:"crawlers"`
}

// RobotsInfo describes one robots.txt version of the history.
type RobotsInfo struct {
	Since  time.Time `json:"since,omitzero"`
	Source string    `json:"source"`
	// Rules is the hex SHA-256 of the version's parsed rules (groups,
	// rules, extension lines, with their line numbers; see RulesDigest):
	// two versions with the same Rules judge every request alike, whatever
	// their Source. Empty when unknown (a report written without it).
	Rules string `json:"rules_sha256,omitempty"`
}

// Duration marshals as seconds.
type Duration time.Duration

// MarshalJSON writes d in seconds.
func (d Duration) MarshalJSON() ([]byte, error) {
	return strconv.AppendFloat(nil, time.Duration(d).Seconds(), 'f', -1, 64), nil
}

// UnmarshalJSON reads seconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	f, err := strconv.ParseFloat(string(b), 64)
	*d = Duration(f * float64(time.Second))
	return err
}

// Crawler is the report for one crawler (by registry name). Counts cover
// every request claiming the crawler; Verified, Spoofed, Unverifiable,
// RDNSOnly and Unchecked split them by identity.
type Crawler struct {
	Name     string `json:"name"`
	Operator string `json:"operator,omitempty"`
	Purpose  string `json:"purpose,omitempty"`
	// ObeysRobots and ObeysCrawlDelay are what the registry documents.
	ObeysRobots     string `json:"obeys_robots,omitempty"`
	ObeysCrawlDelay string `json:"obeys_crawl_delay,omitempty"`

	Requests     int64 `json:"requests"`
	Bytes        int64 `json:"bytes"`
	Verified     int64 `json:"verified"`
	Spoofed      int64 `json:"spoofed"`
	Unverifiable int64 `json:"unverifiable"`
	RDNSOnly     int64 `json:"rdns_only"`
	Unchecked    int64 `json:"unchecked"`
	// VerifiedBy splits Verified by the evidence that proved it
	// (identity.Method): "ranges" (a published IP list), "fcrdns"
	// (forward-confirmed reverse DNS), "fcrdns+ranges" (both), and for a
	// Web Bot Auth signature with a key from a directory the registry lists
	// for the crawler "signature", or "signature+" the network method that
	// agreed.
	VerifiedBy map[string]int64 `json:"verified_by,omitempty"`
	// Signatures counts the Web Bot Auth signatures its requests carried,
	// when the log carries them and they were checked; nil when none did.
	Signatures *Signatures `json:"signatures,omitempty"`
	// SpoofedFrom lists the addresses that sent the most spoofed requests
	// (bounded like TopPaths).
	SpoofedFrom []IPCount `json:"spoofed_from,omitempty"`

	Status map[string]int64 `json:"status"`
	Days   map[string]int64 `json:"days"`

	RobotsFetches int64            `json:"robots_fetches"`
	RobotsStatus  map[string]int64 `json:"robots_status,omitempty"`
	// FirstRequest is its earliest request and FirstRobotsFetch its
	// earliest request for /robots.txt: did it read the rules first?
	FirstRequest     time.Time `json:"first_request,omitzero"`
	FirstRobotsFetch time.Time `json:"first_robots_fetch,omitzero"`

	// DisallowedRequests counts requests that every robots.txt the crawler
	// could have been using disallows; SpoofedDisallowed the share of them
	// from spoofed addresses. GraceRequests only the newest version
	// disallows, within the grace period after a change.
	DisallowedRequests int64       `json:"disallowed_requests"`
	SpoofedDisallowed  int64       `json:"disallowed_spoofed,omitempty"`
	GraceRequests      int64       `json:"grace_requests"`
	Violations         []Violation `json:"violations,omitempty"`

	CrawlDelay *DelayStats `json:"crawl_delay,omitempty"`
	TopPaths   []PathCount `json:"top_paths,omitempty"`

	// Edges are the first and last request per host, so Merge can check
	// the Crawl-delay gap across a split.
	Edges []Edge `json:"edges,omitempty"`
}

// Signatures counts the Web Bot Auth signatures of a crawler's requests by
// their verdict (botauth.Verification). A verified signature proves the
// crawler's identity only with a key from a directory the registry lists
// for it (identity.WithSignature); VerifiedBy says how many did.
type Signatures struct {
	Verified   int64 `json:"verified"`
	Invalid    int64 `json:"invalid"`
	Unverified int64 `json:"unverified"`
	// Reasons counts the invalid and unverified ones by their
	// botauth.Reason, e.g. "expired", "signature does not verify",
	// "authority unknown".
	Reasons map[string]int64 `json:"reasons,omitempty"`
	// FirstInvalid is the earliest request with an invalid signature.
	FirstInvalid *SignatureProblem `json:"first_invalid,omitempty"`
}

// SignatureProblem is a request whose signature did not verify.
type SignatureProblem struct {
	Time time.Time `json:"time"`
	IP   string    `json:"ip"`
	Path string    `json:"path"`
	// Error is botauth's account: the reason, then the signature label,
	// header, component, parameter or key at fault.
	Error string `json:"error"`
}

// Violation counts disallowed requests decided by one robots.txt rule.
type Violation struct {
	Robots  string    `json:"robots"` // the version's Source
	Since   time.Time `json:"since,omitzero"`
	Rule    string    `json:"rule"` // e.g. "Disallow: /private/"
	Line    int       `json:"line"`
	Count   int64     `json:"count"`
	Example string    `json:"example"` // the first such path
	First   time.Time `json:"first"`
}

// DelayStats measures Crawl-delay compliance: gaps between consecutive
// requests to a host while a Crawl-delay applied.
type DelayStats struct {
	// Delay is the longest Crawl-delay that applied, in seconds.
	Delay       float64 `json:"delay_seconds"`
	CheckedGaps int64   `json:"checked_gaps"`
	TooFast     int64   `json:"too_fast"`
	// Shortest is the shortest checked gap, in seconds.
	Shortest float64 `json:"shortest_gap_seconds"`
}

// Edge is the first and last request of a crawler to a host, with the
// Crawl-delay (ns) in force at the first, for checking gaps across merges.
type Edge struct {
	Host       string `json:"host"`
	First      int64  `json:"first"`
	Last       int64  `json:"last"`
	FirstDelay int64  `json:"first_delay_ns,omitempty"`
}

// Crawler returns the report for the named crawler, or nil.
func (r *Report) Crawler(name string) *Crawler {
	for _, c := range r.Crawlers {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// sortCrawlers orders by requests, then name.
func sortCrawlers(cs []*Crawler) {
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].Requests != cs[j].Requests {
			return cs[i].Requests > cs[j].Requests
		}
		return cs[i].Name < cs[j].Name
	})
}

func sortViolations(v []Violation) {
	sort.Slice(v, func(i, j int) bool {
		if v[i].Count != v[j].Count {
			return v[i].Count > v[j].Count
		}
		if !v[i].Since.Equal(v[j].Since) {
			return v[i].Since.Before(v[j].Since)
		}
		return v[i].Line < v[j].Line
	})
}

// IPCount is a client address and its request count.
type IPCount struct {
	IP    string `json:"ip"`
	Count int64  `json:"count"`
	// Error and Estimated are as for PathCount: the true count is in
	// [Count-Error, Count], and Estimated is set when Error > 0.
	Error     int64 `json:"error,omitempty"`
	Estimated bool  `json:"estimated,omitempty"`
}

func mergeIPs(a, b []IPCount, k int) []IPCount {
	var pa, pb []PathCount
	for _, x := range a {
		pa = append(pa, PathCount{Path: x.IP, Count: x.Count, Error: x.Error})
	}
	for _, x := range b {
		pb = append(pb, PathCount{Path: x.IP, Count: x.Count, Error: x.Error})
	}
	var out []IPCount
	for _, x := range mergePaths(pa, pb, k) {
		out = append(out, IPCount{IP: x.Path, Count: x.Count, Error: x.Error, Estimated: x.Error > 0})
	}
	return out
}
