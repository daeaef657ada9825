package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestServeHidesStorePassword: no output of rep serve carries the password
// of a -store URL, whether the URL is refused, unreachable or unparsable.
func TestServeHidesStorePassword(t *testing.T) {
	for _, spec := range []string{
		"redis://:hunter2secret@127.0.0.1:1/0",         // nothing listens there
		"redis://user:hunter2secret@127.0.0.1:1/99999", // a database number Redis refuses
		"redis://:hunter2secret@[::1/0",                // does not parse
		"rediss://u:hunter2secret@127.0.0.1:1/0",
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"serve", "-addr", "127.0.0.1:0", "-store", spec}, nil, &out, &errb)
		if code != exitUsage {
			t.Errorf("%s: exit %d, want %d", spec, code, exitUsage)
		}
		if all := out.String() + errb.String(); strings.Contains(all, "hunter2secret") || !strings.Contains(all, "-store") {
			t.Errorf("%s: output shows the password or not the flag:\n%s", spec, all)
		}
	}
	for spec, want := range map[string]string{
		"redis://:pw@h:6379/0":  "redis://:xxxxx@h:6379/0",
		"redis://u:pw@h:6379/0": "redis://u:xxxxx@h:6379/0",
		"redis://h:6379/0":      "redis://h:6379/0",
		"bolt:robots.db":        "bolt:robots.db",
		"redis://:pw@[::1/0":    "redis://xxxxx@[::1/0",
	} {
		if got := redactStore(spec); got != want {
			t.Errorf("redactStore(%q) = %q, want %q", spec, got, want)
		}
	}
}

// TestParseSize: -cache-size's sizes, and what is refused.
func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"64MiB": 64 << 20, "512KiB": 512 << 10, "1GiB": 1 << 30, "32M": 32 << 20, "4096": 4096, "10B": 10, " 2 MiB ": 2 << 20} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "-5MiB", "lots", "1.5MiB", "9999999GiB"} {
		if _, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) accepted", in)
		}
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"serve", "-cache-size", "lots"}, nil, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "-cache-size") {
		t.Errorf("-cache-size lots: exit %d, %q", code, errb.String())
	}
}
