// Command rep is the command-line face of the rep toolkit: it tests URLs
// against robots.txt, lints robots.txt files, reads page-level robots
// directives, fetches robots.txt as a crawler would, verifies crawler
// identities, audits access logs and serves the web tester.
//
// Usage:
//
//	rep <command> [flags] [args]
//
// Every command takes -h. Exit status: 0 ok, 1 a finding (a disallowed URL,
// lint findings, a spoofed crawler), 2 a usage or input error, including a
// failed write of the output. Text output escapes control characters from
// the input (internal/termsafe); bad lines and bad URLs are counted and
// shown, never dropped silently.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// Exit statuses shared by every command.
const (
	exitOK      = 0
	exitFinding = 1
	exitUsage   = 2
)

// env is what a command sees of the process: its arguments (without the
// command name), its standard streams and a context cancelled on SIGINT or
// SIGTERM. Commands never touch os.Std* or os.Exit, so tests run them
// in-process.
type env struct {
	ctx    context.Context
	args   []string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer

	fetchers fetcherCache // the run's robots.txt fetchers (see env.fetcher)
}

// command is one subcommand. Each lives in its own file and adds itself to
// commands from an init function, so adding a command touches no shared file.
type command struct {
	name    string
	summary string
	run     func(e *env) int
}

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("rep: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

func main() {
	// A reader that goes away (rep check … | head) must not kill rep with
	// SIGPIPE (exit 141): with the signal caught, the write returns EPIPE,
	// which writeErr reads as a clean end (exit 0). Caught rather than
	// ignored, so that programs rep starts do not inherit SIG_IGN.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run dispatches args[0] to its command and returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		usage(stdout)
		return exitOK
	case "-version", "--version":
		args = append([]string{"version"}, args[1:]...)
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "rep: unknown command %q\n", args[0])
		usage(stderr)
		return exitUsage
	}
	return c.run(&env{ctx: ctx, args: args[1:], stdin: stdin, stdout: stdout, stderr: stderr})
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: rep <command> [flags] [args]")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'rep <command> -h' for a command's flags.")
}
