package lint

import (
	"strings"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/robotstxt"
	"github.com/rep-toolkit/rep/verdict"
)

// agents builds the per-crawler view, each crawler resolved by verdict.Agent
// (the registry's fallback chains and * group exceptions, its engine's
// Crawl-delay reading), as every door of rep resolves it.
func (l *linter) agents() {
	files := map[robotstxt.Options]*robotstxt.File{l.opts.Engine.ParseOptions(): l.f}
	for _, a := range l.opts.Agents {
		// An agent's view is its engine's reading of the file, which may
		// group it differently from the report's engine (Crawl-delay).
		f := files[a.ParseOptions()]
		if f == nil {
			f = robotstxt.ParseWith(l.data, a.ParseOptions())
			files[a.ParseOptions()] = f
		}
		g := a.Group(f)
		v := AgentView{Name: a.Name, Engine: a.Engine, Notes: verdict.NotesFor(a, g.Group()), Kind: crawlers.KindOf(a.Crawler), Group: g.Group(), Rules: g.Rules(), file: f, crawler: a.Crawler}
		in := map[int]bool{}
		for _, r := range v.Rules {
			in[r.Line] = true
		}
		for _, grp := range f.Groups() {
			for _, r := range grp.Rules {
				if !in[r.Line] {
					v.Ignored = append(v.Ignored, r)
				}
			}
		}
		if _, line, fromStar, ok := a.CrawlDelay(f); ok {
			v.CrawlDelay, v.CrawlDelayInherited = line, fromStar
		}
		l.rep.Agents = append(l.rep.Agents, v)
	}
}

// agentEffect says whether a User-agent value that is not a product token
// misleads no crawler, and why. Google's parser (and
// every crawler reading as Google does) keeps the value's leading letters,
// '-' and '_'; the crawler the value names reads its own name whole.
// Nobody is misled when the name Google reads is the one meant
// ("Googlebot/2.1", "Mediapartners-Google*", "Baiduspider+"), or when it
// is no crawler's at all and the rest names no other crawler ("MJ12bot"
// read as "MJ", "008" as nothing). It misleads when the name Google reads
// is another crawler's ("Googlebot2" is obeyed by Googlebot), or when
// the value names a second crawler that no parser will match
// ("Googlebot, bingbot").
func agentEffect(v string) (harmless bool, why string) {
	n := 0
	for n < len(v) && isTokenByte(v[n]) {
		n++
	}
	if n == len(v) {
		return false, ""
	}
	cut, rest := v[:n], v[n:]
	// Another crawler named later in the value is matched by no parser.
	other := ""
	for _, w := range strings.FieldsFunc(rest, func(r rune) bool { return r >= 0x80 || !isTokenByte(byte(r)) }) {
		if retired, known := knownToken(w); known && !retired {
			other = w
			break
		}
	}
	_, known := knownToken(cut)
	switch {
	case known && strings.ContainsRune("/*+(", rune(rest[0])):
		return true, "harmless: that is the crawler meant, and the rest ('" + rest + "') is a version or pattern crawlers do not need"
	case other != "":
		return false, other + " does not obey this group: one User-agent line names one crawler"
	case known:
		return false, cut + " obeys this group, though the value names something else"
	}
	if cut == "" {
		return true, "harmless: no crawler has an empty name, and the crawler named reads its own name"
	}
	return true, "harmless: no crawler the registry knows is named '" + cut + "', and the crawler named reads its own name"
}

// knownToken reports whether tok names a registry crawler or group;
// retired is set for a retired crawler.
func knownToken(tok string) (retired, ok bool) {
	if tok == "" {
		return false, false
	}
	if c, ok := crawlers.ByName(tok); ok {
		return c.Retired, true
	}
	for _, g := range crawlers.Groups() {
		if strings.EqualFold(g.Token, tok) {
			return false, true
		}
	}
	return false, false
}

func isTokenByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_'
}
