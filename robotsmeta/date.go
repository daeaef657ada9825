package robotsmeta

import (
	"strings"
	"time"
)

// zoneOffsets is the explicit zone table for unavailable_after dates. Go's
// time.Parse reads an abbreviation it does not know (PST, EST, ...) as
// +0000 with that name, which would move Google's own example
// "25 Jun 2010 15:00:00 PST" eight hours early; so the package never lets
// time.Parse see a zone name. The first block is RFC 822 section 5.1
// (kept by RFC 5322 section 4.3); the second holds common abbreviations that
// have only one meaning and are reported as non-standard when used.
var zoneOffsets = map[string]int{ // minutes east of UTC
	"UT": 0, "UTC": 0, "GMT": 0, "Z": 0,
	"EST": -5 * 60, "EDT": -4 * 60,
	"CST": -6 * 60, "CDT": -5 * 60,
	"MST": -7 * 60, "MDT": -6 * 60,
	"PST": -8 * 60, "PDT": -7 * 60,
}

var extraZoneOffsets = map[string]int{
	"WET": 0, "WEST": 60, "CET": 60, "CEST": 120, "EET": 120, "EEST": 180,
	"MSK": 180, "JST": 540, "KST": 540, "HKT": 480, "AEST": 600, "AEDT": 660,
	"NZST": 720, "NZDT": 780, "AKST": -9 * 60, "AKDT": -8 * 60, "HST": -10 * 60,
}

var monthNames = [...]string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}

var weekdayNames = [...]string{"sun", "mon", "tue", "wed", "thu", "fri", "sat",
	"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}

func isWeekday(s string) bool {
	for _, w := range weekdayNames {
		if strings.EqualFold(s, w) {
			return true
		}
	}
	return false
}

func lookupMonth(s string) int {
	if len(s) < 3 {
		return 0
	}
	for i, m := range monthNames {
		// Full names ("June") are accepted as well as RFC 822's three letters.
		if strings.EqualFold(s[:3], m) && (len(s) == 3 || strings.EqualFold(s, fullMonth(i))) {
			return i + 1
		}
	}
	return 0
}

func fullMonth(i int) string { return time.Month(i + 1).String() }

// dateNote qualifies an accepted date for lint: a set of the flags below,
// 0 (dateExact) when there is nothing to say.
type dateNote uint8

const (
	dateNoZone      dateNote = 1 << iota // no zone given: UTC assumed
	dateOtherZone                        // zone outside RFC 822
	dateMilitary                         // RFC 822 military letter other than Z: UTC assumed (RFC 5322 4.3)
	dateTwoDigitYYY                      // two-digit year, RFC 5322 4.3 window used

	dateExact dateNote = 0
)

// ParseDate parses an unavailable_after value. It accepts RFC 822 / RFC 1123
// ("Fri, 25 Jun 2010 15:00:00 PST", weekday and seconds optional), RFC 850
// ("Friday, 25-Jun-10 15:00:00 PST", and Google's 2007 "25-Aug-2007
// 15:00:00 EST"), asctime ("Fri Jun 25 15:00:00 2010") and ISO 8601
// ("2026-01-01", "2026-01-01T10:00:00+02:00"). A missing zone means UTC, as
// does a date without a time (our reading: Google does not say). Two-digit
// years follow RFC 5322 section 4.3: 00-49 are 20xx, 50-99 are 19xx.
func ParseDate(s string) (time.Time, bool) {
	t, _, ok := parseDate(s)
	return t, ok
}

func parseDate(s string) (time.Time, dateNote, bool) {
	s = strings.TrimSpace(s)
	if len(s) >= 10 && isDigits(s[:4]) && s[4] == '-' {
		return parseISO(s)
	}
	return parseRFC(s)
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
		if n > 1e6 {
			return 1e6
		}
	}
	return n
}

// mkdate builds the instant and rejects out-of-range fields (Feb 30, 25:00)
// instead of letting time.Date normalise them.
func mkdate(y, mo, d, h, mi, sec, nsec, offMin int) (time.Time, bool) {
	if mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60 || y < 1 || y > 9999 {
		return time.Time{}, false
	}
	if sec == 60 { // leap second: RFC 3339 allows it; clamp
		sec = 59
	}
	t := time.Date(y, time.Month(mo), d, h, mi, sec, nsec, time.UTC)
	if t.Day() != d {
		return time.Time{}, false
	}
	return t.Add(-time.Duration(offMin) * time.Minute), true
}

