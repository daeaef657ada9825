package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rep-toolkit/rep/internal/boltfile"
	"github.com/rep-toolkit/rep/robotsfetch"
	bolt "go.etcd.io/bbolt"
)

// history is where rep watch keeps each site's versions and the outcome
// of its last fetch: a directory (dirHistory) or a bbolt file
// (boltHistory). Both keep the same records.
type history interface {
	// last returns the last version recorded for origin, nil when none.
	last(origin string) (*record, error)
	// versions returns every version recorded for origin, oldest first.
	versions(origin string) ([]record, error)
	// body returns a recorded version's body.
	body(origin string, r *record) ([]byte, error)
	// save appends a version (its N set by the caller) with its body,
	// setting r.SHA256 and r.Bytes.
	save(origin string, r *record, body []byte) error
	// checked returns the outcome of origin's last fetch, nil when never
	// fetched; setChecked replaces it.
	checked(origin string) (*robotsfetch.Outcome, error)
	setChecked(origin string, o *robotsfetch.Outcome) error
	Close() error
}

// openHistory opens -history: "bolt:PATH" a bbolt file, anything else a
// directory (created when missing).
func openHistory(arg string) (history, error) {
	if p, ok := strings.CutPrefix(arg, "bolt:"); ok {
		if p == "" {
			return nil, errors.New("-history bolt:PATH: give the file's path")
		}
		return openBoltHistory(p)
	}
	if err := os.MkdirAll(arg, 0o755); err != nil {
		return nil, err
	}
	return &dirHistory{dir: arg}, nil
}

// dirHistory keeps each site in a directory of its own: index.jsonl (one
// record a line), the bodies as SHA256.txt, and checked.json.
type dirHistory struct{ dir string }

func (h *dirHistory) Close() error { return nil }

// record is one version in a site's history (a line of index.jsonl).
type record struct {
	N       int                 `json:"n"`
	Time    time.Time           `json:"time"`
	Outcome robotsfetch.Outcome `json:"outcome"`
	// SHA256 names the body's file (SHA256.txt); Bytes is its size.
	SHA256 string `json:"sha256"`
	Bytes  int    `json:"bytes"`
	// Changed is set when the version differs in meaning from the one
	// before; Summary says how (robotsdiff.Diff.Summary).
	Changed bool   `json:"changed"`
	Summary string `json:"summary,omitempty"`
}

// siteDir is the directory of an origin's history: its name made safe
// for a file system, and a hash so that no two origins share one.
func (h *dirHistory) siteDir(origin string) string {
	safe := strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '.' || r == '-' {
			return r
		}
		return '_'
	}, strings.ToLower(origin))
	sum := sha256.Sum256([]byte(origin))
	return filepath.Join(h.dir, safe+"-"+hex.EncodeToString(sum[:4]))
}

// maxIndexLine bounds one line of index.jsonl.
const maxIndexLine = 1 << 20

func (h *dirHistory) last(origin string) (*record, error) {
	vs, err := h.versions(origin)
	if err != nil || len(vs) == 0 {
		return nil, err
	}
	return &vs[len(vs)-1], nil
}

func (h *dirHistory) versions(origin string) ([]record, error) {
	fh, err := os.Open(filepath.Join(h.siteDir(origin), "index.jsonl"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 64<<10), maxIndexLine)
	var out []record
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s line %d: %v", fh.Name(), n, err)
		}
		out = append(out, r)
	}
	return out, sc.Err()
}

// body reads a recorded version's body.
func (h *dirHistory) body(origin string, r *record) ([]byte, error) {
	if r.SHA256 == "" {
		return nil, nil
	}
	return os.ReadFile(filepath.Join(h.siteDir(origin), r.SHA256+".txt"))
}

