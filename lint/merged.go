package lint

import (
	"strconv"
	"strings"

	"github.com/rep-toolkit/rep/robotstxt"
)

// segment is a run of User-agent lines and the lines Google ignores that
// follow it, up to the next User-agent, Allow or Disallow line.
type segment struct {
	ua      []robotstxt.Line // the User-agent lines
	ignored []robotstxt.Line // Crawl-delay, Request-rate, Host, unknown lines...
}

// mergedGroups reports the groups Google merges: a run of User-agent lines
// followed only by lines Google ignores (Crawl-delay, Request-rate, Host,
// unknown keys) is not a group of its own for Google's parser, nor for
// RFC 9309's grammar; the next User-agent lines join it, and every crawler
// named gets the rules written below the last of them. The file is walked
// as Google groups it, whatever the report's engine: the same file is read
// by Google's crawlers too.
func (l *linter) mergedGroups() {
	var segs []segment // the segments of the group being read
	var rules []robotstxt.Line
	flush := func() {
		for i := 0; i+1 < len(segs); i++ {
			if len(segs[i].ignored) > 0 {
				l.mergedGroup(segs[i], segs[i+1], segs[i+1:], rules)
			}
		}
		segs, rules = segs[:0], nil
	}
	for _, ln := range l.lines {
		switch ln.Key {
		case robotstxt.KeyUserAgent:
			if len(rules) > 0 {
				flush()
			}
			if n := len(segs); n == 0 || len(segs[n-1].ignored) > 0 {
				segs = append(segs, segment{})
			}
			segs[len(segs)-1].ua = append(segs[len(segs)-1].ua, ln)
		case robotstxt.KeyAllow, robotstxt.KeyDisallow:
			if len(segs) > 0 {
				rules = append(rules, ln)
			}
		case robotstxt.KeyNone, robotstxt.KeyInvalid, robotstxt.KeySitemap:
			// Blank and comment lines, lines that are no directive, and the
			// file-wide Sitemap say nothing about groups.
		default:
			if len(segs) > 0 && len(rules) == 0 {
				segs[len(segs)-1].ignored = append(segs[len(segs)-1].ignored, ln)
			}
		}
	}
	flush()
}

// mergedGroup reports that Google merges segment s with next (and the
// segments after it, later): the crawlers of s obey rules, the rules of
// the whole group.
func (l *linter) mergedGroup(s, next segment, later []segment, rules []robotstxt.Line) {
	first, join := s.ua[0], next.ua[0]
	var others []string
	for _, g := range later {
		for _, u := range g.ua {
			others = append(others, agentName(u))
		}
	}
	var ign []string
	cd := false
	for _, ln := range s.ignored {
		k := ln.KeyText
		if ln.Key != robotstxt.KeyUnknown {
			k = ln.Key.String()
		}
		ign = append(ign, k+", line "+strconv.Itoa(ln.Num))
		cd = cd || ln.Key == robotstxt.KeyCrawlDelay
	}
	who := uaNames(s.ua)
	msg := "Google reads 'User-agent: " + first.Value + "' (line " + strconv.Itoa(first.Num) + ") and 'User-agent: " + join.Value + "' (line " + strconv.Itoa(join.Num) + ") as one group, " +
		"since only lines Google ignores stand between them (" + strings.Join(ign, "; ") + ") and only an Allow or Disallow line ends a group: "
	if len(rules) == 0 {
		msg += "it has no rules, so " + who + " and " + joinNames(others) + " may fetch everything, and a rule written below line " + strconv.Itoa(join.Num) + " would apply to " + who + " too"
	} else {
		verb := " therefore gets"
		if len(s.ua) > 1 {
			verb = " therefore get"
		}
		msg += who + verb + " the rules written for " + joinNames(others) + ": " + ruleList(rules)
	}
	if cd {
		msg += "; Bing and Yandex, which read Crawl-delay, keep the two groups apart"
	}
	hint := "end the group of " + who + " with a rule of its own after line " + strconv.Itoa(s.ignored[len(s.ignored)-1].Num) +
		" ('Disallow:' with an empty value allows everything), or, if they are meant to share the rules, put the User-agent lines together"
	l.add(join.Num, join.KeyCol, Warning, "merged-group", msg, hint)
}

// agentName is a User-agent line's value, quoted for a message.
func agentName(u robotstxt.Line) string { return "'" + u.Value + "'" }

// uaNames names the crawlers of a run of User-agent lines.
func uaNames(us []robotstxt.Line) string {
	var n []string
	for _, u := range us {
		n = append(n, agentName(u))
	}
	return joinNames(n)
}

// joinNames lists names: "a", "a and b", "a, b and c".
func joinNames(n []string) string {
	if len(n) > 4 {
		n = append(n[:3:3], strconv.Itoa(len(n)-3)+" more")
	}
	if len(n) == 1 {
		return n[0]
	}
	return strings.Join(n[:len(n)-1], ", ") + " and " + n[len(n)-1]
}

// ruleList quotes up to three rules with their lines.
func ruleList(rules []robotstxt.Line) string {
	var s []string
	for i, r := range rules {
		if i == 3 {
			s = append(s, "and "+plural(len(rules)-3, "more rule"))
			break
		}
		s = append(s, "'"+r.Key.String()+": "+r.Value+"' (line "+strconv.Itoa(r.Num)+")")
	}
	return strings.Join(s, ", ")
}
