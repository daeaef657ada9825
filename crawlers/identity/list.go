package identity

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"time"
)

// List is one parsed IP-range list: an operator's file as of one date.
// A List is immutable and safe for concurrent use.
type List struct {
	// ID names the list in the crawler registry, e.g. "google-common".
	ID string
	// Created is the file's creationTime; zero when the file has none.
	Created time.Time
	// Date is the day the list is known to be current from: Created, or
	// for files without a creationTime the day it was fetched or mirrored.
	Date time.Time
	// Source says where the list came from: a URL, or the mirror of an
	// embedded snapshot (repository, path@commit).
	Source string

	prefixes []netip.Prefix // as published, minus duplicates and nested ones
	v4       []v4range      // sorted, disjoint
	v6       []v6range      // sorted, disjoint
}

type v4range struct {
	lo, hi uint32
	p      netip.Prefix
}

type v6range struct {
	lo, hi u128
	p      netip.Prefix
}

type u128 struct{ hi, lo uint64 }

func (a u128) less(b u128) bool { return a.hi < b.hi || a.hi == b.hi && a.lo < b.lo }

// Len returns the number of prefixes in the list.
func (l *List) Len() int { return len(l.prefixes) }

// Prefixes returns the list's prefixes. The slice is shared: do not modify it.
func (l *List) Prefixes() []netip.Prefix { return l.prefixes }

// Lookup returns the list's prefix containing ip. IPv4-mapped IPv6
// addresses are looked up as IPv4. It does not allocate.
func (l *List) Lookup(ip netip.Addr) (netip.Prefix, bool) {
	ip = ip.Unmap()
	if ip.Is4() {
		b := ip.As4()
		x := binary.BigEndian.Uint32(b[:])
		// First range whose end is >= x; ranges are disjoint and sorted.
		i, _ := slices.BinarySearchFunc(l.v4, x, func(r v4range, x uint32) int { return cmp.Compare(r.hi, x) })
		if i < len(l.v4) && l.v4[i].lo <= x {
			return l.v4[i].p, true
		}
		return netip.Prefix{}, false
	}
	if !ip.Is6() {
		return netip.Prefix{}, false
	}
	b := ip.As16()
	x := u128{binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:])}
	i, _ := slices.BinarySearchFunc(l.v6, x, func(r v6range, x u128) int {
		switch {
		case r.hi.less(x):
			return -1
		case x.less(r.hi):
			return 1
		}
		return 0
	})
	if i < len(l.v6) && !x.less(l.v6[i].lo) {
		return l.v6[i].p, true
	}
	return netip.Prefix{}, false
}

// Problem is one defect found while parsing a list.
type Problem struct {
	Index int    // position in "prefixes", or -1 for the whole file
	Value string // the offending value, if any
	Msg   string
	// Err is the sentinel the problem is an instance of (ErrNoPrefixes),
	// which the ListError wraps; nil for the others.
	Err error
}

// String describes the problem in words.
func (p Problem) String() string {
	if p.Index < 0 {
		return p.Msg
	}
	if p.Value != "" {
		return fmt.Sprintf("prefixes[%d] %q: %s", p.Index, p.Value, p.Msg)
	}
	return fmt.Sprintf("prefixes[%d]: %s", p.Index, p.Msg)
}

// ListError reports why a list was rejected. The list parsed despite the
// problems (if any) is still returned by ParseList, for diagnostics.
type ListError struct {
	Source   string
	Problems []Problem
}

