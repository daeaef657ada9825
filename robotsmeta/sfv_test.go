package robotsmeta

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestParseList: RFC 9651 section 4.2.1 Lists, member spans and typed
// parameters, as the Robots-Tag reader needs them.
func TestParseList(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string // members as "span|item kind:text|key=kind:text,..."; "error@N" for a failure at offset N
	}{
		{"", ""},
		{"*;nosnippet, ExampleBot;noindex", "0-11|Token:*|nosnippet=Boolean:true ; 13-31|Token:ExampleBot|noindex=Boolean:true"},
		{"a;x=1;y=\"s\\\"t\";z=@5;w=?0;v=1.5;u=tok;t=:AA==:", "0-45|Token:a|x=Integer:1,y=String:s\"t,z=Date:5,w=Boolean:false,v=Decimal:1.5,u=Token:tok,t=Byte Sequence::AA==:"},
		{"a;x=1;x=2", "0-9|Token:a|x=Integer:2"},
		{"a;d=%\"x\"", "0-8|Token:a|d=Display String:x"},
		{"(b c);p, \"s\"", "0-7|inner|p=Boolean:true ; 9-12|String:s|"},
		{"a,\tb", "0-1|Token:a| ; 3-4|Token:b|"},
		{"a,", "error@2"},
		{"a b", "error@2"},
		{"a;B", "error@2"},
		{"a;", "error@2"},
		{"a;x=", "error@4"},
		{"\"abc", "error@4"},
		{"-.5", "error@1"},
		{"-", "error@1"},
		// Numbers at and past their bounds (RFC 9651 section 4.2.4), not at
		// the start of the input.
		{"a;x=123456789012345;y=-123456789012345", "0-38|Token:a|x=Integer:123456789012345,y=Integer:-123456789012345"},
		{"a;x=1234567890123456", "error@20"},
		{"a;x=123456789012.123;y=-1.5", "0-27|Token:a|x=Decimal:123456789012.123,y=Decimal:-1.5"},
		{"a;x=1234567890123.1", "error@19"},
		{"a;x=1.1234", "error@10"},
		{"a;x=1.", "error@6"},
		{"a;x=1.2.3", "error@7"},
		// Tokens take every tchar, ":" and "/" (section 3.3.4); keys take
		// lcalpha, digits, "_", "-", "." and "*" (section 3.1.2).
		{"Zz!#$%&'*+-.^_`|~:/9;k.e*y_-0", "0-29|Token:Zz!#$%&'*+-.^_`|~:/9|k.e*y_-0=Boolean:true"},
		{"a;x=:AZaz09+/=:", "0-15|Token:a|x=Byte Sequence::AZaz09+/=:"},
		{"a;x=:A-:", "error@6"},
		{"a;x=%x\"", "error@5"},
		{"a;x=?2", "error@5"},
		// Strings: escapes and the printable ASCII range (section 4.2.5).
		{"a;x=\"p\\\\q\\\"r\";y=\" ~\"", "0-20|Token:a|x=String:p\\q\"r,y=String: ~"},
		{"a;x=\"p\\q\"", "error@7"},
		{"a;x=\"p\\", "error@7"},
		{"a;x=\"\x1f\"", "error@5"},
		{"a;x=\"\x7f\"", "error@5"},
		{"1.2345", "error@6"},
		{"1234567890123456", "error@16"},
		{"@1.5", "error@4"},
		{"\"a\u00e9\"", "error@2"},
	} {
		ms, err := parseList(c.in)
		var got string
		var se *SyntaxError
		switch {
		case errors.As(err, &se):
			got = fmt.Sprintf("error@%d", se.Offset)
		case err != nil:
			t.Fatalf("%q: untyped error %v", c.in, err)
		default:
			var parts []string
			for _, m := range ms {
				item := m.Item.Kind.String() + ":" + m.Item.Text
				if m.Inner {
					item = "inner"
				}
				var ps []string
				for _, p := range m.Params {
					v := p.Val.Text
					switch p.Val.Kind {
					case sfBoolean:
						v = fmt.Sprint(p.Val.Bool)
					case sfDate:
						v = fmt.Sprint(p.Val.Int)
					}
					ps = append(ps, p.Key+"="+p.Val.Kind.String()+":"+v)
				}
				parts = append(parts, fmt.Sprintf("%d-%d|%s|%s", m.Start, m.End, item, strings.Join(ps, ",")))
			}
			got = strings.Join(parts, " ; ")
		}
		if got != c.want {
			t.Errorf("parseList(%q)\n  got  %s\n  want %s", c.in, got, c.want)
		}
	}
}
