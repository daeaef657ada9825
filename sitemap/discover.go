package sitemap

import (
	"strings"

	"github.com/rep-toolkit/rep/internal/enum"
	"github.com/rep-toolkit/rep/robotstxt"
)

// Source says where a sitemap's URL was found.
type Source uint8

// Sources of a sitemap URL.
const (
	FromRobots  Source = iota // a robots.txt Sitemap line
	FromDefault               // none named: /sitemap.xml, by convention
	FromIndex                 // an entry of a sitemap index
)

var sourceNames = enum.New[Source]("source", "robots.txt", "default", "index")

// String returns robots.txt, default or index.
func (s Source) String() string { return sourceNames.String(s) }

// MarshalText encodes the source as its String.
func (s Source) MarshalText() ([]byte, error) { return sourceNames.Marshal(s) }

// UnmarshalText decodes a source written by MarshalText.
func (s *Source) UnmarshalText(b []byte) error { return sourceNames.Unmarshal(b, s) }

// Location is one sitemap to read and where it was found.
type Location struct {
	URL    string `json:"url"`
	Source Source `json:"source"`
	// Line is the robots.txt line (FromRobots).
	Line int `json:"line,omitempty"`
	// Scope is the prefix its entries must start with (Options.Scope):
	// the robots.txt's origin for a sitemap robots.txt names, as the
	// protocol's cross-submission rule allows; empty for the sitemap's
	// own directory.
	Scope string `json:"scope,omitempty"`
}

// Discover returns the sitemaps of the site at origin (scheme://host[:port],
// no trailing slash): the Sitemap lines of its robots.txt f (nil when it
// has none) in file order, each URL once, else origin/sitemap.xml.
func Discover(f *robotstxt.File, origin string) []Location {
	origin = strings.TrimSuffix(origin, "/")
	var out []Location
	seen := map[string]bool{}
	if f != nil {
		for _, s := range f.Sitemaps() {
			if s.URL == "" || seen[s.URL] {
				continue
			}
			seen[s.URL] = true
			out = append(out, Location{URL: s.URL, Source: FromRobots, Line: s.Line, Scope: origin + "/"})
		}
	}
	if len(out) == 0 {
		out = append(out, Location{URL: origin + "/sitemap.xml", Source: FromDefault})
	}
	return out
}