// save appends a version to origin's history: the body first (written
// whole, then renamed), then its line in the index.
func (h *dirHistory) save(origin string, r *record, body []byte) error {
	d := h.siteDir(origin)
	if err := os.MkdirAll(d, 0o755); err != nil {
		return err
	}
	if len(body) > 0 {
		sum := sha256.Sum256(body)
		r.SHA256 = hex.EncodeToString(sum[:])
		p := filepath.Join(d, r.SHA256+".txt")
		if _, err := os.Stat(p); err != nil {
			tmp := p + ".tmp"
			if err := os.WriteFile(tmp, body, 0o644); err != nil {
				return err
			}
			if err := os.Rename(tmp, p); err != nil {
				return err
			}
		}
	}
	r.Bytes = len(body)
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	fh, err := os.OpenFile(filepath.Join(d, "index.jsonl"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := fh.Write(append(line, '\n')); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

// checked returns the outcome of origin's last fetch (checked.json), nil
// when it was never fetched.
func (h *dirHistory) checked(origin string) (*robotsfetch.Outcome, error) {
	b, err := os.ReadFile(filepath.Join(h.siteDir(origin), "checked.json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var o robotsfetch.Outcome
	if err := json.Unmarshal(b, &o); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(h.siteDir(origin), "checked.json"), err)
	}
	return &o, nil
}

// setChecked records the outcome of origin's last fetch, replacing the one
// before: when the copy expires and when the next check is due.
func (h *dirHistory) setChecked(origin string, o *robotsfetch.Outcome) error {
	d := h.siteDir(origin)
	if err := os.MkdirAll(d, 0o755); err != nil {
		return err
	}
	b, err := json.Marshal(o)
	if err != nil {
		return err
	}
	tmp := filepath.Join(d, "checked.json.tmp")
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(d, "checked.json"))
}

// boltHistory keeps every site in one bbolt file (go.etcd.io/bbolt): a
// bucket per origin under "sites", holding "checked" (the last fetch's
// outcome, JSON), a "versions" bucket (records by N, 8 bytes big-endian,
// JSON as in index.jsonl) and a "bodies" bucket (bodies by SHA-256). A
// bolt file serves one process at a time.
type boltHistory struct {
	db   *bolt.DB
	path string
}

var (
	boltSites    = []byte("sites")
	boltChecked  = []byte("checked")
	boltVersions = []byte("versions")
	boltBodies   = []byte("bodies")
)

// boltFault is a panic or memory fault inside bbolt on a damaged file,
// turned into an error (as robotsfetch/boltstore does).
// openBoltHistory opens (creating if needed) the history file at path
// through internal/boltfile: another process's lock waited for a second at
// most, every page checked first, so that a damaged file is an error,
// never a fault later.
func openBoltHistory(path string) (*boltHistory, error) {
	db, err := boltfile.Open(path, boltSites)
	var damaged *boltfile.DamagedError
	switch {
	case errors.Is(err, boltfile.ErrHeld):
		return nil, fmt.Errorf("-history bolt:%s: another process holds it (one rep watch per bolt file)", path)
	case errors.As(err, &damaged):
		return nil, fmt.Errorf("-history bolt:%s is damaged (%v): move it aside or delete it", path, damaged.Err)
	case err != nil:
		return nil, fmt.Errorf("-history bolt:%s: %w", path, err)
	}
	return &boltHistory{db: db, path: path}, nil
}

func (h *boltHistory) Close() error { return h.db.Close() }

// view runs f on origin's bucket, nil when the origin has none.
func (h *boltHistory) view(origin string, f func(site *bolt.Bucket) error) error {
	return boltfile.Safe(func() error {
		return h.db.View(func(tx *bolt.Tx) error {
			return f(tx.Bucket(boltSites).Bucket([]byte(origin)))
		})
	})
}

// update runs f on origin's bucket, created when missing.
func (h *boltHistory) update(origin string, f func(site *bolt.Bucket) error) error {
	return boltfile.Safe(func() error {
		return h.db.Update(func(tx *bolt.Tx) error {
			site, err := tx.Bucket(boltSites).CreateBucketIfNotExists([]byte(origin))
			if err != nil {
				return err
			}
			return f(site)
		})
	})
}

func (h *boltHistory) versions(origin string) ([]record, error) {
	var out []record
	err := h.view(origin, func(site *bolt.Bucket) error {
		if site == nil || site.Bucket(boltVersions) == nil {
			return nil
		}
		return site.Bucket(boltVersions).ForEach(func(k, v []byte) error {
			var r record
			if err := json.Unmarshal(v, &r); err != nil {
				return fmt.Errorf("%s: %s version %x: %v", h.path, origin, k, err)
			}
			out = append(out, r)
			return nil
		})
	})
	return out, err
}

func (h *boltHistory) last(origin string) (*record, error) {
	var r *record
	err := h.view(origin, func(site *bolt.Bucket) error {
		if site == nil || site.Bucket(boltVersions) == nil {
			return nil
		}
		k, v := site.Bucket(boltVersions).Cursor().Last()
		if k == nil {
			return nil
		}
		r = &record{}
		if err := json.Unmarshal(v, r); err != nil {
			return fmt.Errorf("%s: %s version %x: %v", h.path, origin, k, err)
		}
		return nil
	})
	return r, err
}

func (h *boltHistory) body(origin string, r *record) ([]byte, error) {
	if r.SHA256 == "" {
		return nil, nil
	}
	var b []byte
	err := h.view(origin, func(site *bolt.Bucket) error {
		var v []byte
		if site != nil && site.Bucket(boltBodies) != nil {
			v = site.Bucket(boltBodies).Get([]byte(r.SHA256))
		}
		if v == nil {
			return fmt.Errorf("%s: %s: body %s of version %d missing", h.path, origin, r.SHA256, r.N)
		}
		b = append([]byte{}, v...) // v is valid only inside the transaction
		return nil
	})
	return b, err
}

// save writes the body and the record in one transaction.
func (h *boltHistory) save(origin string, r *record, body []byte) error {
	if len(body) > 0 {
		sum := sha256.Sum256(body)
		r.SHA256 = hex.EncodeToString(sum[:])
	}
	r.Bytes = len(body)
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return h.update(origin, func(site *bolt.Bucket) error {
		if len(body) > 0 {
			bodies, err := site.CreateBucketIfNotExists(boltBodies)
			if err != nil {
				return err
			}
			if bodies.Get([]byte(r.SHA256)) == nil {
				if err := bodies.Put([]byte(r.SHA256), body); err != nil {
					return err
				}
			}
		}
		vs, err := site.CreateBucketIfNotExists(boltVersions)
		if err != nil {
			return err
		}
		return vs.Put(binary.BigEndian.AppendUint64(nil, uint64(r.N)), line)
	})
}

func (h *boltHistory) checked(origin string) (*robotsfetch.Outcome, error) {
	var o *robotsfetch.Outcome
	err := h.view(origin, func(site *bolt.Bucket) error {
		if site == nil {
			return nil
		}
		v := site.Get(boltChecked)
		if v == nil {
			return nil
		}
		o = &robotsfetch.Outcome{}
		if err := json.Unmarshal(v, o); err != nil {
			return fmt.Errorf("%s: %s: last fetch: %v", h.path, origin, err)
		}
		return nil
	})
	return o, err
}

func (h *boltHistory) setChecked(origin string, o *robotsfetch.Outcome) error {
	b, err := json.Marshal(o)
	if err != nil {
		return err
	}
	return h.update(origin, func(site *bolt.Bucket) error { return site.Put(boltChecked, b) })
}
