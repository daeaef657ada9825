package termsafe

import (
	"bytes"
	"testing"
)

func TestEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"plain text\twith tab\n", "plain text\twith tab\n"},
		{"Disa\x1b]0;pwned\x07llow /x", `Disa\x1b]0;pwned\x07llow /x`},
		{"a\rb", `a\x0db`},
		{"del\x7f", `del\x7f`},
		{"c1 \u009b31m", `c1 \u009b31m`},
		{"raw \x9b31m", `raw \x9b31m`},
		{"invalid \xff\xfe", `invalid \xff\xfe`},
		{"é 😀 ünïcode", "é 😀 ünïcode"},
		{"\x00", `\x00`},
	}
	for _, tt := range tests {
		if got := Escape(tt.in); got != tt.want {
			t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
		var b bytes.Buffer
		n, err := NewWriter(&b).Write([]byte(tt.in))
		if err != nil || n != len(tt.in) || b.String() != tt.want {
			t.Errorf("Writer.Write(%q) = %d, %v, wrote %q; want %d, %q", tt.in, n, err, b.String(), len(tt.in), tt.want)
		}
	}
}

func TestNewWriterOnce(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	if NewWriter(w) != w {
		t.Error("NewWriter wrapped a Writer again")
	}
}

// TestWriterSplitRune: a rune split between writes comes out whole; a
// dangling start is escaped by Flush.
func TestWriterSplitRune(t *testing.T) {
	in := []byte("é😀\u009b!")
	for cut := 0; cut <= len(in); cut++ {
		var b bytes.Buffer
		w := NewWriter(&b)
		w.Write(in[:cut])
		w.Write(in[cut:])
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if want := `é😀\u009b!`; b.String() != want {
			t.Errorf("cut at %d: %q, want %q", cut, b.String(), want)
		}
	}
	var b bytes.Buffer
	w := NewWriter(&b)
	w.Write([]byte("a\xf0\x9f"))
	w.Flush()
	if want := `a\xf0\x9f`; b.String() != want {
		t.Errorf("dangling start: %q, want %q", b.String(), want)
	}
}
