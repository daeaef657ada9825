package botauth

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dunglas/httpsfv"
	"github.com/rep-toolkit/rep/internal/netguard"
)

// WellKnownPath is where an origin publishes its key directory.
const WellKnownPath = "/.well-known/http-message-signatures-directory"

// MediaType is the media type a key directory is served with.
const MediaType = "application/http-message-signatures-directory+json"

// DirectoryTag is the tag of a directory response signature.
const DirectoryTag = "http-message-signatures-directory"

// DirectoryURL returns the URL a's keys are fetched from: for the directory
// type, the well-known URI of the origin a.URL must be; for jwks_uri, a.URL
// itself. It fails with an [*Error]: [UnsupportedAgent] for cimd and
// unknown types, [BadAgent] for a value that is not an origin or not https
// (http is accepted when allowHTTP).
func (a *SignatureAgent) DirectoryURL(allowHTTP bool) (string, error) {
	u, err := url.Parse(a.URL)
	if err != nil || u.Host == "" {
		return "", &Error{Reason: BadAgent, Header: "Signature-Agent", Detail: fmt.Sprintf("%q is not an absolute URL", a.URL)}
	}
	if u.Scheme != "https" && !(allowHTTP && u.Scheme == "http") {
		return "", &Error{Reason: BadAgent, Header: "Signature-Agent", Detail: fmt.Sprintf("%q: a key directory must be served over https", a.URL)}
	}
	switch a.Type {
	case "", "directory":
		if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
			return "", &Error{Reason: BadAgent, Header: "Signature-Agent", Detail: fmt.Sprintf("%q: a directory member must be an origin (scheme and host only)", a.URL)}
		}
		return u.Scheme + "://" + strings.ToLower(u.Host) + WellKnownPath, nil
	case "jwks_uri":
		u.Fragment = ""
		return u.String(), nil
	}
	return "", &Error{Reason: UnsupportedAgent, Header: "Signature-Agent", Detail: fmt.Sprintf("type=%s is not resolved here (directory and jwks_uri are)", a.Type)}
}

// Directory is a fetched key directory and what is wrong with it.
type Directory struct {
	URL         string
	Status      int
	ContentType string
	Fetched     time.Time
	MaxAge      time.Duration // from Cache-Control, 0 when absent
	Keys        []DirectoryKey
	// Problems are the directory's own faults: the media type, a
	// response signature that names no key or does not parse.
	Problems []error
}

// DirectoryKey is one key of a directory and its faults.
type DirectoryKey struct {
	JWK        JWK
	Thumbprint string  // "" when it cannot be computed
	Problems   []error // from [CheckKey], and a failed response signature
	// Proven is set when the response carried a valid directory signature
	// made with this key.
	Proven bool
}

// OK reports whether the directory and every key are free of problems.
func (d *Directory) OK() bool {
	if len(d.Problems) > 0 || len(d.Keys) == 0 {
		return false
	}
	for _, k := range d.Keys {
		if len(k.Problems) > 0 {
			return false
		}
	}
	return true
}

// Fetcher is a [KeySource] that fetches the directory a signature agent
// names, the way a fetch on someone else's behalf must be done: connections
// to loopback, private, link-local and other special addresses are refused
// (internal/netguard) unless AllowPrivate, redirects are not followed, the
// body is read up to MaxBytes within Timeout, and keys are cached by
// (directory URL, keyid). A failed fetch is remembered for NegativeTTL and
// never evicts keys already cached; a successful fetch replaces every key
// cached for that directory, so a removed key stops verifying. Concurrent
// lookups of one directory share one fetch. The zero Fetcher is ready to
// use and safe for concurrent use.
type Fetcher struct {
	// AllowPrivate permits loopback, private and link-local addresses.
	AllowPrivate bool
	// AllowHTTP permits directories served over plain http.
	AllowHTTP bool
	// Timeout bounds each fetch, connection to last byte; default 10s.
	Timeout time.Duration
	// MaxBytes bounds the directory body after content decoding; default
	// 64 KiB.
	MaxBytes int64
	// MaxKeys bounds the keys a directory may hold; default 64.
	MaxKeys int
	// TTL is how long keys are cached when the response has no
	// Cache-Control max-age; default 1h. A max-age is honoured between
	// one minute and one day.
	TTL time.Duration
	// NegativeTTL is how long a failed fetch or an unknown keyid is
	// remembered; default one minute (the draft allows five at most).
	NegativeTTL time.Duration
	// UserAgent is sent with each fetch; default "rep-botauth".
	UserAgent string
	// TLSConfig, when set, configures TLS (e.g. a test server's roots).
	TLSConfig *tls.Config
	// Now returns the current time; nil means time.Now.
	Now func() time.Time

	once   sync.Once
	client *http.Client
	mu     sync.Mutex
	keys   map[cacheKey]cached
	failed map[string]failure
	fresh  map[string]time.Time // directories fetched lately, until when
	flight map[string]*flight
}

