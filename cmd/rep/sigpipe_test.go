package main

import (
	"bufio"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// TestClosedPipeProcess runs rep as its own process with its standard
// output on a real pipe whose reader closes after the first line, as
// `rep check … | head -1` does: the process must end with exit status 0,
// not be killed by SIGPIPE (141 in a shell), and say nothing on stderr.
func TestClosedPipeProcess(t *testing.T) {
	bin := repBinary(t)
	var urls strings.Builder
	for i := 0; i < 200000; i++ {
		urls.WriteString("/private/page\n")
	}
	robots := writeFile(t, t.TempDir(), "robots.txt", "User-agent: *\nDisallow: /private/\n")
	cmd := exec.Command(bin, "check", "-robots", robots, "-agent", "Googlebot", "-")
	cmd.Stdin = strings.NewReader(urls.String())
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "disallowed") {
		t.Fatalf("first line %q, %v", line, err)
	}
	out.Close() // the reader goes away while rep still has 199,999 lines to write
	err = cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		t.Fatalf("rep ended with %v (a signal shows as exit -1), stderr %q; want exit 0", exit.ProcessState, stderr.String())
	}
	if err != nil {
		t.Fatal(err)
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr %q, want nothing", stderr.String())
	}
}
