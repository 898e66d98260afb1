package console

import (
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/secret"
	"github.com/spillway-dev/spillway/tool"
)

// A secret prompt on the console says who asks in the secret page's
// words: for a verified one, what spillway says of it; for another, the
// warning and why.
func TestViewSaysWhoAsksAsThePageDoes(t *testing.T) {
	prompts := []Secret{
		{ID: "v", Title: "/usr/bin/sudo (verified) asks for a secret", Command: "sudo true", Cwd: "/w",
			SecretDetails: tool.SecretDetails{Prompt: "[sudo] password for alice:", Program: "/usr/bin/sudo", Verified: true},
			Says:          "the system's sudo asks for alice's password", Expires: time.Now().Add(time.Minute)},
		{ID: "u", Title: "Unverified: ./deploy asks for a secret", Command: "./deploy", Cwd: "/w",
			SecretDetails: tool.SecretDetails{Prompt: "Password:", Program: "./deploy"},
			Warning:       secret.UnverifiedWarning, Why: "the program is the workspace's", Expires: time.Now().Add(time.Minute)},
	}
	views := []serverView{{Found: Found{PID: 7}, State: State{Sessions: []SessionState{{SessionInfo: SessionInfo{ID: "s"}, Secrets: prompts}}}}}
	var b strings.Builder
	if err := viewTmpl().Execute(&b, map[string]any{"Servers": views, "Csrf": "c", "Choices": Choices, "TrustProject": TrustProject}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		"Verified: The system&#39;s sudo asks for alice&#39;s password. /usr/bin/sudo is the system's own program",
		"Not verified: A program from the workspace, not the system&#39;s sudo, asks for a password: do not type your login password. The program is the workspace&#39;s.",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the console does not say %q:\n%s", want, page)
		}
	}
}

// What the agent wrote reaches the page as it runs: a bidirectional
// override that would show `rm -rf ~` as something else, an escape, a
// zero-width space in a name, each written as its code ("Trojan Source").
func TestViewShowsHiddenCharacters(t *testing.T) {
	command := "echo done #\u202e~ fr- mr\u202c; git push ori\u200bgin\x1b[2K"
	item := Item{ID: "i", Question: Question{Command: command, Cwd: "/w\u2066", Parts: []tool.RulePart{{Command: "git push ori\u200bgin", Reason: "asked"}},
		Project: "/w", Trust: []string{".spillway.toml:1: allow = [\"rm\u202e\"]"}}, Waiting: true}
	views := []serverView{{Found: Found{PID: 7}, State: State{Sessions: []SessionState{{SessionInfo: SessionInfo{ID: "s", Label: "x\u200d"}, Items: []Item{item},
		Jobs: []Job{{PID: 9, Command: "sleep\u202e 1", Output: "out\u202e"}}}}}}}
	var b strings.Builder
	if err := viewTmpl().Execute(&b, map[string]any{"Servers": views, "Csrf": "c", "Choices": Choices, "TrustProject": TrustProject}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, r := range "\u202e\u202c\u200b\u2066\u200d\x1b" {
		if strings.ContainsRune(page, r) {
			t.Errorf("the page holds %U as it is:\n%s", r, page)
		}
	}
	for _, want := range []string{"#&lt;U&#43;202E&gt;~ fr- mr&lt;U&#43;202C&gt;", "ori&lt;U&#43;200B&gt;gin&lt;U&#43;001B&gt;[2K", "/w&lt;U&#43;2066&gt;"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not show %q:\n%s", want, page)
		}
	}
}
