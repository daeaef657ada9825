package accesslog

import (
	"bytes"
	"fmt"
	"strings"
)

// Options configure how lines become records.
type Options struct {
	// ClientIP names a request header to take the client address from
	// instead of the connection's: "X-Forwarded-For" or "CF-Connecting-IP".
	// Set it only when every request passes through proxies you trust;
	// otherwise any client can claim any address. The format must log the
	// header (e.g. nginx "$http_x_forwarded_for"); lines without it keep the
	// connection address.
	ClientIP string
	// TrustedHops is how many trusted proxies append to X-Forwarded-For.
	// The client is the entry that many places from the right; earlier
	// entries were written by the client itself and prove nothing. 0 means 1.
	TrustedHops int
}

// ipPicker applies Options.ClientIP to a parsed record.
type ipPicker struct {
	header byte // 0 none, hdrXFF, hdrCF
	hops   int
}

const (
	hdrXFF = 1
	hdrCF  = 2
)

func newIPPicker(o Options) (ipPicker, error) {
	p := ipPicker{hops: o.TrustedHops}
	if p.hops <= 0 {
		p.hops = 1
	}
	switch strings.ToLower(o.ClientIP) {
	case "":
	case "x-forwarded-for", "xff":
		p.header = hdrXFF
	case "cf-connecting-ip":
		p.header = hdrCF
	default:
		return p, fmt.Errorf("accesslog: client IP header %q: want X-Forwarded-For or CF-Connecting-IP", o.ClientIP)
	}
	return p, nil
}

// apply replaces r.IP with the trusted forwarded address, if there is one.
func (p ipPicker) apply(r *Record) {
	v := bytes.TrimSpace(r.ForwardedFor)
	if p.header == 0 || len(v) == 0 || (len(v) == 1 && v[0] == '-') {
		return
	}
	if p.header == hdrCF {
		r.IP = v
		return
	}
	// Walk entries from the right.
	for n := 1; ; n++ {
		i := bytes.LastIndexByte(v, ',')
		if n == p.hops || i < 0 {
			e := bytes.TrimSpace(v[i+1:])
			if len(e) > 0 {
				r.IP = stripPort(e)
			}
			return
		}
		v = v[:i]
	}
}

// Validate reports whether the options are usable, so a command can reject
// them before opening any file.
func (o Options) Validate() error {
	_, err := newIPPicker(o)
	return err
}