type cacheKey struct{ dir, keyid string }

type cached struct {
	key     Key
	missing bool // a negative entry: the directory had no such key
	until   time.Time
}

type failure struct {
	err   *Error
	until time.Time
}

type flight struct {
	done chan struct{}
	dir  *Directory
	err  error
}

func (f *Fetcher) now() time.Time {
	if f.Now != nil {
		return f.Now()
	}
	return time.Now()
}

func (f *Fetcher) init() {
	f.once.Do(func() {
		timeout := f.Timeout
		if timeout <= 0 {
			timeout = 10 * time.Second
		}
		// The one guarded client (internal/netguard): no proxy, every
		// address checked unless AllowPrivate, no redirect followed.
		f.client = netguard.NewClient(netguard.Options{
			AllowPrivate:        f.AllowPrivate,
			TLSConfig:           f.TLSConfig,
			ConnectTimeout:      timeout,
			TLSTimeout:          timeout,
			HeaderTimeout:       timeout,
			Timeout:             timeout,
			MaxRedirects:        -1,
			MaxHeaderBytes:      64 << 10,
			MaxIdleConnsPerHost: 2,
		})
		f.keys = map[cacheKey]cached{}
		f.failed = map[string]failure{}
		f.fresh = map[string]time.Time{}
		f.flight = map[string]*flight{}
	})
}

// Key implements [KeySource]: the key keyid from the directory agent names.
func (f *Fetcher) Key(ctx context.Context, agent *SignatureAgent, keyid string) (Key, error) {
	f.init()
	if agent == nil {
		return Key{}, &Error{Reason: NoKeySource, KeyID: keyid, Detail: "the request has no Signature-Agent naming a directory"}
	}
	dir, err := agent.DirectoryURL(f.AllowHTTP)
	if err != nil {
		return Key{}, err
	}
	ck := cacheKey{dir, keyid}
	now := f.now()
	f.mu.Lock()
	if c, ok := f.keys[ck]; ok && now.Before(c.until) {
		f.mu.Unlock()
		if c.missing {
			return Key{}, unknownKey(dir, keyid)
		}
		return c.key, nil
	}
	if until, ok := f.fresh[dir]; ok && now.Before(until) {
		// Fetched lately and the key was not there: a keyid made up by
		// the request does not trigger another fetch.
		f.mu.Unlock()
		return Key{}, unknownKey(dir, keyid)
	}
	if fl, ok := f.failed[dir]; ok && now.Before(fl.until) {
		f.mu.Unlock()
		e := *fl.err
		e.KeyID = keyid
		return Key{}, &e
	}
	fl, running := f.flight[dir]
	if !running {
		fl = &flight{done: make(chan struct{})}
		f.flight[dir] = fl
	}
	f.mu.Unlock()
	if running {
		select {
		case <-fl.done:
		case <-ctx.Done():
			return Key{}, &Error{Reason: DirectoryUnavailable, Directory: dir, KeyID: keyid, Err: ctx.Err()}
		}
	} else {
		fl.dir, fl.err = f.Fetch(ctx, dir)
		if fl.err == nil {
			// A directory served as something else (an HTML page) is no
			// directory: -directory says not ok, and its keys verify
			// nothing.
			for _, p := range fl.dir.Problems {
				var mt *mediaTypeError
				if errors.As(p, &mt) {
					fl.dir, fl.err = nil, &Error{Reason: DirectoryUnavailable, Directory: dir, Detail: "not served as a key directory", Err: p}
					break
				}
			}
		}
		f.store(dir, fl.dir, fl.err)
		close(fl.done)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if fl.err != nil {
		var e *Error
		if !errors.As(fl.err, &e) {
			e = &Error{Reason: DirectoryUnavailable, Directory: dir, Err: fl.err}
		}
		c := *e
		c.KeyID = keyid
		return Key{}, &c
	}
	if c, ok := f.keys[ck]; ok && !c.missing {
		return c.key, nil
	}
	f.keys[ck] = cached{missing: true, until: now.Add(f.negativeTTL())}
	return Key{}, unknownKey(dir, keyid)
}

// usable reports whether a directory key may verify requests: it has no
// problems but, perhaps, a failed response signature, which the draft lets
// a verifier that fetched the directory itself disregard.
func usable(k DirectoryKey) bool {
	for _, p := range k.Problems {
		if !errors.Is(p, ErrResponseSignature) {
			return false
		}
	}
	return true
}

func unknownKey(dir, keyid string) *Error {
	return &Error{Reason: UnknownKey, Directory: dir, KeyID: keyid, Detail: "the directory has no usable key with this thumbprint"}
}

func (f *Fetcher) negativeTTL() time.Duration {
	if f.NegativeTTL > 0 {
		return f.NegativeTTL
	}
	return time.Minute
}

// store records a fetch's outcome in the cache.
func (f *Fetcher) store(dir string, d *Directory, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.flight, dir)
	now := f.now()
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			e = &Error{Reason: DirectoryUnavailable, Directory: dir, Err: err}
		}
		f.failed[dir] = failure{e, now.Add(f.negativeTTL())}
		return
	}
	delete(f.failed, dir)
	f.fresh[dir] = now.Add(f.negativeTTL())
	for k := range f.keys {
		if k.dir == dir {
			delete(f.keys, k)
		}
	}
	ttl := f.TTL
	if ttl <= 0 {
		ttl = time.Hour
	}
	if d.MaxAge > 0 {
		ttl = min(max(d.MaxAge, time.Minute), 24*time.Hour)
	}
	for _, k := range d.Keys {
		if k.Thumbprint == "" || !usable(k) {
			continue
		}
		f.keys[cacheKey{dir, k.Thumbprint}] = cached{key: Key{JWK: k.JWK, Directory: dir, Proven: k.Proven}, until: now.Add(ttl)}
	}
}

