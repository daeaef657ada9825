// Package webserver runs real web servers (nginx, apache2, caddy, haproxy)
// for tests: each on a free loopback port with its files in a temporary
// directory, stopped by its PID (and its process group's) when the test
// ends. A missing server fails the test, it never skips: make deps
// installs them.
package webserver

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/internal/testkit"
)

// Need returns the path of the server's program, or fails the test when
// it is missing.
func Need(t testing.TB, prog string) string {
	t.Helper()
	path, err := exec.LookPath(prog)
	if err != nil {
		for _, dir := range []string{"/usr/sbin", "/usr/bin"} {
			if _, err := os.Stat(filepath.Join(dir, prog)); err == nil {
				return filepath.Join(dir, prog)
			}
		}
		t.Fatalf("%s is not installed: run make deps (apt-get install nginx apache2 caddy haproxy)", prog)
	}
	return path
}

// FreePort returns a loopback TCP port free at the time of the call.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Validate runs a server's configuration check and fails the test when it
// does not pass.
func Validate(t testing.TB, name string, env []string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// Start runs a server in the foreground until the test ends, and waits
// for it to listen on port.
func Start(t testing.TB, port int, name string, env []string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		// SIGTERM lets a server stop its own children (Apache's run as
		// another user and hold the output pipe); kill what is left of the
		// process group after a while.
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	})
	var exited error
	listening := false
	if !testkit.Until(time.Minute, func() bool {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
		if err == nil {
			c.Close()
			listening = true
			return true
		}
		select {
		case exited = <-done:
			done <- exited
			return true
		default:
			return false
		}
	}) {
		t.Fatalf("%s did not listen on %d in a minute:\n%s", name, port, out.String())
	}
	if !listening {
		t.Fatalf("%s exited: %v\n%s", name, exited, out.String())
	}
}
