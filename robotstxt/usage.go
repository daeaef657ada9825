package robotstxt

import "strings"

// MatchPattern reports whether a robots.txt path pattern matches path, the
// way an Allow or Disallow rule with that pattern matches under the Google
// profile: '*' matches any run of bytes, a final '$' anchors the end, the
// pattern is escaped as the parser escapes it (see EscapePattern), and
// path is compared as a crawler requests it (%-encoded, with its query).
// An empty pattern matches every path. Formats that borrow robots.txt
// patterns (TDMRep's location, Content-Usage paths) match with it.
func MatchPattern(pattern, path string) bool {
	return matchPattern(EscapePattern(pattern), path)
}

// matchPattern matches a pattern already in compared form against a path
// already normalised for the profile.
func matchPattern(pat, path string) bool {
	head := pat
	if i := strings.IndexByte(pat, '*'); i >= 0 {
		head = pat[:i]
	} else if strings.HasSuffix(pat, "$") {
		head = pat[:len(pat)-1]
	}
	if !strings.HasPrefix(path, head) {
		return false
	}
	return globRest(path[len(head):], pat[len(head):])
}

// ContentUsage returns the Content-Usage line of the agent's groups that
// applies to rawurl (draft-ietf-aipref-attach): a line without a path
// applies to every path; among the lines whose path pattern matches, the
// longest pattern (in octets, as for Allow and Disallow) wins, and of
// equally long patterns the first written. Patterns match as Allow and
// Disallow rules do under the file's profile. ok is false when no line
// applies. It does not say whether the URL may be crawled: preferences
// apply only to what the agent may fetch, which Check answers.
func (m *Matcher) ContentUsage(rawurl string) (e Extension, ok bool) {
	exts := m.Extensions(KeyContentUsage)
	if len(exts) == 0 {
		return Extension{}, false
	}
	var buf [pathBufSize]byte
	path := pathOf(rawurl, buf[:])
	var pbuf []byte
	if m.profile == RFC9309 {
		path = string(normalizeRFC(nil, path, false))
	}
	best := -1
	for _, x := range exts {
		var pat string
		switch {
		case x.Path == "":
		case m.profile == RFC9309:
			pbuf = normalizeRFC(pbuf[:0], x.Path, true)
			pat = string(pbuf)
		default:
			pat = EscapePattern(x.Path)
		}
		if len(pat) > best && matchPattern(pat, path) {
			e, best, ok = x, len(pat), true
		}
	}
	return e, ok
}