// Fetch fetches and checks the directory at dir, without the cache. It
// fails with an [*Error] whose Reason is [DirectoryUnavailable] when the
// fetch fails, is refused, answers other than 200 (a redirect included),
// is too large or is not a JWK Set; everything else wrong is reported in
// the Directory's and its keys' Problems.
func (f *Fetcher) Fetch(ctx context.Context, dir string) (*Directory, error) {
	f.init()
	unavailable := func(detail string, err error) (*Directory, error) {
		return nil, &Error{Reason: DirectoryUnavailable, Directory: dir, Detail: detail, Err: err}
	}
	u, err := url.Parse(dir)
	if err != nil || u.Host == "" {
		return unavailable("not an absolute URL", err)
	}
	if u.Scheme != "https" && !(f.AllowHTTP && u.Scheme == "http") {
		return unavailable("a key directory must be served over https", nil)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, dir, nil)
	if err != nil {
		return unavailable("", err)
	}
	req.Header.Set("Accept", MediaType+", application/jwk-set+json;q=0.9, application/json;q=0.5")
	ua := f.UserAgent
	if ua == "" {
		ua = "rep-botauth"
	}
	req.Header.Set("User-Agent", ua)
	resp, err := f.client.Do(req)
	if err != nil {
		var blocked *netguard.BlockedError
		if errors.As(err, &blocked) {
			return unavailable(fmt.Sprintf("refused: %s is a %s address", blocked.Addr, blocked.Reason), blocked)
		}
		return unavailable("", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		detail := fmt.Sprintf("answered %s, want 200", resp.Status)
		if loc := resp.Header.Get("Location"); loc != "" && resp.StatusCode >= 300 && resp.StatusCode < 400 {
			detail = fmt.Sprintf("answered %s to %s: redirects are not followed", resp.Status, loc)
		}
		return unavailable(detail, nil)
	}
	maxBytes := f.MaxBytes
	if maxBytes <= 0 {
		maxBytes = 64 << 10
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBytes+1))
	if err != nil {
		return unavailable("reading the body", err)
	}
	if int64(len(body)) > maxBytes {
		return unavailable(fmt.Sprintf("the body exceeds %d bytes", maxBytes), nil)
	}
	maxKeys := f.MaxKeys
	if maxKeys <= 0 {
		maxKeys = 64
	}
	authority := normalizeAuthority(u.Scheme, u.Host)
	d, err := CheckDirectory(dir, resp.StatusCode, resp.Header, body, authority, f.now(), maxKeys)
	var e *Error
	switch {
	case errors.As(err, &e):
		return nil, err
	case err != nil:
		return unavailable("", err)
	}
	return d, nil
}

