package main

import (
	"strings"
	"testing"
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
