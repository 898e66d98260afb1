package shell

import (
	"context"
	"errors"
	"fmt"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spillway-dev/spillway/internal/proc"
	"github.com/spillway-dev/spillway/internal/secret"
	"github.com/spillway-dev/spillway/internal/visible"
	"github.com/spillway-dev/spillway/output"
	"github.com/spillway-dev/spillway/tool"
)

// A job on a terminal that waits for input while the terminal reads a
// secret (proc.SecretMode: echo off, the line edited by the kernel) waits for
// a secret: a password, a passphrase, a PIN. Its answer must come from
// the person, never through the model: the job's results give the
// address of a one-time page (internal/secret) where the person types
// it, and, when the call's tool.CallInfo has a URLAsker (an MCP client that
// takes URL-mode elicitation), the person is shown that page at once and
// the call waits for the answer. docs/interactive.md shows a session.

// The notes a result leads with, once the person did something (or,
// once a page was shown, did nothing yet).
const (
	answeredNote  = "[the password prompt was answered on the page]"
	cancelledNote = "[cancelled on the page]"
	noAnswerNote  = "[no answer yet]"
)

// secretState is a job's secret prompt and its page.
type secretState struct {
	pages *secret.Pages // nil: no page can be served
	cwd   string
	trust SecretTrust

	mu    sync.Mutex
	page  *secret.Page // the page of the prompt, nil before one
	err   error        // why no page could be opened
	asker asker        // who reads the terminal, as the page says
	asked *secret.Page // the page last offered through a URLAsker
	shown bool         // a result showed the page: a later look says noAnswerNote
	news  secret.Outcome
}

// readsSecret reports whether the job's terminal is set to read a
// secret.
func (j *job) readsSecret() bool {
	return j.input != nil && j.input.tty && !j.input.closed.Load() && proc.SecretMode(j.input.f)
}

// secretPage returns the open page of the prompt the job waits at,
// opening one when there is none (the last one was answered, cancelled,
// or expired): nil, with the reason, when none can be.
func (j *job) secretPage() (*secret.Page, error) {
	s := &j.secret
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.page != nil && s.page.Outcome() == secret.Pending {
		return s.page, nil
	}
	if s.pages == nil {
		return nil, fmt.Errorf("this toolset serves no page for it")
	}
	s.asker = j.verifyAsker(s.trust, s.cwd)
	if !s.asker.Verified && s.trust.Refuse {
		s.page, s.err = nil, errRefused
		return nil, errRefused
	}
	pg, err := s.pages.Open(secret.Request{
		SecretPrompt: tool.SecretPrompt{
			Command: fullCommand(j.command, j.args),
			Cwd:     s.cwd,
			SecretDetails: tool.SecretDetails{
				Prompt:   j.prompt(),
				Program:  s.asker.Program,
				Verified: s.asker.Verified,
			},
			Says: s.asker.says(),
			Why:  s.asker.Why,
		},
		Answer: j.answerSecret,
		Cancel: j.cancelSecret,
	})
	s.page, s.err = pg, err
	if err == nil {
		want := s.asker
		goGuarded("the watch of the secret prompt's reader", func() { j.watchReader(pg, want) }, func(err error) {
			pg.CloseBecause(fmt.Sprintf("%v: nothing was sent", err))
		})
	}
	return pg, err
}

// errRefused is why no page is opened for a prompt that is not verified
// when secrets.unverified is "refuse".
var errRefused = errors.New(`the program that reads the terminal is not verified, and secrets.unverified is "refuse"`)

// askerNow is who reads the terminal, as the last page opened (or
// refused) said.
func (j *job) askerNow() asker {
	j.secret.mu.Lock()
	defer j.secret.mu.Unlock()
	return j.secret.asker
}

// who says in words who asks: the program, and whether it is the
// system's.
func (a asker) who() string {
	program := a.Program
	if program == "" {
		program = "an unknown program"
	}
	if a.Verified {
		return program + " (verified: the system's own, which the session cannot have changed)"
	}
	return program + ", which is NOT verified (" + a.Why + "): " + secret.UnverifiedWarning
}

// prompt is the last line the job wrote.
func (j *job) prompt() string {
	j.stdout.mu.Lock()
	defer j.stdout.mu.Unlock()
	return j.stdout.pipe.LastLine()
}

// answerSecret writes the person's answer to the terminal, then Enter,
// if the program the page named still reads it: immediately before the
// write, the terminal must still read a secret (echo off), be read by
// the processes that read it when the page was opened, and no other
// (same pid, start time and executable), and hold no input they have not
// read yet (the answer would come after it, and whoever took that input
// would take the answer next); otherwise nothing is written
// (secret.NotSentError). Immediately after, they must still run and no
// other process read the terminal; otherwise the answer may have
// reached another program (secret.MaybeSentError). The copy is cleared;
// the terminal does not echo it, so no output and no spill file
// carries it.
func (j *job) answerSecret(b []byte) error {
	want := j.askerNow()
	if why := j.readerChanged(want); why != "" {
		return &secret.NotSentError{Why: why}
	}
	if why := j.inputQueued(); why != "" {
		return &secret.NotSentError{Why: why}
	}
	buf := make([]byte, len(b)+1)
	defer clear(buf)
	copy(buf, b)
	buf[len(b)] = '\r'
	j.lastInput.Store(time.Now().UnixNano())
	_, err := j.input.write(buf, time.Now().Add(5*time.Second))
	j.lastInput.Store(time.Now().UnixNano())
	if err != nil {
		return err
	}
	j.secretNews(secret.Answered)
	if why := j.readerGoneAfter(want); why != "" {
		return &secret.MaybeSentError{Why: why}
	}
	return nil
}

