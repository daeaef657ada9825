package accesslog

import (
	"bytes"
	"math"
)

// Record.Time is Unix nanoseconds in an int64, which spans 1677-09-21 to
// 2262-04-11. A timestamp outside that span cannot be represented: the
// parsers refuse it (the line is a bad line) rather than let the
// multiplication wrap it to another century.
const (
	minSec = math.MinInt64/int64(1e9) + 1
	maxSec = math.MaxInt64/int64(1e9) - 1
)

// nanos returns sec seconds and frac nanoseconds (0 ≤ frac < 1e9) as Unix
// nanoseconds, or false when Record.Time cannot hold them.
func nanos(sec, frac int64) (int64, bool) {
	if sec < minSec || sec > maxSec {
		return 0, false
	}
	return sec*1e9 + frac, true
}

// clock parses log timestamps by hand and remembers the last one: log lines
// arrive in time order, many per second, so almost every call is a compare
// of a few bytes. time.Parse costs about two thirds of a combined-format
// parse (BenchmarkParseCombined measures both); this costs almost nothing.
type clock struct {
	key  [48]byte
	klen int
	sec  int64
}

// cached returns the seconds for key if it is the last key parsed.
func (c *clock) cached(key []byte) (int64, bool) {
	if c.klen == len(key) && c.klen > 0 && string(c.key[:c.klen]) == string(key) {
		return c.sec, true
	}
	return 0, false
}

func (c *clock) store(key []byte, sec int64) {
	if len(key) <= len(c.key) {
		c.klen = copy(c.key[:], key)
		c.sec = sec
	}
}

// clf parses the Common Log Format time "02/Jan/2006:15:04:05 -0700",
// with or without the surrounding brackets, into Unix nanoseconds.
func (c *clock) clf(b []byte) (int64, bool) {
	if len(b) > 2 && b[0] == '[' && b[len(b)-1] == ']' {
		b = b[1 : len(b)-1]
	}
	if s, ok := c.cached(b); ok {
		return nanos(s, 0)
	}
	if len(b) != 26 || b[2] != '/' || b[6] != '/' || b[11] != ':' || b[14] != ':' || b[17] != ':' || b[20] != ' ' {
		return 0, false
	}
	day, ok1 := num(b[0:2])
	mon := month(b[3:6])
	year, ok2 := num(b[7:11])
	h, ok3 := num(b[12:14])
	mi, ok4 := num(b[15:17])
	s, ok5 := num(b[18:20])
	off, ok6 := zone(b[21:26])
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 || mon == 0 {
		return 0, false
	}
	sec, ok := civil(year, mon, day, h, mi, s)
	if !ok {
		return 0, false
	}
	sec -= off
	ns, ok := nanos(sec, 0)
	if !ok {
		return 0, false
	}
	c.store(b, sec)
	return ns, true
}

// iso parses RFC 3339 / ISO 8601 "2006-01-02T15:04:05[.frac](Z|±hh:mm|±hhmm)";
// a missing zone means UTC. A space may stand for the T.
func (c *clock) iso(b []byte) (int64, bool) {
	if len(b) < 19 || b[4] != '-' || b[7] != '-' || (b[10] != 'T' && b[10] != ' ') || b[13] != ':' || b[16] != ':' {
		return 0, false
	}
	rest := b[19:]
	var frac int64
	if len(rest) > 0 && (rest[0] == '.' || rest[0] == ',') {
		i := 1
		scale := int64(1e8)
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			frac += int64(rest[i]-'0') * scale
			scale /= 10
			i++
		}
		if i == 1 {
			return 0, false
		}
		rest = rest[i:]
	}
	// The key is the timestamp without its fraction, so lines in the same
	// second share the cache even when their fractions differ.
	var keybuf [48]byte
	n := copy(keybuf[:], b[:19])
	n += copy(keybuf[n:], rest)
	key := keybuf[:n]
	if s, ok := c.cached(key); ok {
		return nanos(s, frac)
	}
	var off int64
	switch {
	case len(rest) == 0, len(rest) == 1 && (rest[0] == 'Z' || rest[0] == 'z'):
	case len(rest) == 6 && rest[3] == ':':
		var z [5]byte
		z[0], z[1], z[2], z[3], z[4] = rest[0], rest[1], rest[2], rest[4], rest[5]
		o, ok := zone(z[:])
		if !ok {
			return 0, false
		}
		off = o
	case len(rest) == 5:
		o, ok := zone(rest)
		if !ok {
			return 0, false
		}
		off = o
	default:
		return 0, false
	}
	year, ok1 := num(b[0:4])
	mon, ok2 := num(b[5:7])
	day, ok3 := num(b[8:10])
	h, ok4 := num(b[11:13])
	mi, ok5 := num(b[14:16])
	s, ok6 := num(b[17:19])
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 {
		return 0, false
	}
	sec, ok := civil(year, mon, day, h, mi, s)
	if !ok {
		return 0, false
	}
	sec -= off
	ns, ok := nanos(sec, frac)
	if !ok {
		return 0, false
	}
	c.store(key, sec)
	return ns, true
}

