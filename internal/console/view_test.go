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