// CheckDirectory checks a directory response: header and body as received
// for dir, fetched from authority (for the response signatures'
// "@authority";req). It fails when body is not a JWK Set or holds more than
// maxKeys keys, and refuses a directory that publishes private key
// material (an [*Error] with Reason [PrivateKeyPublished]: whoever read it
// can sign as the bot); other faults are the Directory's Problems.
func CheckDirectory(dir string, status int, header http.Header, body []byte, authority string, now time.Time, maxKeys int) (*Directory, error) {
	d := &Directory{URL: dir, Status: status, ContentType: header.Get("Content-Type"), Fetched: now}
	set, err := ParseJWKS(body)
	if err != nil {
		return nil, err
	}
	if len(set.Keys) > maxKeys {
		return nil, fmt.Errorf("botauth: the directory has %d keys, more than %d", len(set.Keys), maxKeys)
	}
	for i, k := range set.Keys {
		if p := k.Private(); len(p) > 0 {
			id := k.Kid
			if t, err := k.Thumbprint(); err == nil {
				id = t
			}
			return nil, &Error{Reason: PrivateKeyPublished, Directory: dir, KeyID: id,
				Detail: fmt.Sprintf("key %d carries the private member %q: the key is compromised (anyone who read the directory can sign as its holder); the directory is refused. Remove the member, and replace the key", i, strings.Join(p, `", "`))}
		}
	}
	if mt, _, err := mime.ParseMediaType(d.ContentType); err != nil || mt != MediaType {
		if strings.HasSuffix(dir, WellKnownPath) {
			d.Problems = append(d.Problems, &mediaTypeError{d.ContentType})
		}
	}
	d.MaxAge = maxAge(header.Get("Cache-Control"))
	if len(set.Keys) == 0 {
		d.Problems = append(d.Problems, fmt.Errorf("%w: no keys", ErrDirectoryShape))
	}
	for _, k := range set.Keys {
		t, problems := CheckKey(k)
		if k.Kty == "OKP" && k.X == testX {
			problems = append(problems, fmt.Errorf("%w: this is the RFC 9421 test key, which must not be used in production", ErrKeyShape))
		}
		if k.Exp != 0 && now.Unix() >= k.Exp {
			problems = append(problems, fmt.Errorf("%w: expired (exp %s)", ErrKeyShape, time.Unix(k.Exp, 0).UTC().Format(time.RFC3339)))
		}
		d.Keys = append(d.Keys, DirectoryKey{JWK: k, Thumbprint: t, Problems: problems})
	}
	checkResponseSignatures(d, header, body, authority, now)
	return d, nil
}

// testX is the x of test-key-ed25519 (RFC 9421 appendix B.1.4).
const testX = "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"

// ErrDirectoryShape matches a directory's own problems.
var ErrDirectoryShape = errors.New("botauth: directory")

// mediaTypeError is the problem of a directory at the well-known path
// served with another media type (an HTML page, a soft 404): it matches
// ErrDirectoryShape, and the Fetcher does not verify with its keys.
type mediaTypeError struct{ got string }

func (e *mediaTypeError) Error() string {
	return fmt.Sprintf("%v: Content-Type %q, want %s", ErrDirectoryShape, e.got, MediaType)
}

func (e *mediaTypeError) Is(target error) bool { return target == ErrDirectoryShape }

// ErrResponseSignature matches a directory response signature that fails.
var ErrResponseSignature = errors.New("botauth: directory response signature")

func maxAge(cc string) time.Duration {
	for d := range strings.SplitSeq(cc, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(d), "=")
		if strings.EqualFold(k, "max-age") {
			if n, err := strconv.Atoi(strings.Trim(v, `"`)); err == nil && n > 0 {
				return time.Duration(n) * time.Second
			}
		}
	}
	return 0
}