// w3c parses the separate UTC "date" (2006-01-02) and "time" (15:04:05,
// optionally with a fraction) fields of W3C and CloudFront logs.
func (c *clock) w3c(date, tm []byte) (int64, bool) {
	if len(date) != 10 || len(tm) < 8 || len(tm) > 20 {
		return 0, false
	}
	var buf [32]byte
	n := copy(buf[:], date)
	buf[n] = 'T'
	n++
	n += copy(buf[n:], tm)
	return c.iso(buf[:n])
}

// epoch parses a decimal Unix timestamp with optional fraction; its unit
// (s, ms, µs, ns) is guessed from the magnitude of the integer part: each
// unit covers the values from 2001-09-09 (10^12 ms, 10^15 µs, 10^18 ns) on,
// and anything below 10^12 is seconds. So 253402300799 is 9999-12-31 in
// seconds, out of range, not 1978 in milliseconds. Zero (a placeholder,
// not a time) and values out of Record.Time's range are refused.
func epoch(b []byte) (int64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	if bytes.ContainsAny(b, "eE") {
		return epochFloat(b)
	}
	intPart := b
	var frac []byte
	if i := bytes.IndexByte(b, '.'); i >= 0 {
		intPart, frac = b[:i], b[i+1:]
	}
	var n int64
	if len(intPart) == 0 || len(intPart) > 19 {
		return 0, false
	}
	for _, ch := range intPart {
		if ch < '0' || ch > '9' || n > (math.MaxInt64-9)/10 {
			return 0, false
		}
		n = n*10 + int64(ch-'0')
	}
	var unit int64
	switch {
	case n < 1e12:
		unit = 1e9
	case n < 1e15:
		unit = 1e6
	case n < 1e18:
		unit = 1e3
	default:
		unit = 1
	}
	if n == 0 || n > (math.MaxInt64-unit)/unit {
		return 0, false
	}
	ns := n * unit
	scale := unit / 10
	for _, ch := range frac {
		if ch < '0' || ch > '9' {
			return 0, false
		}
		ns += int64(ch-'0') * scale
		scale /= 10
	}
	return ns, true
}

// epochFloat handles exponent notation (1.7409e9), which JSON encoders emit
// for large floats; it is rare, so precision to the microsecond suffices.
func epochFloat(b []byte) (int64, bool) {
	var mant, exp int64
	var point, digits int
	seenPoint := false
	i := 0
	for ; i < len(b); i++ {
		ch := b[i]
		if ch == '.' && !seenPoint {
			seenPoint = true
			continue
		}
		if ch < '0' || ch > '9' {
			break
		}
		if digits < 17 {
			mant = mant*10 + int64(ch-'0')
			digits++
			if seenPoint {
				point++
			}
		} else if !seenPoint {
			point--
		}
	}
	if i >= len(b) || (b[i] != 'e' && b[i] != 'E') {
		return 0, false
	}
	i++
	neg := false
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	e, ok := atoi(b[i:])
	if !ok || e > 30 {
		return 0, false
	}
	if neg {
		e = -e
	}
	exp = e - int64(point) + 9 // to nanoseconds, assuming seconds
	for ; exp > 0; exp-- {
		if mant > math.MaxInt64/10 {
			return 0, false
		}
		mant *= 10
	}
	for ; exp < 0; exp++ {
		mant /= 10
	}
	if mant == 0 {
		return 0, false
	}
	return mant, true
}

func num(b []byte) (int64, bool) { return atoi(b) }

// zone parses "+hhmm" / "-hhmm" into seconds east of UTC.
func zone(b []byte) (int64, bool) {
	if len(b) != 5 || (b[0] != '+' && b[0] != '-') {
		return 0, false
	}
	h, ok1 := num(b[1:3])
	m, ok2 := num(b[3:5])
	if !ok1 || !ok2 || h > 23 || m > 59 {
		return 0, false
	}
	off := h*3600 + m*60
	if b[0] == '-' {
		off = -off
	}
	return off, true
}

func month(b []byte) int64 {
	if len(b) != 3 {
		return 0
	}
	switch string(b) {
	case "Jan":
		return 1
	case "Feb":
		return 2
	case "Mar":
		return 3
	case "Apr":
		return 4
	case "May":
		return 5
	case "Jun":
		return 6
	case "Jul":
		return 7
	case "Aug":
		return 8
	case "Sep":
		return 9
	case "Oct":
		return 10
	case "Nov":
		return 11
	case "Dec":
		return 12
	}
	return 0
}

// civil converts a proleptic Gregorian date and time of day to Unix seconds
// (Howard Hinnant's days_from_civil), rejecting out-of-range fields and
// years Record.Time cannot hold (nanos checks the exact bounds).
func civil(y, m, d, h, mi, s int64) (int64, bool) {
	if y < 1677 || y > 2262 || m < 1 || m > 12 || d < 1 || d > daysIn(y, m) || h > 23 || mi > 59 || s > 60 {
		return 0, false
	}
	if m <= 2 {
		y--
	}
	era := y / 400
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	days := era*146097 + doe - 719468
	return days*86400 + h*3600 + mi*60 + s, true
}

func daysIn(y, m int64) int64 {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
