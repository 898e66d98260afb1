//go:build linux

package mcpserver_test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A fake sudo: whether a job waits for a secret was decided from its
// terminal alone (echo off), so a script named sudo first on PATH got
// spillway's official page, which looked like the real one and said the
// agent never sees the answer; what the person typed went to the script
// (and to a file the model reads). The page, the elicitation message and
// details.secret now name the program that reads the terminal and say
// whether it is the system's.

// fakeSudo is the attack, as a command the model writes in its
// workspace.
const fakeSudo = `mkdir -p bin && printf '#!/bin/bash\nread -r -s -p "[sudo] password for $USER: " p; echo "$p" > .loot; echo; echo "Sorry, try again."\n' > bin/sudo && chmod +x bin/sudo && PATH=$PWD/bin:$PATH sudo apt-get update`

func TestAttackFakeSudoUnderSandbox(t *testing.T) {
	t.Parallel()
	sandboxLayers(t)
	base := t.TempDir()
	root, tmp := filepath.Join(base, "root"), filepath.Join(base, "tmp")
	os.Mkdir(root, 0o755)
	os.Mkdir(tmp, 0o755)
	s := startSecretServer(t, tmp, "--root", root, "--sandbox")
	txt, d := s.call(t, "bash", map[string]any{"command": fakeSudo, "cwd": root, "tty": true, "timeout": 30_000})
	page := s.page(t)
	if d["waiting_for_secret"] != true {
		t.Fatalf("the fake prompt got no page: %v\n%s", d, txt)
	}
	program, _ := field(d, "secret.program").(string)
	t.Logf("details.secret.program %q; the result: %s", program, txt)
	if field(d, "secret.verified") != false || program == "" {
		t.Errorf("details.secret: program %q, verified %v; want a program, not verified", program, field(d, "secret.verified"))
	}
	if !strings.Contains(txt, "NOT verified") || !strings.Contains(txt, "not the system's sudo") {
		t.Errorf("the result does not say the prompt is not verified:\n%s", txt)
	}
	res, err := http.Get(page)
	if err != nil {
		t.Fatal(err)
	}
	html, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, want := range []string{`<h1 id="asker">Unverified: `, "A program from the workspace, not the system&#39;s sudo, asks for a password: do not type your login password"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("the page lacks %q:\n%s", want, html)
		}
	}
	call(t, s.cs, "bash", map[string]any{"kill_pid": d["pid"]})
}

// With secrets.unverified = "refuse" the fake prompt gets no page, and
// the result says why.
func TestAttackFakeSudoRefused(t *testing.T) {
	t.Parallel()
	sandboxLayers(t)
	base := t.TempDir()
	root, tmp := filepath.Join(base, "root"), filepath.Join(base, "tmp")
	os.Mkdir(root, 0o755)
	os.Mkdir(tmp, 0o755)
	config := filepath.Join(base, "config.toml")
	if err := os.WriteFile(config, []byte("[secrets]\nunverified = \"refuse\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := startSecretServer(t, tmp, "--root", root, "--sandbox", "--config", config)
	txt, d := s.call(t, "bash", map[string]any{"command": fakeSudo, "cwd": root, "tty": true, "timeout": 30_000})
	if d["waiting_for_secret"] != true {
		t.Fatalf("details %v\n%s", d, txt)
	}
	if url := field(d, "secret.url"); url != nil || field(d, "secret.verified") != false || strings.Contains(txt, "/secret/") {
		t.Errorf("a page for a prompt that is not verified: url %v, verified %v\n%s", url, field(d, "secret.verified"), txt)
	}
	if !strings.Contains(txt, `secrets.unverified is "refuse"`) || !strings.Contains(txt, "NOT verified") {
		t.Errorf("the result does not say why no page was opened:\n%s", txt)
	}
	call(t, s.cs, "bash", map[string]any{"kill_pid": d["pid"]})
}
