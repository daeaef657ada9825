package identity

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/internal/netguard"
)

// TestUpdateSizeLimit: a list of up to 8 MiB (MaxListBytes, 8,388,608
// bytes) is read whole; one byte more is rejected.
func TestUpdateSizeLimit(t *testing.T) {
	const list = `{"creationTime":"2026-11-01T10:00:00Z","prefixes":[{"ipv4Prefix":"20.171.206.0/24"}]}`
	gptbot, _ := crawlers.ListByID("openai-gptbot")
	for _, tc := range []struct {
		size    int
		wantErr string
	}{
		{8388607, ""},
		{8388608, ""},
		{8388609, "larger than 8388608 bytes"},
	} {
		ls := newListServer(t)
		// JSON allows any amount of white space after the value.
		ls.set("/gptbot.json", list+strings.Repeat(" ", tc.size-len(list)))
		u := &Updater{Dir: t.TempDir(), Client: ls.srv.Client(), BaseURL: ls.srv.URL}
		res := u.Update(context.Background(), []*crawlers.List{gptbot}, nil)
		r := res[0]
		switch {
		case tc.wantErr == "" && (r.Err != nil || r.List == nil || r.List.Len() != 1):
			t.Errorf("%d bytes: list %v, error %v; want the list", tc.size, r.List, r.Err)
		case tc.wantErr != "" && (r.Err == nil || !strings.Contains(r.Err.Error(), tc.wantErr)):
			t.Errorf("%d bytes: error %v, want %q", tc.size, r.Err, tc.wantErr)
		}
	}
}

type deadlineTransport struct{ left time.Duration }

func (d *deadlineTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if dl, ok := req.Context().Deadline(); ok {
		d.left = time.Until(dl)
	}
	return nil, context.Canceled
}

// TestUpdateTimeout: each fetch is bounded by Updater.Timeout, 30 seconds
// when zero. It runs in a synctest bubble, whose clock stands still until
// the request is sent: its deadline is the Timeout away exactly.
func TestUpdateTimeout(t *testing.T) { synctest.Test(t, testUpdateTimeout) }

func testUpdateTimeout(t *testing.T) {
	gptbot, _ := crawlers.ListByID("openai-gptbot")
	for _, tc := range []struct {
		timeout, want time.Duration
	}{
		{0, 30 * time.Second},
		{-time.Second, 30 * time.Second},
		{2 * time.Second, 2 * time.Second},
	} {
		tr := &deadlineTransport{}
		u := &Updater{Dir: t.TempDir(), Client: &http.Client{Transport: tr}, Timeout: tc.timeout}
		u.Update(context.Background(), []*crawlers.List{gptbot}, nil)
		if tr.left != tc.want {
			t.Errorf("Timeout %v: fetch deadline in %v, want %v", tc.timeout, tr.left, tc.want)
		}
	}
}

// TestRefusePrivate: the default client connects only to public addresses.
func TestRefusePrivate(t *testing.T) {
	for _, tc := range []struct {
		addr string
		ok   bool
	}{
		{"8.8.8.8:443", true},
		{"[2001:4860:4860::8888]:443", true},
		{"127.0.0.1:443", false},      // loopback
		{"[::1]:443", false},          // loopback
		{"10.0.0.1:443", false},       // private
		{"[fd00::1]:443", false},      // private (ULA)
		{"169.254.169.254:80", false}, // link-local unicast (cloud metadata)
		{"[fe80::1]:443", false},      // link-local unicast
		{"[ff02::1]:443", false},      // link-local multicast
		{"224.0.0.1:443", false},      // multicast
		{"[ff0e::1]:443", false},      // global multicast
		{"0.0.0.0:443", false},        // unspecified
		{"[::]:443", false},           // unspecified
		{"[ff01::1]:443", false},      // interface-local multicast
		{"[::ffff:127.0.0.1]:443", false},
		{"not an address", false},
	} {
		err := netguard.Control("tcp", tc.addr, nil)
		if (err == nil) != tc.ok {
			t.Errorf("netguard.Control(%s) = %v, want allowed %v", tc.addr, err, tc.ok)
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the default client reached %s", r.URL)
	}))
	defer srv.Close()
	_, err := publicClient(5 * time.Second).Get(srv.URL + "/gptbot.json")
	if !errors.Is(err, netguard.ErrBlocked) {
		t.Errorf("default client to %s: %v, want netguard.ErrBlocked", srv.URL, err)
	}
}

// TestUpdateStoreFails: when the list cannot be stored (its file name is
// taken by a directory), the list is rejected and no temporary file is
// left behind.
func TestUpdateStoreFails(t *testing.T) {
	gptbot, _ := crawlers.ListByID("openai-gptbot")
	ls := newListServer(t)
	ls.set("/gptbot.json", `{"creationTime":"2026-11-01T10:00:00Z","prefixes":[{"ipv4Prefix":"20.171.206.0/24"}]}`)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, gptbot.ID, "2026-11-01.json", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	u := &Updater{Dir: dir, Client: ls.srv.Client(), BaseURL: ls.srv.URL}
	r := u.Update(context.Background(), []*crawlers.List{gptbot}, nil)[0]
	if r.Err == nil || r.List != nil {
		t.Errorf("stored over a directory: list %v, error %v; want an error", r.List, r.Err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, gptbot.ID, ".tmp-*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestLoadCacheSizeLimit: a cached list of up to 8 MiB (MaxListBytes,
// 8,388,608 bytes) is loaded; one byte more is skipped with an error that
// says so, and the other lists still load.
func TestLoadCacheSizeLimit(t *testing.T) {
	const list = `{"creationTime":"2026-11-01T10:00:00Z","prefixes":[{"ipv4Prefix":"20.171.206.0/24"}]}`
	for _, tc := range []struct {
		size   int
		loaded bool
	}{
		{8388607, true},
		{8388608, true},
		{8388609, false},
	} {
		dir := t.TempDir()
		for id, body := range map[string]string{
			"big":   list + strings.Repeat(" ", tc.size-len(list)),
			"small": list,
		} {
			if err := os.MkdirAll(filepath.Join(dir, id), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, id, "2026-11-01.json"), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		r, err := LoadCache(dir)
		if l, _ := r.At("small", time.Time{}); l == nil || l.Len() != 1 {
			t.Errorf("%d bytes: the small list did not load: %v", tc.size, l)
		}
		l, _ := r.At("big", time.Time{})
		switch {
		case tc.loaded && (err != nil || l == nil || l.Len() != 1):
			t.Errorf("%d bytes: list %v, error %v; want it loaded", tc.size, l, err)
		case !tc.loaded && (l != nil || err == nil || !strings.Contains(err.Error(), "more than 8388608 bytes")):
			t.Errorf("%d bytes: list %v, error %v; want it skipped as too large", tc.size, l, err)
		}
	}
}

// TestDefaultCacheDir: the cache lives under the user's cache directory;
// without one (no $XDG_CACHE_HOME, no $HOME) there is no default.
func TestDefaultCacheDir(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "/tmp/cachehome")
	if d, err := DefaultCacheDir(); err != nil || d != "/tmp/cachehome/rep/iplists" {
		t.Errorf("DefaultCacheDir() = %q, %v; want /tmp/cachehome/rep/iplists", d, err)
	}
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	if d, err := DefaultCacheDir(); err == nil {
		t.Errorf("DefaultCacheDir() = %q with neither $XDG_CACHE_HOME nor $HOME, want an error", d)
	}
}
