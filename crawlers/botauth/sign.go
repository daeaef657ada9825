package botauth

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/dunglas/httpsfv"
)

// Signer signs requests for a bot operator with an Ed25519 key, as
// draft-ietf-webbotauth-httpsig-protocol-01 asks: tag="web-bot-auth",
// created, expires, keyid (the key's thumbprint) and alg="ed25519", over
// "@authority", the Signature-Agent member and any further Components.
type Signer struct {
	// Key signs. Required.
	Key ed25519.PrivateKey
	// Agent is the https origin whose directory publishes the key; it is
	// sent as the Signature-Agent member Label="Agent" and covered. Empty:
	// no Signature-Agent (verifiers then need the key by other means).
	Agent string
	// Label names the signature and the Signature-Agent member; default
	// "sig1".
	Label string
	// Components are covered after "@authority" (and before
	// signature-agent), e.g. "@method", "@path"; each is a component name
	// without parameters.
	Components []string
	// Validity is expires minus created; default one hour.
	Validity time.Duration
	// Nonce adds a random nonce parameter.
	Nonce bool
	// Now returns the signing time; nil means time.Now.
	Now func() time.Time
}

// ErrSign matches every error of [Signer.Sign].
var ErrSign = errors.New("botauth: cannot sign")

// Sign adds Signature-Agent (when Agent is set), Signature-Input and
// Signature to r's header, replacing earlier ones. r's authority is r.Host,
// else r.URL.Host; its scheme r.URL.Scheme, else as for [Verifier.Verify].
func (s *Signer) Sign(r *http.Request) error {
	if len(s.Key) != ed25519.PrivateKeySize {
		return fmt.Errorf("%w: no Ed25519 private key", ErrSign)
	}
	label := s.Label
	if label == "" {
		label = "sig1"
	}
	validity := s.Validity
	if validity <= 0 {
		validity = time.Hour
	}
	now := time.Now()
	if s.Now != nil {
		now = s.Now()
	}
	r.Header.Del("Signature")
	r.Header.Del("Signature-Input")
	r.Header.Del("Signature-Agent")

	list := httpsfv.InnerList{Params: httpsfv.NewParams()}
	add := func(name string, params ...[2]string) {
		it := httpsfv.NewItem(name)
		for _, p := range params {
			it.Params.Add(p[0], p[1])
		}
		list.Items = append(list.Items, it)
	}
	add("@authority")
	for _, c := range s.Components {
		if c == "@authority" {
			continue
		}
		add(c)
	}
	if s.Agent != "" {
		a := &SignatureAgent{Member: label, URL: s.Agent, Type: "directory"}
		if _, err := a.DirectoryURL(true); err != nil {
			return fmt.Errorf("%w: %v", ErrSign, err)
		}
		sa := httpsfv.NewDictionary()
		sa.Add(label, httpsfv.NewItem(s.Agent))
		v, err := httpsfv.Marshal(sa)
		if err != nil {
			return fmt.Errorf("%w: Signature-Agent: %v", ErrSign, err)
		}
		r.Header.Set("Signature-Agent", v)
		add("signature-agent", [2]string{"key", label})
	}
	list.Params.Add("created", now.Unix())
	list.Params.Add("expires", now.Add(validity).Unix())
	list.Params.Add("keyid", Thumbprint(s.Key.Public().(ed25519.PublicKey)))
	list.Params.Add("alg", "ed25519")
	if s.Nonce {
		b := make([]byte, 32)
		rand.Read(b)
		list.Params.Add("nonce", base64.StdEncoding.EncodeToString(b))
	}
	list.Params.Add("tag", Tag)

	base, err := signatureBase(requestMessage(r), list)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrSign, err)
	}
	in := httpsfv.NewDictionary()
	in.Add(label, list)
	inv, err := httpsfv.Marshal(in)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrSign, err)
	}
	sd := httpsfv.NewDictionary()
	sd.Add(label, httpsfv.NewItem(ed25519.Sign(s.Key, []byte(base))))
	sv, err := httpsfv.Marshal(sd)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrSign, err)
	}
	r.Header.Set("Signature-Input", inv)
	r.Header.Set("Signature", sv)
	return nil
}

// GenerateKey returns a new Ed25519 private key in PKCS #8 PEM, the form
// [ParseKey] reads.
func GenerateKey() (ed25519.PrivateKey, []byte, error) {
	_, k, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		return nil, nil, err
	}
	return k, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}

// ErrKeyFile matches every error of [ParseKey].
var ErrKeyFile = errors.New("botauth: not an Ed25519 private key")

// ParseKey reads an Ed25519 private key in PKCS #8 PEM ("PRIVATE KEY", as
// openssl genpkey -algorithm ed25519 writes it).
func ParseKey(data []byte) (ed25519.PrivateKey, error) {
	b, _ := pem.Decode(data)
	if b == nil {
		return nil, fmt.Errorf("%w: no PEM block", ErrKeyFile)
	}
	if b.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("%w: PEM block %q, want \"PRIVATE KEY\" (PKCS #8)", ErrKeyFile, b.Type)
	}
	k, err := x509.ParsePKCS8PrivateKey(b.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrKeyFile, err)
	}
	ek, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("%w: a %T", ErrKeyFile, k)
	}
	return ek, nil
}
