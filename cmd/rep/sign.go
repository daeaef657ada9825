package main

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/rep-toolkit/rep/crawlers/botauth"
)

func init() {
	register(&command{name: "sign", summary: "sign a request with Web Bot Auth; make a key and its directory", run: runSign})
}

const signUsage = `usage: rep sign -key KEYFILE [-agent URL] [-label sig1] [-expires D] [-cover COMPONENTS] [-nonce] [-now RFC3339] REQUEST|-
       rep sign -keygen -key KEYFILE
       rep sign -directory -key KEYFILE

Signs a raw HTTP request (request line and headers, as 'rep verify -request'
reads it) for a bot operator, with Web Bot Auth (RFC 9421 HTTP Message
Signatures, tag="web-bot-auth"), and prints it with Signature-Agent,
Signature-Input and Signature added. The signature covers "@authority",
the components of -cover (e.g. -cover @method,@path) and the
Signature-Agent member, with created, expires, keyid (the key's JWK
thumbprint) and alg="ed25519".

-keygen writes a new Ed25519 private key to KEYFILE (PKCS #8 PEM, mode
0600; an existing file is never overwritten). -directory prints the key
directory for KEYFILE: serve it at
https://AGENT/.well-known/http-message-signatures-directory with
Content-Type application/http-message-signatures-directory+json.

Exit status: 0 done, 2 usage or input errors.

flags:
`