// readerChanged says why the terminal is no longer read, with echo off,
// by the processes want names, and by them alone; "" when it still is,
// or when its readers cannot be learnt here (not Linux).
func (j *job) readerChanged(want asker) string {
	if j.input == nil || j.input.closed.Load() {
		return "the command's terminal is closed"
	}
	if !proc.SecretMode(j.input.f) {
		return "the terminal no longer reads a secret (its echo is on)"
	}
	if !want.known {
		return ""
	}
	readers, ok := proc.TerminalReaders(j.input.f, j.input.link)
	if !ok || len(readers) == 0 {
		return want.name() + " no longer reads the terminal"
	}
	for _, r := range readers {
		if !slices.ContainsFunc(want.readers, r.Same) {
			return fmt.Sprintf("another program (%s, pid %d) now reads the terminal, not %s", readerName(r), r.PID, want.name())
		}
	}
	return ""
}

// inputQueued says why the terminal's input queue is not known to be
// empty: input written before the answer and not read yet; "" when it
// is empty. It is checked only before a write, not by the page's
// watch: a line on its way to a reader is there for a moment.
func (j *job) inputQueued() string {
	n, ok := proc.PendingInput(j.input.f, j.input.link)
	switch {
	case !ok:
		return "the terminal's input queue cannot be read, so it is not known that the answer would be read first"
	case n > 0:
		return fmt.Sprintf("the terminal holds %d bytes of input that no program has read yet: the answer would come after them, and could reach whichever program reads them", n)
	}
	return ""
}

// readerGoneAfter says why an answer just written may have reached
// another program than want: a process of want ended, or another
// process reads the terminal. "" when neither.
func (j *job) readerGoneAfter(want asker) string {
	if !want.known {
		return ""
	}
	for _, r := range want.readers {
		if !proc.Alive(r.PID, r.Start) {
			return fmt.Sprintf("%s (pid %d) ended as the answer was written", readerName(r), r.PID)
		}
	}
	readers, _ := proc.TerminalReaders(j.input.f, j.input.link)
	for _, r := range readers {
		if !slices.ContainsFunc(want.readers, r.Same) {
			return fmt.Sprintf("another program (%s, pid %d) reads the terminal", readerName(r), r.PID)
		}
	}
	return ""
}

// watchReader closes pg as soon as the program it names stops reading
// the terminal, or another does: an answer would go elsewhere, and the
// next look opens a page that names the new reader.
func (j *job) watchReader(pg *secret.Page, want asker) {
	hookAt("the watch of the secret prompt's reader")
	t := time.NewTicker(readerPollEvery)
	defer t.Stop()
	for {
		select {
		case <-pg.Done():
			return
		case <-t.C:
			if why := j.readerChanged(want); why != "" {
				pg.CloseBecause(why)
				return
			}
		}
	}
}

// readerPollEvery is how often an open page checks who reads the
// terminal.
const readerPollEvery = 100 * time.Millisecond

// name is how the person knows the reader: its program.
func (a asker) name() string {
	if a.Program == "" {
		return "the program that asked"
	}
	return a.Program
}

// readerName names a process that reads a terminal.
func readerName(r proc.Reader) string {
	if r.Exe != "" {
		return r.Exe
	}
	return r.Name
}

// cancelSecret interrupts the job, as Ctrl-C at the prompt would.
func (j *job) cancelSecret() {
	j.lastInput.Store(time.Now().UnixNano())
	j.input.write([]byte{0x03}, time.Now().Add(time.Second))
	j.secretNews(secret.Cancelled)
}

func (j *job) secretNews(o secret.Outcome) {
	j.secret.mu.Lock()
	j.secret.news = o
	j.secret.mu.Unlock()
	j.news.signal()
}

// secretLead is the note a result leads with: what the person did since
// the last result, or that they did nothing yet. It is said once.
func (j *job) secretLead(l look) string {
	if j.console.typed.Swap(false) {
		return personNote
	}
	s := &j.secret
	s.mu.Lock()
	defer s.mu.Unlock()
	news := s.news
	s.news = secret.Pending
	switch {
	case news == secret.Answered:
		return answeredNote
	case news == secret.Cancelled:
		return cancelledNote
	case l.secret && s.shown:
		return noAnswerNote
	}
	return ""
}

// closeSecret closes the job's open page: it has ended.
func (j *job) closeSecret() {
	j.secret.mu.Lock()
	pg := j.secret.page
	j.secret.mu.Unlock()
	if pg != nil {
		pg.Close()
	}
}

