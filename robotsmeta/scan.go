package robotsmeta

import (
	"strings"

	"github.com/rep-toolkit/rep/robotsmeta/internal/htmlscan"
)

// scan is what Parse keeps of an HTML scan (internal/htmlscan): the robots
// metas, links, <base> and snippet regions of the page, with their
// diagnostics.
type scan struct {
	p       *Page
	o       Options
	s       htmlscan.Scanner // in the same allocation as the rest
	dropped struct{ links, sources int }
	settle  bool // stop once the indexing rules for o.Agent are settled
}

// Meta reads a <meta> element; the scan stops once the page's indexing
// rules for Options.Agent are settled.
func (e *scan) Meta(s *htmlscan.Scanner, at htmlscan.Attrs) bool {
	return e.meta(at)
}

// Link keeps a link, up to Options.MaxLinks.
func (e *scan) Link(s *htmlscan.Scanner, at htmlscan.Attrs) {
	if len(e.p.Links) >= e.o.MaxLinks {
		e.dropped.links++
		return
	}
	var rel Rel
	if at.Rel != "" {
		if htmlscan.HasToken(at.Rel, "nofollow") {
			rel |= RelNoFollow
		}
		if htmlscan.HasToken(at.Rel, "ugc") {
			rel |= RelUGC
		}
		if htmlscan.HasToken(at.Rel, "sponsored") {
			rel |= RelSponsored
		}
	}
	href := strings.TrimSpace(at.Href)
	if len(href) > 8192 {
		href = href[:8192]
	}
	line, col := s.Pos()
	e.p.Links = append(e.p.Links, Link{Href: href, Rel: rel, RelText: at.Rel, Line: line, Column: col})
}

// Base keeps the first <base href>.
func (e *scan) Base(href string) {
	if e.p.Base == "" {
		e.p.Base = href
	}
}

// Region keeps a data-nosnippet or robots-nocontent region.
func (e *scan) Region(k htmlscan.Kind, r htmlscan.Region) {
	if k == htmlscan.NoSnippet {
		e.p.NoSnippet = append(e.p.NoSnippet, Region(r))
	} else {
		e.p.NoContent = append(e.p.NoContent, Region(r))
	}
}

// TooDeep says where the document nests deeper than the scan tracks.
func (e *scan) TooDeep(s *htmlscan.Scanner) {
	line, col := s.Pos()
	e.p.diag(Info, "limit-depth", line, col, -1,
		"elements nested deeper than %d: deeper elements are counted, not tracked, and may close early", htmlscan.MaxDepth)
}
