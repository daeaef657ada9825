// Command cuagen refreshes the vendored crawler-user-agents data set
// (https://github.com/monperrus/crawler-user-agents, MIT) in the crawlers
// package. It asks the npm registry for the package's latest version,
// downloads the tarball, checks its sha512 integrity, validates the JSON
// (non-empty, every entry has a pattern that compiles as a Go regexp) and
// only then writes crawler-user-agents.json, its LICENSE and a source
// record (version, publication day, tarball URL, integrity) into -dir.
//
// Run it through go generate in the crawlers directory:
//
//	go generate ./crawlers
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

const (
	pkg      = "crawler-user-agents"
	maxBytes = 16 << 20 // tarball and metadata cap
)

func main() {
	dir := flag.String("dir", "data", "directory to write the data set into")
	registry := flag.String("registry", "https://registry.npmjs.org", "npm registry base URL")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	src, err := refresh(ctx, http.DefaultClient, *registry, *dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "cuagen:", err)
		os.Exit(1)
	}
	fmt.Printf("cuagen: %s %s (%d entries) written to %s\n", pkg, src.Version, src.Entries, *dir)
}

// source records where the vendored file came from.
type source struct {
	Package   string `json:"package"`
	Version   string `json:"version"`
	Published string `json:"published"` // YYYY-MM-DD, from the registry's "time"
	Tarball   string `json:"tarball"`
	Integrity string `json:"integrity"`
	Entries   int    `json:"entries"`
}

func refresh(ctx context.Context, client *http.Client, registry, dir string) (*source, error) {
	metaURL := strings.TrimSuffix(registry, "/") + "/" + pkg + "/latest"
	meta, err := get(ctx, client, metaURL)
	if err != nil {
		return nil, err
	}
	var m struct {
		Version string `json:"version"`
		Dist    struct {
			Tarball   string `json:"tarball"`
			Integrity string `json:"integrity"`
		} `json:"dist"`
	}
	if err := json.Unmarshal(meta, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", metaURL, err)
	}
	if m.Version == "" || !strings.HasPrefix(m.Dist.Tarball, "http") || !strings.HasPrefix(m.Dist.Integrity, "sha512-") {
		return nil, fmt.Errorf("%s: no version, tarball or sha512 integrity", metaURL)
	}
	published, err := publishedDay(ctx, client, registry, m.Version)
	if err != nil {
		return nil, err
	}
	tgz, err := get(ctx, client, m.Dist.Tarball)
	if err != nil {
		return nil, err
	}
	sum := sha512.Sum512(tgz)
	if got := "sha512-" + base64.StdEncoding.EncodeToString(sum[:]); got != m.Dist.Integrity {
		return nil, fmt.Errorf("%s: integrity %s, registry says %s", m.Dist.Tarball, got, m.Dist.Integrity)
	}
	files, err := untar(tgz, "package/crawler-user-agents.json", "package/LICENSE")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.Dist.Tarball, err)
	}
	data, licence := files["package/crawler-user-agents.json"], files["package/LICENSE"]
	n, err := validate(data)
	if err != nil {
		return nil, fmt.Errorf("%s %s: crawler-user-agents.json: %w", pkg, m.Version, err)
	}
	if !bytes.Contains(licence, []byte("MIT License")) {
		return nil, fmt.Errorf("%s %s: LICENSE is no longer the MIT licence; review before vendoring", pkg, m.Version)
	}
	src := &source{Package: pkg, Version: m.Version, Published: published, Tarball: m.Dist.Tarball, Integrity: m.Dist.Integrity, Entries: n}
	srcJSON, _ := json.MarshalIndent(src, "", "  ")
	for name, b := range map[string][]byte{
		"crawler-user-agents.json":        data,
		"crawler-user-agents.LICENSE":     licence,
		"crawler-user-agents.source.json": append(srcJSON, '\n'),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return nil, err
		}
	}
	return src, nil
}

// publishedDay returns the day version was published, from the package
// document's "time" map.
func publishedDay(ctx context.Context, client *http.Client, registry, version string) (string, error) {
	docURL := strings.TrimSuffix(registry, "/") + "/" + pkg
	doc, err := get(ctx, client, docURL)
	if err != nil {
		return "", err
	}
	var d struct {
		Time map[string]string `json:"time"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return "", fmt.Errorf("%s: %w", docURL, err)
	}
	t, err := time.Parse(time.RFC3339, d.Time[version])
	if err != nil {
		return "", fmt.Errorf("%s: no publication time for %s: %w", docURL, version, err)
	}
	return t.UTC().Format(time.DateOnly), nil
}

func get(ctx context.Context, client *http.Client, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", url, resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", url, err)
	}
	if len(b) > maxBytes {
		return nil, fmt.Errorf("%s: larger than %d bytes", url, maxBytes)
	}
	return b, nil
}

// untar returns the named regular files of a gzipped tarball.
func untar(tgz []byte, names ...string) (map[string][]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	out := map[string][]byte{}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if !want[h.Name] || h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(io.LimitReader(tr, maxBytes))
		if err != nil {
			return nil, err
		}
		out[h.Name] = b
	}
	for _, n := range names {
		if out[n] == nil {
			return nil, fmt.Errorf("tarball has no %s", n)
		}
	}
	return out, nil
}

// validate checks the data set parses, is non-empty and every pattern
// compiles, and returns its entry count.
func validate(data []byte) (int, error) {
	var entries []struct {
		Pattern string `json:"pattern"`
	}
	if err := json.Unmarshal(data, &entries); err != nil {
		return 0, err
	}
	if len(entries) == 0 {
		return 0, errors.New("no entries")
	}
	for i, e := range entries {
		if e.Pattern == "" {
			return 0, fmt.Errorf("entry %d: empty pattern", i)
		}
		if _, err := regexp.Compile(e.Pattern); err != nil {
			return 0, fmt.Errorf("entry %d: %w", i, err)
		}
	}
	return len(entries), nil
}
