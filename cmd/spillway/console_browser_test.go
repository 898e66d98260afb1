package main

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/console"
)

// The console says it opened the link only when a browser took it: an
// opener that fails (xdg-open with no browser exits 3) is named, with
// what to do instead.
func TestConsoleSaysWhetherTheBrowserOpened(t *testing.T) {
	t.Setenv("BROWSER", "false")
	got := browserSays(openBrowser("http://127.0.0.1:1/#x"))
	if !strings.Contains(got, "no browser opened it") || !strings.Contains(got, "open the link in yours") {
		t.Errorf("BROWSER=false: %q", got)
	}
	t.Setenv("BROWSER", "true")
	if got := browserSays(openBrowser("http://127.0.0.1:1/#x")); got != "(opened in your browser)" {
		t.Errorf("BROWSER=true: %q", got)
	}
}

// The one-time link never shows on a command line or in an environment,
// where any process of the host reads it (/proc/PID/cmdline): a
// sandboxed command without namespaces sees every process, and once
// traded the code approves its own question. The browser is given a
// file:// page, readable by this user only in the console's directory
// (hidden from sandboxed commands), that forwards to the link; the file
// is gone once the link is used.
func TestConsoleLinkIsOnNoCommandLine(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a shell script as the browser")
	}
	dir := t.TempDir()
	rec := t.TempDir()
	browser := filepath.Join(rec, "browser")
	script := "#!/bin/sh\nprintf '%s\\n' \"$0\" \"$@\" > " + filepath.Join(rec, "argv") + ".part && env > " + filepath.Join(rec, "env") +
		" && mv " + filepath.Join(rec, "argv") + ".part " + filepath.Join(rec, "argv") + "\n"
	if err := os.WriteFile(browser, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BROWSER", browser)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := console.NewConsole(dir, "", nil)
	link, err := c.Listen(ctx)
	if err != nil {
		t.Fatal(err)
	}
	code := link[strings.Index(link, "#")+1:]
	if len(code) < 16 {
		t.Fatalf("no code in %q", link)
	}
	if err := openLink(ctx, dir, link, c.Used()); err != nil {
		t.Fatal(err)
	}
	argv := waitFile(t, filepath.Join(rec, "argv"))
	env := waitFile(t, filepath.Join(rec, "env"))
	if strings.Contains(argv, code) || strings.Contains(env, code) {
		t.Fatalf("the one-time code is on the browser's command line or in its environment:\n%s", argv)
	}
	args := strings.Split(strings.TrimSpace(argv), "\n")
	page := strings.TrimPrefix(args[len(args)-1], "file://")
	if !strings.HasPrefix(args[len(args)-1], "file://") || filepath.Dir(page) != dir {
		t.Fatalf("the browser was given %q, not a file:// page in %s", args[len(args)-1], dir)
	}
	fi, err := os.Stat(page)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("the forwarding page is %v, want 0600", fi.Mode().Perm())
	}
	if b, _ := os.ReadFile(page); !strings.Contains(string(b), link) {
		t.Errorf("the forwarding page does not lead to the link:\n%s", b)
	}
	// The browser trades the code: the page is removed.
	req, _ := http.NewRequest(http.MethodPost, c.Origin()+"/api/login", nil)
	req.Header.Set("X-Spillway-Link", code)
	req.Header.Set("Origin", c.Origin())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("login: %s", resp.Status)
	}
	for i := 0; exists(page); i++ {
		if i > 500 {
			t.Fatal("the forwarding page outlived the link's use")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func waitFile(t *testing.T, path string) string {
	t.Helper()
	for i := 0; i < 1000; i++ {
		if b, err := os.ReadFile(path); err == nil {
			return string(b)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s never came", path)
	return ""
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// The browser reaches the page from the file:// page that forwards to
// the link, a navigation it calls cross-site: the shell is served to it,
// and nothing else is.
func TestConsoleShellOpensFromAFilePage(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := console.NewConsole(t.TempDir(), "", nil)
	if _, err := c.Listen(ctx); err != nil {
		t.Fatal(err)
	}
	get := func(path, mode string) int {
		req, _ := http.NewRequest(http.MethodGet, c.Origin()+path, nil)
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		req.Header.Set("Sec-Fetch-Mode", mode)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := get("/", "navigate"); code != http.StatusOK {
		t.Errorf("the shell, navigated to from a file:// page: %d", code)
	}
	if code := get("/", "cors"); code != http.StatusForbidden {
		t.Errorf("the shell, fetched by another site: %d", code)
	}
	if code := get("/api/view", "navigate"); code != http.StatusForbidden {
		t.Errorf("the API, navigated to from another site: %d", code)
	}
}
