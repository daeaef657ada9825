package botauth

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// JWK is a JSON Web Key (RFC 7517) as a key directory publishes it. Only
// the members this package reads are kept.
type JWK struct {
	Kty string `json:"kty"`
	Crv string `json:"crv,omitempty"` // OKP, EC
	X   string `json:"x,omitempty"`   // OKP, EC
	Y   string `json:"y,omitempty"`   // EC
	N   string `json:"n,omitempty"`   // RSA
	E   string `json:"e,omitempty"`   // RSA
	Kid string `json:"kid,omitempty"`
	Alg string `json:"alg,omitempty"`
	Use string `json:"use,omitempty"`
	Nbf int64  `json:"nbf,omitempty"` // not before, Unix seconds
	Exp int64  `json:"exp,omitempty"` // expiry, Unix seconds

	private []string // the private members ParseJWKS found, for Private
}

// privateMembers are the JWK members that carry private or secret key
// material (RFC 7518 §6.2.2, §6.3.2, §6.4.1; RFC 8037 §2): a key set that
// has one publishes a key that must never leave its holder.
var privateMembers = [...]string{"d", "p", "q", "dp", "dq", "qi", "oth", "k"}

// Private returns the private-key members the key had when ParseJWKS read
// it ("d" for an Ed25519, EC or RSA private key, "k" for a secret key);
// none for a public key.
func (k JWK) Private() []string { return k.private }

// JWKS is a JSON Web Key Set, the body of a key directory.
type JWKS struct {
	Keys []JWK `json:"keys"`
}

// ErrKeyShape matches every error of [JWK.Thumbprint] and
// [JWK.Ed25519]: a key without the members its type requires.
var ErrKeyShape = errors.New("botauth: malformed JWK")

// Thumbprint returns the key's RFC 7638 SHA-256 thumbprint, base64url
// without padding: the hash of the required members in lexicographic order
// with no white space (RFC 8037 appendix A.3 for OKP keys).
func (k JWK) Thumbprint() (string, error) {
	var members [][2]string
	switch k.Kty {
	case "OKP":
		members = [][2]string{{"crv", k.Crv}, {"kty", k.Kty}, {"x", k.X}}
	case "EC":
		members = [][2]string{{"crv", k.Crv}, {"kty", k.Kty}, {"x", k.X}, {"y", k.Y}}
	case "RSA":
		members = [][2]string{{"e", k.E}, {"kty", k.Kty}, {"n", k.N}}
	case "":
		return "", fmt.Errorf("%w: no kty", ErrKeyShape)
	default:
		return "", fmt.Errorf("%w: kty %q has no thumbprint rule here", ErrKeyShape, k.Kty)
	}
	b := []byte{'{'}
	for i, m := range members {
		if m[1] == "" {
			return "", fmt.Errorf("%w: kty %s without %q", ErrKeyShape, k.Kty, m[0])
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(append(strconv.AppendQuote(b, m[0]), ':'), m[1])
	}
	b = append(b, '}')
	sum := sha256.Sum256(b)
	return base64.RawURLEncoding.EncodeToString(sum[:]), nil
}

// Ed25519 returns the public key of an OKP Ed25519 JWK (RFC 8037).
func (k JWK) Ed25519() (ed25519.PublicKey, error) {
	if k.Kty != "OKP" || k.Crv != "Ed25519" {
		return nil, fmt.Errorf("%w: kty %q crv %q is not an Ed25519 key", ErrKeyShape, k.Kty, k.Crv)
	}
	x, err := base64.RawURLEncoding.DecodeString(k.X)
	if err != nil {
		return nil, fmt.Errorf("%w: x is not base64url without padding: %v", ErrKeyShape, err)
	}
	if len(x) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("%w: x is %d bytes, want %d", ErrKeyShape, len(x), ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(x), nil
}

// ValidAt reports whether t is within the key's nbf and exp, when given.
func (k JWK) ValidAt(t time.Time) bool {
	if k.Nbf != 0 && t.Unix() < k.Nbf {
		return false
	}
	if k.Exp != 0 && t.Unix() >= k.Exp {
		return false
	}
	return true
}

// NewJWK returns the JWK of an Ed25519 public key, with kid set to its
// thumbprint and use "sig", as a directory publishes it.
func NewJWK(pub ed25519.PublicKey) JWK {
	k := JWK{Kty: "OKP", Crv: "Ed25519", X: base64.RawURLEncoding.EncodeToString(pub), Use: "sig"}
	k.Kid, _ = k.Thumbprint() // cannot fail: every member is set
	return k
}

// NewJWKS returns the key directory publishing the given keys.
func NewJWKS(pubs ...ed25519.PublicKey) JWKS {
	s := JWKS{Keys: []JWK{}}
	for _, p := range pubs {
		s.Keys = append(s.Keys, NewJWK(p))
	}
	return s
}

// Thumbprint returns the keyid of an Ed25519 public key: its JWK SHA-256
// thumbprint.
func Thumbprint(pub ed25519.PublicKey) string {
	t, _ := NewJWK(pub).Thumbprint()
	return t
}

// ParseJWKS parses a key directory body. It fails only when the body is not
// a JSON object with a "keys" array; the keys themselves are checked by
// [CheckKey], and [JWK.Private] names the private members a key has.
func ParseJWKS(body []byte) (JWKS, error) {
	var raw struct {
		Keys *[]json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return JWKS{}, fmt.Errorf("botauth: key directory is not a JSON object: %w", err)
	}
	if raw.Keys == nil {
		return JWKS{}, errors.New(`botauth: key directory has no "keys" array`)
	}
	s := JWKS{Keys: make([]JWK, 0, len(*raw.Keys))}
	for i, m := range *raw.Keys {
		var k JWK
		if err := json.Unmarshal(m, &k); err != nil {
			return JWKS{}, fmt.Errorf("botauth: key directory: key %d: %w", i, err)
		}
		var members map[string]json.RawMessage
		if err := json.Unmarshal(m, &members); err == nil {
			for _, p := range privateMembers {
				if _, ok := members[p]; ok {
					k.private = append(k.private, p)
				}
			}
		}
		s.Keys = append(s.Keys, k)
	}
	return s, nil
}

// CheckKey returns the problems of one directory key: a thumbprint that
// cannot be computed, a kid that is not the thumbprint, an Ed25519 key whose
// x is not 32 bytes, an alg that does not fit, an exp not after nbf. The
// thumbprint is returned when it could be computed.
func CheckKey(k JWK) (thumbprint string, problems []error) {
	t, err := k.Thumbprint()
	if err != nil {
		return "", []error{err}
	}
	if k.Kid != "" && k.Kid != t {
		problems = append(problems, fmt.Errorf("%w: kid %q is not the key's thumbprint %s", ErrKeyShape, k.Kid, t))
	}
	if k.Kty == "OKP" {
		if _, err := k.Ed25519(); err != nil {
			problems = append(problems, err)
		} else if k.Alg != "" && k.Alg != "ed25519" && k.Alg != "EdDSA" && k.Alg != "Ed25519" {
			problems = append(problems, fmt.Errorf("%w: alg %q on an Ed25519 key", ErrKeyShape, k.Alg))
		}
	}
	if k.Use != "" && k.Use != "sig" {
		problems = append(problems, fmt.Errorf("%w: use %q, want \"sig\"", ErrKeyShape, k.Use))
	}
	if k.Nbf != 0 && k.Exp != 0 && k.Exp <= k.Nbf {
		problems = append(problems, fmt.Errorf("%w: exp %d is not after nbf %d", ErrKeyShape, k.Exp, k.Nbf))
	}
	return t, problems
}
