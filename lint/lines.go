package lint

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/robotstxt"
)

// parserDiags copies the parser's diagnostics, adding hints and details the
// parser leaves out. HTML pages make every tag line a finding; those are
// summed up by html-file instead.
func (l *linter) parserDiags(beyond *robotstxt.Line) {
	byNum := map[int]*robotstxt.Line{}
	for i := range l.lines {
		byNum[l.lines[i].Num] = &l.lines[i]
	}
	for _, d := range l.f.Diagnostics() {
		if l.junk && (d.Code == "no-separator" || d.Code == "missing-colon" || d.Code == "misspelled-key") {
			continue
		}
		if l.binary && d.Code != "size-limit" {
			continue // binary-file says it once
		}
		switch d.Code {
		case "invalid-value":
			if ln := byNum[d.Line]; ln != nil && d.Hint == "" {
				d.Hint = valueHints[ln.Key]
			}
		case "extension-outside-group":
			if d.Hint == "" {
				d.Hint = "move it below the User-agent line of the crawlers it is for"
			}
		case "size-limit":
			if beyond != nil {
				d.Message += "; the first line ignored is line " + strconv.Itoa(beyond.Num) + ": " + strings.TrimSpace(beyond.Text)
			}
		case "nul-byte", "invalid-utf8":
			if isUTF16(l.data) {
				continue // utf16-file says it once
			}
		case "invalid-agent":
			if ln := byNum[d.Line]; ln != nil {
				harmless, why := agentEffect(ln.Value)
				if harmless {
					d.Severity = Info
				}
				if why != "" {
					d.Message += "; " + why
				}
			}
		case "missing-colon":
			if ln := byNum[d.Line]; ln != nil && ln.Key == robotstxt.KeyUnknown {
				d.Hint = "write '" + ln.KeyText + ": " + ln.Value + "' if it is meant as a directive"
			}
		}
		l.rep.Findings = append(l.rep.Findings, Finding{Line: d.Line, Column: d.Column, Severity: d.Severity, Code: d.Code, Message: d.Message, Hint: d.Hint})
	}
}

var valueHints = map[robotstxt.Key]string{
	robotstxt.KeyCrawlDelay:    "give seconds as a number, e.g. 'Crawl-delay: 10'",
	robotstxt.KeyRequestRate:   "write requests/period, e.g. 'Request-rate: 1/10s' or 'Request-rate: 1/10s 0100-0600'",
	robotstxt.KeyVisitTime:     "write a UTC window hhmm-hhmm, e.g. 'Visit-time: 0100-0600'",
	robotstxt.KeyHost:          "write a host name, e.g. 'Host: www.example.com'",
	robotstxt.KeyCleanParam:    "write parameters joined by '&' and an optional path, e.g. 'Clean-param: ref&utm_source /shop/'",
	robotstxt.KeyContentSignal: "write key=yes|no pairs, e.g. 'Content-Signal: search=yes, ai-train=no'",
	robotstxt.KeyContentUsage:  "write key=y|n pairs, e.g. 'Content-Usage: train-ai=n'",
}

// IsBinary reports whether data is not text: more than one byte in 20 of
// its first 8 KiB are NUL bytes or other control characters (tab, LF, CR
// and form feed aside), and it has at least one NUL. A UTF-16 file is text
// in another encoding, not binary. Crawlers parse any body as robots.txt
// (Google's parser ends a line at a NUL), so a binary file is not
// refused: the linter reports binary-file when crawlers find no rule in
// it, and rep check warns before answering.
func IsBinary(data []byte) bool {
	b := data[:min(len(data), 8192)]
	if bytes.IndexByte(b, 0) < 0 || isUTF16(b) {
		return false
	}
	ctl := 0
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' || c == 0x7f {
			ctl++
		}
	}
	return ctl*20 > len(b)
}

func isUTF16(b []byte) bool {
	return len(b) >= 2 && (b[0] == 0xFF && b[1] == 0xFE || b[0] == 0xFE && b[1] == 0xFF)
}

func hasRules(f *robotstxt.File) bool {
	for _, g := range f.Groups() {
		if len(g.Rules) > 0 {
			return true
		}
	}
	return false
}

// knownKeys are the directive names did-you-mean suggestions pick from.
var knownKeys = []string{"User-agent", "Allow", "Disallow", "Sitemap", "Crawl-delay", "Request-rate",
	"Visit-time", "Host", "Clean-param", "Content-Signal", "Content-Usage"}

