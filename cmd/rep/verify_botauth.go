package main

// rep verify -request and -directory: Web Bot Auth (package botauth).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/rep-toolkit/rep/crawlers/botauth"
	"github.com/rep-toolkit/rep/crawlers/identity"
)

// botauthOptions are the flags of the Web Bot Auth modes of rep verify.
type botauthOptions struct {
	request      string // FILE or -
	directory    string // URL
	keys         string // JWKS file
	now          string // RFC 3339
	asJSON       bool
	allowPrivate bool
	// ip, with -request: the address the request came from; its
	// User-Agent is then also checked by reverse DNS and IP lists, and
	// identity.WithSignature combines both verdicts.
	ip      string
	offline bool // with ip: the IP lists only, no DNS
}

// botauthJSON is the -json output of rep verify -request. Other tools
// script against it: keep the field names.
type botauthJSON struct {
	Verdict        string   `json:"verdict"`
	Reason         string   `json:"reason"`
	ReasonCode     string   `json:"reason_code,omitempty"`
	SignatureAgent string   `json:"signature_agent"`
	KeyID          string   `json:"keyid"`
	Label          string   `json:"label"`
	Directory      string   `json:"directory,omitempty"`
	DirectoryProof bool     `json:"directory_proof,omitempty"`
	Created        string   `json:"created,omitempty"`
	Expires        string   `json:"expires,omitempty"`
	Covered        []string `json:"covered,omitempty"`
	Base           string   `json:"signature_base,omitempty"`
	// Identity is the combined verdict for the request's User-Agent from
	// the IP given after -request (identity.WithSignature).
	Identity *verifyJSON `json:"identity,omitempty"`
}

// botauthDirJSON is the -json output of rep verify -directory.
type botauthDirJSON struct {
	URL         string `json:"url"`
	OK          bool   `json:"ok"`
	Status      int    `json:"status,omitempty"`
	ContentType string `json:"content_type,omitempty"`
	Error       string `json:"error,omitempty"`
	// ReasonCode names why the directory could not be used, as
	// botauthJSON's does: key-directory-unavailable, or
	// private-key-published for a directory refused for publishing a
	// private key.
	ReasonCode string              `json:"reason_code,omitempty"`
	Problems   []string            `json:"problems"`
	Keys       []botauthDirKeyJSON `json:"keys"`
}

type botauthDirKeyJSON struct {
	Thumbprint string   `json:"thumbprint"`
	Kid        string   `json:"kid,omitempty"`
	Kty        string   `json:"kty"`
	Crv        string   `json:"crv,omitempty"`
	Signed     bool     `json:"response_signature"`
	Problems   []string `json:"problems"`
}

// Test hook: the TLS roots a -directory or -request fetch trusts.
var botauthFetcher = func(allowPrivate bool) *botauth.Fetcher {
	return &botauth.Fetcher{AllowPrivate: allowPrivate, AllowHTTP: allowPrivate, UserAgent: "rep-verify (+https://github.com/rep-toolkit/rep)"}
}

