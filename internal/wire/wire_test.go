package wire

import "testing"

func TestWireForm(t *testing.T) {
	for _, tt := range []struct{ in, wire, decoded string }{
		{"https://example.com/a/b?c=d", "https://example.com/a/b?c=d", ""},
		{"https://example.com", "https://example.com", ""},
		{"https://example.com/café", "https://example.com/caf%C3%A9", ""},
		{"https://example.com/caf%c3%a9", "https://example.com/caf%C3%A9", ""},
		{"https://example.com/caf%C3%A9", "https://example.com/caf%C3%A9", ""},
		{"/a b?q=é", "/a%20b?q=%C3%A9", ""},
		{"/%70rivate", "/%70rivate", "/private"},
		{"/%7euser/%2F", "/%7Euser/%2F", "/~user/%2F"},
		{"/100%", "/100%", ""},
		{"/a%zz/é", "/a%zz/%C3%A9", ""},
		{"/x#frag é", "/x#frag é", ""},
		{"/é#%70", "/%C3%A9#%70", ""},
		{"/%70#%70", "/%70#%70", "/p#%70"},
		{"https://exämple.com/ä", "https://exämple.com/%C3%A4", ""},
	} {
		w, d := Form(tt.in)
		if w != tt.wire || d != tt.decoded {
			t.Errorf("Form(%q) = %q, %q; want %q, %q", tt.in, w, d, tt.wire, tt.decoded)
		}
	}
	if n := testing.AllocsPerRun(100, func() { Form("https://example.com/a/b?c=d") }); n != 0 {
		t.Errorf("%v allocs for a URL in wire form", n)
	}
}