// secretInfo opens (or finds) the page of a job that waits for a secret
// and says, for the model, what to do: the note, the prompt and the
// next calls.
func (j *job) secretInfo() (note string, p *tool.SecretDetails, next []output.Call) {
	pid := j.pid
	prompt := j.prompt()
	pg, err := j.secretPage()
	a := j.askerNow()
	if err != nil {
		return fmt.Sprintf("[pid %[1]d waits for a secret at the prompt %[2]q (its terminal does not echo), asked by %[4]s. No page was opened for the user to answer it: %[3]v. "+
				"Do not ask the user for it. Use kill_pid=%[1]d to stop it; write_stdin sends it text only with allow_model_secret=true, for a test secret you were given.]", pid, prompt, err, a.who()),
			&tool.SecretDetails{Prompt: prompt, Program: a.Program, Verified: a.Verified}, nil
	}
	j.secret.mu.Lock()
	j.secret.shown = true
	j.secret.mu.Unlock()
	// The page's address goes to the person only (the client's URL
	// elicitation, spillway console), never to the model: with it, a
	// command could answer the page itself.
	note = waitingNote + "\n" + fmt.Sprintf("[pid %[1]d waits for a secret at the prompt %[2]q (its terminal does not echo), asked by %[3]s. "+
		"The person answers it on spillway's page, not you; never ask them for the secret itself. "+
		"Then use check_pid=%[1]d timeout=30000 for what follows, kill_pid=%[1]d to stop it.]",
		pid, prompt, a.who())
	p = &tool.SecretDetails{Prompt: prompt, Expires: pg.Expires().UTC().Format(time.RFC3339), Program: a.Program, Verified: a.Verified}
	next = []output.Call{
		{"tool": "bash", "check_pid": pid, "timeout": 30000},
	}
	return note, p, next
}

// waitingNote is what the model is told of a secret prompt that no
// client elicitation showed the person.
const waitingNote = "[waiting for a secret: ask the person to run spillway console]"

// secretMessage is what a URLAsker shows the person.
func (j *job) secretMessage(pg *secret.Page) string {
	return fmt.Sprintf("The command %s waits for a secret at the prompt %q, asked by %s. Open the page to answer it; your answer goes to its terminal, never to the agent.",
		visible.String(QuoteCommand(j.command, j.args)), pg.Prompt(), visible.String(j.askerNow().who()))
}

// relaySecret, for a job that waits for a secret, shows the person its
// page through the call's URLAsker, once per page, and waits until they
// answer or cancel, ctx ends or deadline passes. It reports whether they
// answered or cancelled: the job then goes on.
func (j *job) relaySecret(ctx context.Context, deadline time.Time) bool {
	a := tool.CallInfoFrom(ctx).URLAsker
	if a == nil || time.Until(deadline) <= 0 || !j.readsSecret() {
		return false
	}
	pg, err := j.secretPage()
	if err != nil {
		return false
	}
	j.secret.mu.Lock()
	asked := j.secret.asked == pg
	j.secret.asked = pg
	j.secret.mu.Unlock()
	if asked {
		return false
	}
	actx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	ok, err := a.AskURL(actx, pg.URL(), j.secretMessage(pg), pg.ID())
	if err != nil || !ok {
		return false
	}
	select {
	case <-pg.Done():
		a.URLDone(pg.ID())
	case <-actx.Done():
		return false
	}
	o := pg.Outcome()
	return o == secret.Answered || o == secret.Cancelled
}

// secretRefusal is the error of write_stdin text to a job that waits
// for a secret.
func (j *job) secretRefusal() error {
	where := "no page could be opened for the person"
	if _, err := j.secretPage(); err == nil {
		where = "the person answers it on spillway's page (ask them to run spillway console)"
		j.secret.mu.Lock()
		j.secret.shown = true
		j.secret.mu.Unlock()
	}
	return fmt.Errorf("pid %d waits for a secret at the prompt %q (its terminal does not echo), and a secret must not pass through you: %s, and never ask for the secret itself. "+
		"Keys (Ctrl-C) still go through; write_stdin sends it text only with allow_model_secret: true, for a test secret you were given", j.pid, j.prompt(), where)
}

// fullCommand is the whole command line, as the page shows it: the
// person answers for all of it, not its first 80 characters.
func fullCommand(command string, args []string) string {
	if len(args) == 0 {
		return command
	}
	return command + " " + strings.Join(args, " ")
}

// says is what a verified page says, in spillway's own words, of who
// asks and for what; the prompt the command printed is shown apart, as
// the command's. "" when not verified.
func (a asker) says() string {
	if !a.Verified {
		return ""
	}
	name := filepath.Base(a.Program)
	who := "your user's"
	if u, err := user.Current(); err == nil {
		who = u.Username + "'s"
	}
	switch name {
	case "sudo", "doas":
		return "the system's " + name + " asks for " + who + " password"
	case "su":
		return "the system's su asks for the password of the user it switches to (root's, unless the command names another)"
	case "passwd":
		return "the system's passwd asks for " + who + " password, or a new one"
	}
	return "the system's " + name + " asks for a secret (a passphrase, a password or a PIN)"
}
