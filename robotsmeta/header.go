package robotsmeta

import (
	"net/http"
	"sort"
	"strings"
)

// HeaderLines flattens h into "Name: value" lines, names sorted, values in
// their order, so that line numbers in sources are deterministic.
func HeaderLines(h http.Header) []string {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	sort.Strings(names)
	var out []string
	for _, k := range names {
		for _, v := range h[k] {
			out = append(out, k+": "+v)
		}
	}
	return out
}

// readHeaders reads every response header line that carries a page-level
// signal and returns the Content-Type value.
func (p *Page) readHeaders(lines []string, o *Options) string {
	contentType := ""
	var usage []string
	usageSrc := -1
	var robotsTag []fieldLine
	for i, line := range lines {
		n := i + 1
		colon := strings.IndexByte(line, ':')
		if colon <= 0 {
			p.diag(Error, "header-malformed", n, 1, -1, "header line %q is not \"Name: value\"", line)
			continue
		}
		name := strings.TrimSpace(line[:colon])
		value := strings.Trim(line[colon+1:], " \t")
		switch {
		case strings.EqualFold(name, "X-Robots-Tag"):
			src := p.addSource(Source{Kind: FromHeader, Name: name, Value: value, Line: n})
			if value == "" {
				p.diag(Warning, "empty-value", n, 1, src, "X-Robots-Tag header has no value")
				continue
			}
			p.parseRuleList(value, listCtx{header: true, src: src, line: n, lint: true, now: o.Now, agent: o.Agent, prof: o.Profile})
		case strings.EqualFold(name, "Robots-Tag"):
			// Read after the loop: its field lines form one value.
			robotsTag = append(robotsTag, fieldLine{n: n, name: name, value: value})
		case strings.EqualFold(name, "tdm-reservation"):
			src := p.addSource(Source{Kind: FromHeader, Name: name, Value: value, Line: n})
			if t, ok := parseTDM(value); ok {
				p.tdmHeader, p.tdmHeaderSrc = t, src
			} else {
				p.diag(Warning, "tdm-invalid", n, 1, src, "tdm-reservation %q: only 0 or 1 are valid; treated as unset (TDMRep)", value)
			}
		case strings.EqualFold(name, "tdm-policy"):
			p.addSource(Source{Kind: FromHeader, Name: name, Value: value, Line: n})
			if p.tdmMetaSrc < 0 {
				p.TDMPolicy = value
			}
		case strings.EqualFold(name, "Content-Usage"):
			src := p.addSource(Source{Kind: FromHeader, Name: name, Value: value, Line: n})
			if usageSrc < 0 {
				usageSrc = src
			}
			usage = append(usage, value)
		case strings.EqualFold(name, "Content-Type"):
			contentType = value
		}
	}
	if usage != nil {
		// Field lines of one name combine into one comma-joined value
		// (RFC 9110 section 5.3), then parse as one Dictionary (RFC 9651).
		m, err := parseDictionary(strings.Join(usage, ", "))
		if err != nil {
			p.diag(Warning, "content-usage-invalid", p.Sources[usageSrc].Line, 1, usageSrc,
				"Content-Usage is not a valid Structured Field Dictionary (%v): every preference is unknown (draft-ietf-aipref-attach)", err)
		} else {
			p.ContentUsage, p.contentUsageSrc = m, usageSrc
		}
	}
	if robotsTag != nil {
		p.readRobotsTag(robotsTag, o)
	}
	return contentType
}

func (p *Page) addSource(s Source) int {
	p.Sources = append(p.Sources, s)
	return len(p.Sources) - 1
}

func parseTDM(v string) (TDM, bool) {
	switch strings.TrimSpace(v) {
	case "0":
		return TDMAllowed, true
	case "1":
		return TDMReserved, true
	}
	return TDMUnset, false
}
