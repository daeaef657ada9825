package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/server"
)

// TestServeDamagedBolt: a damaged -store bolt: file is an input error that
// names the file and what to do (exit 2, no panic, no signal); with
// -store-reset it is moved aside and the server starts on a new file.
func TestServeDamagedBolt(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "robots.db")
	if err := os.WriteFile(path, bytes.Repeat([]byte{0xde, 0xad}, 8<<10), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"serve", "-addr", "127.0.0.1:0", "-store", "bolt:" + path}, nil, &out, &errb)
	if code != exitUsage || !strings.Contains(errb.String(), path+" is damaged") || !strings.Contains(errb.String(), "-store-reset") {
		t.Fatalf("exit %d, stderr %q: want 2 naming the file and -store-reset", code, errb.String())
	}
	var cfg server.Config
	errb.Reset()
	closeStore, err := serveStore(&cfg, "bolt:"+path, true, &errb)
	if err != nil {
		t.Fatalf("-store-reset: %v", err)
	}
	defer closeStore()
	if cfg.Store == nil || !strings.Contains(errb.String(), "moved it to "+path+".damaged-") {
		t.Errorf("store %v, stderr %q", cfg.Store, errb.String())
	}
	aside, _ := filepath.Glob(path + ".damaged-*")
	if len(aside) != 1 {
		t.Errorf("files set aside: %v", aside)
	}
}
