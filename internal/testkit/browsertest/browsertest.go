// Package browsertest starts headless Chromium for end-to-end tests of the
// pages rep serves and writes (the web tester, the audit report), through
// the Chrome DevTools Protocol (github.com/chromedp/chromedp).
//
// It is imported only by tests. A missing browser is a test failure, never a
// skip: make test installs Debian's chromium package.
package browsertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Start launches one headless Chromium with a fresh profile and the flags a
// closed, shared CI machine needs (no background networking, no component
// updates, no sync; no sandbox when running as root), and returns a
// browser context that the test's cleanup closes. width and height set the
// window size.
func Start(t testing.TB, width, height int) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("chromium not found on PATH (%v): install it with apt-get install chromium, as make test does", err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
	)
	if os.Geteuid() == 0 {
		// Chromium refuses to run as root with its sandbox.
		opts = append(opts, chromedp.NoSandbox)
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelB := chromedp.NewContext(actx)
	if err := chromedp.Do(bctx); err != nil {
		cancelB()
		cancelA()
		t.Fatalf("starting chromium: %v", err)
	}
	t.Cleanup(func() { cancelB(); cancelA() })
	return bctx
}

// Wait is the one way a browser test waits: it polls a JavaScript
// condition (an element present, a text shown, an attribute set) until it
// is true, and fails with the condition when it has not become true in
// 2 minutes (the Site tab's crawl reads a 50 MB sitemap): a guard against
// a hang, not a claim about speed. A test never sleeps: it names the
// state of the page it needs.
func Wait(cond string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Poll[bool](cond, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(2*time.Minute))(ctx, t)
		if err != nil {
			return chromedp.Void{}, fmt.Errorf("waiting for %s: %w", cond, err)
		}
		return chromedp.Void{}, nil
	}
}
