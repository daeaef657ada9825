package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func tarball(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, body := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

// npmServer serves the package metadata and tarball like registry.npmjs.org;
// published is the version's time in the package document ("" for none).
func npmServer(t *testing.T, tgz []byte, integrity, published string) *httptest.Server {
	t.Helper()
	if integrity == "" {
		sum := sha512.Sum512(tgz)
		integrity = "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
	}
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/crawler-user-agents/latest":
			fmt.Fprintf(w, `{"version":"9.9.9","dist":{"tarball":%q,"integrity":%q}}`, srv.URL+"/pkg.tgz", integrity)
		case "/crawler-user-agents":
			fmt.Fprintf(w, `{"name":"crawler-user-agents","time":{"modified":"2026-09-01T00:00:00.000Z","9.9.9":%q}}`, published)
		case "/pkg.tgz":
			w.Write(tgz)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

const mit = "The MIT License (MIT)\n\nCopyright (c) 2017 Martin Monperrus\n"

func TestRefresh(t *testing.T) {
	data := `[{"pattern":"Googlebot\\/","instances":["Googlebot/2.1"]}]`
	srv := npmServer(t, tarball(t, map[string]string{
		"package/crawler-user-agents.json": data,
		"package/LICENSE":                  mit,
	}), "", "2026-08-10T11:09:40.878Z")
	dir := t.TempDir()
	src, err := refresh(context.Background(), srv.Client(), srv.URL, dir)
	if err != nil {
		t.Fatal(err)
	}
	if src.Version != "9.9.9" || src.Entries != 1 || src.Published != "2026-08-10" {
		t.Errorf("source = %+v", src)
	}
	for name, want := range map[string]string{
		"crawler-user-agents.json":        data,
		"crawler-user-agents.LICENSE":     mit,
		"crawler-user-agents.source.json": `"published": "2026-08-10"`,
	} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("%s = %q, %v; want it to contain %q", name, b, err, want)
		}
	}
}

func TestRefreshRejects(t *testing.T) {
	const day = "2026-08-10T11:09:40.878Z"
	good := map[string]string{"package/crawler-user-agents.json": `[{"pattern":"x"}]`, "package/LICENSE": mit}
	for _, tc := range []struct {
		name      string
		files     map[string]string
		integrity string
		published string
		want      string
	}{
		{"bad integrity", good, "sha512-AAAA", day, "integrity"},
		{"no publication time", good, "", "", "no publication time for 9.9.9"},
		{"empty data set", map[string]string{"package/crawler-user-agents.json": `[]`, "package/LICENSE": mit}, "", day, "no entries"},
		{"bad regexp", map[string]string{"package/crawler-user-agents.json": `[{"pattern":"("}]`, "package/LICENSE": mit}, "", day, "entry 0"},
		{"missing licence", map[string]string{"package/crawler-user-agents.json": `[{"pattern":"x"}]`}, "", day, "no package/LICENSE"},
		{"licence changed", map[string]string{"package/crawler-user-agents.json": `[{"pattern":"x"}]`, "package/LICENSE": "GPL"}, "", day, "no longer the MIT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := npmServer(t, tarball(t, tc.files), tc.integrity, tc.published)
			dir := t.TempDir()
			_, err := refresh(context.Background(), srv.Client(), srv.URL, dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("refresh = %v, want error containing %q", err, tc.want)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Errorf("rejected refresh wrote %d files", len(ents))
			}
		})
	}
}
