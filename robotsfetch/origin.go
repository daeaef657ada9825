package robotsfetch

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"

	"github.com/rep-toolkit/rep/internal/urlhead"
)

// Origin returns the scope of rawurl's robots.txt: "scheme://host[:port]"
// with the scheme and host lower-cased, an IDN host in its punycode form,
// user information removed and the scheme's default port dropped (RFC 9309
// §2.3: one file per scheme, host and port). Only http and https URLs have
// a robots.txt this package can fetch.
//
// The error is an *Error with Op OpParse. An already canonical URL costs
// no allocation.
func Origin(rawurl string) (string, error) {
	if o, ok := fastOrigin(rawurl); ok {
		return o, nil
	}
	// Only the scheme and authority matter here: a path with a stray '%'
	// ("/100%") is a URL crawlers meet and robots.txt matching accepts, so
	// it must not make its site's robots.txt unreachable.
	u, err := urlhead.Parse(rawurl)
	if err != nil {
		return "", parseError(rawurl, err)
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		if scheme == "" {
			return "", parseError(rawurl, errors.New("not absolute: it needs http:// or https://"))
		}
		return "", parseError(rawurl, fmt.Errorf("scheme %q has no robots.txt to fetch (http and https only)", u.Scheme))
	}
	host := u.Hostname()
	if host == "" {
		return "", parseError(rawurl, errors.New("no host"))
	}
	if strings.Contains(host, ":") { // IPv6 literal
		host = "[" + strings.ToLower(host) + "]"
	} else {
		if !utf8.ValidString(host) {
			return "", parseError(rawurl, errors.New("host is not valid UTF-8"))
		}
		if host, err = idna.Lookup.ToASCII(host); err != nil {
			return "", parseError(rawurl, fmt.Errorf("host: %w", err))
		}
		host = strings.ToLower(host)
	}
	port := u.Port()
	if n, err := strconv.Atoi(port); port != "" && (err != nil || n < 1 || n > 65535) {
		// The fetch would fail with "invalid port" and read as an
		// unreachable site, everything disallowed.
		return "", parseError(rawurl, fmt.Errorf("port %q: want a number from 1 to 65535", port))
	} else if port != "" {
		port = strconv.Itoa(n) // a number (WHATWG URL): :08080 is :8080, :080 is http's default
	}
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if port != "" {
		host = net.JoinHostPort(strings.Trim(host, "[]"), port)
	}
	return scheme + "://" + host, nil
}

func parseError(rawurl string, cause error) error {
	return &Error{Op: OpParse, URL: rawurl, Err: cause}
}

// fastOrigin slices the origin out of a URL that is already canonical:
// lower-case http or https, a lower-case ASCII host, no user information,
// no default port.
func fastOrigin(s string) (string, bool) {
	var rest string
	switch {
	case strings.HasPrefix(s, "https://"):
		rest = s[len("https://"):]
	case strings.HasPrefix(s, "http://"):
		rest = s[len("http://"):]
	default:
		return "", false
	}
	end := len(rest)
	colon := -1
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if c == '/' || c == '?' || c == '#' {
			end = i
			break
		}
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '-', c == '.':
		case c == ':':
			if colon >= 0 {
				return "", false
			}
			colon = i
		default: // upper case, '@', '[', '%', non-ASCII: the slow path decides
			return "", false
		}
	}
	if end == 0 || colon == 0 {
		return "", false
	}
	if colon >= 0 {
		port := rest[colon+1 : end]
		if port == "" || port[0] == '0' || len(port) > 5 || port > "65535" && len(port) == 5 || (port == "80" && s[4] == ':') || (port == "443" && s[4] == 's') {
			return "", false
		}
		for i := 0; i < len(port); i++ {
			if port[i] < '0' || port[i] > '9' {
				return "", false
			}
		}
	}
	if strings.HasPrefix(rest[:end], "xn--") || strings.Contains(rest[:end], ".xn--") {
		// Punycode labels are validated by the slow path.
		return "", false
	}
	return s[:len(s)-len(rest)+end], true
}
