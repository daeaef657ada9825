package urlhead

import (
	"errors"
	"net/url"
	"testing"
)

func TestCut(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"https://example.com/a%zz?q#f", "https://example.com"},
		{"http://h:8080?x", "http://h:8080"},
		{"https://h#frag", "https://h"},
		{"https://h", "https://h"},
		{"/100%", "/100%"},
		{"mailto:x@y", "mailto:x@y"},
	} {
		if got := Cut(tt.in); got != tt.want {
			t.Errorf("Cut(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParse(t *testing.T) {
	u, err := Parse("https://Example.com:8443/100%")
	if err != nil || u.Scheme != "https" || u.Host != "Example.com:8443" || u.Path != "" {
		t.Fatalf("Parse: %v %+v", err, u)
	}
	_, err = Parse("https://exa mple.com/x")
	if err == nil {
		t.Fatal("a space in the host must not parse")
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		t.Errorf("error %v still wraps *url.Error", err)
	}
}