// Error names the list and its problem.
func (e *ListError) Error() string {
	var b strings.Builder
	b.WriteString(e.Source)
	b.WriteString(": invalid IP-range list: ")
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("; ")
		}
		if i == 5 {
			fmt.Fprintf(&b, "and %d more", len(e.Problems)-5)
			break
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// ErrNoPrefixes is wrapped by the ListError of a list without prefixes,
// such as Google's retired URLs that answer 200 with {"Action needed": ...}.
var ErrNoPrefixes = errors.New("no prefixes")

// Unwrap returns the sentinel of the problem, for errors.Is.
func (e *ListError) Unwrap() error {
	for _, p := range e.Problems {
		if p.Err != nil {
			return p.Err
		}
	}
	return nil
}

// Minimum prefix lengths: anything broader is no crawler's range and would
// "verify" a large part of the internet (0.0.0.0/0 above all).
const (
	minBits4 = 8
	minBits6 = 16
)

// ParseList parses a list in the common {"creationTime","prefixes"} shape
// and validates it: valid JSON, at least one prefix, every entry exactly one
// well-formed ipv4Prefix or ipv6Prefix of the right family, no prefix
// broader than /8 (IPv4) or /16 (IPv6), a parseable creationTime when
// present. On any problem it returns a *ListError listing all of them,
// together with whatever did parse, so callers can report and refuse it.
func ParseList(id, source string, data []byte) (*List, error) {
	l := &List{ID: id, Source: source}
	var probs []Problem
	var doc struct {
		CreationTime *string           `json:"creationTime"`
		Prefixes     []json.RawMessage `json:"prefixes"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		return nil, &ListError{source, []Problem{{Index: -1, Msg: "not a JSON list object: " + err.Error()}}}
	}
	if doc.CreationTime != nil {
		t, err := parseCreationTime(*doc.CreationTime)
		if err != nil {
			probs = append(probs, Problem{Index: -1, Value: *doc.CreationTime, Msg: "creationTime: " + err.Error()})
		}
		l.Created, l.Date = t, day(t)
	}
	if len(doc.Prefixes) == 0 {
		probs = append(probs, Problem{Index: -1, Msg: ErrNoPrefixes.Error(), Err: ErrNoPrefixes})
		if keys := topKeys(data); keys != "" {
			probs = append(probs, Problem{Index: -1, Msg: "the file holds " + keys + " instead"})
		}
	}
	var all []netip.Prefix
	for i, raw := range doc.Prefixes {
		var e map[string]string
		if err := json.Unmarshal(raw, &e); err != nil {
			probs = append(probs, Problem{Index: i, Value: string(raw), Msg: "not an object of strings"})
			continue
		}
		v4, has4 := e["ipv4Prefix"]
		v6, has6 := e["ipv6Prefix"]
		if has4 == has6 {
			probs = append(probs, Problem{Index: i, Value: string(raw), Msg: "want exactly one of ipv4Prefix, ipv6Prefix"})
			continue
		}
		s := v4
		if has6 {
			s = v6
		}
		p, err := netip.ParsePrefix(strings.TrimSpace(s))
		switch {
		case err != nil:
			probs = append(probs, Problem{Index: i, Value: s, Msg: "not a CIDR prefix"})
			continue
		case has4 && !p.Addr().Is4(), has6 && (!p.Addr().Is6() || p.Addr().Is4In6()):
			probs = append(probs, Problem{Index: i, Value: s, Msg: "wrong address family for its key"})
			continue
		case p.Addr().Is4() && p.Bits() < minBits4, p.Addr().Is6() && p.Bits() < minBits6:
			probs = append(probs, Problem{Index: i, Value: s, Msg: fmt.Sprintf("prefix /%d is too broad to name a crawler", p.Bits())})
			continue
		}
		all = append(all, p.Masked())
	}
	if len(doc.Prefixes) > 0 && len(all) == 0 {
		probs = append(probs, Problem{Index: -1, Msg: ErrNoPrefixes.Error(), Err: ErrNoPrefixes})
	}
	l.index(all)
	if len(probs) > 0 {
		return l, &ListError{source, probs}
	}
	return l, nil
}

// index builds the disjoint range tables. CIDR blocks are either disjoint
// or nested, so after sorting by start address (wider first) dropping every
// block inside the previous kept one leaves disjoint ranges.
func (l *List) index(all []netip.Prefix) {
	slices.SortFunc(all, func(a, b netip.Prefix) int {
		if c := a.Addr().Compare(b.Addr()); c != 0 {
			return c
		}
		return cmp.Compare(a.Bits(), b.Bits())
	})
	var last netip.Prefix
	for _, p := range all {
		if last.IsValid() && last.Contains(p.Addr()) {
			continue
		}
		last = p
		l.prefixes = append(l.prefixes, p)
		if p.Addr().Is4() {
			b := p.Addr().As4()
			lo := binary.BigEndian.Uint32(b[:])
			// For a /0 the shift is by 32, which gives 0 in Go: the end
			// is all ones, as it should be.
			hi := lo | (1<<(32-p.Bits()) - 1)
			l.v4 = append(l.v4, v4range{lo, hi, p})
			continue
		}
		b := p.Addr().As16()
		lo := u128{binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:])}
		hi := lo
		host := 128 - p.Bits()
		if host >= 64 {
			hi.lo = ^uint64(0)
			hi.hi |= (1<<(host-64) - 1) // all ones for ::/0 (a shift by 64 gives 0)
		} else {
			hi.lo |= (1<<host - 1)
		}
		l.v6 = append(l.v6, v6range{lo, hi, p})
	}
}

// parseCreationTime accepts the formats operators use: RFC 3339 with a zone
// (Anthropic, OpenAI's "Z"), and Google's and Bing's microseconds without a
// zone, which are UTC.
func parseCreationTime(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), nil
	}
	for _, layout := range []string{"2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, errors.New("not an RFC 3339 or ISO 8601 time")
}

// day truncates t to its UTC day.
func day(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// topKeys lists a JSON object's keys, to say what a list without prefixes
// holds instead (e.g. "Action needed").
func topKeys(data []byte) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil {
		return ""
	}
	var keys []string
	for k := range m {
		if k != "prefixes" && k != "creationTime" {
			keys = append(keys, fmt.Sprintf("%q", k))
		}
	}
	slices.Sort(keys)
	return strings.Join(keys, ", ")
}
