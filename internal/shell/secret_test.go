//go:build linux || darwin

package shell

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/proc"
	"github.com/spillway-dev/spillway/internal/secret"
	"github.com/spillway-dev/spillway/tool"
)

// answerPage answers a secret page as its browser tab would.
func answerPage(t *testing.T, page, action, answer string) {
	t.Helper()
	res, err := http.Get(page)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	m := regexp.MustCompile(`name="form" value="([^"]+)"`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("GET %s: %d %s", page, res.StatusCode, b)
	}
	u, _ := url.Parse(page)
	req, _ := http.NewRequest("POST", page, strings.NewReader(url.Values{"form": {string(m[1])}, "action": {action}, "secret": {answer}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", u.Scheme+"://"+u.Host)
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("POST %s: %d", page, res.StatusCode)
	}
}

// personAsker is the person's side of URL-mode elicitation: it keeps
// the pages it is shown and declines to open them there, so that the
// page stays open for the test to answer.
type personAsker struct{ urls chan string }

func (p personAsker) AskURL(_ context.Context, url, _, _ string) (bool, error) {
	p.urls <- url
	return false, nil
}

func (personAsker) URLDone(string) {}

func secretRunner(t *testing.T) *Runner {
	t.Helper()
	pages := secret.New(0, nil)
	t.Cleanup(func() { pages.Close() })
	cfg := defaultConfig(t)
	cfg.Secrets = pages
	r := NewRunner(cfg)
	t.Cleanup(func() { r.Close() })
	return r
}

// A read -s prompt is a secret prompt; a read -p prompt is not; the
// page's answer reaches the command; the next look leads with the news.
func TestSecretPromptThroughThePage(t *testing.T) {
	r := secretRunner(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	person := personAsker{urls: make(chan string, 4)}
	ctx = tool.WithCallInfo(ctx, tool.CallInfo{URLAsker: person})
	res, err := r.Run(ctx, tool.BashInput{Command: `read -p 'name? ' n; read -s -p 'Secret: ' s; echo; echo "$n ${#s} $s"`, TTY: true, Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Details.Waiting || res.Details.WaitsSecret {
		t.Fatalf("read -p: %+v\n%s", res.Details, res.Text)
	}
	res, err = r.Write(ctx, tool.WriteStdinInput{PID: res.Details.PID, Input: "ann\n"})
	if err != nil {
		t.Fatal(err)
	}
	d, secret := res.Details, res.Details.Secret
	if !d.WaitsSecret || d.Waiting || secret == nil || secret.Prompt != "Secret:" {
		t.Fatalf("read -s: %+v %+v\n%s", d, secret, res.Text)
	}
	page := <-person.urls
	if !strings.HasPrefix(page, "http://127.0.0.1:") {
		t.Fatalf("the person was shown %q", page)
	}
	if !strings.Contains(res.Text, waitingNote+"\n") || strings.Contains(res.Text, page) || len(res.Details.Next) != 1 {
		t.Errorf("the result: %s %v", res.Text, res.Details.Next)
	}
	if _, err := r.Write(ctx, tool.WriteStdinInput{PID: d.PID, Input: "typed by the model\n"}); err == nil || !strings.Contains(err.Error(), "spillway console") || strings.Contains(err.Error(), page) {
		t.Errorf("write_stdin to a secret prompt: %v", err)
	}
	jobs := r.Jobs()
	if len(jobs) != 1 || jobs[0].State != "waiting for secret" {
		t.Errorf("jobs: %+v", jobs)
	}
	res, _ = r.Check(ctx, d.PID, 0, "")
	if !strings.HasPrefix(res.Text, noAnswerNote) {
		t.Errorf("a look before the answer: %q", res.Text)
	}
	answerPage(t, page, "answer", "hunter2 & more")
	// The first look says the user answered; the command's reply may come
	// in that look or in a later one (a look returns at new output, and
	// the terminal's newline after the answer can come first).
	res, _ = r.Check(ctx, d.PID, 10*time.Second, "")
	if !strings.HasPrefix(res.Text, answeredNote+"\n") {
		t.Errorf("after the answer: %q", res.Text)
	}
	seen := res.Text
	for i := 0; i < 10 && !strings.Contains(seen, "ann 14 hunter2 & more") && res.Details.ExitCode == nil; i++ {
		res, _ = r.Check(ctx, d.PID, 10*time.Second, "")
		seen += res.Text
	}
	if !strings.Contains(seen, "ann 14 hunter2 & more") {
		t.Errorf("the command's reply to the answer never came: %q", seen)
	}
}

// With allow_model_secret the model's text goes through.
func TestAllowModelSecret(t *testing.T) {
	r := secretRunner(t)
	ctx := context.Background()
	res, err := r.Run(ctx, tool.BashInput{Command: `read -s -p 'PIN: ' s; echo; echo "got ${#s}"`, TTY: true, Timeout: 30 * time.Second})
	if err != nil || !res.Details.WaitsSecret {
		t.Fatalf("%v %+v", err, res.Details)
	}
	res, err = r.Write(ctx, tool.WriteStdinInput{PID: res.Details.PID, Input: "1234\n", AllowModelSecret: true, Timeout: 5 * time.Second})
	if err != nil || !strings.Contains(res.Text, "got 4") {
		t.Errorf("%v %q", err, res.Text)
	}
}

// Input written to the terminal before the answer and not read yet
// (typed ahead, or pushed by another process) would be read first, and
// the answer by whichever program reads next: nothing is written, and
// the reason says so.
func TestSecretNotSentOverQueuedInput(t *testing.T) {
	r := secretRunner(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// Echo off in canonical mode, as a password prompt sets it, but
	// nothing reads: what is written stays in the input queue.
	res, err := r.Run(ctx, tool.BashInput{Command: `stty -echo; echo ready; exec sleep 30`, TTY: true, RunInBackground: true})
	if err != nil {
		t.Fatal(err)
	}
	j, err := r.job(res.Details.PID)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Kill(ctx, j.pid)
	waitUntil(t, "echo off", func() bool { return j.readsSecret() })
	if why := j.inputQueued(); why != "" {
		t.Fatalf("an empty queue: %s", why)
	}
	if _, err := j.input.write([]byte("queued\r"), time.Now().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the queued line", func() bool { n, _ := proc.PendingInput(j.input.f, j.input.link); return n == 7 })
	err = j.answerSecret([]byte("hunter2"))
	var notSent *secret.NotSentError
	if !errors.As(err, &notSent) || !strings.Contains(notSent.Why, "holds 7 bytes of input that no program has read yet") {
		t.Fatalf("the answer over queued input: %v", err)
	}
	if n, ok := proc.PendingInput(j.input.f, j.input.link); !ok || n != 7 {
		t.Errorf("the queue after the refused answer: %d bytes (%v), want the 7 queued", n, ok)
	}
}

// waitUntil waits for cond, polling.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s in 20 s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