func parseISO(s string) (time.Time, dateNote, bool) {
	if !isDigits(s[5:7]) || s[7] != '-' || !isDigits(s[8:10]) {
		return time.Time{}, 0, false
	}
	y, mo, d := atoi(s[:4]), atoi(s[5:7]), atoi(s[8:10])
	rest := s[10:]
	h, mi, sec, nsec := 0, 0, 0, 0
	note := dateExact
	if rest == "" {
		note = dateNoZone
		t, ok := mkdate(y, mo, d, 0, 0, 0, 0, 0)
		return t, note, ok
	}
	if rest[0] != 'T' && rest[0] != 't' && rest[0] != ' ' {
		return time.Time{}, 0, false
	}
	rest = rest[1:]
	if len(rest) < 5 || !isDigits(rest[:2]) || rest[2] != ':' || !isDigits(rest[3:5]) {
		return time.Time{}, 0, false
	}
	h, mi = atoi(rest[:2]), atoi(rest[3:5])
	rest = rest[5:]
	if len(rest) >= 3 && rest[0] == ':' && isDigits(rest[1:3]) {
		sec = atoi(rest[1:3])
		rest = rest[3:]
		if len(rest) > 1 && (rest[0] == '.' || rest[0] == ',') {
			i := 1
			for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
				i++
			}
			frac := rest[1:i]
			if frac == "" {
				return time.Time{}, 0, false
			}
			for j := 0; j < 9; j++ {
				nsec *= 10
				if j < len(frac) {
					nsec += int(frac[j] - '0')
				}
			}
			rest = rest[i:]
		}
	}
	off, note, ok := parseZone(strings.TrimLeft(rest, " "), true)
	if !ok {
		return time.Time{}, 0, false
	}
	t, ok := mkdate(y, mo, d, h, mi, sec, nsec, off)
	return t, note, ok
}

// parseZone reads a zone: empty (UTC, noted), Z, ±hh:mm, ±hhmm, ±hh or a
// name from the tables.
func parseZone(z string, iso bool) (int, dateNote, bool) {
	if z == "" {
		return 0, dateNoZone, true
	}
	if z[0] == '+' || z[0] == '-' {
		sign := 1
		if z[0] == '-' {
			sign = -1
		}
		d := strings.Replace(z[1:], ":", "", 1)
		if !isDigits(d) || (len(d) != 4 && !(iso && len(d) == 2)) {
			return 0, 0, false
		}
		hh, mm := atoi(d[:2]), 0
		if len(d) == 4 {
			mm = atoi(d[2:])
		}
		if hh > 23 || mm > 59 {
			return 0, 0, false
		}
		return sign * (hh*60 + mm), dateExact, true
	}
	u := strings.ToUpper(z)
	if off, ok := zoneOffsets[u]; ok {
		return off, dateExact, true
	}
	if off, ok := extraZoneOffsets[u]; ok {
		return off, dateOtherZone, true
	}
	if len(u) == 1 && u[0] >= 'A' && u[0] <= 'Z' && u[0] != 'J' {
		return 0, dateMilitary, true
	}
	return 0, 0, false
}

func parseRFC(s string) (time.Time, dateNote, bool) {
	// Drop a leading weekday ("Fri," "Friday," or "Fri ").
	if i := strings.IndexAny(s, ", "); i > 0 && isWeekday(s[:i]) {
		s = strings.TrimLeft(s[i:], ", ")
	}
	f := strings.Fields(s)
	if len(f) == 0 {
		return time.Time{}, 0, false
	}
	var y, mo, d int
	var yearDigits int
	var rest []string
	switch {
	case strings.Count(f[0], "-") == 2: // RFC 850: 25-Jun-10
		p := strings.Split(f[0], "-")
		if !isDigits(p[0]) || !isDigits(p[2]) || len(p[0]) > 2 {
			return time.Time{}, 0, false
		}
		d, mo, y, yearDigits = atoi(p[0]), lookupMonth(p[1]), atoi(p[2]), len(p[2])
		rest = f[1:]
	case isDigits(f[0]) && len(f[0]) <= 2 && len(f) >= 3: // RFC 822: 25 Jun 2010
		d, mo = atoi(f[0]), lookupMonth(f[1])
		if !isDigits(f[2]) {
			return time.Time{}, 0, false
		}
		y, yearDigits = atoi(f[2]), len(f[2])
		rest = f[3:]
	case lookupMonth(f[0]) != 0 && len(f) >= 4 && isDigits(f[1]) && isDigits(f[3]): // asctime
		mo, d, y, yearDigits = lookupMonth(f[0]), atoi(f[1]), atoi(f[3]), len(f[3])
		rest = append([]string{f[2]}, f[4:]...) // a zone may follow the year
	default:
		return time.Time{}, 0, false
	}
	note := dateExact
	switch yearDigits {
	case 4:
	case 2:
		note = dateTwoDigitYYY
		if y < 50 {
			y += 2000
		} else {
			y += 1900
		}
	default:
		return time.Time{}, 0, false
	}
	h, mi, sec := 0, 0, 0
	if len(rest) > 0 && strings.Contains(rest[0], ":") {
		p := strings.Split(rest[0], ":")
		if len(p) > 3 {
			return time.Time{}, 0, false
		}
		for _, x := range p {
			if !isDigits(x) || len(x) > 2 {
				return time.Time{}, 0, false
			}
		}
		h, mi = atoi(p[0]), atoi(p[1])
		if len(p) == 3 {
			sec = atoi(p[2])
		}
		rest = rest[1:]
	}
	if len(rest) > 1 {
		return time.Time{}, 0, false
	}
	zone := ""
	if len(rest) == 1 {
		zone = rest[0]
	}
	off, zn, ok := parseZone(zone, false)
	if !ok {
		return time.Time{}, 0, false
	}
	note |= zn
	t, ok := mkdate(y, mo, d, h, mi, sec, 0, off)
	return t, note, ok
}
