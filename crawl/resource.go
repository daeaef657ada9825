package crawl

import (
	"bytes"
	"net/url"
	"strings"

	"golang.org/x/net/html"
)

// maxResources bounds the resources kept per page.
const maxResources = 1000

// resource is a stylesheet, script or image a page uses.
type resource struct {
	url       string
	kind      string // stylesheet, script, image
	line, col int
}

// resources lists the stylesheets (<link rel=stylesheet href>), scripts
// (<script src>) and images (<img src>) of an HTML body, resolved against
// pageURL or base (the page's <base href>), each once. Positions are
// 1-based line and byte column in the body.
func resources(body []byte, pageURL, base string) []resource {
	b, err := url.Parse(pageURL)
	if err != nil {
		return nil
	}
	if base != "" {
		if bb, err := b.Parse(base); err == nil {
			b = bb
		}
	}
	z := html.NewTokenizer(bytes.NewReader(body))
	line, col := 1, 1
	var out []resource
	seen := map[string]bool{}
	for len(out) < maxResources {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		raw := z.Raw()
		tl, tc := line, col
		if n := bytes.Count(raw, []byte{'\n'}); n > 0 {
			line += n
			col = len(raw) - bytes.LastIndexByte(raw, '\n')
		} else {
			col += len(raw)
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		name, hasAttr := z.TagName()
		if !hasAttr {
			continue
		}
		var href, src, rel string
		for {
			k, v, more := z.TagAttr()
			switch string(k) {
			case "href":
				href = string(v)
			case "src":
				src = string(v)
			case "rel":
				rel = strings.ToLower(string(v))
			}
			if !more {
				break
			}
		}
		var ref, kind string
		switch string(name) {
		case "link":
			for _, t := range strings.Fields(rel) {
				if t == "stylesheet" {
					ref, kind = href, "stylesheet"
				}
			}
		case "script":
			ref, kind = src, "script"
		case "img":
			ref, kind = src, "image"
		}
		if ref = strings.TrimSpace(ref); ref == "" {
			continue
		}
		u, err := b.Parse(ref)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			continue
		}
		u.Fragment, u.RawFragment = "", ""
		s := u.String()
		if seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, resource{url: s, kind: kind, line: tl, col: tc})
	}
	return out
}
