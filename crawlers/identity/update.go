package identity

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/internal/netguard"
)

// MaxListBytes caps the size of a list file read from the network or disk;
// the largest published list (Google's user-triggered fetchers) is ~30 KB.
const MaxListBytes = 8 << 20

// Updater fetches the operators' current lists and stores each valid one
// under Dir as <id>/<date>.json, next to the older versions, so that the
// history of every list builds up. A list that fails validation (an error
// status, an empty 200, a prefix that does not parse, 0.0.0.0/0) is never
// stored: the last good version stays in use.
type Updater struct {
	// Dir is the cache directory, usually DefaultCacheDir().
	Dir string
	// Client fetches the lists. Nil means a client with Timeout that
	// refuses to connect to loopback, private and link-local addresses.
	Client *http.Client
	// BaseURL, when set, replaces the scheme and host of every list URL,
	// for mirrors and tests.
	BaseURL string
	// Timeout bounds each fetch; zero means 30 seconds.
	Timeout time.Duration
	// Now returns the current time (for files without creationTime);
	// nil means time.Now.
	Now func() time.Time
}

// UpdateResult is the outcome of fetching one list.
type UpdateResult struct {
	ID  string
	URL string
	// List is the fetched list, nil when it was rejected.
	List *List
	// File is where the list was stored.
	File string
	// Kept is the last good version still in use after a rejection, or nil.
	Kept *List
	// Err says why the list was rejected.
	Err error
}

// Update fetches every list concurrently. current (may be nil) supplies the
// last good versions reported in UpdateResult.Kept.
func (u *Updater) Update(ctx context.Context, lists []*crawlers.List, current *Ranges) []UpdateResult {
	if current == nil {
		current = NewRanges()
	}
	res := make([]UpdateResult, len(lists))
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i, cl := range lists {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			r := u.updateOne(ctx, cl)
			if r.Err != nil {
				r.Kept, _ = current.At(cl.ID, time.Time{})
			}
			res[i] = r
		})
	}
	wg.Wait()
	return res
}

func (u *Updater) updateOne(ctx context.Context, cl *crawlers.List) UpdateResult {
	r := UpdateResult{ID: cl.ID, URL: cl.URL}
	target, err := u.target(cl.URL)
	if err != nil {
		r.Err = err
		return r
	}
	body, err := u.fetch(ctx, target)
	if err != nil {
		r.Err = err
		return r
	}
	l, err := ParseList(cl.ID, target, body)
	if err != nil {
		r.Err = err
		return r
	}
	if l.Date.IsZero() {
		l.Date = day(u.now())
	}
	dir := filepath.Join(u.Dir, cl.ID)
	file := filepath.Join(dir, l.Date.Format(time.DateOnly)+".json")
	if err := writeAtomic(dir, file, body); err != nil {
		r.Err = err
		return r
	}
	r.List, r.File = l, file
	return r
}

func (u *Updater) now() time.Time {
	if u.Now != nil {
		return u.Now()
	}
	return time.Now()
}

func (u *Updater) target(raw string) (string, error) {
	if u.BaseURL == "" {
		return raw, nil
	}
	t, err := url.Parse(raw)
	if err != nil {
		return "", err
	}
	b, err := url.Parse(u.BaseURL)
	if err != nil {
		return "", fmt.Errorf("base URL: %w", err)
	}
	t.Scheme, t.Host = b.Scheme, b.Host
	return t.String(), nil
}

func (u *Updater) fetch(ctx context.Context, target string) ([]byte, error) {
	timeout := u.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	client := u.Client
	if client == nil {
		client = publicClient(timeout)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "rep-verify (+https://github.com/rep-toolkit/rep)")
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", target, resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, MaxListBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", target, err)
	}
	if len(b) > MaxListBytes {
		return nil, fmt.Errorf("%s: larger than %d bytes", target, MaxListBytes)
	}
	return b, nil
}

// writeAtomic replaces file by renaming a complete temporary file over it,
// so a crash never leaves a half-written list behind.
func writeAtomic(dir, file string, data []byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// publicClient returns the project's guarded client: the operators' lists
// live on the public internet, so loopback, private and link-local
// addresses are refused at connect time (a redirect or DNS answer pointing
// inside the network included) and no proxy dials on our behalf.
func publicClient(timeout time.Duration) *http.Client {
	return netguard.NewClient(netguard.Options{Timeout: timeout})
}
