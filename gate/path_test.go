package gate

import (
	"errors"
	"net/url"
	"path"
	"strings"
	"testing"
)

func TestCanonical(t *testing.T) {
	for _, tt := range []struct {
		in, want string // want "" means refused as AmbiguousPath
		keep     string // the answer with slashes kept, when it differs
	}{
		{in: "/", want: "/"},
		{in: "/private/x", want: "/private/x"},
		{in: "/%70rivate/x", want: "/private/x"},
		{in: "/%70RIVATE/%78", want: "/pRIVATE/x"},
		{in: "/p%72ivate%2Dx%5f%7e", want: "/private-x_~"},
		{in: "/./private/x", want: "/private/x"},
		{in: "/.well-known/../private/x", want: "/private/x"},
		{in: "/a/./../private/x", want: "/private/x"},
		{in: "/../private/x", want: "/private/x"},
		{in: "/a/b/..", want: "/a/"},
		{in: "/a/b/.", want: "/a/b/"},
		{in: "/a/b/../", want: "/a/"},
		{in: "/a/..", want: "/"},
		{in: "/..", want: "/"},
		{in: "//private/x", want: "/private/x", keep: "//private/x"},
		{in: "/private//x", want: "/private/x", keep: "/private//x"},
		{in: "/a//../x", want: "/x", keep: "/a/x"},
		{in: "/a//", want: "/a/", keep: "/a//"},
		{in: "/a%7cb", want: "/a%7Cb"},
		{in: "/a|b", want: "/a%7Cb"},
		{in: "/h%c3%a9", want: "/h%C3%A9"},
		{in: "/h\xc3\xa9", want: "/h%C3%A9"},
		{in: "/a%20b", want: "/a%20b"},
		{in: "/a b", want: "/a%20b"},
		{in: "/a%21b", want: "/a!b"},
		{in: "/100%25", want: "/100%25"},
		{in: "/a%3Fb?c", want: "/a%3Fb?c"},
		{in: "/a;jsessionid=1", want: "/a;jsessionid=1"},
		{in: "/x?%73ession=1&a=%2f%zz", want: "/x?session=1&a=%2F%zz"},
		{in: "/x?", want: "/x?"},
		{in: "/a.b/c..d/...", want: "/a.b/c..d/..."},
		// Ambiguous: refused.
		{in: "/private%2fx"},
		{in: "/private%2Fx"},
		{in: "/.well-known/..%2fprivate/x"},
		{in: "/.well-known/%2e%2e/private/x"},
		{in: "/.well-known/.%2E/private/x"},
		{in: "/%2e/private/x"},
		{in: "/..;/private/x"},
		{in: "/.;x/private"},
		{in: "/..%3B/private/x"},
		{in: "/a\\..\\private"},
		{in: "/a%5c..%5cprivate"},
		{in: "/a%00.html"},
		{in: "/a%zz"},
		{in: "/a%2"},
		{in: "/a#frag"},
		{in: "/a\x01b"},
		{in: "private/x"},
		{in: "*"},
		{in: ""},
		{in: "http://example.com/x"},
	} {
		for _, merge := range []bool{true, false} {
			want := tt.want
			if !merge && tt.keep != "" {
				want = tt.keep
			}
			got, err := Canonical(tt.in, merge)
			if want == "" {
				if err == nil || !errors.Is(err, AmbiguousPath) {
					t.Errorf("Canonical(%q, %v) = %q, %v; want AmbiguousPath", tt.in, merge, got, err)
				}
				continue
			}
			if err != nil || got != want {
				t.Errorf("Canonical(%q, %v) = %q, %v; want %q", tt.in, merge, got, err, want)
			}
		}
	}
}

// FuzzCanonical: a canonical target is its own canonical form, parses
// as a request URI, and its path, decoded, is what path.Clean makes of
// the input's decoded path (Go's file server and ServeMux resolve a
// request so), with slashes merged.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{"/", "/a/../b", "/%70rivate//x?y=%7a", "/a%2fb", "/.well-known/%2e%2e/x", "/h%C3%A9/./", "/a;b/..;/c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, merge := range []bool{true, false} {
			if isCanonical(in, merge) {
				if got, err := canonical(in, merge); got != in || err != nil {
					t.Fatalf("isCanonical(%q, %v), but canonical gives %q, %v", in, merge, got, err)
				}
			}
		}
		got, err := Canonical(in, true)
		if err != nil {
			if !errors.Is(err, AmbiguousPath) {
				t.Fatalf("Canonical(%q): %v is not AmbiguousPath", in, err)
			}
			return
		}
		again, err := Canonical(got, true)
		if err != nil || again != got {
			t.Fatalf("Canonical(%q) = %q, not canonical: %q, %v", in, got, again, err)
		}
		u, err := url.ParseRequestURI(got)
		if err != nil {
			t.Fatalf("Canonical(%q) = %q does not parse: %v", in, got, err)
		}
		p, _, _ := strings.Cut(in, "?")
		dec, err := url.PathUnescape(p)
		if err != nil {
			return // an escape Canonical took and PathUnescape does not (none expected)
		}
		want := path.Clean(dec)
		if strings.HasSuffix(u.Path, "/") && want != "/" {
			want += "/"
		}
		if u.Path != want {
			t.Fatalf("Canonical(%q) = %q: path %q, path.Clean says %q", in, got, u.Path, want)
		}
	})
}

// BenchmarkCanonical: a target already canonical (most requests) beside
// one the gate rewrites.
func BenchmarkCanonical(b *testing.B) {
	for _, target := range []string{"/blog/2026/11/a-post.html?utm_source=x&page=2", "/blog/./2026//11/%61-post.html?utm_source=%78"} {
		b.Run(target, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Canonical(target, true); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
