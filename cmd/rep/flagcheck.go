package main

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"
)

// Flag values are checked before any work: a bad one is a usage error
// (exit 2) that names the flag, never a finding about the site it was
// meant for ("unreachable: every URL disallowed").

// checkDuration refuses a zero or negative -timeout and the like.
func checkDuration(name string, d time.Duration) error {
	if d <= 0 {
		return fmt.Errorf("%s %v: want a positive duration, e.g. %s 10s", name, d, name)
	}
	return nil
}

// checkHeaderValue refuses a header value HTTP cannot carry: CR or LF
// would end the header (and start another), and other control
// characters but tab are invalid in a field value (RFC 9110 §5.5).
func checkHeaderValue(name, v string) error {
	if i := strings.IndexFunc(v, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f }); i >= 0 {
		return fmt.Errorf("%s %q: a header value cannot hold control characters (byte %d)", name, v, i)
	}
	return nil
}

// checkHostPort refuses a -resolver that is not HOST:PORT with a port
// from 1 to 65535.
func checkHostPort(name, v string) error {
	_, port, err := net.SplitHostPort(v)
	if n, perr := strconv.Atoi(port); err != nil || perr != nil || n < 1 || n > 65535 {
		return fmt.Errorf("%s %q: want HOST:PORT with a port from 1 to 65535, e.g. 127.0.0.1:53", name, v)
	}
	return nil
}