// noindexKeys are page-level directives people put in robots.txt.
var noindexKeys = map[string]bool{"noindex": true, "nofollow": true, "noarchive": true, "nosnippet": true,
	"noimageindex": true, "notranslate": true, "unavailable_after": true, "none": true}

func (l *linter) lineChecks() {
	crs, firstCR := 0, 0
	for i, ln := range l.lines {
		// CR CR LF (a CRLF file saved again with CRLF conversion) ends the
		// line, then adds an empty line: harmless for every parser.
		crcrlf := i+1 < len(l.lines) && l.lines[i+1].Text == "" && l.lines[i+1].End == "\r\n"
		if ln.End == "\r" && !crcrlf {
			if crs == 0 {
				firstCR = ln.Num
			}
			crs++
		}
		if i := strings.Index(ln.Text, "\uFEFF"); i >= 0 {
			msg := "byte order mark (U+FEFF) inside the file; it is only skipped at the very start"
			if ln.Key == robotstxt.KeyUnknown && strings.HasPrefix(ln.KeyText, "\uFEFF") {
				msg += ": the key '" + strings.TrimPrefix(ln.KeyText, "\uFEFF") + "' is read as an unknown key and the line is ignored"
			}
			l.add(ln.Num, i+1, Warning, "bom-not-at-start", msg, "delete the invisible U+FEFF character (bytes EF BB BF)")
		}
		if ln.Key != robotstxt.KeyUnknown || l.junk {
			continue
		}
		key := ln.KeyText
		if strings.HasPrefix(key, "\uFEFF") {
			continue // bom-not-at-start said why
		}
		lk := strings.ToLower(key)
		if noindexKeys[lk] {
			l.add(ln.Num, ln.KeyCol, Warning, "noindex-directive",
				"'"+key+"' in robots.txt is not supported: Google stopped reading it on 2019-09-01 and no major engine reads it",
				"use <meta name=\"robots\" content=\""+lk+"\"> or an 'X-Robots-Tag: "+lk+"' header, and let crawlers fetch the page so they see it")
			continue
		}
		if s, ok := didYouMean(lk); ok {
			l.add(ln.Num, ln.KeyCol, Warning, "unknown-directive",
				"unknown directive '"+key+"'; crawlers ignore the line. Did you mean '"+s+"'?",
				"write '"+s+": "+ln.Value+"'")
			continue
		}
		l.add(ln.Num, ln.KeyCol, Info, "unknown-directive", "unknown directive '"+key+"'; crawlers ignore the line",
			"remove the line or make it a comment with '#', unless a crawler you care about reads it")
	}
	if crs > 0 {
		msg := "line ends with a bare carriage return (CR)"
		if crs > 1 {
			msg = strconv.Itoa(crs) + " lines end with a bare carriage return (CR), the first here"
		}
		l.add(firstCR, len(l.textOf(firstCR))+1, Warning, "lone-cr",
			msg+"; Google accepts it, but tools that split lines on LF read the file as one line",
			"save the file with LF (or CRLF) line ends")
	}
}

func (l *linter) textOf(n int) string { return l.text[n] }

// didYouMean returns the known directive closest to key when it is a
// plausible misspelling: an edit distance of at most 2 (1 for short keys).
func didYouMean(key string) (string, bool) {
	best, bestD := "", 1<<30
	for _, k := range knownKeys {
		d := crawlers.EditDistance(key, strings.ToLower(k))
		if d < bestD {
			best, bestD = k, d
		}
	}
	limit := 2
	if len(key) <= 5 {
		limit = 1
	}
	if bestD == 0 || bestD > limit {
		return "", false
	}
	return best, true
}

// empty reports a file with nothing for crawlers in it.
func (l *linter) empty() {
	for _, ln := range l.lines {
		if ln.Key != robotstxt.KeyNone {
			return
		}
	}
	if l.html {
		return
	}
	msg := "the file is empty: every crawler may fetch everything"
	if len(bytes.TrimSpace(l.data)) > 0 {
		msg = "the file has only comments and blank lines: every crawler may fetch everything"
	}
	l.add(1, 1, Warning, "empty-file", msg,
		"if that is what you mean, serve a 404 or write 'User-agent: *' and 'Disallow:'")
}
