package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// repBinary builds rep as a plain binary in the test's temporary directory
// (no race detector, whatever this test binary was built with) for tests
// that measure a rep process's memory: the race detector multiplies it
// several times over. The build cache makes all but the first build quick.
func repBinary(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rep")
	cmd := exec.Command("go", "build", "-o", path, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building rep: %v\n%s", err, out)
	}
	return path
}

// startServe runs rep serve (a plain build) with args as its own process
// on a free loopback port, stopped when the test ends, and returns its
// base URL and process ID.
func startServe(t *testing.T, args ...string) (base string, pid int) {
	t.Helper()
	cmd := exec.Command(repBinary(t), append([]string{"serve", "-addr", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`url=(http://127\.0\.0\.1:\d+)/`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	select {
	case base = <-addr:
	case <-time.After(time.Minute): // a hang guard, not a timing assertion
		t.Fatal("rep serve did not say where it listens in a minute")
	}
	return base, cmd.Process.Pid
}

// peakRSS returns the peak resident memory of process pid in MB (VmHWM).
func peakRSS(t *testing.T, pid int) int {
	t.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`VmHWM:\s+(\d+) kB`).FindSubmatch(status)
	if m == nil {
		t.Fatal("no VmHWM in /proc/PID/status")
	}
	kb, _ := strconv.Atoi(string(m[1]))
	return kb / 1024
}

// serialOnly skips a test that measures a rep process under load unless
// REP_SERIAL=1: make test runs such tests in a step of their own, after
// the parallel run, so that other packages' tests do not load the machine
// the measure is taken on (the Makefile's unit target).
func serialOnly(t *testing.T) {
	t.Helper()
	if os.Getenv("REP_SERIAL") != "1" {
		t.Skip("measures a process under load: run alone by make test with REP_SERIAL=1")
	}
}
