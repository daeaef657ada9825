// Package enum gives a small integer enum its text forms from one table of
// names, so that String, MarshalText, UnmarshalText and Parse agree and each
// type states only its names:
//
//	var kindNames = enum.New[Kind]("kind", "unknown", "urlset", "sitemapindex")
//
//	func (k Kind) String() string                { return kindNames.String(k) }
//	func (k Kind) MarshalText() ([]byte, error)  { return kindNames.Marshal(k) }
//	func (k *Kind) UnmarshalText(b []byte) error { return kindNames.Unmarshal(b, k) }
//
// Value i is named names[i]; an empty name leaves a value without a text
// form of its own (it is never parsed). A value outside the table is
// written "kind(N)", which no name parses back. Names are matched exactly:
// a type that accepts other spellings (case, synonyms) parses them first
// and then asks the table.
package enum

import (
	"fmt"
	"strconv"
	"strings"
)

// Integer is the underlying types an enum may have.
type Integer interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int | ~uint
}

// Names is the text form of an enum E: names[i] is the name of E(i). Its
// methods are safe for concurrent use.
type Names[E Integer] struct {
	kind  string
	names []string
}

// New returns the table naming E(0), E(1), ... in order; kind says what a
// value is, in messages ("kind(7)", `unknown kind "x"`).
func New[E Integer](kind string, names ...string) *Names[E] {
	return &Names[E]{kind: kind, names: names}
}

// String returns v's name, or kind(N) for a value outside the table.
func (n *Names[E]) String(v E) string {
	if i := int64(v); i >= 0 && i < int64(len(n.names)) {
		return n.names[i]
	}
	return n.kind + "(" + strconv.FormatInt(int64(v), 10) + ")"
}

// Has reports whether v has a name in the table.
func (n *Names[E]) Has(v E) bool {
	i := int64(v)
	return i >= 0 && i < int64(len(n.names)) && n.names[i] != ""
}

// Marshal is MarshalText: v's String.
func (n *Names[E]) Marshal(v E) ([]byte, error) { return []byte(n.String(v)), nil }

// Parse returns the value named s, exactly; else an *Error.
func (n *Names[E]) Parse(s string) (E, error) {
	for i, name := range n.names {
		if name != "" && name == s {
			return E(i), nil
		}
	}
	return 0, &Error{Kind: n.kind, Text: s, Names: n.List()}
}

// Unmarshal is UnmarshalText: it sets *v to the value named b, or leaves
// it and returns an *Error.
func (n *Names[E]) Unmarshal(b []byte, v *E) error {
	e, err := n.Parse(string(b))
	if err != nil {
		return err
	}
	*v = e
	return nil
}

// List returns the names that parse, in the table's order.
func (n *Names[E]) List() []string {
	out := make([]string, 0, len(n.names))
	for _, name := range n.names {
		if name != "" {
			out = append(out, name)
		}
	}
	return out
}

// Error reports a text that names no value.
type Error struct {
	Kind  string   // what was read: "engine", "preference"
	Text  string   // the text given
	Names []string // the names that parse
}

func (e *Error) Error() string {
	return fmt.Sprintf("unknown %s %q: use %s", e.Kind, e.Text, Or(e.Names))
}

// Or joins names as a sentence does: "a", "a or b", "a, b or c".
func Or(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
