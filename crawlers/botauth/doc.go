// Package botauth verifies and produces Web Bot Auth signatures: HTTP
// Message Signatures (RFC 9421) that a bot attaches to its requests so a
// site can tell who is really asking, whatever the User-Agent says.
//
// The profile is draft-ietf-webbotauth-httpsig-protocol-01 (October 2026),
// which folded in the key directory of
// draft-meunier-http-message-signatures-directory: a signature is tagged
// tag="web-bot-auth", covers "@authority" or "@target-uri" and the
// Signature-Agent member naming where its key is published, carries created
// and expires, and names its key by keyid, the key's JWK SHA-256 thumbprint
// (RFC 7638; RFC 8037 appendix A.3 for Ed25519). Signature-Agent is an
// RFC 9651 Dictionary, sig1="https://bot.example"; the older plain String
// form, "https://bot.example", is accepted as well. Keys are published as a
// JWK Set (RFC 7517) at /.well-known/http-message-signatures-directory with
// media type application/http-message-signatures-directory+json, optionally
// with one response signature per key (tag
// "http-message-signatures-directory", covering "@authority";req and
// Content-Digest, RFC 9530).
//
// [Verifier.Verify] checks a request step by step and ends in one of three
// verdicts, as the draft's deployment guidance asks: [Verified],
// [Invalid] (a header, covered component, parameter, time or signature
// fails) and [Unverified] (nothing to decide on: no signature, only
// signatures for other protocols, an unknown key, a directory that cannot be
// fetched). Every verdict but Verified carries an [*Error] whose [Reason]
// names what failed, and which label, component, parameter or key; match it
// with errors.Is against the Reason constants.
//
// Keys come from a [KeySource]: a fixed [JWKS] (a file an operator
// published), or a [Fetcher], which fetches the directory the
// Signature-Agent member names from that agent's origin the way a fetch on
// someone else's behalf must be done: through the SSRF guard of
// internal/netguard, without following redirects, within a size limit and a
// time limit, and cached by (directory URL, keyid).
//
// [Signer] is the other side, for bot operators: it signs a request with an
// Ed25519 key, and [NewJWKS] builds the directory that publishes the key.
// Ed25519 is the only signature algorithm; RSA and EC keys in a directory are
// recognised and their thumbprints checked, but a signature made with one is
// reported unverified, not judged.
package botauth