func runSign(e *env) int {
	fset := flag.NewFlagSet("sign", flag.ContinueOnError)
	fset.SetOutput(e.stderr)
	keyFile := fset.String("key", "", "the Ed25519 private key `KEYFILE` (PKCS #8 PEM)")
	agent := fset.String("agent", "", "the signature agent `URL`, the origin publishing the key directory")
	label := fset.String("label", "sig1", "the signature `LABEL`")
	expires := fset.Duration("expires", time.Hour, "how long the signature is valid (`D`; at most 24h is recommended)")
	cover := fset.String("cover", "", "further `COMPONENTS` to cover, comma-separated, e.g. @method,@path")
	nonce := fset.Bool("nonce", false, "add a random nonce")
	now := fset.String("now", "", "sign as at `RFC3339` time instead of now")
	keygen := fset.Bool("keygen", false, "write a new key to -key KEYFILE")
	directory := fset.Bool("directory", false, "print the key directory (JWKS) of -key KEYFILE")
	fset.Usage = func() {
		fmt.Fprint(fset.Output(), signUsage)
		fset.PrintDefaults()
	}
	if err := fset.Parse(e.args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	if *keyFile == "" {
		fmt.Fprintln(e.stderr, "rep sign: give the key file with -key KEYFILE (make one with rep sign -keygen -key KEYFILE)")
		return exitUsage
	}
	if *expires <= 0 {
		fmt.Fprintf(e.stderr, "rep sign: -expires %v: want a positive duration (at most 24h is recommended)\n", *expires)
		return exitUsage
	}
	if *keygen && *directory {
		fmt.Fprintln(e.stderr, "rep sign: -keygen and -directory are separate steps: run -keygen, then -directory")
		return exitUsage
	}
	if *keygen || *directory {
		if fset.NArg() > 0 {
			fmt.Fprintln(e.stderr, "rep sign: -keygen and -directory take no request")
			return exitUsage
		}
		if *keygen {
			return signKeygen(e, *keyFile)
		}
	}
	kd, _, err := readInput(*keyFile, nil)
	if err != nil {
		fmt.Fprintf(e.stderr, "rep sign: -key: %v\n", err)
		return exitUsage
	}
	key, err := botauth.ParseKey(kd)
	if err != nil {
		fmt.Fprintf(e.stderr, "rep sign: -key %s: %v\n", *keyFile, err)
		return exitUsage
	}
	if *directory {
		b, _ := json.MarshalIndent(botauth.NewJWKS(key.Public().(ed25519.PublicKey)), "", "  ")
		fmt.Fprintf(e.stdout, "%s\n", b)
		return exitOK
	}
	if fset.NArg() != 1 {
		fmt.Fprintln(e.stderr, "rep sign: give one request file, or - for standard input")
		return exitUsage
	}
	s := &botauth.Signer{Key: key, Agent: *agent, Label: *label, Validity: *expires, Nonce: *nonce}
	if *cover != "" {
		for c := range strings.SplitSeq(*cover, ",") {
			if c = strings.TrimSpace(c); c != "" {
				s.Components = append(s.Components, c)
			}
		}
	}
	if *now != "" {
		t, err := time.Parse(time.RFC3339, *now)
		if err != nil {
			fmt.Fprintf(e.stderr, "rep sign: -now %q: want an RFC 3339 time like 2026-11-25T12:00:00Z\n", *now)
			return exitUsage
		}
		s.Now = func() time.Time { return t }
	}
	stdin := e.stdin
	if fset.Arg(0) == "-" {
		stdin = e.input()
	}
	data, name, err := readInput(fset.Arg(0), stdin)
	if err != nil {
		fmt.Fprintf(e.stderr, "rep sign: %v\n", err)
		return exitUsage
	}
	r, err := parseRawRequest(data)
	if err != nil {
		fmt.Fprintf(e.stderr, "rep sign: %s: %v\n", name, err)
		return exitUsage
	}
	if err := s.Sign(r); err != nil {
		fmt.Fprintf(e.stderr, "rep sign: %v\n", err)
		return exitUsage
	}
	var add []string
	for _, h := range []string{"Signature-Agent", "Signature-Input", "Signature"} {
		for _, v := range r.Header.Values(h) {
			add = append(add, h+": "+v)
		}
	}
	e.stdout.Write(withHeaders(data, add))
	return exitOK
}

// withHeaders returns the raw request data with the signature headers it
// had removed and the lines add appended to its header block, in the
// request's own line ending; the body is kept as it is.
func withHeaders(data []byte, add []string) []byte {
	data = bytes.TrimLeft(data, "\r\n")
	eol := "\n"
	if i := bytes.IndexByte(data, '\n'); i > 0 && data[i-1] == '\r' {
		eol = "\r\n"
	}
	head, body := data, []byte(nil)
	if i := bytes.Index(data, []byte(eol+eol)); i >= 0 {
		head, body = data[:i], data[i+2*len(eol):]
	} else {
		head = bytes.TrimRight(data, "\r\n")
	}
	var out bytes.Buffer
	for i, line := range strings.Split(string(head), eol) {
		name, _, _ := strings.Cut(line, ":")
		if i > 0 {
			switch strings.ToLower(strings.TrimSpace(name)) {
			case "signature", "signature-input", "signature-agent":
				continue
			}
		}
		out.WriteString(line + eol)
	}
	for _, l := range add {
		out.WriteString(l + eol)
	}
	out.WriteString(eol)
	out.Write(body)
	return out.Bytes()
}

// signKeygen runs -keygen.
func signKeygen(e *env, file string) int {
	key, pemData, err := botauth.GenerateKey()
	if err != nil {
		fmt.Fprintf(e.stderr, "rep sign: %v\n", err)
		return exitUsage
	}
	fh, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		fmt.Fprintf(e.stderr, "rep sign: %s exists: -keygen never overwrites a key; remove it or choose another file\n", file)
		return exitUsage
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "rep sign: %v\n", err)
		return exitUsage
	}
	if _, err := fh.Write(pemData); err != nil {
		fh.Close()
		fmt.Fprintf(e.stderr, "rep sign: %v\n", err)
		return exitUsage
	}
	if err := fh.Close(); err != nil {
		fmt.Fprintf(e.stderr, "rep sign: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(e.stdout, "wrote %s: Ed25519 key, keyid %s\n", file, botauth.Thumbprint(key.Public().(ed25519.PublicKey)))
	return exitOK
}