// checkResponseSignatures checks the directory response signatures (the
// draft's possession proof): each must cover "@authority";req and
// content-digest, carry created (not in the future), expires (not past) and
// the keyid of a key in the directory, and verify with that key; the
// Content-Digest must match the body.
func checkResponseSignatures(d *Directory, header http.Header, body []byte, authority string, now time.Time) {
	inputs := header.Values("Signature-Input")
	if len(inputs) == 0 {
		return
	}
	in, err := httpsfv.UnmarshalDictionary(inputs)
	if err != nil {
		d.Problems = append(d.Problems, fmt.Errorf("%w: Signature-Input is not a Dictionary: %v", ErrResponseSignature, err))
		return
	}
	sd, err := httpsfv.UnmarshalDictionary(header.Values("Signature"))
	if err != nil {
		d.Problems = append(d.Problems, fmt.Errorf("%w: Signature is not a Dictionary: %v", ErrResponseSignature, err))
		return
	}
	digestErr := checkContentDigest(header.Values("Content-Digest"), body)
	m := &message{status: d.Status, header: header, req: &message{
		method: http.MethodGet, scheme: "https", authority: authority, path: WellKnownPath, target: WellKnownPath, header: http.Header{},
	}}
	for _, label := range in.Names() {
		mem, _ := in.Get(label)
		list, ok := mem.(httpsfv.InnerList)
		if !ok {
			continue
		}
		if tag, _ := list.Params.Get("tag"); tag != DirectoryTag {
			continue
		}
		keyid, _ := list.Params.Get("keyid")
		idx := -1
		for i, k := range d.Keys {
			if k.Thumbprint != "" && k.Thumbprint == keyid {
				idx = i
			}
		}
		if idx < 0 {
			d.Problems = append(d.Problems, fmt.Errorf("%w: %s: keyid %v is not a key of the directory", ErrResponseSignature, label, sfString(keyid)))
			continue
		}
		if err := verifyResponseSignature(m, label, list, sd, d.Keys[idx].JWK, digestErr, now); err != nil {
			d.Keys[idx].Problems = append(d.Keys[idx].Problems, err)
			continue
		}
		d.Keys[idx].Proven = true
	}
}

func verifyResponseSignature(m *message, label string, list httpsfv.InnerList, sd *httpsfv.Dictionary, k JWK, digestErr error, now time.Time) error {
	fails := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s: %s", ErrResponseSignature, label, fmt.Sprintf(format, args...))
	}
	var authReq, digest bool
	for _, it := range list.Items {
		_, req := it.Params.Get("req")
		authReq = authReq || (it.Value == "@authority" && req)
		digest = digest || (it.Value == "content-digest" && !req)
	}
	if !authReq || !digest {
		return fails(`must cover "@authority";req and "content-digest"`)
	}
	if digestErr != nil {
		return fails("%v", digestErr)
	}
	created, e1 := intParam(list, "created")
	expires, e2 := intParam(list, "expires")
	if e1 != nil || e2 != nil {
		return fails("created and expires must be Integers")
	}
	if created > now.Unix() {
		return fails("created %s is in the future", time.Unix(created, 0).UTC().Format(time.RFC3339))
	}
	if expires <= now.Unix() {
		return fails("expired at %s", time.Unix(expires, 0).UTC().Format(time.RFC3339))
	}
	sm, _ := sd.Get(label)
	si, _ := sm.(httpsfv.Item)
	sig, ok := si.Value.([]byte)
	if !ok {
		return fails("Signature has no Byte Sequence member %q", label)
	}
	pub, err := k.Ed25519()
	if err != nil {
		return fails("only Ed25519 keys are checked")
	}
	base, err := signatureBase(m, list)
	if err != nil {
		return fails("%v", err)
	}
	if !ed25519.Verify(pub, []byte(base), sig) {
		return fails("does not verify")
	}
	return nil
}

// checkContentDigest checks an RFC 9530 Content-Digest against body: every
// sha-256 or sha-512 member must match, and one must be present.
func checkContentDigest(lines []string, body []byte) error {
	if len(lines) == 0 {
		return errors.New("no Content-Digest header")
	}
	d, err := httpsfv.UnmarshalDictionary(lines)
	if err != nil {
		return fmt.Errorf("Content-Digest is not a Dictionary: %v", err)
	}
	n := 0
	for _, alg := range d.Names() {
		var sum []byte
		switch alg {
		case "sha-256":
			s := sha256.Sum256(body)
			sum = s[:]
		case "sha-512":
			s := sha512.Sum512(body)
			sum = s[:]
		default:
			continue
		}
		m, _ := d.Get(alg)
		it, _ := m.(httpsfv.Item)
		got, ok := it.Value.([]byte)
		if !ok || !bytes.Equal(got, sum) {
			return fmt.Errorf("Content-Digest %s does not match the body", alg)
		}
		n++
	}
	if n == 0 {
		return errors.New("Content-Digest has no sha-256 or sha-512 member")
	}
	return nil
}
