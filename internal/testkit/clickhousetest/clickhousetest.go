// Package clickhousetest starts real clickhouse-server processes on free
// loopback ports for the tests of the audit's and the survey's ClickHouse
// paths, each in its own directory, stopped when the test ends. A missing
// clickhouse-server or clickhouse-client fails the test: make test
// installs them.
package clickhousetest

import (
	"bytes"
	_ "embed"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/internal/testkit"
)

// Command starts one server; $DIR is its directory, which holds the
// config.xml written for it (the command docs/scale-out.md shows).
const Command = `clickhouse-server --config-file=$DIR/config.xml`

// Config and Users are the servers' config.xml (with $DIR, $TCP_PORT,
// $HTTP_PORT, $SHARD_1 and $SHARD_2 to fill in) and users.xml, as
// docs/scale-out.md shows them.
var (
	//go:embed config.xml
	Config string
	//go:embed users.xml
	Users string
)

// Server is one running clickhouse-server.
type Server struct {
	Dir       string // its directory: config.xml, data, error.log
	TCP, HTTP int    // its native and HTTP ports on 127.0.0.1
	cmd       *exec.Cmd
	out       bytes.Buffer
}

// Start starts n servers (1 or 2) that form the cluster "rep" of two
// shards (one server is both shards when n is 1), waits until each
// answers, and returns them.
func Start(t testing.TB, n int) []*Server {
	t.Helper()
	for _, p := range []string{"clickhouse-server", "clickhouse-client"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Fatalf("%s is needed by the ClickHouse tests and was not found (apt-get install clickhouse-server clickhouse-client; make test installs them): %v", p, err)
		}
	}
	ports := freePorts(t, 2*n)
	servers := make([]*Server, n)
	for i := range servers {
		servers[i] = &Server{Dir: t.TempDir(), TCP: ports[2*i], HTTP: ports[2*i+1]}
	}
	shard2 := servers[n-1].TCP
	for _, s := range servers {
		vars := map[string]string{"DIR": s.Dir, "TCP_PORT": strconv.Itoa(s.TCP), "HTTP_PORT": strconv.Itoa(s.HTTP),
			"SHARD_1": strconv.Itoa(servers[0].TCP), "SHARD_2": strconv.Itoa(shard2)}
		conf := os.Expand(Config, func(k string) string { return vars[k] })
		if err := os.WriteFile(filepath.Join(s.Dir, "config.xml"), []byte(conf), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(s.Dir, "users.xml"), []byte(Users), 0o644); err != nil {
			t.Fatal(err)
		}
		s.cmd = exec.Command("sh", "-c", "exec "+Command)
		s.cmd.Env = append(os.Environ(), "DIR="+s.Dir)
		s.cmd.Dir = s.Dir
		s.cmd.Stdout, s.cmd.Stderr = &s.out, &s.out
		if err := s.cmd.Start(); err != nil {
			t.Fatalf("starting clickhouse-server: %v", err)
		}
		t.Cleanup(func() { s.cmd.Process.Kill(); s.cmd.Wait() })
	}
	for _, s := range servers {
		s.waitReady(t)
	}
	return servers
}

func (s *Server) waitReady(t testing.TB) {
	t.Helper()
	c := &http.Client{Timeout: time.Second}
	var err error
	if !testkit.Until(2*time.Minute, func() bool {
		var resp *http.Response
		if resp, err = c.Get("http://127.0.0.1:" + strconv.Itoa(s.HTTP) + "/ping"); err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	}) {
		log, _ := os.ReadFile(filepath.Join(s.Dir, "error.log"))
		t.Fatalf("clickhouse-server on %d did not answer: %v\n%s\n%s", s.TCP, err, s.out.String(), log)
	}
}

// freePorts returns n distinct free loopback ports.
func freePorts(t testing.TB, n int) []int {
	t.Helper()
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close() // held until all are chosen, so that they differ
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports
}
