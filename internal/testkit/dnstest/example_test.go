package dnstest_test

import (
	"context"
	"fmt"
	"net/netip"

	"github.com/rep-toolkit/rep/internal/testkit/dnstest"
)

func ExampleStart() {
	ip := netip.MustParseAddr("66.249.66.1")
	srv, err := dnstest.Start(dnstest.Zone{
		PTR:   map[netip.Addr][]string{ip: {"crawl-66-249-66-1.googlebot.com."}},
		Addrs: map[string][]netip.Addr{"crawl-66-249-66-1.googlebot.com": {ip}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	r := dnstest.Resolver(srv)
	names, _ := r.LookupAddr(context.Background(), "66.249.66.1")
	addrs, _ := r.LookupNetIP(context.Background(), "ip4", names[0])
	fmt.Println(names, addrs)
	_, err = r.LookupAddr(context.Background(), "192.0.2.1")
	fmt.Println(err != nil)
	// Output:
	// [crawl-66-249-66-1.googlebot.com.] [66.249.66.1]
	// true
}
