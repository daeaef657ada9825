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
