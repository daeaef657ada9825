package identity

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Ranges holds dated copies of the operators' IP-range lists: for each
// list ID, every known version ordered by date. A Ranges is immutable once
// built and safe for concurrent use.
type Ranges struct {
	byID map[string][]*List // ascending Date
}

// NewRanges builds a Ranges from lists. When two lists share an ID and a
// date, the later argument wins, so fetched copies can override embedded
// ones.
func NewRanges(lists ...*List) *Ranges {
	r := &Ranges{byID: make(map[string][]*List)}
	for _, l := range lists {
		if l == nil {
			continue
		}
		vs := r.byID[l.ID]
		i, found := slices.BinarySearchFunc(vs, l.Date, func(v *List, d time.Time) int { return v.Date.Compare(d) })
		if found {
			vs[i] = l
		} else {
			vs = slices.Insert(vs, i, l)
		}
		r.byID[l.ID] = vs
	}
	return r
}

// Merge returns a Ranges holding the lists of r and then of others, later
// ones winning on equal ID and date.
func (r *Ranges) Merge(others ...*Ranges) *Ranges {
	var all []*List
	for _, x := range append([]*Ranges{r}, others...) {
		if x == nil {
			continue
		}
		for _, vs := range x.byID {
			all = append(all, vs...)
		}
	}
	return NewRanges(all...)
}

// At returns the version of list id that was current at time t: the newest
// one dated on or before t's day. When every version is newer than t, it
// returns the oldest, and ok reports false so callers can say the ranges
// postdate the request. A zero t means now. It returns nil when no version
// of the list is known.
func (r *Ranges) At(id string, t time.Time) (l *List, ok bool) {
	vs := r.byID[id]
	if len(vs) == 0 {
		return nil, false
	}
	if t.IsZero() {
		return vs[len(vs)-1], true
	}
	d := day(t)
	i, found := slices.BinarySearchFunc(vs, d, func(v *List, d time.Time) int { return v.Date.Compare(d) })
	if found {
		return vs[i], true
	}
	if i == 0 {
		return vs[0], false
	}
	return vs[i-1], true
}

// Versions returns every known version of list id, oldest first.
func (r *Ranges) Versions(id string) []*List { return r.byID[id] }

// IDs returns the IDs of the lists r knows, sorted.
func (r *Ranges) IDs() []string {
	ids := make([]string, 0, len(r.byID))
	for id := range r.byID {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

//go:embed snapshots
var snapshotFS embed.FS

// Snapshot is the provenance of one embedded list, from
// snapshots/sources.json.
type Snapshot struct {
	List         string `json:"list"`
	File         string `json:"file"`
	Date         string `json:"date"`
	CreationTime string `json:"creationTime"`
	Prefixes     int    `json:"prefixes"`
	Repository   string `json:"repository"`
	Path         string `json:"path"`
	Commit       string `json:"commit"`
	Note         string `json:"note"`
}

// Sources returns the provenance of every embedded snapshot.
func Sources() []Snapshot { return embedded().sources }

// Embedded returns the snapshots embedded in the binary.
func Embedded() *Ranges { return embedded().ranges }

// SnapshotDates returns, for each list with an embedded snapshot (keyed by
// list ID, e.g. "google-common"), the day its newest snapshot is current
// from: the file's creationTime, or for a file without one the day it was
// mirrored (snapshots/sources.json). Verifying a request made after that
// day may need a fresher list (rep verify -update).
func SnapshotDates() map[string]time.Time {
	r := Embedded()
	dates := make(map[string]time.Time, len(r.byID))
	for id, vs := range r.byID {
		dates[id] = vs[len(vs)-1].Date
	}
	return dates
}

type embeddedSet struct {
	ranges  *Ranges
	sources []Snapshot
}

var embedded = sync.OnceValue(func() embeddedSet {
	r, src, err := loadEmbedded(snapshotFS)
	if err != nil {
		panic("identity: embedded snapshots: " + err.Error())
	}
	return embeddedSet{r, src}
})

func loadEmbedded(fsys fs.FS) (*Ranges, []Snapshot, error) {
	data, err := fs.ReadFile(fsys, "snapshots/sources.json")
	if err != nil {
		return nil, nil, err
	}
	var f struct {
		Comment   string     `json:"comment"`
		Snapshots []Snapshot `json:"snapshots"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, nil, fmt.Errorf("sources.json: %w", err)
	}
	var lists []*List
	for _, s := range f.Snapshots {
		b, err := fs.ReadFile(fsys, path.Join("snapshots", s.File))
		if err != nil {
			return nil, nil, err
		}
		src := fmt.Sprintf("snapshot of %s %s@%.12s", s.Repository, s.Path, s.Commit)
		l, err := ParseList(s.List, src, b)
		if err != nil {
			return nil, nil, err
		}
		if l.Date.IsZero() {
			d, err := time.Parse(time.DateOnly, s.Date)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: date: %w", s.File, err)
			}
			l.Date = d
		}
		lists = append(lists, l)
	}
	return NewRanges(lists...), f.Snapshots, nil
}

// DefaultCacheDir is where Updater stores fetched lists:
// os.UserCacheDir()/rep/iplists.
func DefaultCacheDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "rep", "iplists"), nil
}

// LoadCache reads the lists an Updater stored under dir (dir/<id>/<date>.json).
// A missing dir is an empty cache. Files that fail validation are skipped
// and reported in the returned error, so one damaged file cannot hide the
// others.
func LoadCache(dir string) (*Ranges, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return NewRanges(), nil
	}
	if err != nil {
		return nil, err
	}
	var lists []*List
	var errs []error
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		files, err := filepath.Glob(filepath.Join(dir, e.Name(), "*.json"))
		if err != nil {
			return nil, err
		}
		for _, fn := range files {
			d, err := time.Parse(time.DateOnly, strings.TrimSuffix(filepath.Base(fn), ".json"))
			if err != nil {
				continue // not one of ours
			}
			b, err := readCapped(fn)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			l, err := ParseList(e.Name(), fn, b)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if l.Date.IsZero() {
				l.Date = d
			}
			lists = append(lists, l)
		}
	}
	return NewRanges(lists...), errors.Join(errs...)
}

func readCapped(fn string) ([]byte, error) {
	f, err := os.Open(fn)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxListBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxListBytes {
		return nil, fmt.Errorf("%s: more than %d bytes", fn, MaxListBytes)
	}
	return b, nil
}
