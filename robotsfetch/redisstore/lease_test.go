package redisstore

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/rep-toolkit/rep/internal/testkit"
	"github.com/rep-toolkit/rep/internal/testkit/storetest"
	"github.com/rep-toolkit/rep/robotsfetch"
)

func TestLease(t *testing.T) {
	r := startRedis(t)
	ctx := context.Background()
	st := New(r.client).WithPrefix("test:")
	tok, ok, err := st.AcquireLease(ctx, "k", time.Minute)
	if err != nil || !ok || tok == "" {
		t.Fatalf("first lease: %q %v %v", tok, ok, err)
	}
	if ttl := r.client.PTTL(ctx, "test:lease:k").Val(); ttl <= 0 || ttl > time.Minute {
		t.Errorf("lease TTL %v", ttl)
	}
	if _, ok, err := st.AcquireLease(ctx, "k", time.Minute); ok || err != nil {
		t.Fatalf("second lease granted: %v %v", ok, err)
	}
	if err := st.ReleaseLease(ctx, "k", "not-the-token"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := st.AcquireLease(ctx, "k", time.Minute); ok {
		t.Fatal("a release with another token ended the lease")
	}
	if err := st.ReleaseLease(ctx, "k", tok); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := st.AcquireLease(ctx, "k", 50*time.Millisecond); !ok {
		t.Fatal("released lease not granted")
	}
	// Redis holds the lease for its 50 ms, then lets it go.
	if ttl := r.client.PTTL(ctx, "test:lease:k").Val(); ttl <= 0 || ttl > 50*time.Millisecond {
		t.Errorf("lease TTL %v, want 50ms", ttl)
	}
	testkit.Eventually(t, time.Minute, func() bool {
		_, ok, _ := st.AcquireLease(ctx, "k", time.Minute)
		return ok
	}, "expired lease granted")
	r.stop()
	if _, ok, err := st.AcquireLease(ctx, "other", time.Minute); ok || err == nil {
		t.Errorf("lease with Redis stopped: %v %v", ok, err)
	}
}

// TestCloaking: crawlers with different User-Agents sharing Redis each
// get the file the server sends them.
func TestCloaking(t *testing.T) {
	storetest.Cloaking(t, New(startRedis(t).client))
}

// TestColdFleetOneProcess: two cold Fetchers on one Redis, 20 origins,
// 20 requests.
func TestColdFleetOneProcess(t *testing.T) {
	if n := storetest.ColdFleet(t, New(startRedis(t).client), 2, 20, 0); n != 20 {
		t.Errorf("2 Fetchers × 20 origins: %d requests, want 20", n)
	}
}

// The environment of a child process of TestColdFleetProcesses.
const (
	envRedis   = "REDISSTORE_FLEET_REDIS"
	envPrefix  = "REDISSTORE_FLEET_PREFIX"
	envOrigins = "REDISSTORE_FLEET_ORIGINS"
	envNoLease = "REDISSTORE_FLEET_NO_LEASE"
)

// TestColdFleetProcesses runs 8 crawler processes (this test binary,
// started again as a child) against one Redis; each asks for the same 20
// cold origins at once. The children connect, say "ready" and wait for a
// line on standard input, so that all start together. Each origin must be
// fetched once, whether it answers at once or after 50 ms. The same run
// without leases (LeaseTTL -1) is measured and logged beside it.
func TestColdFleetProcesses(t *testing.T) {
	if os.Getenv(envRedis) != "" {
		fleetChild(t)
		return
	}
	const procs, hosts = 8, 20
	r := startRedis(t)
	round := func(name string, delay time.Duration, noLease bool) int {
		t.Helper()
		sites := make([]*storetest.Origin, hosts)
		urls := make([]string, hosts)
		for i := range sites {
			sites[i] = storetest.NewOrigin(t, delay, func(string) string { return "User-agent: *\nDisallow: /private\n" })
			urls[i] = sites[i].URL
		}
		env := append(os.Environ(), envRedis+"="+r.addr, envPrefix+"="+name+":", envOrigins+"="+strings.Join(urls, ","))
		if noLease {
			env = append(env, envNoLease+"=1")
		}
		children := make([]*fleetProc, procs)
		for i := range children {
			children[i] = startChild(t, env)
		}
		for _, c := range children {
			c.expect(t, "ready")
		}
		for _, c := range children {
			io.WriteString(c.stdin, "go\n")
		}
		var results []string
		for _, c := range children {
			results = append(results, c.expect(t, "result"))
			c.stdin.Close()
			if err := c.cmd.Wait(); err != nil {
				t.Fatalf("child: %v\n%s", err, c.rest())
			}
		}
		n := 0
		for _, s := range sites {
			n += s.Hits()
		}
		t.Logf("%s: %d processes × %d origins answering in %v: %d robots.txt requests; per process: %s",
			name, procs, hosts, delay, n, strings.Join(results, "; "))
		if !noLease {
			for i, s := range sites {
				if s.Hits() != 1 {
					t.Errorf("%s: origin %d fetched %d times, want once", name, i, s.Hits())
				}
			}
		}
		return n
	}
	round("leases-0ms", 0, false)
	round("leases-50ms", 50*time.Millisecond, false)
	round("no-leases-0ms", 0, true)
	round("no-leases-50ms", 50*time.Millisecond, true)
}

type fleetProc struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Scanner
	lines []string
}

func startChild(t *testing.T, env []string) *fleetProc {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestColdFleetProcesses$", "-test.v")
	cmd.Env = env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return &fleetProc{cmd: cmd, stdin: stdin, out: bufio.NewScanner(stdout)}
}

// expect reads the child's output up to a line starting with word and
// returns the rest of that line.
func (p *fleetProc) expect(t *testing.T, word string) string {
	t.Helper()
	for p.out.Scan() {
		line := p.out.Text()
		p.lines = append(p.lines, line)
		if rest, ok := strings.CutPrefix(line, word); ok {
			return strings.TrimSpace(rest)
		}
	}
	t.Fatalf("child ended before %q:\n%s", word, strings.Join(p.lines, "\n"))
	return ""
}

func (p *fleetProc) rest() string {
	for p.out.Scan() {
		p.lines = append(p.lines, p.out.Text())
	}
	return strings.Join(p.lines, "\n")
}

// fleetChild is one crawler process of TestColdFleetProcesses.
func fleetChild(t *testing.T) {
	c := redis.NewClient(&redis.Options{Addr: os.Getenv(envRedis)})
	defer c.Close()
	o := robotsfetch.Options{UserAgent: "ExampleBot/1.0", Store: New(c).WithPrefix(os.Getenv(envPrefix))}
	if os.Getenv(envNoLease) != "" {
		o.LeaseTTL = -1
	}
	f, err := robotsfetch.New(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Ping(context.Background()).Err(); err != nil {
		t.Fatal(err)
	}
	fmt.Println("ready")
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for _, u := range strings.Split(os.Getenv(envOrigins), ",") {
		wg.Go(func() {
			r, err := f.Get(context.Background(), u)
			if err != nil || r.Check(u+"/private/x", "ExampleBot").Allowed {
				t.Errorf("%s: %v %v", u, r, err)
			}
		})
	}
	wg.Wait()
	s := f.Stats()
	fmt.Printf("result requests=%d store-hits=%d lease-waits=%d\n", s.Requests, s.StoreHits, s.LeaseWaits)
}
