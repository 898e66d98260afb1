package spillway

import (
	"github.com/spillway-dev/spillway/internal/secret"
	"github.com/spillway-dev/spillway/tool"
)

// What the person's console (spillway console) shows of a toolset: its
// jobs as they run, and its open secret prompts, answered there as on
// their own pages. None of it changes what the model's next look shows.

// A JobWatch is a background job as the console shows it.
type JobWatch = tool.JobWatch

// WatchJobs describes the session's jobs, oldest first, each with up to
// tail bytes of the end of its output and, on a terminal, its screen.
func (t *Toolset) WatchJobs(tail int) []JobWatch {
	if t.open() != nil {
		return nil
	}
	return t.shell.Watch(tail)
}

// A SecretPrompt is an open secret page as the console shows it.
type SecretPrompt = tool.SecretPrompt

// Prompts lists the open pages, oldest first.
func (s *SecretPages) Prompts() []SecretPrompt {
	var out []SecretPrompt
	for _, pg := range s.p.List() {
		r := pg.Shown()
		d := r.SecretDetails
		d.Expires = "" // the page's time is Expires
		out = append(out, SecretPrompt{ID: pg.ID(), Title: pg.Title(), Command: r.Command, Cwd: r.Cwd,
			SecretDetails: d, Says: r.Says, Why: r.Why, Expires: pg.Expires()})
		if !r.Verified {
			out[len(out)-1].Warning = secret.UnverifiedWarning
		}
	}
	return out
}

// Respond answers the open page id with secret (action "answer") or
// cancels it ("cancel"), as the page's own form does. The caller clears
// secret.
func (s *SecretPages) Respond(id, action string, secret []byte) error {
	for _, pg := range s.p.List() {
		if pg.ID() == id {
			return pg.Respond(action, secret)
		}
	}
	return secretGone
}

var secretGone = secret.ErrGone

// HoldJob gives the terminal of job pid to the person: tap gets its raw
// output from now on (it must not block), and the screen it shows now is
// returned. While held, WriteStdin is refused; the model's next look
// after the person typed says so. ReleaseJob hands it back.
func (t *Toolset) HoldJob(pid int, tap func([]byte)) ([]string, error) {
	if err := t.open(); err != nil {
		return nil, err
	}
	return t.shell.Hold(pid, tap)
}

// ReleaseJob hands job pid back to the model.
func (t *Toolset) ReleaseJob(pid int) { t.shell.Release(pid) }

// PersonInput writes what the person typed to the terminal of a held
// job. It is recorded nowhere.
func (t *Toolset) PersonInput(pid int, b []byte) error {
	if err := t.open(); err != nil {
		return err
	}
	return t.shell.PersonWrite(pid, b)
}