func runBotauth(e *env, o botauthOptions) int {
	if o.directory != "" {
		return verifyDirectory(e, o)
	}
	now := time.Now()
	if o.now != "" {
		t, err := time.Parse(time.RFC3339, o.now)
		if err != nil {
			fmt.Fprintf(e.stderr, "rep verify: -now %q: want an RFC 3339 time like 2026-11-25T12:00:00Z\n", o.now)
			return exitUsage
		}
		now = t
	}
	stdin := e.stdin
	if o.request == "-" {
		stdin = e.input()
	}
	data, name, err := readInput(o.request, stdin)
	if err != nil {
		fmt.Fprintf(e.stderr, "rep verify: %v\n", err)
		return exitUsage
	}
	r, err := parseRawRequest(data)
	if err != nil {
		fmt.Fprintf(e.stderr, "rep verify: %s: %v\n", name, err)
		return exitUsage
	}
	v := &botauth.Verifier{Now: func() time.Time { return now }}
	if o.keys != "" {
		kd, kname, err := readInput(o.keys, nil)
		if err != nil {
			fmt.Fprintf(e.stderr, "rep verify: -keys: %v\n", err)
			return exitUsage
		}
		set, err := botauth.ParseJWKS(kd)
		if err != nil {
			fmt.Fprintf(e.stderr, "rep verify: -keys %s: %v\n", kname, err)
			return exitUsage
		}
		v.Keys = set
	} else {
		v.Keys = botauthFetcher(o.allowPrivate)
	}
	res := v.Verify(e.ctx, r)
	var id *identity.Result
	if o.ip != "" {
		ip, err := netip.ParseAddr(strings.Trim(o.ip, "[]"))
		if err != nil {
			fmt.Fprintf(e.stderr, "rep verify: %q is not an IP address\n", o.ip)
			return exitUsage
		}
		iv := &identity.Verifier{Ranges: identity.Embedded(), Timeout: 5 * time.Second}
		if dir, err := identity.DefaultCacheDir(); err == nil {
			if cached, _ := identity.LoadCache(dir); cached != nil {
				iv.Ranges = iv.Ranges.Merge(cached)
			}
		}
		if !o.offline {
			iv.Resolver = net.DefaultResolver
		}
		c := identity.WithSignature(iv.VerifyAt(e.ctx, ip, r.UserAgent(), now), res)
		id = &c
	}
	if o.asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		j := botauthToJSON(res)
		if id != nil {
			vj := verifyToJSON(*id)
			j.Identity = &vj
		}
		enc.Encode(j)
	} else {
		printBotauth(e.stdout, res)
		if id != nil {
			fmt.Fprintln(e.stdout, "identity: "+verifyLine(*id))
		}
	}
	if id != nil {
		if id.Verdict == identity.Verified {
			return exitOK
		}
		return exitFinding
	}
	if res.Verdict == botauth.Verified {
		return exitOK
	}
	return exitFinding
}

// parseRawRequest reads an HTTP/1.1 request as sent: request line and
// header fields, lines ending in CRLF or LF; the body is ignored. A request
// in origin form is taken as received over https.
func parseRawRequest(data []byte) (*http.Request, error) {
	data = bytes.TrimLeft(data, "\r\n")
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("empty: want an HTTP request (request line, then header lines)")
	}
	// A header block without its blank line is complete all the same.
	if !bytes.Contains(data, []byte("\n\n")) && !bytes.Contains(data, []byte("\n\r\n")) {
		data = append(bytes.TrimRight(data, "\r\n"), "\n\n"...)
	}
	r, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(data)))
	if err != nil {
		return nil, fmt.Errorf("not an HTTP/1.1 request: %v", err)
	}
	r.Body = http.NoBody
	if r.Host == "" {
		return nil, errors.New("no Host header: the authority cannot be known")
	}
	if r.URL.Scheme == "" {
		r.URL.Scheme = "https"
	}
	return r, nil
}

func botauthToJSON(res botauth.Result) botauthJSON {
	j := botauthJSON{
		Verdict: string(res.Verdict),
		KeyID:   res.KeyID,
		Label:   res.Label,
		Covered: res.Covered,
		Base:    res.Base,
	}
	if res.Err != nil {
		j.Reason = res.Err.Error()
		var e *botauth.Error
		if errors.As(res.Err, &e) {
			j.ReasonCode = strings.ReplaceAll(string(e.Reason), " ", "-")
			j.Directory = e.Directory
		}
	}
	if res.Agent != nil {
		j.SignatureAgent = res.Agent.URL
	}
	if res.Key != nil {
		j.Directory = res.Key.Directory
		j.DirectoryProof = res.Key.Proven
	}
	if !res.Created.IsZero() {
		j.Created = res.Created.Format(time.RFC3339)
		j.Expires = res.Expires.Format(time.RFC3339)
	}
	return j
}

// printBotauth prints a verdict, then the signature step by step.
func printBotauth(w io.Writer, res botauth.Result) {
	if res.Err != nil {
		fmt.Fprintf(w, "%s: %v\n", res.Verdict, res.Err)
	} else {
		fmt.Fprintf(w, "%s: signature %s\n", res.Verdict, res.Label)
	}
	row := func(k, v string) {
		if v != "" {
			fmt.Fprintf(w, "  %-10s %s\n", k, v)
		}
	}
	row("label", res.Label)
	if a := res.Agent; a != nil {
		form := fmt.Sprintf("(member %s, type %s)", a.Member, a.Type)
		if a.Legacy() {
			form = "(legacy String form)"
		}
		row("agent", a.URL+" "+form)
	}
	row("keyid", res.KeyID)
	if !res.Created.IsZero() {
		row("created", res.Created.Format(time.RFC3339))
		row("expires", res.Expires.Format(time.RFC3339))
	}
	row("covered", strings.Join(res.Covered, " "))
	if k := res.Key; k != nil {
		switch {
		case k.Directory == "":
			row("key", "given with -keys")
		case k.Proven:
			row("key", k.Directory+" (signed directory response)")
		default:
			row("key", k.Directory)
		}
	}
	if res.Base != "" {
		fmt.Fprintln(w, "  signature base:")
		for l := range strings.SplitSeq(res.Base, "\n") {
			fmt.Fprintln(w, "    "+l)
		}
	}
}

