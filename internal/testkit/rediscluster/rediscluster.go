// Package rediscluster starts a Redis Cluster of real redis-servers on
// free loopback ports for tests, each node in its own temporary
// directory, and stops it (by PID) when the test ends. A missing
// redis-server or redis-cli fails the test: make test installs them.
package rediscluster

import (
	"bytes"
	"context"
	"net"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rep-toolkit/rep/internal/testkit"
)

// Node is one redis-server in cluster mode, in its own directory
// (its nodes.conf survives a restart there).
type Node struct {
	port, bus int
	dir       string
	cmd       *exec.Cmd
	out       bytes.Buffer
}

// Addr is the node's HOST:PORT.
func (n *Node) Addr() string { return "127.0.0.1:" + strconv.Itoa(n.port) }

// Cluster is a Redis Cluster on loopback owned by one test: masters
// and replicas, created with redis-cli --cluster create.
type Cluster struct {
	Nodes []*Node
	mu    sync.Mutex
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
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports
}

// Start starts masters+masters*replicas redis-servers in cluster
// mode and joins them into one cluster: the first masters addresses become
// the masters. A missing redis-server or redis-cli fails the test.
func Start(t testing.TB, masters, replicas int) *Cluster {
	t.Helper()
	cli, err := exec.LookPath("redis-cli")
	if err != nil {
		t.Fatalf("redis-cli is needed by the Redis Cluster tests and was not found (apt-get install redis-server; make test installs it): %v", err)
	}
	n := masters * (1 + replicas)
	ports := freePorts(t, 2*n)
	c := &Cluster{}
	args := []string{"--cluster", "create"}
	for i := range n {
		node := &Node{port: ports[2*i], bus: ports[2*i+1], dir: t.TempDir()}
		c.Nodes = append(c.Nodes, node)
		c.Restart(t, node)
		args = append(args, node.Addr())
	}
	t.Cleanup(c.stop)
	for _, node := range c.Nodes {
		c.WaitPing(t, node)
	}
	args = append(args, "--cluster-replicas", strconv.Itoa(replicas), "--cluster-yes")
	if out, err := exec.Command(cli, args...).CombinedOutput(); err != nil {
		t.Fatalf("redis-cli %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	c.WaitOK(t, c.Nodes...)
	return c
}

// Restart starts n (again, after Kill) in its directory, where its
// nodes.conf makes it rejoin the cluster.
func (c *Cluster) Restart(t testing.TB, n *Node) {
	t.Helper()
	path, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatalf("redis-server is needed by the Redis store tests and was not found (apt-get install redis-server; make test installs it): %v", err)
	}
	n.out.Reset()
	n.cmd = exec.Command(path, "--port", strconv.Itoa(n.port), "--bind", "127.0.0.1",
		"--cluster-enabled", "yes", "--cluster-config-file", filepath.Join(n.dir, "nodes.conf"),
		"--cluster-port", strconv.Itoa(n.bus), "--cluster-node-timeout", "1000",
		"--cluster-replica-validity-factor", "0",
		"--save", "", "--appendonly", "no", "--dir", n.dir, "--loglevel", "warning")
	n.cmd.Stdout, n.cmd.Stderr = &n.out, &n.out
	if err := n.cmd.Start(); err != nil {
		t.Fatalf("starting redis-server: %v", err)
	}
}

// Kill stops one node by its PID, at once (SIGKILL: a crash, no goodbye).
func (c *Cluster) Kill(n *Node) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n.cmd != nil && n.cmd.Process != nil {
		n.cmd.Process.Kill()
		n.cmd.Wait()
		n.cmd = nil
	}
}

func (c *Cluster) stop() {
	for _, n := range c.Nodes {
		c.Kill(n)
	}
}

func nodeClient(n *Node) *redis.Client {
	return redis.NewClient(&redis.Options{Addr: n.Addr(), MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
}

// WaitPing waits until n answers PING.
func (c *Cluster) WaitPing(t testing.TB, n *Node) {
	t.Helper()
	rc := nodeClient(n)
	defer rc.Close()
	var err error
	if !testkit.Until(time.Minute, func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		err = rc.Ping(ctx).Err()
		return err == nil
	}) {
		t.Fatalf("redis-server on %s did not answer: %v\n%s", n.Addr(), err, n.out.String())
	}
}

// WaitOK waits until every given node says cluster_state:ok.
func (c *Cluster) WaitOK(t testing.TB, nodes ...*Node) {
	t.Helper()
	for _, n := range nodes {
		rc := nodeClient(n)
		var info string
		var err error
		ok := testkit.Until(time.Minute, func() bool {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			info, err = rc.ClusterInfo(ctx).Result()
			return err == nil && strings.Contains(info, "cluster_state:ok")
		})
		rc.Close()
		if !ok {
			t.Fatalf("cluster node %s not ok: %v\n%s", n.Addr(), err, info)
		}
	}
}

// WaitFailover waits until the given nodes count masters masters (a
// replica took over from a killed master) and every one of them says
// cluster_state:ok.
func (c *Cluster) WaitFailover(t testing.TB, nodes []*Node, masters int) {
	t.Helper()
	n := 0
	if !testkit.Until(time.Minute, func() bool {
		n = 0
		for _, node := range nodes {
			if Role(node) == "master" {
				n++
			}
		}
		return n == masters
	}) {
		t.Fatalf("no failover: %d masters, want %d", n, masters)
	}
	c.WaitOK(t, nodes...)
}

// Role is a node's ROLE: "master" or "slave".
func Role(n *Node) string {
	rc := nodeClient(n)
	defer rc.Close()
	v, err := rc.Do(context.Background(), "ROLE").Slice()
	if err != nil || len(v) == 0 {
		return ""
	}
	s, _ := v[0].(string)
	return s
}

// URL is the cluster's redis-cluster:// URL, every node a seed.
func (c *Cluster) URL() string {
	var a []string
	for _, n := range c.Nodes {
		a = append(a, n.Addr())
	}
	return "redis-cluster://" + strings.Join(a, ",")
}
