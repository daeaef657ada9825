// Command stress runs rep's unit tests again and again on a loaded machine,
// to find the tests that fail by chance: make stress runs it.
//
//	go run ./internal/stress [-rounds 5] [-busy 2] [-gomaxprocs 2×cores] [-log dir] [packages]
//
// Each round is one `go test -json -race -count=1` of the packages (./...
// by default) while -busy processes spin on the CPU and the tests run with
// GOMAXPROCS above the core count, so that goroutines are preempted and
// interleaved as they are on a busy CI machine. The busy processes are
// killed at the end (and die with this one). It prints, for every test that
// failed at least once, how many rounds it failed in and its output each
// time, and exits 1 when any test or package failed, 2 on a usage error.
// Interrupted, it prints the same for the rounds done.
// The rounds' go test -json streams are kept in the -log directory.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "-burn" {
		burn()
	}
	rounds := flag.Int("rounds", 5, "how many times to run the tests")
	busy := flag.Int("busy", 2, "CPU-bound processes to run beside the tests")
	procs := flag.Int("gomaxprocs", 2*runtime.NumCPU(), "GOMAXPROCS of the test processes (0: leave it)")
	timeout := flag.Duration("timeout", 20*time.Minute, "go test -timeout of each round")
	logDir := flag.String("log", "", "directory for each round's go test -json output (default: a new temporary one)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: go run ./internal/stress [flags] [packages]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *rounds < 1 || *busy < 0 || *procs < 0 {
		flag.Usage()
		os.Exit(2)
	}
	pkgs := flag.Args()
	if len(pkgs) == 0 {
		pkgs = []string{"./..."}
	}
	if *logDir == "" {
		d, err := os.MkdirTemp("", "rep-stress-")
		if err != nil {
			fatal(err)
		}
		*logDir = d
	} else if err := os.MkdirAll(*logDir, 0o755); err != nil {
		fatal(err)
	}

	stop := startBusy(*busy)
	defer stop()
	var mu sync.Mutex
	var all []*run
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	var interrupted atomic.Bool
	go func() {
		<-sig // the report of the rounds done, then out
		interrupted.Store(true)
		stop()
		mu.Lock()
		fmt.Println("stress: interrupted")
		report(os.Stdout, all)
		os.Exit(1)
	}()

	fmt.Printf("stress: %d rounds of go test -race -count=1 %s; %d busy processes on %d cores; GOMAXPROCS=%s; logs in %s\n",
		*rounds, strings.Join(pkgs, " "), *busy, runtime.NumCPU(), procsText(*procs), *logDir)
	for i := 1; i <= *rounds; i++ {
		start := time.Now()
		r, err := round(i, pkgs, *procs, *timeout, *logDir)
		if err != nil {
			// go test may have died of the same interrupt (Ctrl-C reaches
			// the process group): give the handler a second to report.
			for j := 0; j < 100 && !interrupted.Load(); j++ {
				time.Sleep(10 * time.Millisecond)
			}
			if interrupted.Load() {
				select {} // the interrupt reports and exits
			}
		}
		if err != nil {
			stop()
			fatal(err)
		}
		mu.Lock()
		all = append(all, r)
		mu.Unlock()
		fmt.Printf("stress: round %d/%d in %v: %d tests passed, %d failed, %d packages failed\n",
			i, *rounds, time.Since(start).Round(time.Second), r.passed, len(r.failedTests()), len(r.failedPackages()))
		for _, k := range append(r.failedTests(), r.failedPackages()...) {
			fmt.Printf("stress:   failed: %s\n", name(k))
		}
	}
	stop()
	mu.Lock() // an interrupt from here on does not report twice
	if report(os.Stdout, all) {
		os.Exit(1)
	}
}

func procsText(n int) string {
	if n == 0 {
		return "unchanged"
	}
	return strconv.Itoa(n)
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "stress:", err)
	os.Exit(2)
}

// burn spins until it is killed: the load of one busy process.
func burn() {
	for n := uint64(0); ; n++ {
		n ^= n << 13
	}
}

// startBusy starts n busy processes (this program with -burn), each
// killed when stop is called or when this process dies.
func startBusy(n int) (stop func()) {
	self, err := os.Executable()
	if err != nil {
		fatal(err)
	}
	var cmds []*exec.Cmd
	for range n {
		c := exec.Command(self, "-burn")
		c.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		if err := c.Start(); err != nil {
			fatal(err)
		}
		cmds = append(cmds, c)
	}
	done := false
	return func() {
		if done {
			return
		}
		done = true
		for _, c := range cmds {
			c.Process.Kill()
			c.Wait()
		}
	}
}

