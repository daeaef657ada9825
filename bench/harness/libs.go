package harness

import (
	"bytes"

	"github.com/jimsmart/grobotstxt"
	"github.com/rep-toolkit/rep/robotstxt"
	slyrz "github.com/slyrz/robots"
	temoto "github.com/temoto/robotstxt"
)

// Agent is the crawler name every benchmark checks for; it falls to the "*"
// group in most files, as in the baseline.
const Agent = "ExampleBot"

// RepOptions are the options rep parses the corpus with in the benchmarks
// and the agreement count: no size limit, because the peers and Google's
// reference read whole files (docs.oracle.com is 853 KB, over rep's default
// 500 KiB limit). The adversarial inputs are at most 500 KiB, so the limit
// does not matter there.
var RepOptions = robotstxt.Options{Profile: robotstxt.Google, MaxBytes: -1}

// Lib is one library seen through a slow, uniform interface: parse a body
// for one agent and answer queries. It serves the agreement count, not the
// benchmarks, which call each library directly.
type Lib struct {
	Name string
	// Note says how the library is fed and what it keeps.
	Note string
	// Prepare parses body for agent and returns the query function. err is
	// set when the library rejects the file; the caller then counts every
	// query as allowed, as a crawler would.
	Prepare func(body []byte, agent string) (allowed func(rawurl string) bool, err error)
}

// Libs returns rep and its peers, rep first. rep's Google profile is
// configured with opts.
func Libs(opts robotstxt.Options) []Lib {
	return []Lib{
		{
			Name: "rep",
			Note: "Parse once, f.Matcher(agent) once, m.Check(full URL)",
			Prepare: func(body []byte, agent string) (func(string) bool, error) {
				a := robotstxt.ParseWith(body, opts).Matcher(agent)
				return func(u string) bool { return a.Check(u).Allowed }, nil
			},
		},
		{
			Name: "temoto",
			Note: "FromBytes once, FindGroup(agent) once, group.Test(path+query)",
			Prepare: func(body []byte, agent string) (func(string) bool, error) {
				r, err := temoto.FromBytes(body)
				if err != nil {
					return nil, err
				}
				g := r.FindGroup(agent)
				return func(u string) bool { return g.Test(PathQuery(u)) }, nil
			},
		},
		{
			Name: "grobotstxt",
			Note: "one-shot: AgentAllowed(body, agent, full URL) parses per query",
			Prepare: func(body []byte, agent string) (func(string) bool, error) {
				s := string(body)
				m := grobotstxt.NewRobotsMatcher()
				return func(u string) bool { return m.AgentAllowed(s, agent, u) }, nil
			},
		},
		{
			Name: "slyrz",
			Note: "New(body, agent) once (keeps one agent's rules), Allow(path+query)",
			Prepare: func(body []byte, agent string) (func(string) bool, error) {
				r := slyrz.New(bytes.NewReader(body), agent)
				return func(u string) bool { return r.Allow(PathQuery(u)) }, nil
			},
		},
	}
}
