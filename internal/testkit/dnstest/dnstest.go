// Package dnstest runs a small authoritative DNS server on a loopback UDP
// port for tests, answering PTR, A and AAAA queries (RFC 1035; reverse
// names per RFC 1035 section 3.5 and RFC 3596 section 2.5) from a table.
// Names it does not know get NXDOMAIN; names listed in Zone.Drop get no
// answer at all, so clients time out.
package dnstest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"sync"

	"golang.org/x/net/dns/dnsmessage"
)

// Zone is the server's table. Names are case-insensitive and may omit the
// trailing dot.
type Zone struct {
	// PTR maps an IP address to its PTR names.
	PTR map[netip.Addr][]string
	// Addrs maps a host name to its A and AAAA addresses.
	Addrs map[string][]netip.Addr
	// Drop lists query names (host names, or IP addresses for PTR
	// queries) the server never answers.
	Drop []string
}

// Server is a running DNS server. Close it when done.
type Server struct {
	// Addr is the server's "127.0.0.1:port".
	Addr string

	conn    net.PacketConn
	names   map[string][]string     // PTR owner name → targets
	addrs   map[string][]netip.Addr // host name → addresses
	drop    map[string]bool         // owner names
	wg      sync.WaitGroup
	mu      sync.Mutex
	queries []string
}

// Start serves zone on a free loopback UDP port.
func Start(zone Zone) (*Server, error) {
	conn, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{
		Addr:  conn.LocalAddr().String(),
		conn:  conn,
		names: make(map[string][]string),
		addrs: make(map[string][]netip.Addr),
		drop:  make(map[string]bool),
	}
	for ip, names := range zone.PTR {
		s.names[ReverseName(ip)] = names
	}
	for name, as := range zone.Addrs {
		s.addrs[canonical(name)] = as
	}
	for _, d := range zone.Drop {
		if ip, err := netip.ParseAddr(d); err == nil {
			d = ReverseName(ip)
		}
		s.drop[canonical(d)] = true
	}
	s.wg.Add(1)
	go s.serve()
	return s, nil
}

// Close stops the server.
func (s *Server) Close() error {
	err := s.conn.Close()
	s.wg.Wait()
	return err
}

// Queries returns the "TYPE name" of every query received so far.
func (s *Server) Queries() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.queries...)
}

func (s *Server) serve() {
	defer s.wg.Done()
	buf := make([]byte, 1500)
	for {
		n, addr, err := s.conn.ReadFrom(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue
		}
		resp, ok := s.answer(buf[:n])
		if ok {
			s.conn.WriteTo(resp, addr)
		}
	}
}

// answer builds the response to one query; ok is false when the query is
// to be dropped or cannot be parsed.
func (s *Server) answer(query []byte) (resp []byte, ok bool) {
	var p dnsmessage.Parser
	h, err := p.Start(query)
	if err != nil {
		return nil, false
	}
	q, err := p.Question()
	if err != nil {
		return nil, false
	}
	name := canonical(q.Name.String())
	s.mu.Lock()
	s.queries = append(s.queries, q.Type.String()+" "+name)
	s.mu.Unlock()
	if s.drop[name] {
		return nil, false
	}
	rh := dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RecursionDesired: h.RecursionDesired}
	b := dnsmessage.NewBuilder(nil, rh)
	b.EnableCompression()
	_, knownPTR := s.names[name]
	_, knownHost := s.addrs[name]
	if !knownPTR && !knownHost {
		rh.RCode = dnsmessage.RCodeNameError
		b = dnsmessage.NewBuilder(nil, rh)
	}
	if err := b.StartQuestions(); err != nil {
		return nil, false
	}
	if err := b.Question(q); err != nil {
		return nil, false
	}
	if err := b.StartAnswers(); err != nil {
		return nil, false
	}
	rr := dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 300}
	switch q.Type {
	case dnsmessage.TypePTR:
		for _, target := range s.names[name] {
			t, err := dnsmessage.NewName(canonical(target))
			if err != nil {
				return nil, false
			}
			if err := b.PTRResource(rr, dnsmessage.PTRResource{PTR: t}); err != nil {
				return nil, false
			}
		}
	case dnsmessage.TypeA:
		for _, a := range s.addrs[name] {
			if a.Is4() {
				if err := b.AResource(rr, dnsmessage.AResource{A: a.As4()}); err != nil {
					return nil, false
				}
			}
		}
	case dnsmessage.TypeAAAA:
		for _, a := range s.addrs[name] {
			if a.Is6() && !a.Is4In6() {
				if err := b.AAAAResource(rr, dnsmessage.AAAAResource{AAAA: a.As16()}); err != nil {
					return nil, false
				}
			}
		}
	}
	resp, err = b.Finish()
	return resp, err == nil
}

// ReverseName returns the PTR owner name of ip: "1.66.249.66.in-addr.arpa."
// or the nibble form under ip6.arpa.
func ReverseName(ip netip.Addr) string {
	ip = ip.Unmap()
	if ip.Is4() {
		b := ip.As4()
		return fmt.Sprintf("%d.%d.%d.%d.in-addr.arpa.", b[3], b[2], b[1], b[0])
	}
	b := ip.As16()
	var sb strings.Builder
	const hex = "0123456789abcdef"
	for i := len(b) - 1; i >= 0; i-- {
		sb.WriteByte(hex[b[i]&0xf])
		sb.WriteByte('.')
		sb.WriteByte(hex[b[i]>>4])
		sb.WriteByte('.')
	}
	sb.WriteString("ip6.arpa.")
	return sb.String()
}

func canonical(name string) string {
	name = strings.ToLower(name)
	if !strings.HasSuffix(name, ".") {
		name += "."
	}
	return name
}

// Resolver returns a resolver that sends every query to s.
func Resolver(s *Server) *net.Resolver {
	return &net.Resolver{
		PreferGo: true,
		Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "udp", s.Addr)
		},
	}
}
