package lint

import (
	"net/url"
	"strings"
)

// sitemapChecks reports Sitemap lines that are not absolute URLs, or that
// point to another host than the file's.
func (l *linter) sitemapChecks() {
	var self *url.URL
	if l.opts.URL != "" {
		if u, err := url.Parse(l.opts.URL); err == nil && u.Host != "" {
			self = u
		}
	}
	for _, s := range l.f.Sitemaps() {
		col := 1
		if t, ok := l.text[s.Line]; ok && s.URL != "" {
			col = strings.Index(t, s.URL) + 1
		}
		u, err := url.Parse(s.URL)
		switch {
		case s.URL == "":
			l.add(s.Line, max(col, 1), Warning, "sitemap-url", "Sitemap line without a URL", "write the sitemap's full URL, e.g. 'Sitemap: https://www.example.com/sitemap.xml'")
			continue
		case err != nil:
			l.add(s.Line, max(col, 1), Warning, "sitemap-url", "Sitemap URL '"+s.URL+"' does not parse", "write the sitemap's full URL, e.g. 'Sitemap: https://www.example.com/sitemap.xml'")
			continue
		case u.Scheme == "" || u.Host == "":
			hint := "write the full URL, e.g. 'Sitemap: https://www.example.com/sitemap.xml'"
			if self != nil {
				ref := self.ResolveReference(u)
				hint = "write the full URL: 'Sitemap: " + ref.String() + "'"
			}
			l.add(s.Line, max(col, 1), Warning, "sitemap-url", "Sitemap '"+s.URL+"' is not an absolute URL; Google ignores it", hint)
			continue
		case u.Scheme != "http" && u.Scheme != "https":
			l.add(s.Line, max(col, 1), Warning, "sitemap-url", "Sitemap '"+s.URL+"' is not an http(s) URL", "serve the sitemap over https")
			continue
		}
		if self != nil && !strings.EqualFold(u.Hostname(), self.Hostname()) {
			l.add(s.Line, max(col, 1), Info, "sitemap-other-host",
				"Sitemap is on "+u.Hostname()+", not on "+self.Hostname()+" where this robots.txt is",
				"this cross-host submission is allowed; check the host name is the one you mean")
		}
	}
}