// verifyDirectory runs -directory: fetch a key directory and check it.
func verifyDirectory(e *env, o botauthOptions) int {
	u, err := url.Parse(o.directory)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		fmt.Fprintf(e.stderr, "rep verify: -directory %q: want an https URL, e.g. https://bot.example\n", o.directory)
		return exitUsage
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = botauth.WellKnownPath
	}
	dir := u.String()
	ctx, cancel := context.WithTimeout(e.ctx, 30*time.Second)
	defer cancel()
	d, ferr := botauthFetcher(o.allowPrivate).Fetch(ctx, dir)
	j := botauthDirJSON{URL: dir, Problems: []string{}, Keys: []botauthDirKeyJSON{}}
	if ferr != nil {
		j.Error = ferr.Error()
		var be *botauth.Error
		if errors.As(ferr, &be) {
			j.ReasonCode = strings.ReplaceAll(string(be.Reason), " ", "-")
		}
	} else {
		j.OK, j.Status, j.ContentType = d.OK(), d.Status, d.ContentType
		for _, p := range d.Problems {
			j.Problems = append(j.Problems, p.Error())
		}
		for _, k := range d.Keys {
			kj := botauthDirKeyJSON{Thumbprint: k.Thumbprint, Kid: k.JWK.Kid, Kty: k.JWK.Kty, Crv: k.JWK.Crv, Signed: k.Proven, Problems: []string{}}
			for _, p := range k.Problems {
				kj.Problems = append(kj.Problems, p.Error())
			}
			j.Keys = append(j.Keys, kj)
		}
	}
	if o.asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		enc.Encode(j)
	} else {
		printDirectory(e.stdout, j)
	}
	if j.OK {
		return exitOK
	}
	return exitFinding
}

func printDirectory(w io.Writer, j botauthDirJSON) {
	fmt.Fprintf(w, "directory %s\n", j.URL)
	if j.Error != "" {
		label := "unavailable"
		if j.ReasonCode == strings.ReplaceAll(string(botauth.PrivateKeyPublished), " ", "-") {
			label = "refused"
		}
		fmt.Fprintf(w, "  %s: %s\n", label, j.Error)
		return
	}
	fmt.Fprintf(w, "  status %d, Content-Type %s\n", j.Status, j.ContentType)
	for _, p := range j.Problems {
		fmt.Fprintf(w, "  problem: %s\n", p)
	}
	for _, k := range j.Keys {
		what := strings.TrimSpace(k.Kty + " " + k.Crv)
		state := "ok"
		if len(k.Problems) > 0 {
			state = fmt.Sprintf("%d problems", len(k.Problems))
		}
		signed := "no response signature"
		if k.Signed {
			signed = "response signature verified"
		}
		fmt.Fprintf(w, "  key %s %s: %s, %s\n", orDash(k.Thumbprint), what, state, signed)
		for _, p := range k.Problems {
			fmt.Fprintf(w, "    problem: %s\n", p)
		}
	}
	if j.OK {
		fmt.Fprintf(w, "ok: %d keys\n", len(j.Keys))
	} else {
		fmt.Fprintln(w, "not ok")
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// conflicts returns what is wrong with the flags given with -request or
// -directory, or "".
func (o botauthOptions) conflicts(nargs int, ipFlags bool) string {
	switch {
	case o.request != "" && o.directory != "":
		return "-request and -directory are separate checks: give one"
	case o.directory != "" && nargs > 0:
		return "-directory takes no IP arguments"
	case nargs > 1:
		return "-request takes at most one IP: the address the request came from"
	case o.offline && nargs == 0:
		return "-offline with -request needs the IP the request came from"
	case ipFlags:
		return "-ua, -update, -at and -resolver verify IPs, not signatures: drop them"
	case o.directory != "" && (o.keys != "" || o.now != ""):
		return "-keys and -now go with -request"
	}
	return ""
}