// round runs the tests once and reads their go test -json stream.
func round(i int, pkgs []string, procs int, timeout time.Duration, logDir string) (*run, error) {
	args := append([]string{"test", "-json", "-race", "-count=1", "-timeout", timeout.String()}, pkgs...)
	cmd := exec.Command("go", args...)
	cmd.Env = os.Environ()
	if procs > 0 {
		cmd.Env = append(cmd.Env, "GOMAXPROCS="+strconv.Itoa(procs))
	}
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	f, err := os.Create(filepath.Join(logDir, fmt.Sprintf("round-%d.json", i)))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	r, err := read(io.TeeReader(out, f))
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, err
	}
	r.round = i
	// go test exits 1 when a test failed: the stream says which.
	if err := cmd.Wait(); err != nil && len(r.failedTests())+len(r.failedPackages()) == 0 {
		return nil, fmt.Errorf("round %d: go test: %v (no failure in its output)", i, err)
	}
	return r, nil
}

// event is one line of go test -json (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// key names a test (Test "" for the package itself).
type key struct{ Package, Test string }

// run is what one round saw.
type run struct {
	round  int
	passed int
	failed map[key]bool
	output map[key]*strings.Builder
}

// read reads a go test -json stream.
func read(r io.Reader) (*run, error) {
	res := &run{failed: map[key]bool{}, output: map[key]*strings.Builder{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] != '{' {
			continue // go test's own lines (a build error) reach stderr
		}
		var e event
		if err := json.Unmarshal(line, &e); err != nil {
			return nil, fmt.Errorf("go test -json: %v: %s", err, line)
		}
		k := key{e.Package, e.Test}
		switch e.Action {
		case "output":
			b := res.output[k]
			if b == nil {
				b = &strings.Builder{}
				res.output[k] = b
			}
			if b.Len() < 64<<10 {
				b.WriteString(e.Output)
			}
		case "pass":
			if e.Test != "" {
				res.passed++
			}
		case "fail":
			res.failed[k] = true
		}
	}
	return res, sc.Err()
}

// failedTests returns the tests that failed, leaves only: a test whose
// subtest failed is left out, its subtest speaks for it.
func (r *run) failedTests() []key {
	var out []key
	for k := range r.failed {
		if k.Test == "" {
			continue
		}
		parent := false
		for o := range r.failed {
			if o.Package == k.Package && strings.HasPrefix(o.Test, k.Test+"/") {
				parent = true
				break
			}
		}
		if !parent {
			out = append(out, k)
		}
	}
	return out
}

// failedPackages returns the packages that failed with no test failing in
// them: a build error, a panic outside a test, a timeout.
func (r *run) failedPackages() []key {
	var out []key
	for k := range r.failed {
		if k.Test != "" {
			continue
		}
		tests := false
		for o := range r.failed {
			if o.Package == k.Package && o.Test != "" {
				tests = true
				break
			}
		}
		if !tests {
			out = append(out, k)
		}
	}
	return out
}

// report prints every test and package that failed in any round, with
// its output each time, and says whether there was any.
func report(w io.Writer, runs []*run) bool {
	rounds := map[key][]*run{}
	for _, r := range runs {
		for _, k := range append(r.failedTests(), r.failedPackages()...) {
			rounds[k] = append(rounds[k], r)
		}
	}
	if len(rounds) == 0 {
		fmt.Fprintf(w, "stress: no test failed in %d rounds\n", len(runs))
		return false
	}
	keys := make([]key, 0, len(rounds))
	for k := range rounds {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int {
		if c := strings.Compare(a.Package, b.Package); c != 0 {
			return c
		}
		return strings.Compare(a.Test, b.Test)
	})
	fmt.Fprintf(w, "stress: %d tests or packages failed at least once in %d rounds:\n", len(keys), len(runs))
	for _, k := range keys {
		fmt.Fprintf(w, "  %s in %d of %d rounds\n", name(k), len(rounds[k]), len(runs))
	}
	for _, k := range keys {
		for _, r := range rounds[k] {
			fmt.Fprintf(w, "\n=== %s, round %d\n", name(k), r.round)
			if b := r.output[k]; b != nil {
				fmt.Fprint(w, b.String())
			}
		}
	}
	return true
}

func name(k key) string {
	if k.Test == "" {
		return k.Package + " (the package)"
	}
	return k.Package + " " + k.Test
}
